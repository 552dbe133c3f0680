/**
 * One simulation through n8n's engine: a seed's account life (plan.cts) applied to the fake API in this process on a
 * virtual clock (world.cts), the Keyword.com Trigger polled as n8n polls it in one scheduler mode (n8n-model.cts), and
 * the checker (checker.cts) looking at every poll. Nothing sleeps: the clock jumps from one event to the next; only the
 * API's latency spikes and the trigger's own retries take real time.
 *
 * A simulation = seed + days + poll interval + scheduler mode + trigger settings (+ the plan, when replaying a shrunk
 * one). The same simulation gives the same events, the same polls and the same verdict.
 */
import type { IDataObject, INodeType, IPollFunctions, INodeExecutionData } from 'n8n-workflow';

import { FakeKeywordApi, type FakeBehaviour } from '../fake-api/index.cjs';
import { Prng } from '../fake-api/prng.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { Checker, type Summary, type Violation, type ViolationKind } from './checker.cjs';
import { DEFAULT_POLL_TIMEOUT_MS, N8nModel, type PollRun } from './n8n-model.cjs';
import {
	MINUTE,
	SIM_EPOCH,
	WEATHER_KINDS,
	describeEvent,
	planAccountLife,
	type ContainerKey,
	type Plan,
	type Rates,
	type Scheduler,
	type WorldEvent,
} from './plan.cjs';
import {
	drawOptions,
	drawScope,
	triggerParameters,
	type ScopeSetting,
	type TriggerEvent,
	type TriggerOptions,
} from './settings.cjs';
import { InProcessDriver, World, projectPaths } from './world.cjs';

export type { TriggerEvent } from './settings.cjs';
export { drawScope } from './settings.cjs';

/** Changes what a poll returned before n8n sees it (for proving the checker catches a broken trigger). */
export type PollWrapper = (
	items: INodeExecutionData[][] | null,
	context: { poll: IPollFunctions; api: FakeKeywordApi; activationAt: number },
) => INodeExecutionData[][] | null;

export interface SimulationConfig {
	seed: string;
	days: number;
	/** Minutes between polls (n8n's Poll Times). Default 5. */
	intervalMinutes?: number;
	scheduler: Scheduler;
	event: TriggerEvent;
	/** Default: drawn from the seed (every project, one project with or without its groups, one group). */
	scope?: ScopeSetting;
	/** Filters and output; default drawn from the seed (drawOptions). */
	options?: TriggerOptions;
	/** A project this big at activation (plan.cts, PlanOptions.bigProject); default drawn from the seed. */
	bigProject?: number;
	/** The fake's answers where the document leaves them open; default drawn from the seed. */
	behaviour?: DrawnBehaviour;
	rates?: Partial<Rates>;
	/** Replay this plan instead of the seed's (a shrunk one). */
	plan?: Plan;
	/** Polls without events or weather at the end, so that everything due can be emitted. Default 4. */
	quietPolls?: number;
	/** Stop at the first violation (for shrinking). */
	stopAtFirstViolation?: boolean;
	/** Stop at this world time (ms): the events after it are not applied. */
	until?: number;
	wrapPoll?: PollWrapper;
	/** Progress lines. */
	log?: (line: string) => void;
	/** Polls (by index) whose every request and stored state go to `log`. */
	tracePolls?: { from: number; to: number };
}

export interface PollLogEntry {
	index: number;
	at: number;
	label: string;
	items: number;
	requests: number;
	wallMs: number;
	error?: string;
}

export interface SimulationResult {
	config: Omit<SimulationConfig, 'wrapPoll' | 'log' | 'plan'>;
	scope: ScopeSetting;
	options: TriggerOptions;
	behaviour: DrawnBehaviour;
	plan: Plan;
	summary: Summary;
	violations: Violation[];
	/** At the first violation: the world events and polls just before it. */
	context?: { violation: Violation; events: string[]; polls: PollLogEntry[] };
	eventsApplied: number;
	eventsSkipped: number;
	/** How many polls had each kind of weather. */
	pollKinds: Record<string, number>;
	wallMs: number;
}

/** The switches of the fake the simulation draws: how the API answers where its document leaves it open. */
export type DrawnBehaviour = Pick<
	FakeBehaviour,
	| 'alertOrder'
	| 'historyOrder'
	| 'keywordOrder'
	| 'alertTieOrder'
	| 'timestampOffsets'
	| 'groupsLastUpdated'
	| 'projectListIncludesGroups'
	| 'maxPerPage'
	| 'projectTimeCoversGroups'
	| 'dateSkewMs'
	| 'alertCategory'
	| 'chartEntries'
	| 'chartLimit'
>;

/** How the fake answers where the API document leaves it open, for a seed (mostly as the fake does by default). */
export function drawBehaviour(seed: string): DrawnBehaviour {
	const rng = new Prng(`api-behaviour:${seed}`);
	const often = <T,>(usual: T, others: readonly T[], p: number): T =>
		rng.chance(p) ? rng.pick(others) : usual;
	return {
		alertOrder: often('as-asked', ['newest-first', 'oldest-first'] as const, 0.4),
		historyOrder: often('newest-first', ['oldest-first'] as const, 0.3),
		keywordOrder: often('id-ascending', ['id-descending', 'keyword-text', 'rank'] as const, 0.3),
		alertTieOrder: often('by-id', ['mixed'] as const, 0.3),
		timestampOffsets: often('with-offset', ['without-offset'] as const, 0.2),
		groupsLastUpdated: often('stamped', ['null'] as const, 0.2),
		projectListIncludesGroups: often(false, [true], 0.2),
		maxPerPage: often(250, [50, 100, 200], 0.2),
		projectTimeCoversGroups: often(true, [false], 0.2),
		// The Date header a second ahead of the stamps' clock, or behind it: within what the trigger allows (README).
		dateSkewMs: often(0, [1_000, -1_000], 0.2),
		// §2.6 (an alert names its project) or §2.4 (its keyword's own project or group).
		alertCategory: often('own-name', ['project-name'] as const, 0.4),
		// The ranking history (#14): one entry a crawl, a day, or a calendar day; `limit` counted three ways.
		chartEntries: rng.pick(['per-crawl', 'per-day', 'per-day-filled'] as const),
		chartLimit: rng.pick(['days-from-today', 'days-from-last-crawl', 'entries'] as const),
	};
}

/** The fake's defaults of the drawn switches. */
export const DEFAULT_BEHAVIOUR: DrawnBehaviour = {
	alertOrder: 'as-asked',
	historyOrder: 'newest-first',
	keywordOrder: 'id-ascending',
	alertTieOrder: 'by-id',
	timestampOffsets: 'with-offset',
	groupsLastUpdated: 'stamped',
	projectListIncludesGroups: false,
	maxPerPage: 250,
	projectTimeCoversGroups: true,
	dateSkewMs: 0,
	alertCategory: 'own-name',
	chartEntries: 'per-day-filled',
	chartLimit: 'days-from-last-crawl',
};

/** The switches that differ from the fake's defaults, for reports. */
export function describeBehaviour(behaviour: DrawnBehaviour): string {
	const defaults = DEFAULT_BEHAVIOUR;
	const changed = (Object.keys(defaults) as Array<keyof DrawnBehaviour>)
		.filter((key) => behaviour[key] !== defaults[key])
		.map((key) => `${key} ${String(behaviour[key])}`);
	return changed.length > 0 ? changed.join(', ') : "the fake's defaults";
}

/**
 * A big project for a seed, or none: one seed in fifty has one of 60,000–70,000 keywords (its reads last several
 * polls: a poll reads at most 240 pages), one in ten one of 5,000–20,000.
 */
export function drawBigProject(seed: string): number | undefined {
	const rng = new Prng(`account-size:${seed}`);
	const roll = rng.next();
	if (roll < 0.02) return rng.int(60_000, 70_000);
	if (roll < 0.12) return rng.int(5_000, 20_000);
	return undefined;
}

function scopeKeys(scope: ScopeSetting, plan: Plan): ContainerKey[] {
	if (!scope.project) return [];
	const project = plan.initial.find((c) => !c.key.includes('/') && c.name === scope.project);
	if (!project) return [];
	if (!scope.group) return [project.key];
	const group = plan.initial.find(
		(c) => c.key.startsWith(`${project.key}/`) && c.name === scope.group,
	);
	return group ? [group.key] : [];
}

/** The trigger, or the trigger with its poll outcome changed by `wrap`. */
function triggerType(
	wrap: PollWrapper | undefined,
	api: FakeKeywordApi,
	activation: { at: number },
): INodeType {
	const trigger = new KeywordComTrigger();
	if (!wrap) return trigger;
	const poll = trigger.poll;
	trigger.poll = async function (this: IPollFunctions) {
		const items = await poll.call(this);
		return wrap(items, { poll: this, api, activationAt: activation.at });
	};
	return trigger;
}

interface Queued {
	at: number;
	seq: number;
	type: 'event' | 'tick' | 'start' | 'reactivate';
	event?: WorldEvent;
}

/** A small binary heap ordered by time, then by insertion. */
class Timeline {
	private heap: Queued[] = [];
	private seq = 0;

	push(item: Omit<Queued, 'seq'>): void {
		const entry = { ...item, seq: this.seq++ };
		const h = this.heap;
		h.push(entry);
		let i = h.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!Timeline.less(h[i], h[parent])) break;
			[h[i], h[parent]] = [h[parent], h[i]];
			i = parent;
		}
	}

	peek(): Queued | undefined {
		return this.heap[0];
	}

	pop(): Queued | undefined {
		const h = this.heap;
		if (h.length === 0) return undefined;
		const top = h[0];
		const last = h.pop()!;
		if (h.length > 0) {
			h[0] = last;
			let i = 0;
			for (;;) {
				const l = 2 * i + 1;
				const r = l + 1;
				let m = i;
				if (l < h.length && Timeline.less(h[l], h[m])) m = l;
				if (r < h.length && Timeline.less(h[r], h[m])) m = r;
				if (m === i) break;
				[h[i], h[m]] = [h[m], h[i]];
				i = m;
			}
		}
		return top;
	}

	private static less(a: Queued, b: Queued): boolean {
		return a.at < b.at || (a.at === b.at && a.seq < b.seq);
	}
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export async function simulate(config: SimulationConfig): Promise<SimulationResult> {
	const started = performance.now();
	const interval = (config.intervalMinutes ?? 5) * MINUTE;
	const bigProject = 'bigProject' in config ? config.bigProject : drawBigProject(config.seed);
	const plan =
		config.plan ??
		planAccountLife({
			seed: config.seed,
			days: config.days,
			scheduler: config.scheduler,
			rates: config.rates,
			renames: renamesSupported(),
			bigProject,
		});
	const scope = config.scope ?? drawScope(config.seed, plan);
	const inScopeByName = (name: string) =>
		scope.project ? name === scope.project || name.startsWith(`${scope.project}[sub]`) : true;
	const options = config.options ?? drawOptions(config.seed, config.event);
	// A behaviour saved before a switch was drawn keeps the fake's default for it.
	const behaviour = config.behaviour
		? { ...DEFAULT_BEHAVIOUR, ...config.behaviour }
		: drawBehaviour(config.seed);
	const log = config.log ?? (() => {});

	const clock = { now: SIM_EPOCH - 3 * 60 * MINUTE };
	const api = new FakeKeywordApi({
		seed: 'empty',
		now: () => clock.now,
		// The API's clock, as its Date header tells it, is the simulation's: a crawl in the second of a poll is one.
		dateFromClock: true,
		token: `sim-${config.seed}-token`,
	});
	api.setBehaviour(behaviour);
	await api.start();
	const driver = new InProcessDriver(api, clock);
	const checker = new Checker({
		event: config.event,
		scope,
		scopeKeys: scopeKeys(scope, plan),
		options,
		dateSkewMs: behaviour.dateSkewMs,
		alertCategory: behaviour.alertCategory,
		mixedAlertTies: behaviour.alertTieOrder === 'mixed',
	});
	const world = new World(driver, checker);
	const activation = { at: SIM_EPOCH };
	const model = new N8nModel(config.scheduler, {
		nodeType: triggerType(config.wrapPoll, api, activation),
		typeVersion: 1,
		parameters: triggerParameters(config.event, scope, options),
		credentials: { keywordComApi: { apiToken: api.token, baseUrl: api.baseUrl } },
	});

	const recentEvents: string[] = [];
	const recentPolls: PollLogEntry[] = [];
	let context: SimulationResult['context'];
	let stop = false;
	checker.onViolation = (violation) => {
		if (!context)
			context = { violation, events: recentEvents.slice(-10), polls: recentPolls.slice(-10) };
		if (config.stopAtFirstViolation) stop = true;
	};
	const remember = <T,>(list: T[], entry: T) => {
		list.push(entry);
		if (list.length > 10) list.shift();
	};

	// The timeline: the plan's events (some in the second of a poll, before or after it: the API's clock cannot tell
	// them apart), the polls, and n8n's starts after stops.
	const end = config.until ?? SIM_EPOCH + plan.days * 24 * 60 * MINUTE;
	const timeline = new Timeline();
	for (const event of plan.events) {
		if (event.at >= end) continue;
		timeline.push({ at: event.at, type: 'event', event });
	}
	const quiet = config.quietPolls ?? 4;
	const lastTick = Math.ceil((end - SIM_EPOCH) / interval) + quiet;
	for (let k = 1; k <= lastTick; k++) timeline.push({ at: SIM_EPOCH + k * interval, type: 'tick' });
	const quietFrom = SIM_EPOCH + (lastTick - quiet + 1) * interval;

	// Weather in force
	const latency: Array<{ at: number; until: number; ms: number }> = [];
	const budgets: Array<{ at: number; until: number; timeoutMs: number }> = [];
	const projectFaults: Array<{ at: number; until: number; key: ContainerKey; status: number }> = [];
	const churns: Array<Extract<WorldEvent, { kind: 'churn' }>> = [];
	let faults: Array<Extract<WorldEvent, { kind: 'fault' }> & { left: number }> = [];
	let killNext = false;
	let overlapNext: number | null = null;
	let down = false;
	/** The user deactivated the workflow (no polls until it is activated again). */
	let paused = false;
	let excuseNext = false;
	let pollIndex = 0;
	let eventsApplied = 0;

	const pollKinds: Record<string, number> = {};
	/** The failing projects' names when the poll being run began. */
	let namesAtPollStart: ReadonlyMap<ContainerKey, string> = new Map();
	/** The projects and groups in scope `groups/active` lists when a poll begins (archived ones and their groups not). */
	const listedNow = (): ReadonlySet<ContainerKey> =>
		new Set(
			world
				.containers()
				.filter((c) => !c.hidden && inScopeByName(c.name))
				.map((c) => c.key),
		);
	let listedAtPollStart: ReadonlySet<ContainerKey> | undefined;
	const observe = (
		run: PollRun,
		at: number,
		label: string,
		requests: number,
		excused: boolean,
		excusedProjects: Set<ContainerKey>,
		budgetMs: number | undefined,
		quiet = false,
		mayBeSilent = false,
	) => {
		const index = pollIndex++;
		// One observation per run of the model, in the order they started: a run's seq is its poll index.
		if (run.seq !== index)
			throw new Error(`simulation: poll ${index} observed for run ${run.seq} of the model`);
		for (const part of label.split(', ')) pollKinds[part] = (pollKinds[part] ?? 0) + 1;
		// Projects and groups in scope, archived ones too (the state may still read them).
		const inScope = world.containers().filter((c) => inScopeByName(c.name)).length;
		remember(recentPolls, {
			index,
			at,
			label,
			items: run.items?.length ?? 0,
			requests,
			wallMs: Math.round(run.wallMs),
			error: run.error?.message.slice(0, 160),
		});
		checker.poll({
			index,
			at,
			label,
			excused,
			excusedProjects,
			items: run.items,
			requests,
			stateBytes: run.stateBytes,
			containersInScope: inScope,
			wallMs: run.wallMs,
			slowestRequestMs: run.slowestRequestMs,
			budgetMs,
			startedFrom: run.startedFrom,
			quiet,
			lastActivityAt: lastEventAt,
			failingNames: new Map(
				[...excusedProjects].flatMap((key) => {
					const name = world.fullName(key);
					return name === undefined ? [] : [[key, name] as const];
				}),
			),
			failingNamesAtStart: namesAtPollStart,
			warnings: run.warnings,
			failed: run.error !== undefined,
			mayBeSilent: mayBeSilent || run.abandoned,
			listed: listedAtPollStart,
			life: model.processLife,
		});
	};
	/** When the world last did anything (an account event or weather), ms. */
	let lastEventAt = SIM_EPOCH;

	const applyEvent = async (event: WorldEvent) => {
		clock.now = Math.max(clock.now, event.at);
		if (event.kind === 'staticWrite') {
			// Not the account's doing nor the API's: a poll after it is still an idle one.
			model.writeGlobal(event.key, event.at);
			remember(recentEvents, describeEvent(event));
			return;
		}
		lastEventAt = Math.max(lastEventAt, event.at, 'until' in event ? event.until : 0);
		if (WEATHER_KINDS.has(event.kind)) {
			switch (event.kind) {
				case 'latency':
					latency.push(event);
					break;
				case 'budget':
					budgets.push(event);
					break;
				case 'projectFault':
					projectFaults.push(event);
					break;
				case 'churn':
					churns.push(event);
					break;
				case 'fault':
					faults.push({ ...event, left: event.polls });
					break;
				case 'kill':
					killNext = true;
					break;
				case 'overlap':
					if (config.scheduler === 'in-memory') overlapNext = event.stallMs;
					break;
				case 'pause':
					if (!paused) {
						paused = true;
						model.deactivate();
						timeline.push({ at: event.at + Math.max(MINUTE, event.offMs), type: 'reactivate' });
					}
					break;
				case 'restart':
					if (!down) {
						model.stop();
						down = true;
						timeline.push({ at: event.at + Math.max(1_000, event.downMs), type: 'start' });
					}
					break;
			}
			remember(recentEvents, describeEvent(event));
			return;
		}
		if (await world.apply(event)) {
			eventsApplied++;
			remember(recentEvents, describeEvent(event));
		}
	};

	/** Sets up the weather of a poll at `at`; returns what excuses it and the timeout in force. */
	const weatherFor = async (at: number, quietNow: boolean) => {
		const excusedProjects = new Set<ContainerKey>();
		const namesAtStart = new Map<ContainerKey, string>();
		let excused = false;
		if (quietNow) {
			await driver.setLatency(0);
			return {
				excused,
				excusedProjects,
				namesAtStart,
				timeoutMs: DEFAULT_POLL_TIMEOUT_MS,
				any: false,
			};
		}
		const spike = latency.find((w) => w.at <= at && at < w.until);
		await driver.setLatency(spike?.ms ?? 0);
		if (spike) excused = true;
		const budget = budgets.find((w) => w.at <= at && at < w.until);
		if (budget) excused = true;
		const churn = churns.find((w) => w.at <= at && at < w.until);
		let any = excused || churn !== undefined;
		if (churn && driver.setChurn) {
			// Lists move under a read: not an excuse (the trigger promises exactly once through it).
			const { everyPages, deleteKeywords, crawlKeywords, addKeywords, addAlerts } = churn;
			await driver.setChurn({ everyPages, deleteKeywords, crawlKeywords, addKeywords, addAlerts });
		}
		for (const fault of faults) {
			if (fault.left <= 0) continue;
			fault.left--;
			excused = true;
			await driver.injectFault({
				// `groups/active` alone, or every path.
				path: fault.groups ? /^\/api\/v2\/groups\/active$/ : undefined,
				times: fault.times,
				status: fault.status,
				retryAfter: fault.retryAfter,
				kind: fault.drop ? 'drop' : 'status',
				every: fault.every,
			});
		}
		faults = faults.filter((f) => f.left > 0);
		for (const window of projectFaults) {
			if (!(window.at <= at && at < window.until)) continue;
			const name = world.fullName(window.key);
			if (name === undefined) continue;
			excusedProjects.add(window.key);
			namesAtStart.set(window.key, name);
			any = true;
			// Retry-After: 0, so that an hour of failures costs no real time in back-off.
			await driver.injectFault({
				path: projectPaths(name),
				times: 100_000,
				status: window.status,
				retryAfter: '0',
			});
		}
		any ||= excused;
		return {
			excused,
			excusedProjects,
			namesAtStart,
			timeoutMs: budget?.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS,
			any,
		};
	};

	const afterPoll = async () => {
		await driver.clearFaults();
		await driver.setLatency(0);
		if (driver.setChurn) await driver.setChurn(null);
		// What churn changed during the poll is truth before the poll's items are checked, and so are the changes
		// made in the middle of it.
		await world.harvestChurn();
		// A change armed for the middle of the poll happened at the poll's time, after groups/active answered: the
		// world was not quiet since the state this poll keeps, whenever the change was planned.
		if ((await world.settleArmed()) > 0) lastEventAt = Math.max(lastEventAt, clock.now);
		const trace = config.tracePolls;
		if (trace && trace.from <= pollIndex && pollIndex <= trace.to) {
			log(`poll ${pollIndex} at ${new Date(clock.now).toISOString()}:`);
			for (const r of api.requests)
				log(`  ${r.status} ${r.method} ${r.rawPath}${r.rawQuery ? `?${r.rawQuery}` : ''}`);
			log(`  state after: ${JSON.stringify(model.state())}`);
		}
		return await driver.takeRequestCount();
	};

	/** An activation poll of n8n at `at` (n8n started, or the workflow activated again), in that moment's weather. */
	const activationPoll = async (
		at: number,
		quietNow: boolean,
		label: string,
		poll: () => Promise<PollRun>,
	) => {
		const weather = await weatherFor(at, quietNow);
		namesAtPollStart = weather.namesAtStart;
		listedAtPollStart = listedNow();
		const run = await poll();
		observe(run, at, label, await afterPoll(), true, weather.excusedProjects, run.budgetMs);
	};

	/** The user activates the workflow again: n8n's activation poll, from what its database holds. */
	const reactivate = async (at: number, quietNow: boolean) => {
		paused = false;
		lastEventAt = Math.max(lastEventAt, at);
		await activationPoll(at, quietNow, 'reactivation (activation poll)', () => model.reactivate());
	};

	try {
		// The account before activation
		while (timeline.peek() && timeline.peek()!.at < SIM_EPOCH) {
			const item = timeline.pop()!;
			if (item.event) await applyEvent(item.event);
		}
		clock.now = SIM_EPOCH;
		await driver.takeRequestCount();
		checker.activated(SIM_EPOCH);
		listedAtPollStart = listedNow();
		const first = await model.activate();
		observe(first, SIM_EPOCH, 'activation', await afterPoll(), false, new Set(), first.budgetMs);
		log(`activation: ${first.error ? `failed: ${first.error.message}` : 'ok'}`);

		let lastReport = performance.now();
		while (!stop) {
			const item = timeline.pop();
			if (!item) break;
			if (item.type === 'event') {
				await applyEvent(item.event!);
				continue;
			}
			clock.now = item.at;
			const quietNow = item.at >= quietFrom;
			if (item.type === 'reactivate') {
				// Activated again by the user; while n8n is down that waits for its start.
				if (down) timeline.push({ at: item.at + MINUTE, type: 'reactivate' });
				else if (paused) await reactivate(item.at, quietNow);
				continue;
			}
			if (item.type === 'start') {
				down = false;
				excuseNext = true;
				// The durable scheduler runs no activation poll at a start, nor does n8n for an inactive workflow.
				if (model.durable || paused) continue;
				await activationPoll(
					item.at,
					quietNow,
					'start (activation poll)',
					async () => (await model.start())!,
				);
				continue;
			}
			// A scheduled poll
			if (down) {
				if (!quietNow) continue; // missed while n8n is down
				down = false;
				const started = await model.start();
				if (started)
					observe(
						started,
						item.at,
						'start (activation poll)',
						await afterPoll(),
						true,
						new Set(),
						undefined,
					);
			}
			if (paused) {
				if (!quietNow) continue; // no polls while the workflow is inactive
				await reactivate(item.at, quietNow);
			}
			const weather = await weatherFor(item.at, quietNow);
			namesAtPollStart = weather.namesAtStart;
			listedAtPollStart = listedNow();
			let excused = weather.excused || excuseNext;
			excuseNext = false;
			const timeoutMs = weather.timeoutMs;
			if (killNext && !quietNow) {
				killNext = false;
				const run = await model.killedPoll(timeoutMs);
				observe(
					run,
					item.at,
					'killed mid-way',
					await afterPoll(),
					true,
					weather.excusedProjects,
					undefined,
					false,
					true,
				);
				model.stop();
				down = true;
				timeline.push({ at: item.at + 30_000, type: 'start' });
				continue;
			}
			if (overlapNext !== null && !quietNow && !model.durable) {
				const stallMs = overlapNext;
				overlapNext = null;
				// This poll hangs on its first request; the next one starts meanwhile, on the same workflow in memory.
				let hung = false;
				await driver.injectFault({
					path: { test: () => (hung ? false : (hung = true)) } as unknown as RegExp,
					times: 1,
					kind: 'stall',
					stallMs,
				});
				let settled = false;
				const firstPoll = model.poll(timeoutMs).finally(() => (settled = true));
				while (!hung && !settled) await sleep(1);
				let next = timeline.pop();
				while (next && next.type === 'event') {
					await applyEvent(next.event!);
					next = timeline.pop();
				}
				if (!next) {
					await firstPoll;
					break;
				}
				clock.now = next.at;
				const secondPoll = next.type === 'tick' ? model.poll(timeoutMs) : undefined;
				const [a, b] = await Promise.all([firstPoll, secondPoll]);
				const requests = await afterPoll();
				observe(
					a,
					item.at,
					'overlapping (first)',
					requests,
					true,
					weather.excusedProjects,
					undefined,
					false,
					true,
				);
				if (b)
					observe(
						b,
						next.at,
						'overlapping (second)',
						0,
						true,
						weather.excusedProjects,
						undefined,
						false,
						true,
					);
				else timeline.push(next);
				continue;
			}
			const run = await model.poll(timeoutMs);
			if (run.abandoned) excused = true;
			let label = weatherLabel(item.at, { spike: latency, budgets, excused, run });
			if (weather.excusedProjects.size > 0)
				label += `, ${[...weather.excusedProjects].join(' ')} failing`;
			// Idle: nothing in the world and no weather since two polls before this one.
			const quiet = !weather.any && !excused && lastEventAt < item.at - 2 * interval;
			observe(
				run,
				item.at,
				label,
				await afterPoll(),
				excused,
				weather.excusedProjects,
				run.budgetMs,
				quiet,
			);
			if (performance.now() - lastReport > 10_000) {
				lastReport = performance.now();
				log(
					`${new Date(item.at).toISOString()} poll ${pollIndex}: ${checker.violations.length} violations`,
				);
			}
		}
		if (!stop) checker.finish(clock.now);
	} finally {
		await api.stop();
	}

	const { wrapPoll: _w, log: _l, plan: _p, ...rest } = config;
	return {
		config: config.plan ? rest : { ...rest, bigProject },
		scope,
		options,
		behaviour,
		plan,
		summary: checker.summary(),
		violations: checker.violations,
		context,
		eventsApplied,
		eventsSkipped: world.skipped,
		pollKinds,
		wallMs: Math.round(performance.now() - started),
	};
}

function weatherLabel(
	at: number,
	w: {
		spike: Array<{ at: number; until: number; ms: number }>;
		budgets: Array<{ at: number; until: number; timeoutMs: number }>;
		excused: boolean;
		run: PollRun;
	},
): string {
	const parts = ['poll'];
	const spike = w.spike.find((s) => s.at <= at && at < s.until);
	if (spike) parts.push(`latency ${spike.ms} ms`);
	const budget = w.budgets.find((b) => b.at <= at && at < b.until);
	if (budget) parts.push(`timeout ${budget.timeoutMs} ms`);
	if (w.run.abandoned) parts.push('abandoned');
	if (w.run.error) parts.push('failed');
	if (w.excused) parts.push('(excused)');
	return parts.join(', ');
}

/** Whether the fake can rename projects and groups (branch h-fake adds it). */
export function renamesSupported(): boolean {
	return (
		typeof (FakeKeywordApi.prototype as unknown as { renameContainer?: unknown })
			.renameContainer === 'function'
	);
}

/** The violation kinds of a result, first one first. */
export function violationKinds(result: SimulationResult): ViolationKind[] {
	return [...new Set(result.violations.map((v) => v.kind))];
}

export type { IDataObject };
