/**
 * The account-life simulation in a real n8n, on the real clock: n8n polls the fake (a process) at second 0 of every
 * minute; between two polls the world applies that minute's events through the fake's control routes
 * (control-driver.cts) and sets the API weather of the next poll; after each poll the checker (the same as in the
 * engine simulation) looks at the executions n8n started. A handful of polls, so the plan is a small one: a few
 * projects of tens of keywords, a crawl or two, alerts, a rename, an archive and a deletion (some in the middle of a
 * poll), 5xx and 429 bursts, a latency spike, one project failing for two polls, and one n8n restart.
 *
 * What n8n does is n8n's own business here: the runner only needs the items of the executions it started (per
 * trigger, with their start time) and a way to restart it (`RealN8nSide`).
 */
import type { IDataObject } from 'n8n-workflow';

import { Prng } from '../fake-api/prng.cjs';
import { Checker, type ScopeSetting, type Summary, type Violation } from './checker.cjs';
import type { ControlDriver } from './control-driver.cjs';
import { describeEvent, type ContainerKey, type WorldEvent } from './plan.cjs';
import type { TriggerEvent } from './run.cjs';
import { World, projectPaths, type Fact, type TruthSink } from './world.cjs';

export interface RealN8nSide {
	/** Executions the trigger of `event` started (at least those since `from`, ms), with their start time and items. */
	executions(
		event: TriggerEvent,
		from: number,
	): Promise<Array<{ id: string; startedAt: number; items: IDataObject[] }>>;
	restart(): Promise<void>;
}

/** The weather of one poll. */
export interface RealWeather {
	fault?: { times: number; status: number; retryAfter?: string };
	latencyMs?: number;
	failing?: ContainerKey;
	/** n8n restarts after this poll. */
	restart?: boolean;
}

export interface RealPlan {
	/** Before activation. */
	setup: WorldEvent[];
	/** Per poll interval (after poll k, before poll k+1): the account's events. */
	minutes: WorldEvent[][];
	/** The weather of poll k+1 (index k). */
	weather: RealWeather[];
}

/** A small plan for `polls` real polls. Event times are placeholders: each is applied when its minute comes. */
export function planRealTime(seed: string, polls: number): RealPlan {
	const rng = new Prng(`real-time:${seed}`);
	const setup: WorldEvent[] = [];
	const projects = ['Acme Shoes', 'Café Zürich', '__proto__', 'A/B Test'];
	const keys: ContainerKey[] = [];
	projects.forEach((name, p) => {
		const key = `P${p + 1}`;
		keys.push(key);
		setup.push({ at: 0, kind: 'createProject', key, name });
		setup.push({ at: 0, kind: 'addKeywords', key, count: rng.int(12, 40), tracked: true });
		if (p < 2) {
			setup.push({ at: 0, kind: 'createGroup', key: `${key}/G1`, name: p === 0 ? 'Blog' : 'EU' });
			setup.push({
				at: 0,
				kind: 'addKeywords',
				key: `${key}/G1`,
				count: rng.int(8, 25),
				tracked: true,
			});
			keys.push(`${key}/G1`);
		}
	});
	setup.push({ at: 0, kind: 'alerts', key: 'P1', count: 20 });
	const minutes: WorldEvent[][] = [];
	const weather: RealWeather[] = [];
	for (let k = 0; k < polls; k++) {
		const events: WorldEvent[] = [];
		const crawled = rng.pick(keys);
		events.push({ at: 0, kind: 'crawl', key: crawled, slice: 0, of: 1, alerts: rng.chance(0.5) });
		if (rng.chance(0.6))
			events.push({
				at: 0,
				kind: 'crawl',
				key: rng.pick(keys),
				slice: rng.int(0, 1),
				of: 2,
				alerts: false,
			});
		if (rng.chance(0.5))
			events.push({ at: 0, kind: 'alerts', key: rng.pick(keys), count: rng.int(1, 30) });
		if (rng.chance(0.3))
			events.push({
				at: 0,
				kind: 'lateAlerts',
				key: rng.pick(keys),
				count: rng.int(1, 3),
				lateBySeconds: rng.int(5, 120),
			});
		if (rng.chance(0.3))
			events.push({ at: 0, kind: 'addKeywords', key: rng.pick(keys), count: rng.int(1, 10) });
		if (rng.chance(0.3))
			events.push({
				at: 0,
				kind: 'deleteKeywords',
				key: rng.pick(keys),
				percent: rng.int(5, 30),
				salt: rng.int(1, 1e6),
			});
		minutes.push(events);
		weather.push({});
	}
	// The account's bigger changes and the weather, at fixed places so that a short run meets all of them.
	const at = (fraction: number) => Math.min(polls - 1, Math.max(0, Math.floor(polls * fraction)));
	minutes[at(0.2)].push({
		at: 0,
		kind: 'rename',
		key: 'P2',
		name: 'Café Zürich (new)',
		midPoll: 'list',
	});
	minutes[at(0.2)].push({ at: 0, kind: 'crawl', key: 'P2', slice: 0, of: 1, alerts: false });
	minutes[at(0.35)].push({ at: 0, kind: 'archive', key: 'P1/G1', midPoll: 'groups' });
	minutes[at(0.55)].push({ at: 0, kind: 'restore', key: 'P1/G1' });
	minutes[at(0.55)].push({ at: 0, kind: 'crawl', key: 'P1/G1', slice: 0, of: 1, alerts: false });
	minutes[at(0.7)].push({ at: 0, kind: 'delete', key: 'P4', midPoll: 'list' });
	minutes[at(0.7)].push({ at: 0, kind: 'crawl', key: 'P4', slice: 0, of: 1, alerts: false });
	weather[at(0.1)].fault = { times: 2, status: 503, retryAfter: '0' };
	weather[at(0.3)].fault = { times: 3, status: 429, retryAfter: '1' };
	weather[at(0.4)].latencyMs = 150;
	weather[at(0.45)].failing = 'P3';
	weather[at(0.5)].failing = 'P3';
	weather[at(0.6)].restart = true;
	return { setup, minutes, weather };
}

export interface RealTimeTrigger {
	event: TriggerEvent;
	scope: ScopeSetting;
}

export interface RealTimeResult {
	event: TriggerEvent;
	summary: Summary;
	violations: Violation[];
	log: string[];
}

/** Sends the world's truth to every checker. */
class FanOut implements TruthSink {
	constructor(private readonly sinks: TruthSink[]) {}

	fact(fact: Fact): void {
		for (const sink of this.sinks) sink.fact(fact);
	}

	containerChanged(
		key: ContainerKey,
		project: ContainerKey,
		at: number,
		change: 'archived' | 'deleted' | 'renamed',
	): void {
		for (const sink of this.sinks) sink.containerChanged(key, project, at, change);
	}

	keywordsDeleted(ids: string[], at: number): void {
		for (const sink of this.sinks) sink.keywordsDeleted(ids, at);
	}

	keywordsAddedWithRanks(ids: string[], before: number): void {
		for (const sink of this.sinks) sink.keywordsAddedWithRanks?.(ids, before);
	}
}

const sleep = async (ms: number) =>
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const nextMinute = (ms: number) => Math.ceil((ms + 1) / 60_000) * 60_000;

/**
 * Sets up the account (before activation), then `activate()` (publish and start n8n: its activation polls), then one
 * minute per planned poll, then `quiet` minutes without events or weather; returns one verdict per trigger.
 */
export async function simulateRealTime(options: {
	driver: ControlDriver;
	n8n: RealN8nSide;
	plan: RealPlan;
	triggers: RealTimeTrigger[];
	activate: () => Promise<void>;
	quiet?: number;
	log?: (line: string) => void;
}): Promise<RealTimeResult[]> {
	const { driver, n8n, plan } = options;
	const log = options.log ?? (() => {});
	const lines: string[] = [];
	const say = (line: string) => {
		lines.push(line);
		log(line);
	};
	const checkers = options.triggers.map(
		(t) =>
			new Checker({
				event: t.event,
				scope: t.scope,
				scopeKeys: [],
				// Both triggers poll the same fake; its request log holds both.
				maxRequestsPerPoll: 240 * options.triggers.length,
			}),
	);
	const world = new World(driver, new FanOut(checkers));
	for (const event of plan.setup) await world.apply({ ...event, at: Date.now() } as WorldEvent);
	await driver.takeRequestCount();

	// Activation: everything visible before it is history.
	const activatedAt = Date.now();
	for (const checker of checkers) checker.activated(activatedAt);
	await options.activate();
	say(`activated at ${new Date(activatedAt).toISOString()}`);
	const seen = new Set<string>();
	let pollIndex = 0;

	/** Hands the executions not seen yet to the checkers as one poll at `at`. */
	let lastObserved = activatedAt;
	const observe = async (
		at: number,
		label: string,
		excused: boolean,
		excusedProjects: Set<ContainerKey>,
	) => {
		const from = lastObserved - 60_000;
		lastObserved = Date.now();
		await world.harvestChurn();
		await world.settleArmed();
		const requests = await driver.takeRequestCount();
		const index = pollIndex++;
		for (let t = 0; t < options.triggers.length; t++) {
			const executions = (await n8n.executions(options.triggers[t].event, from)).filter(
				(e) => !seen.has(`${t}:${e.id}`),
			);
			for (const e of executions) seen.add(`${t}:${e.id}`);
			const items = executions.flatMap((e) => e.items);
			checkers[t].poll({
				index,
				at,
				label,
				excused,
				excusedProjects,
				items: executions.length > 0 ? items : null,
				requests,
				stateBytes: 0,
				containersInScope: 0,
				wallMs: 0,
			});
			say(
				`  poll ${index} (${label}) ${options.triggers[t].event}: ${items.length} items in ${executions.length} executions, ${requests} requests`,
			);
		}
	};

	// The activation polls ran while n8n started.
	await sleep(3_000);
	await observe(activatedAt, 'activation', false, new Set());

	const total = plan.minutes.length + (options.quiet ?? 2);
	let excuseNext = false;
	for (let k = 0; k < total; k++) {
		const quiet = k >= plan.minutes.length;
		// Between polls: this minute's events
		for (const event of quiet ? [] : plan.minutes[k]) {
			if (await world.apply({ ...event, at: Date.now() } as WorldEvent))
				say(`  ${describeEvent({ ...event, at: Date.now() } as WorldEvent)}`);
		}
		// The next poll's weather, set just before it
		const pollAt = nextMinute(Date.now() + 5_000);
		await sleep(pollAt - 8_000 - Date.now());
		const weather = quiet ? {} : (plan.weather[k] ?? {});
		const excusedProjects = new Set<ContainerKey>();
		if (weather.fault)
			await driver.injectFault({
				times: weather.fault.times,
				status: weather.fault.status,
				retryAfter: weather.fault.retryAfter,
			});
		if (weather.latencyMs) await driver.setLatency(weather.latencyMs);
		if (weather.failing) {
			const name = world.fullName(weather.failing);
			if (name !== undefined) {
				await driver.injectFault({ path: projectPaths(name), times: 100_000, status: 500 });
				excusedProjects.add(weather.failing);
			}
		}
		// The poll at second 0, and its executions
		await sleep(pollAt + 20_000 - Date.now());
		await driver.clearFaults();
		await driver.setLatency(0);
		const excused = excuseNext || !!weather.fault || !!weather.latencyMs;
		excuseNext = false;
		await observe(pollAt, `poll${quiet ? ' (quiet)' : ''}`, excused, excusedProjects);
		if (weather.restart) {
			say('  n8n restarts');
			await n8n.restart();
			// The in-memory scheduler's activation polls at the start (and a minute's poll, if one fell in the restart).
			await sleep(3_000);
			await observe(Date.now(), 'start (activation poll)', true, new Set());
			excuseNext = true;
		}
	}
	for (const checker of checkers) checker.finish(Date.now());
	return options.triggers.map((t, i) => ({
		event: t.event,
		summary: checkers[i].summary(),
		violations: checkers[i].violations,
		log: lines,
	}));
}
