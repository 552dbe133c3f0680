/**
 * The account-life simulation of AI Visibility Updated: an account's AI-visibility domains over weeks, on the fake
 * API's clock, polled through n8n's engine in one scheduler mode (n8n-model.cts), with a checker of the event's
 * promises judged from the world's truth (never from the trigger's state).
 *
 * The world, drawn from the seed: the day in progress shown partial or left out (`aiToday`); days revised after they
 * were over, days late (missing past their end, then there), gaps (never there), days without the brand; domains
 * added, hidden from the list and back, removed; one domain's dashboard failing for a while, the whole API failing,
 * n8n restarted and polls killed. The trigger's scope (every domain or one) and filters are drawn too.
 *
 * The promises (README, docs/trigger.md):
 * - Safety: each (domain, day) at most once; never a day not over by the API's clock, nor one over at activation;
 *   nothing of a domain out of scope; nothing the filters leave out, and with their reasons (`matched`); the day's
 *   values as the API shows them for that day then.
 * - Liveness: each day of a domain in scope, in the series and over, that the filters let through is emitted within 2
 *   polls (counting only polls without weather that concerns it: a global fault, a restart or killed poll, its own
 *   domain failing). Not owed: a day of a domain that left the list before it was emitted, a gap, a day that came into
 *   the series after a later day of its domain was emitted, a day whose verdict a revision changed while it was due.
 * - Resources: a poll sends at most 1 request plus 1 per domain in scope (its tries aside: weather excuses it); an
 *   idle poll (no day newly over or late for two polls) sends 1; the state stays within 1 KB + 40 bytes a domain; a
 *   failing domain with a day due is named in the poll's warnings.
 */
import type { IDataObject } from 'n8n-workflow';

import { FakeKeywordApi } from '../fake-api/index.cjs';
import { aiMetrics } from '../fake-api/handlers/aiVisibility.cjs';
import { aiDomainIdAsked, aiDomainIdShown } from '../fake-api/records.cjs';
import { Prng } from '../fake-api/prng.cjs';
import type { AiDomain } from '../fake-api/state.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import type { AiFilterKey } from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import type { Summary, Violation, ViolationKind } from './checker.cjs';
import { N8nModel, type PollRun } from './n8n-model.cjs';
import type { Scheduler } from './plan.cjs';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Where the simulated account's life starts (a Monday, 09:17 UTC). */
const AI_EPOCH = Date.UTC(2026, 2, 2, 9, 17);
const MAX_DELAY = 2;

export interface AiSimulationConfig {
	seed: string;
	days: number;
	intervalMinutes?: number;
	scheduler: Scheduler;
	/** Polls without events or weather at the end. Default 4. */
	quietPolls?: number;
	/** In place of what the seed draws. */
	settings?: Partial<AiSettings>;
	/** Changes what n8n got from a poll before the checker sees it (the checker's own tests break the trigger so). */
	tamper?: (items: IDataObject[], at: number) => IDataObject[];
	log?: (line: string) => void;
}

export interface AiSettings {
	aiToday: 'partial' | 'omitted';
	/** How the API shows domain ids (the fake's `aiDomainIds`). */
	aiDomainIds?: 'hex24' | 'uuid';
	/** The domain the trigger is scoped to (its index in the seeded list); undefined: every domain. */
	scopeIndex?: number;
	filters: Record<string, unknown>;
}

export interface AiSimulationResult {
	config: AiSimulationConfig;
	settings: AiSettings;
	summary: Summary;
	violations: Violation[];
	/** World events applied, by kind. */
	worldEvents: Record<string, number>;
	pollKinds: Record<string, number>;
	wallMs: number;
}

type WorldEvent =
	| { at: number; kind: 'add' }
	| { at: number; kind: 'hide' | 'show' | 'remove'; pick: number }
	| { at: number; kind: 'revise' | 'late' | 'gap' | 'noBrand'; pick: number; until?: number }
	| { at: number; kind: 'unlate'; domain: string; day: number }
	| { at: number; kind: 'domainFault'; pick: number; until: number }
	| { at: number; kind: 'fault'; until: number }
	| { at: number; kind: 'restart' | 'kill' };

/** What the world drew for a seed. */
export function drawAiSettings(seed: string): AiSettings {
	const rng = new Prng(`ai-settings:${seed}`);
	const settings: AiSettings = {
		aiToday: rng.chance(0.5) ? 'partial' : 'omitted',
		filters: {},
	};
	// Drawn after the rest (a seed's other settings stay what they were): domain ids of 24 hex characters, or UUIDs.
	const ids = new Prng(`ai-domain-ids:${seed}`);
	settings.aiDomainIds = ids.chance(0.5) ? 'hex24' : 'uuid';
	if (rng.chance(0.3)) settings.scopeIndex = 0;
	const r = rng.next();
	if (r < 0.2)
		settings.filters = { visibilityChangedBy: rng.int(1, 8), visibilityDirection: 'either' };
	else if (r < 0.3) settings.filters = { visibilityDirection: 'dropped' };
	else if (r < 0.4) settings.filters = { brandPresence: 'either' };
	else if (r < 0.5) settings.filters = { competitorOvertook: true };
	else if (r < 0.55)
		settings.filters = {
			brandPresence: 'lost',
			visibilityDirection: 'dropped',
			competitorOvertook: true,
		};
	return settings;
}

function drawWorld(seed: string, days: number): WorldEvent[] {
	const rng = new Prng(`ai-world:${seed}`);
	const events: WorldEvent[] = [];
	const at = (day: number) => AI_EPOCH + day * DAY + rng.int(0, DAY - 1);
	const pick = () => rng.int(0, 1_000_000);
	for (let day = 0; day < days; day++) {
		if (rng.chance(0.12)) events.push({ at: at(day), kind: 'add' });
		if (rng.chance(0.06)) {
			const hideAt = at(day);
			events.push({ at: hideAt, kind: 'hide', pick: pick() });
			events.push({ at: hideAt + rng.int(10, 60 * 40) * MINUTE, kind: 'show', pick: pick() });
		}
		if (rng.chance(0.04)) events.push({ at: at(day), kind: 'remove', pick: pick() });
		if (rng.chance(0.3)) events.push({ at: at(day), kind: 'revise', pick: pick() });
		if (rng.chance(0.2))
			events.push({ at: at(day), kind: 'late', pick: pick(), until: rng.int(1, 30 * 60) * MINUTE });
		if (rng.chance(0.08)) events.push({ at: at(day), kind: 'gap', pick: pick() });
		if (rng.chance(0.2)) events.push({ at: at(day), kind: 'noBrand', pick: pick() });
		if (rng.chance(0.2)) {
			const start = at(day);
			events.push({
				at: start,
				kind: 'domainFault',
				pick: pick(),
				until: start + rng.int(10, 240) * MINUTE,
			});
		}
		if (rng.chance(0.1)) {
			const start = at(day);
			events.push({ at: start, kind: 'fault', until: start + rng.int(5, 60) * MINUTE });
		}
		if (rng.chance(0.06)) events.push({ at: at(day), kind: 'restart' });
		if (rng.chance(0.06)) events.push({ at: at(day), kind: 'kill' });
	}
	return events.sort((a, b) => a.at - b.at);
}

interface Daily {
	timestamps: string[];
	visibilityScore: number[];
	brandNotFound: boolean[];
}
/** What the checker reads of the fake's dashboard (#26). */
interface DashboardData {
	ownBrandMetrics: { historicalData: { daily: Daily } };
	competitorTimeSeriesData: {
		daily: {
			competitors: Array<{
				name: string;
				isOwnBrand: boolean;
				metrics: { visibilityScore: number[] };
			}>;
		};
	};
}
/** A day of a domain as the API's series says it now. */
interface TruthDay {
	score: number;
	notFound: boolean;
	rivals: Map<string, number>;
}

interface Truth {
	/** Day number → the day's score, brandNotFound, competitors' scores (as the API shows them now). */
	days: Map<number, TruthDay>;
}

const dayOf = (ms: number) => Math.floor(ms / DAY);
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

/** A day of a domain's truth and the day before, as the filters compare them. */
type DayPair = { today: TruthDay | undefined; before: TruthDay | undefined };

/**
 * Each AI filter of the trigger's registry (nodes/KeywordComTrigger/filters/), judged here on its own from the API's
 * series, in the registry's order: its reason, false when it leaves the day out, undefined when it is not set. A
 * filter added there fails to compile here until it is judged.
 */
export const AI_RULES: {
	readonly [Key in AiFilterKey]-?: (
		days: DayPair,
		filters: Record<string, unknown>,
	) => string | false | undefined;
} = {
	visibilityChange: ({ today, before }, filters) => {
		if (filters.visibilityChangedBy === undefined && filters.visibilityDirection === undefined)
			return undefined;
		if (!today || !before) return false;
		const change = Math.round((today.score - before.score) * 100) / 100;
		const points = Number(filters.visibilityChangedBy ?? 0.01);
		const direction = String(filters.visibilityDirection ?? 'either');
		if (change > 0 && change >= points && direction !== 'dropped') return 'visibility_rose';
		if (change < 0 && -change >= points && direction !== 'rose') return 'visibility_dropped';
		return false;
	},
	brandPresence: ({ today, before }, filters) => {
		if (filters.brandPresence === undefined) return undefined;
		if (!today || !before || today.notFound === before.notFound) return false;
		if (today.notFound && filters.brandPresence !== 'found') return 'brand_lost';
		if (!today.notFound && filters.brandPresence !== 'lost') return 'brand_found';
		return false;
	},
	competitorOvertook: ({ today, before }, filters) => {
		if (filters.competitorOvertook !== true) return undefined;
		if (!today || !before) return false;
		const overtook = [...today.rivals].some(
			([name, score]) =>
				score > today.score &&
				before.rivals.has(name) &&
				!((before.rivals.get(name) as number) > before.score),
		);
		return overtook ? 'overtaken' : false;
	},
};

/** The verdict of the filters on a day, from the API's series now: the reasons, or undefined when it fails. */
function verdict(
	truth: Truth,
	day: number,
	filters: Record<string, unknown>,
): string[] | undefined {
	const days = { today: truth.days.get(day), before: truth.days.get(day - 1) };
	const matched: string[] = [];
	for (const rule of Object.values(AI_RULES)) {
		const said = rule(days, filters);
		if (said === false) return undefined;
		if (said !== undefined) matched.push(said);
	}
	return matched;
}

interface Owed {
	domain: string;
	day: number;
	/** When it came into the series, over (ms). */
	visibleAt: number;
	/** Polls that counted towards its delay. */
	waited: number;
	emitted: number;
	/** Neither owed nor forbidden (its verdict changed while it was due, or it came in behind a later day). */
	tolerated: boolean;
	released: boolean;
	late: boolean;
	/** Whether the filters let it through (undefined: not judged yet). */
	passes?: boolean;
}

export async function simulateAiVisibility(
	config: AiSimulationConfig,
): Promise<AiSimulationResult> {
	const started = performance.now();
	const interval = (config.intervalMinutes ?? 5) * MINUTE;
	const settings = { ...drawAiSettings(config.seed), ...config.settings };
	let clock = AI_EPOCH - 30 * DAY;
	const api = new FakeKeywordApi({
		seed: 'demo',
		now: () => clock,
		dateFromClock: true,
		behaviour: { aiToday: settings.aiToday, aiDomainIds: settings.aiDomainIds ?? 'hex24' },
	});
	await api.start();
	clock = AI_EPOCH;
	const violations: Violation[] = [];
	const worldEvents: Record<string, number> = {};
	const pollKinds: Record<string, number> = {};
	const domains = api.state.aiDomains;
	/** Hidden domains (out of the list for a while), by id. */
	const hidden = new Map<string, AiDomain>();
	const scoped = settings.scopeIndex === undefined ? undefined : domains[settings.scopeIndex].id;
	/** A domain's id as the API shows it (the trigger's parameters, its items and the request paths). */
	const shown = (id: string) => aiDomainIdShown(id, settings.aiDomainIds);
	const inScope = (id: string) => scoped === undefined || id === scoped;
	const listed = () => domains.filter((domain) => inScope(domain.id));
	const faults = new Map<number, { until: number; domain?: string }>();
	/** Days still missing (late until they come, or gaps), `<id>|<day>`. */
	const missing = new Set<string>();
	const owed = new Map<string, Owed>();
	/** The newest day emitted per domain. */
	const newestEmitted = new Map<string, number>();
	/** The newest day seen over and in the series per domain, at an earlier poll (a day coming in behind it is passed over). */
	const newestSeen = new Map<string, number>();
	const summary = {
		events: 0,
		owed: 0,
		emitted: 0,
		lost: 0,
		late: 0,
		duplicated: 0,
		outOfScope: 0,
		filteredOutEmitted: 0,
		beforeActivation: 0,
		unknown: 0,
		rankErrors: 0,
		released: 0,
		movedEmittedAgain: 0,
		worstDelay: 0,
		polls: 0,
		requestsMax: 0,
		requestsP95: 0,
		pollsAtCap: 0,
		idleRequestsMax: 0,
		stateBytesMax: 0,
		wallMsMax: 0,
		wallMsTotal: 0,
		slowPolls: 0,
	} satisfies Summary;
	const requestCounts: number[] = [];
	const violate = (kind: ViolationKind, poll: number, at: number, detail: string) => {
		violations.push({ kind, poll, at, detail });
	};
	const pickDomain = (pick: number, pool = domains) =>
		pool.length === 0 ? undefined : pool[pick % pool.length];
	const events = drawWorld(config.seed, config.days);

	const model = new N8nModel(config.scheduler, {
		nodeType: new KeywordComTrigger(),
		typeVersion: 1,
		parameters: {
			event: 'aiVisibilityUpdated',
			domainId: { __rl: true, mode: scoped ? 'id' : 'list', value: scoped ? shown(scoped) : '' },
			filters: settings.filters as never,
			output: 'raw',
		},
		credentials: { keywordComApi: { apiToken: api.token, baseUrl: api.baseUrl } },
	});

	/** The series of a domain as the API shows it now (the checker's own read, in-process: no fault reaches it). */
	function truthOf(id: string): Truth {
		const answer = aiMetrics({
			method: 'GET',
			rawPath: '',
			params: { domainId: id },
			query: { timeframe: '10', aggregation: 'daily' },
			body: undefined,
			bodyInvalid: false,
			state: api.state,
			baseUrl: api.baseUrl,
			token: api.token,
			behaviour: api.behaviour,
		});
		const data = (answer.body as { data: DashboardData }).data;
		const daily = data.ownBrandMetrics.historicalData.daily;
		const rivals = data.competitorTimeSeriesData.daily.competitors.filter((c) => !c.isOwnBrand);
		const truth: Truth = { days: new Map() };
		daily.timestamps.forEach((stamp, i) => {
			truth.days.set(dayOf(Date.parse(stamp)), {
				score: daily.visibilityScore[i],
				notFound: daily.brandNotFound[i],
				rivals: new Map(rivals.map((c) => [c.name, c.metrics.visibilityScore[i]])),
			});
		});
		return truth;
	}

	/** Registers the days that are over and in the series now, for every listed domain in scope. */
	function noteVisible(now: number, activatedAt: number): void {
		const seenBefore = new Map(newestSeen);
		for (const domain of listed()) {
			const firstDay = dayOf(domain.createdAt);
			for (let day = Math.max(firstDay, dayOf(activatedAt)); (day + 1) * DAY <= now; day++) {
				const key = `${domain.id}|${day}`;
				if (owed.has(key) || missing.has(key)) continue;
				const behind = (seenBefore.get(domain.id) ?? -Infinity) > day;
				newestSeen.set(domain.id, Math.max(newestSeen.get(domain.id) ?? -Infinity, day));
				owed.set(key, {
					domain: domain.id,
					day,
					visibleAt: now,
					waited: 0,
					emitted: 0,
					tolerated: behind,
					released: false,
					late: false,
				});
				summary.events++;
			}
		}
	}

	let down = false;
	let killNext = false;
	let excuseNext = false;
	let pollIndex = 0;
	let lastWorldAt = AI_EPOCH;
	let lastDayOverAt = AI_EPOCH;
	/** When a fault, a restart or a killed poll last concerned a poll. */
	let lastWeatherAt = AI_EPOCH;
	const end = AI_EPOCH + config.days * DAY;
	const quietEnd = end + (config.quietPolls ?? 4) * interval;

	async function applyEvent(event: WorldEvent): Promise<void> {
		worldEvents[event.kind] = (worldEvents[event.kind] ?? 0) + 1;
		lastWorldAt = event.at;
		const today = dayOf(event.at);
		switch (event.kind) {
			case 'add':
				api.addAiDomain(`brand-${Object.keys(worldEvents).length}-${event.at}.example`);
				break;
			case 'hide': {
				const domain = pickDomain(event.pick);
				if (!domain) break;
				domains.splice(domains.indexOf(domain), 1);
				hidden.set(domain.id, domain);
				releaseDomain(domain.id);
				break;
			}
			case 'show': {
				const back = [...hidden.values()][event.pick % Math.max(1, hidden.size)];
				if (!back) break;
				hidden.delete(back.id);
				domains.push(back);
				// Its days over while it was away are not owed (it starts again from the poll before it came back).
				for (let day = dayOf(back.createdAt); (day + 1) * DAY <= event.at; day++) {
					const key = `${back.id}|${day}`;
					if (!owed.has(key)) {
						owed.set(key, {
							domain: back.id,
							day,
							visibleAt: event.at,
							waited: 0,
							emitted: 0,
							tolerated: true,
							released: false,
							late: false,
						});
					}
				}
				break;
			}
			case 'remove': {
				const domain = pickDomain(event.pick, domains.length > 1 ? domains : []);
				if (!domain) break;
				api.removeAiDomain(domain.id);
				releaseDomain(domain.id);
				break;
			}
			case 'revise': {
				const domain = pickDomain(event.pick);
				const day = today - 1 - (event.pick % 3);
				if (domain && day >= dayOf(domain.createdAt))
					api.changeAiDay(domain.id, dateOf(day), { revise: true });
				break;
			}
			case 'late':
			case 'gap': {
				const domain = pickDomain(event.pick);
				if (!domain) break;
				api.changeAiDay(domain.id, dateOf(today), { missing: true });
				missing.add(`${domain.id}|${today}`);
				if (event.kind === 'late')
					timeline.push({
						at: (today + 1) * DAY + (event.until ?? 0),
						kind: 'unlate',
						domain: domain.id,
						day: today,
					});
				break;
			}
			case 'unlate':
				if (domains.some((domain) => domain.id === event.domain)) {
					api.changeAiDay(event.domain, dateOf(event.day), { missing: false });
					missing.delete(`${event.domain}|${event.day}`);
				}
				break;
			case 'noBrand': {
				const domain = pickDomain(event.pick);
				if (domain) api.changeAiDay(domain.id, dateOf(today), { brandNotFound: true });
				break;
			}
			case 'domainFault': {
				const domain = pickDomain(event.pick);
				if (!domain) break;
				const id = api.injectFault({
					path: new RegExp(`/ai-visibility/domains/${shown(domain.id)}/metrics`),
					times: Infinity,
					status: 503,
				});
				faults.set(id, { until: event.until, domain: domain.id });
				break;
			}
			case 'fault': {
				const id = api.injectFault({ times: Infinity, status: 503 });
				faults.set(id, { until: event.until });
				break;
			}
			case 'restart':
				if (!down) {
					model.stop();
					down = true;
				}
				break;
			case 'kill':
				killNext = true;
				break;
		}
	}

	function releaseDomain(id: string): void {
		for (const entry of owed.values())
			if (entry.domain === id && entry.emitted === 0 && !entry.released) entry.released = true;
	}

	const timeline: WorldEvent[] = [...events];
	const nextEvent = () => {
		timeline.sort((a, b) => a.at - b.at);
		return timeline[0];
	};

	/** Judges one poll's items and resources. */
	async function observe(
		run: PollRun,
		at: number,
		label: string,
		requests: number,
		excused: boolean,
	): Promise<void> {
		const index = pollIndex++;
		if (config.tamper && run.items) run.items = config.tamper(run.items, at);
		runAt.set(run.seq, at);
		summary.polls++;
		pollKinds[label] = (pollKinds[label] ?? 0) + 1;
		requestCounts.push(requests);
		summary.requestsMax = Math.max(summary.requestsMax, requests);
		summary.stateBytesMax = Math.max(summary.stateBytesMax, run.stateBytes);
		summary.wallMsMax = Math.max(summary.wallMsMax, Math.round(run.wallMs));
		summary.wallMsTotal += run.wallMs;
		if (run.wallMs > 300) summary.slowPolls++;
		const failing = new Set(
			[...faults.values()]
				.filter((fault) => fault.domain !== undefined)
				.map((fault) => fault.domain as string),
		);
		const globalFault = [...faults.values()].some((fault) => fault.domain === undefined);
		const inScopeCount = listed().length + hidden.size;
		// The documented bound (docs/exactly-once.md): 1 KB + (the id's length + 12) bytes a domain.
		if (
			run.stateBytes >
			1024 + (shown(domains[0]?.id ?? '').length + 12) * Math.max(1, inScopeCount + 20)
		)
			violate('state', index, at, `${run.stateBytes} bytes for ${inScopeCount} domains`);
		if (!excused && !globalFault && failing.size === 0 && requests > 1 + listed().length)
			violate('requests', index, at, `${requests} requests for ${listed().length} domains`);
		if (excused || globalFault || failing.size > 0) lastWeatherAt = at;
		const newest = dayOf(at) - 1;
		// A day over and not in the series yet (late, or a gap before the next day) is asked for at every poll.
		const waiting = listed().some((domain) => missing.has(`${domain.id}|${newest}`));
		// A poll that starts from a state older than the last change (n8n kept none since: durable scheduler without
		// durable cursors, after polls that emitted nothing) reads that change again: not idle.
		const stateAt = runAt.get(run.startedFrom) ?? -Infinity;
		const quiet =
			at - lastDayOverAt >= 2 * interval &&
			at - lastWorldAt >= 2 * interval &&
			at - lastWeatherAt >= 2 * interval &&
			stateAt >= Math.max(lastDayOverAt, lastWorldAt, lastWeatherAt);
		if (quiet && !waiting) {
			summary.idleRequestsMax = Math.max(summary.idleRequestsMax, requests);
			if (requests > 1) violate('idle-cost', index, at, `an idle poll sent ${requests} requests`);
		}
		const truths = new Map<string, Truth>();
		const truth = (id: string): Truth => {
			if (!truths.has(id)) truths.set(id, truthOf(id));
			return truths.get(id)!;
		};
		for (const item of run.items ?? []) {
			const id = aiDomainIdAsked(String(item.domain_id));
			const day = dayOf(Date.parse(`${String(item.date)}T00:00:00Z`));
			const key = `${id}|${day}`;
			const entry = owed.get(key);
			if (!inScope(id)) {
				summary.outOfScope++;
				violate('out-of-scope', index, at, `${key}: a domain out of the scope`);
				continue;
			}
			if ((day + 1) * DAY > at) {
				summary.unknown++;
				violate('unknown', index, at, `${key}: the day is not over (partial)`);
				continue;
			}
			if (day < dayOf(activatedAt)) {
				summary.beforeActivation++;
				violate('before-activation', index, at, `${key}: over before activation`);
				continue;
			}
			if (!entry) {
				summary.unknown++;
				violate('unknown', index, at, `${key}: a day the world never showed`);
				continue;
			}
			entry.emitted++;
			newestEmitted.set(id, Math.max(newestEmitted.get(id) ?? -Infinity, day));
			if (entry.emitted > 1) {
				summary.duplicated++;
				violate('duplicate', index, at, `${key} emitted ${entry.emitted} times`);
				continue;
			}
			summary.emitted++;
			if (listed().some((domain) => domain.id === id)) {
				const shown = truth(id).days.get(day);
				if (shown && shown.score !== item.visibility_score) {
					summary.rankErrors++;
					violate(
						'rank',
						index,
						at,
						`${key}: visibility ${String(item.visibility_score)}, the API shows ${shown.score}`,
					);
				}
				const expected = verdict(truth(id), day, settings.filters);
				const matched = (item.matched as string[] | undefined) ?? [];
				if (!entry.tolerated && expected === undefined) {
					summary.filteredOutEmitted++;
					violate('filter', index, at, `${key}: emitted though the filters leave it out`);
				} else if (
					!entry.tolerated &&
					Object.keys(settings.filters).length > 0 &&
					expected!.join() !== matched.join()
				) {
					violate(
						'filter',
						index,
						at,
						`${key}: matched ${matched.join()} where the world says ${expected!.join()}`,
					);
				}
			}
		}
		// Liveness: each owed day not emitted yet, judged at this poll.
		for (const entry of owed.values()) {
			if (entry.emitted > 0 || entry.released || entry.tolerated) continue;
			if (!listed().some((domain) => domain.id === entry.domain)) continue;
			const expected = verdict(truth(entry.domain), entry.day, settings.filters);
			const passes = expected !== undefined;
			if (entry.passes !== undefined && entry.passes !== passes) entry.tolerated = true;
			entry.passes = passes;
			if (!passes || entry.tolerated) continue;
			if (excused || globalFault || failing.has(entry.domain) || entry.visibleAt > at) continue;
			entry.waited++;
			summary.worstDelay = Math.max(summary.worstDelay, entry.waited);
			if (entry.waited > MAX_DELAY && !entry.late) {
				entry.late = true;
				summary.late++;
				violate(
					'late',
					index,
					at,
					`${entry.domain}|${entry.day} (${dateOf(entry.day)}) not emitted after ${entry.waited} polls`,
				);
			}
		}
		// A failing domain with a day due is named in the log.
		if (!excused && !globalFault && run.kind !== 'killed')
			for (const id of failing) {
				const due = [...owed.values()].some(
					(entry) =>
						entry.domain === id &&
						entry.emitted === 0 &&
						!entry.released &&
						!entry.tolerated &&
						entry.passes !== false &&
						entry.visibleAt <= at,
				);
				const name = domains.find((domain) => domain.id === id)?.domain;
				if (due && name && !(run.warnings ?? []).some((line) => line.includes(`"${name}"`)))
					violate('silent', index, at, `"${name}" fails with a day due and the poll said nothing`);
			}
	}

	const activatedAt = AI_EPOCH;
	/** When each run of the model happened (its seq → ms): an idle poll's state must be from after the last change. */
	const runAt = new Map<number, number>();
	try {
		api.clearRequests();
		const first = await model.activate();
		await observe(first, AI_EPOCH, 'activation', api.requests.length, false);
		for (let at = AI_EPOCH + interval; at <= quietEnd; at += interval) {
			while (nextEvent() && nextEvent().at <= at && nextEvent().at < end)
				await applyEvent(timeline.shift()!);
			clock = at;
			for (const [id, fault] of faults)
				if (fault.until <= at || at >= end) {
					api.removeFault(id);
					faults.delete(id);
				}
			if (dayOf(at) !== dayOf(at - interval)) lastDayOverAt = at;
			noteVisible(at, activatedAt);
			let excused = excuseNext;
			excuseNext = false;
			let run: PollRun;
			let label = 'scheduled';
			if (down) {
				down = false;
				excused = true;
				api.clearRequests();
				const startRun = await model.start();
				if (startRun)
					await observe(startRun, at, 'start (activation poll)', api.requests.length, true);
			}
			api.clearRequests();
			if (killNext && at < end) {
				killNext = false;
				run = await model.killedPoll();
				label = 'killed mid-way';
				excused = true;
				model.stop();
				down = true;
			} else run = await model.poll();
			if (run.error) label = 'failed';
			await observe(run, at, label, api.requests.length, excused || run.kind === 'killed');
		}
		for (const entry of owed.values()) {
			if (entry.released) summary.released++;
			if (entry.released || entry.tolerated || entry.passes === false) continue;
			summary.owed++;
			if (entry.emitted > 0 || !listed().some((domain) => domain.id === entry.domain)) continue;
			summary.lost++;
			violate(
				'lost',
				-1,
				quietEnd,
				`${entry.domain}|${entry.day} (${dateOf(entry.day)}) never emitted`,
			);
		}
	} finally {
		await api.stop();
	}
	const sorted = [...requestCounts].sort((a, b) => a - b);
	summary.requestsP95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
	summary.wallMsTotal = Math.round(summary.wallMsTotal);
	return {
		config,
		settings,
		summary,
		violations,
		worldEvents,
		pollKinds,
		wallMs: Math.round(performance.now() - started),
	};
}

export function describeAiRun(result: AiSimulationResult): string {
	const { config, settings } = result;
	const filters =
		Object.keys(settings.filters).length === 0 ? 'no filter' : JSON.stringify(settings.filters);
	return `seed ${config.seed}, ${config.days} days, every ${config.intervalMinutes ?? 5} min, ${config.scheduler}, aiVisibilityUpdated, ${settings.scopeIndex === undefined ? 'every domain' : 'one domain'}, ${filters}; API: today ${settings.aiToday}, ids ${settings.aiDomainIds ?? 'hex24'}`;
}

/** The report of one simulation, in the lines of the other events' (report.cts). */
export function formatAiReport(result: AiSimulationResult): string {
	const s = result.summary;
	const lines = [
		`${result.violations.length === 0 ? 'PASS' : 'FAIL'} ${describeAiRun(result)}`,
		`  events ${s.events} (owed ${s.owed}), emitted ${s.emitted}, lost ${s.lost}, late ${s.late}, duplicated ${s.duplicated}, ` +
			`out of scope ${s.outOfScope}, filtered out but emitted ${s.filteredOutEmitted}, before activation ${s.beforeActivation}, ` +
			`unknown ${s.unknown}, value errors ${s.rankErrors}, released ${s.released}`,
		`  worst delay ${s.worstDelay} polls; ${s.polls} polls, requests per poll max ${s.requestsMax} (p95 ${s.requestsP95}, idle max ${s.idleRequestsMax}); ` +
			`state max ${s.stateBytesMax} bytes; slowest poll ${s.wallMsMax} ms, ${(s.wallMsTotal / 1000).toFixed(1)} s in polls; ` +
			`world: ${Object.entries(result.worldEvents)
				.map(([kind, n]) => `${kind} ${n}`)
				.join(', ')}; ${(result.wallMs / 1000).toFixed(1)} s`,
		`  polls: ${Object.entries(result.pollKinds)
			.map(([kind, n]) => `${kind} ${n}`)
			.join(', ')}`,
	];
	if (result.violations.length > 0) {
		const byKind = new Map<string, number>();
		for (const v of result.violations) byKind.set(v.kind, (byKind.get(v.kind) ?? 0) + 1);
		lines.push(`  violations: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
		for (const v of result.violations.slice(0, 8))
			lines.push(`    [${v.kind}] poll ${v.poll} at ${new Date(v.at).toISOString()}: ${v.detail}`);
	}
	return lines.join('\n');
}
