/**
 * The life of an agency account, planned up front from a seed: the account at activation, then day after day what
 * happens to it (projects and groups created, renamed, archived, restored and deleted, names freed and taken again;
 * keywords added, deleted, moved between groups and tagged in bulk; daily and weekly plan crawls between 00:00 and
 * 12:00 UTC, some moving ranking URLs; on-demand refreshes; alert bursts), the API's weather (latency spikes, 429 and
 * 5xx bursts, `groups/active` failing alone, a flaky API failing every other request, one project failing for an
 * hour) and n8n's weather (restarts, a poll killed mid-way, tight poll budgets, overlapping polls).
 *
 * A plan is a plain list of events (JSON), each naming its project or group by a key that stays the same across
 * renames. Applying one (world.cts) looks at the account as it is then: an event whose project or group is gone, or
 * whose keywords are, does nothing. So any sub-list of a plan is a plan too, which is how a failing seed is shrunk.
 * Everything random comes from one generator seeded by the seed, so a seed gives the same plan every time.
 */
import { Prng } from '../fake-api/prng.cjs';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Activation of the trigger in every simulation (virtual clock): Monday 2 March 2026, 00:00 UTC. */
export const SIM_EPOCH = Date.UTC(2026, 2, 2);

/** A project `P<n>` or a group `P<n>/G<m>`; stays the key of that project or group whatever it is renamed to. */
export type ContainerKey = string;

export type WorldEvent =
	// The account
	| { at: number; kind: 'createProject'; key: ContainerKey; name: string }
	| { at: number; kind: 'createGroup'; key: ContainerKey; name: string }
	/**
	 * A project's new name, or a group's new name within its project. With `midPoll`, the change waits for the next
	 * poll and is made in the middle of it: right after the API answered `groups/active` ('groups') or a page of a
	 * keyword list ('list').
	 */
	| { at: number; kind: 'rename'; key: ContainerKey; name: string; midPoll?: MidPoll }
	| { at: number; kind: 'archive' | 'restore' | 'delete'; key: ContainerKey; midPoll?: MidPoll }
	/** Keywords added without ranks (as over the API): they get ranks at their first crawl. */
	| { at: number; kind: 'addKeywords'; key: ContainerKey; count: number; tracked?: boolean }
	/** `percent` of the container's keywords deleted, picked by `salt`. */
	| { at: number; kind: 'deleteKeywords'; key: ContainerKey; percent: number; salt: number }
	/**
	 * Part `slice` of `of` equal parts of the container's keyword list crawled (a plan crawl goes part by part). With
	 * `urls`, that share (percent) of the crawled keywords that rank gets another ranking URL.
	 */
	| {
			at: number;
			kind: 'crawl';
			key: ContainerKey;
			slice: number;
			of: number;
			alerts: boolean;
			urls?: number;
	  }
	/** `percent` of the container's keywords, picked by `salt`, moved into `to` (a project or group of the same project). */
	| { at: number; kind: 'move'; key: ContainerKey; to: ContainerKey; percent: number; salt: number }
	/** `percent` of the container's keywords, picked by `salt`, get the tag `tag` (or lose it, with `remove`). */
	| {
			at: number;
			kind: 'tag';
			key: ContainerKey;
			tag: string;
			percent: number;
			salt: number;
			remove?: boolean;
	  }
	/** An on-demand refresh of a project (with its groups) or of one group. */
	| { at: number; kind: 'refresh'; key: ContainerKey; withGroups: boolean }
	| { at: number; kind: 'alerts'; key: ContainerKey; count: number }
	/** Alerts that arrive late: stamped `lateBySeconds` before now. */
	| { at: number; kind: 'lateAlerts'; key: ContainerKey; count: number; lateBySeconds: number }
	// The API's weather
	| { at: number; kind: 'latency'; until: number; ms: number }
	/**
	 * The next `polls` polls each meet `times` failing requests first: of `groups/active` alone (`groups`), or of any
	 * path; with `every`, only every `every`-th request fails (a flaky API: most pages need a retry).
	 */
	| {
			at: number;
			kind: 'fault';
			polls: number;
			times: number;
			status: number;
			retryAfter?: string;
			drop?: boolean;
			groups?: boolean;
			every?: number;
	  }
	/**
	 * Lists change between two page requests until `until`: after every `everyPages`-th page of a keyword list or the
	 * alert list, keywords of that list are deleted, crawled and added, and alerts arrive (the fake's `churn`).
	 */
	| {
			at: number;
			kind: 'churn';
			until: number;
			everyPages: number;
			deleteKeywords: number;
			crawlKeywords: number;
			addKeywords: number;
			addAlerts: number;
	  }
	/** Every request about one project (its keyword lists and its groups') fails until `until`. */
	| { at: number; kind: 'projectFault'; key: ContainerKey; until: number; status: number }
	// n8n's weather
	/** n8n stops at `at` and starts again `downMs` later (polls due meanwhile are missed). */
	| { at: number; kind: 'restart'; downMs: number }
	/** The next poll is killed mid-way (the process dies): nothing of it is emitted or stored; n8n starts again. */
	| { at: number; kind: 'kill' }
	/** The durable scheduler's poll timeout is `timeoutMs` until `until` (its budget follows from it). */
	| { at: number; kind: 'budget'; until: number; timeoutMs: number }
	/** The next poll hangs `stallMs` (real ms) on its first request, so the poll after it starts while it runs. */
	| { at: number; kind: 'overlap'; stallMs: number }
	/** The user deactivates the workflow at `at` and activates it again `offMs` later (no polls meanwhile). */
	| { at: number; kind: 'pause'; offMs: number }
	/**
	 * Another node of the workflow (a Code node, another trigger's baseline) writes the workflow's global static data
	 * at `at`, and n8n saves it: the trigger's own static data stays as it was.
	 */
	| { at: number; kind: 'staticWrite'; key: string };

export type MidPoll = 'groups' | 'list';

export type EventKind = WorldEvent['kind'];

/** Events that are weather (of the API or of n8n), not changes to the account. */
export const WEATHER_KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
	'latency',
	'fault',
	'churn',
	'projectFault',
	'restart',
	'kill',
	'budget',
	'overlap',
	'pause',
	'staticWrite',
]);

/** Events per simulated day (on average). */
export interface Rates {
	createProject: number;
	createGroup: number;
	rename: number;
	/** A name freed and taken again: renamed or deleted, then a project created or renamed under the old name. */
	reuseName: number;
	archive: number;
	/** Archived right after a crawl of it (before the next poll), restored hours later. */
	archiveAfterCrawl: number;
	delete: number;
	addKeywords: number;
	deleteKeywords: number;
	moveKeywords: number;
	tagKeywords: number;
	refresh: number;
	alerts: number;
	lateAlerts: number;
	latency: number;
	churn: number;
	fault429: number;
	fault5xx: number;
	/** `groups/active` alone failing, each try, for a poll or a few. */
	faultGroups: number;
	/** Every other (or third) request failing, for a few polls. */
	faultFlaky: number;
	/** 5xx on more requests than a poll's tries, for several polls. */
	faultLong: number;
	projectFault: number;
	restart: number;
	kill: number;
	budget: number;
	overlap: number;
	/** The workflow deactivated and activated again (drawn apart from the rest: the other events stay the seed's). */
	pause: number;
	/**
	 * Writes of the workflow's global static data by other nodes, in a workflow that has such nodes (a seed in three
	 * has them; drawn apart from the rest, as pauses are).
	 */
	staticWrite: number;
}

export const DEFAULT_RATES: Rates = {
	createProject: 0.15,
	createGroup: 0.3,
	rename: 0.3,
	reuseName: 0.12,
	archive: 0.15,
	archiveAfterCrawl: 0.1,
	delete: 0.12,
	addKeywords: 1,
	deleteKeywords: 0.6,
	moveKeywords: 0.3,
	tagKeywords: 0.4,
	refresh: 1.2,
	alerts: 0.7,
	lateAlerts: 0.5,
	latency: 0.4,
	churn: 0.5,
	fault429: 0.7,
	fault5xx: 0.7,
	faultGroups: 0.25,
	faultFlaky: 0.2,
	faultLong: 0.15,
	projectFault: 0.3,
	restart: 0.5,
	kill: 0.3,
	budget: 0.5,
	overlap: 0.15,
	pause: 0.1,
	staticWrite: 40,
};

export type Scheduler = 'in-memory' | 'durable' | 'durable-cursors';

export interface PlanOptions {
	seed: string;
	days: number;
	scheduler: Scheduler;
	rates?: Partial<Rates>;
	/** Whether the fake can rename projects and groups (the plan then has renames). */
	renames?: boolean;
	/** Largest keyword list planned at the start (default 3,000). */
	maxKeywords?: number;
	/**
	 * A project of this many keywords at activation besides the others (a big account: its reads last several polls),
	 * crawled weekly; none when absent.
	 */
	bigProject?: number;
}

export interface Plan {
	seed: string;
	days: number;
	/** The projects and groups at activation (the events before SIM_EPOCH create them). */
	initial: Array<{ key: ContainerKey; name: string }>;
	events: WorldEvent[];
}

const PROJECT_NAMES = [
	'Acme Shoes',
	'Café Zürich',
	'Blue Fern Dental',
	'Northwind Travel',
	'Orbit Bikes',
	'Harbor Legal',
	'Pine & Co',
	'Sunny Side Bakery',
	'Urban Roots',
	'Delta Plumbing',
	'Maple Realty',
	'Nova Fitness',
	'Lumen Optics',
	'Copper Kettle',
	'Atlas Movers',
	'Juniper Spa',
];
/** Names a program may trip over: object keys, a slash, a percent sign, non-ASCII. */
const ODD_PROJECT_NAMES = [
	'__proto__',
	'constructor',
	'toString',
	'hasOwnProperty',
	'A/B Test',
	'100% Organic',
	'Ünïcødé ✓',
	'C++ & C#',
];
const GROUP_NAMES = [
	'Blog',
	'Shop',
	'Local',
	'Brand',
	'Competitors',
	'EU',
	'US',
	'Mobile',
	'Campaign Q1',
];
const ODD_GROUP_NAMES = ['__proto__', 'constructor', 'a/b', '50% off'];
/** Tags the account puts on keywords (the trigger's Tags filter draws from them). */
export const TAG_NAMES = ['brand', 'priority', 'Local SEO', 'q1-push'];

interface PlannedContainer {
	key: ContainerKey;
	project: ContainerKey;
	/** Project name, or the group's own name. */
	name: string;
	group: boolean;
	archived: boolean;
	deleted: boolean;
	groups: number;
	/** Daily plan, or weekly on this weekday (0 = Sunday). */
	weekday: number | null;
	/** Crawls create alerts. */
	alerts: boolean;
	size: number;
}

/** Poisson-distributed count with mean `mean`. */
function poisson(rng: Prng, mean: number): number {
	if (mean <= 0) return 0;
	const limit = Math.exp(-mean);
	let k = 0;
	let p = rng.next();
	while (p > limit) {
		k++;
		p *= rng.next();
	}
	return k;
}

const CRAWL_HOURS_WEATHER: ReadonlySet<keyof Rates> = new Set<keyof Rates>([
	'latency',
	'fault429',
	'fault5xx',
	'faultGroups',
	'faultFlaky',
	'faultLong',
	'churn',
	'projectFault',
	'restart',
	'kill',
	'budget',
	'overlap',
]);

/** Changes to the account that come often while a project is being crawled. */
const DURING_CRAWLS: ReadonlySet<keyof Rates> = new Set<keyof Rates>([
	'rename',
	'reuseName',
	'archive',
	'delete',
	'moveKeywords',
]);

type FaultKind = 'fault429' | 'faultGroups' | 'faultFlaky' | 'faultLong' | 'fault5xx';

/** The API's failures, one drawing a kind (its fields drawn in this order: a seed's plan depends on it). */
const FAULTS: Record<
	FaultKind,
	(rng: Prng) => Omit<Extract<WorldEvent, { kind: 'fault' }>, 'at' | 'kind'>
> = {
	fault429: (rng) => ({
		polls: rng.int(1, 3),
		times: rng.int(1, 4),
		status: 429,
		// Retry-After: 0 costs the retries no wall time; a few ask for a real second.
		retryAfter: rng.chance(0.95) ? '0' : '1',
	}),
	faultGroups: (rng) => ({
		polls: rng.int(1, 3),
		times: rng.int(3, 6),
		status: rng.pick([500, 503]),
		retryAfter: '0',
		groups: true,
	}),
	// A flaky API: every 2nd or 3rd request fails, most pages need a retry.
	faultFlaky: (rng) => ({
		polls: rng.int(1, 3),
		times: 10_000,
		status: rng.pick([502, 503]),
		retryAfter: '0',
		every: rng.int(2, 3),
	}),
	faultLong: (rng) => ({
		polls: rng.int(2, 5),
		times: rng.int(3, 12),
		status: rng.pick([500, 502, 503]),
		retryAfter: '0',
	}),
	fault5xx: (rng) => ({
		polls: rng.int(1, 3),
		times: rng.int(1, 6),
		status: rng.pick([500, 502, 503]),
		// Most answer with Retry-After: 0 so the retries cost no wall time; a few back off for real.
		retryAfter: rng.chance(0.9) ? '0' : undefined,
		drop: rng.chance(0.05),
	}),
};

class Planner {
	readonly rng: Prng;
	readonly containers = new Map<ContainerKey, PlannedContainer>();
	readonly events: WorldEvent[] = [];
	/** Plan crawls: a project's keywords are crawled between start and end. */
	private readonly windows: Array<{ project: ContainerKey; start: number; end: number }> = [];
	private projectCount = 0;
	private readonly rates: Rates;

	constructor(readonly options: PlanOptions) {
		this.rng = new Prng(`account-life:${options.seed}`);
		this.rates = { ...DEFAULT_RATES, ...options.rates };
		if (options.renames === false) {
			this.rates.rename = 0;
			this.rates.reuseName = 0;
		}
		// Weather only one scheduler has.
		if (options.scheduler === 'in-memory') this.rates.budget = 0;
		else this.rates.overlap = 0;
	}

	private alive(filter: (c: PlannedContainer) => boolean = () => true): PlannedContainer[] {
		return [...this.containers.values()].filter((c) => !c.deleted && filter(c));
	}

	private takenNames(project: ContainerKey | null): Set<string> {
		return new Set(
			this.alive((c) => (project === null ? !c.group : c.group && c.project === project)).map(
				(c) => c.name,
			),
		);
	}

	private freshName(pool: string[], odd: string[], project: ContainerKey | null): string {
		const taken = this.takenNames(project);
		const candidates = (this.rng.chance(0.25) ? odd : pool).filter((name) => !taken.has(name));
		if (candidates.length > 0) return this.rng.pick(candidates);
		for (let n = 2; ; n++) {
			const name = `${this.rng.pick(pool)} ${n}`;
			if (!taken.has(name)) return name;
		}
	}

	private size(group: boolean): number {
		const max = this.options.maxKeywords ?? 3_000;
		const roll = this.rng.next();
		if (group) return roll < 0.7 ? this.rng.int(5, 120) : this.rng.int(120, 400);
		if (roll < 0.55) return this.rng.int(10, 150);
		if (roll < 0.9) return this.rng.int(150, 700);
		return this.rng.int(Math.min(1_000, max), max);
	}

	createProject(at: number, named?: string, size = this.size(false)): PlannedContainer {
		const key = `P${++this.projectCount}`;
		const name = named ?? this.freshName(PROJECT_NAMES, ODD_PROJECT_NAMES, null);
		const project: PlannedContainer = {
			key,
			project: key,
			name,
			group: false,
			archived: false,
			deleted: false,
			groups: 0,
			weekday: this.rng.chance(0.7) ? null : this.rng.int(0, 6),
			alerts: size <= 700 && this.rng.chance(0.5),
			size,
		};
		this.containers.set(key, project);
		this.events.push({ at, kind: 'createProject', key, name });
		return project;
	}

	createGroup(at: number, project: PlannedContainer): PlannedContainer {
		const key = `${project.key}/G${++project.groups}`;
		const name = this.freshName(GROUP_NAMES, ODD_GROUP_NAMES, project.key);
		const group: PlannedContainer = {
			...project,
			key,
			name,
			group: true,
			groups: 0,
			size: this.size(true),
		};
		this.containers.set(key, group);
		this.events.push({ at, kind: 'createGroup', key, name });
		return group;
	}

	/** The initial account, created in the two hours before activation, with ranks and a few alerts. */
	initialAccount(): void {
		const start = SIM_EPOCH - 2 * HOUR;
		const projects = this.rng.int(3, 6);
		const big = this.options.bigProject;
		for (let p = 0; p < projects; p++) {
			const at = start + p * MINUTE;
			const project = this.createProject(at, undefined, big && p === 0 ? big : undefined);
			if (big && p === 0) {
				// Weekly, without alerts: its crawls are the big reads; the others make the rest of the account's life.
				project.weekday = this.rng.int(0, 6);
				project.alerts = false;
			}
			this.events.push({
				at: at + 1_000,
				kind: 'addKeywords',
				key: project.key,
				count: project.size,
				tracked: true,
			});
			const groups = this.rng.chance(0.4) ? 0 : this.rng.int(1, 3);
			for (let g = 0; g < groups; g++) {
				const group = this.createGroup(at + 2_000 + g * 1_000, project);
				this.events.push({
					at: at + 2_500 + g * 1_000,
					kind: 'addKeywords',
					key: group.key,
					count: group.size,
					tracked: true,
				});
			}
		}
		// Activity just before activation: nothing of it may be emitted.
		const keys = this.alive().map((c) => c.key);
		this.events.push({ at: SIM_EPOCH - 30 * MINUTE, kind: 'alerts', key: keys[0], count: 40 });
		this.events.push({
			at: SIM_EPOCH - 20 * MINUTE,
			kind: 'refresh',
			key: this.rng.pick(keys),
			withGroups: true,
		});
		this.events.push({
			at: SIM_EPOCH - 3 * MINUTE,
			kind: 'crawl',
			key: this.rng.pick(keys),
			slice: 0,
			of: 2,
			alerts: true,
		});
	}

	/** Plan crawls of one day: each project (daily, or weekly on its day) in a window between 00:00 and 12:00 UTC. */
	crawls(day: number): void {
		const weekday = new Date(day).getUTCDay();
		for (const project of this.alive((c) => !c.group && !c.archived)) {
			if (project.weekday !== null && project.weekday !== weekday) continue;
			const start = day + this.rng.int(0, 10 * 60) * MINUTE + this.rng.int(1, 59) * 1_000;
			const duration = this.rng.int(10, Math.min(120, (day + 12 * HOUR - start) / MINUTE)) * MINUTE;
			this.windows.push({ project: project.key, start, end: start + duration });
			const members = this.alive((c) => c.project === project.key && !c.archived);
			for (const container of members) {
				const parts = this.rng.int(1, 8);
				for (let slice = 0; slice < parts; slice++) {
					const urls = this.rng.chance(0.3) ? this.rng.int(5, 40) : undefined;
					this.events.push({
						at: start + Math.floor(this.rng.next() * duration),
						kind: 'crawl',
						key: container.key,
						slice,
						of: parts,
						alerts: project.alerts && this.rng.chance(0.5),
						...(urls === undefined ? {} : { urls }),
					});
				}
			}
		}
	}

	/**
	 * The random happenings of one day, in time order (each picks among what exists at that point of the plan). Changes
	 * to projects and groups, and most weather, come often while a project's keywords are being crawled (its list
	 * moving under a read is when a trigger can lose its place): then at a time within that crawl, on that project.
	 */
	happenings(day: number): void {
		const r = this.rates;
		const windows = this.windows.filter((w) => w.start >= day && w.start < day + DAY);
		const kinds = (Object.entries(r) as Array<[keyof Rates, number]>).filter(
			([kind]) => kind !== 'pause' && kind !== 'staticWrite',
		);
		const planned: Array<{ at: number; kind: keyof Rates; project?: ContainerKey }> = [];
		for (const [kind, rate] of kinds) {
			const count = poisson(this.rng, rate);
			for (let n = 0; n < count; n++) {
				// Weather comes mostly while the plans crawl (00:00–12:00 UTC), when the API is busy and lists move.
				const busy = CRAWL_HOURS_WEATHER.has(kind) && this.rng.chance(0.7);
				const during =
					(busy || DURING_CRAWLS.has(kind)) && windows.length > 0 && this.rng.chance(0.6)
						? this.rng.pick(windows)
						: undefined;
				if (during) {
					const at =
						during.start + Math.floor(this.rng.next() * (during.end - during.start + 10 * MINUTE));
					planned.push({ at, kind, project: during.project });
					continue;
				}
				const span = busy ? DAY / 2 : DAY;
				planned.push({ at: day + Math.floor(this.rng.next() * span), kind });
			}
		}
		planned.sort((a, b) => a.at - b.at);
		for (const { at, kind, project } of planned) this.happen(at, kind, project);
	}

	/** A change to a project or group is made in the middle of a poll now and then. */
	private midPoll(): { midPoll?: MidPoll } {
		if (!this.rng.chance(0.3)) return {};
		return { midPoll: this.rng.chance(0.5) ? 'groups' : 'list' };
	}

	private happen(at: number, kind: keyof Rates, crawling?: ContainerKey): void {
		const rng = this.rng;
		const all = this.alive((c) => !c.archived && !(c.group && this.isArchived(c.project)));
		// During a project's crawl: that project or one of its groups, when it is still there.
		const near = crawling === undefined ? [] : all.filter((c) => c.project === crawling);
		const live =
			near.length > 0 &&
			[
				'rename',
				'reuseName',
				'archive',
				'delete',
				'projectFault',
				'deleteKeywords',
				'moveKeywords',
				'tagKeywords',
				'refresh',
			].includes(kind)
				? near
				: all;
		const projects = live.filter((c) => !c.group);
		switch (kind) {
			case 'createProject': {
				const project = this.createProject(at);
				this.events.push({
					at: at + rng.int(1, 30) * MINUTE,
					kind: 'addKeywords',
					key: project.key,
					count: project.size,
				});
				return;
			}
			case 'createGroup': {
				if (projects.length === 0) return;
				const group = this.createGroup(at, rng.pick(projects));
				this.events.push({
					at: at + rng.int(1, 30) * MINUTE,
					kind: 'addKeywords',
					key: group.key,
					count: group.size,
				});
				return;
			}
			case 'rename': {
				if (live.length === 0) return;
				const target = rng.pick(live);
				const name = target.group
					? this.freshName(GROUP_NAMES, ODD_GROUP_NAMES, target.project)
					: this.freshName(PROJECT_NAMES, ODD_PROJECT_NAMES, null);
				target.name = name;
				this.events.push({ at, kind: 'rename', key: target.key, name, ...this.midPoll() });
				return;
			}
			case 'reuseName': {
				// A name freed (renamed away or deleted) and taken again minutes later.
				const named = projects.filter((c) => !c.group);
				if (named.length === 0 || all.filter((c) => !c.group).length <= 2) return;
				const target = rng.pick(named);
				const freed = target.name;
				const later = at + rng.int(1, 20) * MINUTE;
				if (rng.chance(0.6)) {
					target.name = this.freshName(PROJECT_NAMES, ODD_PROJECT_NAMES, null);
					this.events.push({ at, kind: 'rename', key: target.key, name: target.name });
				} else {
					target.deleted = true;
					for (const c of this.containers.values()) if (c.project === target.key) c.deleted = true;
					this.events.push({ at, kind: 'delete', key: target.key });
				}
				const others = this.alive((c) => !c.group && !c.archived && c.key !== target.key);
				if (others.length > 0 && rng.chance(0.4)) {
					const other = rng.pick(others);
					other.name = freed;
					this.events.push({ at: later, kind: 'rename', key: other.key, name: freed });
					return;
				}
				const project = this.createProject(later, freed);
				this.events.push({
					at: later + rng.int(1, 10) * MINUTE,
					kind: 'addKeywords',
					key: project.key,
					count: project.size,
				});
				return;
			}
			case 'archiveAfterCrawl': {
				// Crawled, then archived before the next poll saw it; mostly restored later.
				if (live.length === 0 || all.filter((c) => !c.group).length <= 2) return;
				const target = rng.pick(live);
				this.events.push({ at, kind: 'crawl', key: target.key, slice: 0, of: 1, alerts: false });
				const archivedAt = at + rng.int(5, 200) * 1_000;
				target.archived = true;
				this.events.push({ at: archivedAt, kind: 'archive', key: target.key });
				if (rng.chance(0.8)) {
					this.events.push({
						at: archivedAt + rng.int(30, 24 * 60) * MINUTE,
						kind: 'restore',
						key: target.key,
					});
					target.archived = false;
				}
				return;
			}
			case 'moveKeywords': {
				const families = projects.filter((p) => all.some((c) => c.group && c.project === p.key));
				if (families.length === 0) return;
				const family = rng.pick(families);
				const members = all.filter((c) => c.project === family.key);
				const from = rng.pick(members);
				const to = rng.pick(members.filter((c) => c.key !== from.key));
				this.events.push({
					at,
					kind: 'move',
					key: from.key,
					to: to.key,
					percent: rng.int(2, 40),
					salt: rng.int(1, 1_000_000),
				});
				return;
			}
			case 'tagKeywords': {
				if (live.length === 0) return;
				this.events.push({
					at,
					kind: 'tag',
					key: rng.pick(live).key,
					tag: rng.pick(TAG_NAMES),
					percent: rng.int(5, 60),
					salt: rng.int(1, 1_000_000),
					...(rng.chance(0.2) ? { remove: true } : {}),
				});
				return;
			}
			case 'archive': {
				if (live.length === 0 || all.filter((c) => !c.group).length <= 2) return;
				const target = rng.pick(live);
				target.archived = true;
				this.events.push({ at, kind: 'archive', key: target.key, ...this.midPoll() });
				if (rng.chance(0.7)) {
					const back = at + rng.int(60, 36 * 60) * MINUTE;
					this.events.push({ at: back, kind: 'restore', key: target.key, ...this.midPoll() });
					// The planner treats it as back at once: later happenings may pick it (they do nothing while archived).
					target.archived = false;
				}
				return;
			}
			case 'delete': {
				if (live.length === 0 || all.filter((c) => !c.group).length <= 2) return;
				const target = rng.pick(live);
				target.deleted = true;
				for (const c of this.containers.values()) if (c.project === target.key) c.deleted = true;
				this.events.push({ at, kind: 'delete', key: target.key, ...this.midPoll() });
				return;
			}
			case 'addKeywords': {
				if (live.length === 0) return;
				const count = rng.chance(0.8) ? rng.int(5, 150) : rng.int(150, 800);
				this.events.push({ at, kind: 'addKeywords', key: rng.pick(live).key, count });
				return;
			}
			case 'deleteKeywords': {
				if (live.length === 0) return;
				this.events.push({
					at,
					kind: 'deleteKeywords',
					key: rng.pick(live).key,
					percent: rng.chance(0.1) ? 100 : rng.int(2, 30),
					salt: rng.int(1, 1_000_000),
				});
				return;
			}
			case 'refresh': {
				if (live.length === 0) return;
				const target = rng.pick(live);
				this.events.push({ at, kind: 'refresh', key: target.key, withGroups: !target.group });
				return;
			}
			case 'alerts': {
				if (live.length === 0) return;
				const count = rng.chance(0.9) ? rng.int(5, 120) : rng.int(200, 1_000);
				this.events.push({ at, kind: 'alerts', key: rng.pick(live).key, count });
				return;
			}
			case 'lateAlerts': {
				if (live.length === 0) return;
				this.events.push({
					at,
					kind: 'lateAlerts',
					key: rng.pick(live).key,
					count: rng.int(1, 5),
					lateBySeconds: rng.int(1, 240),
				});
				return;
			}
			case 'churn':
				this.events.push({
					at,
					kind: 'churn',
					until: at + rng.int(10, 60) * MINUTE,
					everyPages: rng.int(1, 3),
					deleteKeywords: rng.int(0, 3),
					crawlKeywords: rng.int(1, 10),
					addKeywords: rng.int(0, 3),
					addAlerts: rng.int(0, 10),
				});
				return;
			case 'latency':
				this.events.push({
					at,
					kind: 'latency',
					until: at + rng.int(5, 40) * MINUTE,
					ms: rng.int(20, 200),
				});
				return;
			case 'fault429':
			case 'faultGroups':
			case 'faultFlaky':
			case 'faultLong':
			case 'fault5xx':
				this.events.push({ at, kind: 'fault', ...FAULTS[kind](rng) });
				return;
			case 'projectFault': {
				const busy = crawling === undefined ? undefined : this.containers.get(crawling);
				const targets = busy && !busy.deleted ? [busy] : projects;
				if (targets.length === 0) return;
				this.events.push({
					at,
					kind: 'projectFault',
					key: rng.pick(targets).key,
					until: at + HOUR,
					status: rng.pick([500, 500, 503]),
				});
				return;
			}
			case 'restart':
				this.events.push({ at, kind: 'restart', downMs: rng.int(0, 180) * 1_000 });
				return;
			case 'kill':
				this.events.push({ at, kind: 'kill' });
				return;
			case 'budget':
				this.events.push({
					at,
					kind: 'budget',
					until: at + rng.int(10, 90) * MINUTE,
					timeoutMs: rng.pick([3_000, 4_000, 5_000]),
				});
				return;
			case 'overlap':
				this.events.push({ at, kind: 'overlap', stallMs: rng.int(100, 400) });
				return;
		}
	}

	/**
	 * The workflow deactivated and activated again, now and then: for a few minutes, hours or a day and a half, half
	 * of the times while a project is crawled. Drawn from a generator of their own, after the rest of the plan, so that
	 * a seed's account and weather stay what they were before pauses were simulated.
	 */
	pauses(): void {
		const rng = new Prng(`account-life-pauses:${this.options.seed}`);
		for (let d = 0; d < this.options.days; d++) {
			const day = SIM_EPOCH + d * DAY;
			const windows = this.windows.filter((w) => w.start >= day && w.start < day + DAY);
			for (let n = poisson(rng, this.rates.pause); n > 0; n--) {
				const during = windows.length > 0 && rng.chance(0.5) ? rng.pick(windows) : undefined;
				const at = during
					? during.start + Math.floor(rng.next() * (during.end - during.start))
					: day + Math.floor(rng.next() * DAY);
				const offMs = rng.pick([
					rng.int(1, 20) * MINUTE,
					rng.int(1, 8) * HOUR,
					rng.int(20, 36) * HOUR,
				]);
				this.events.push({ at, kind: 'pause', offMs });
			}
		}
		// Off for days now and then (a workflow switched off over a weekend), drawn after the rest of the pauses.
		for (let d = 0; d < this.options.days; d += 7) {
			if (!rng.chance(this.rates.pause * 2)) continue;
			const at = SIM_EPOCH + (d + rng.next() * 7) * DAY;
			this.events.push({ at: Math.floor(at), kind: 'pause', offMs: rng.int(2, 4) * DAY });
		}
	}

	/**
	 * Other nodes of the workflow writing its global static data, in a seed in three: a Code node counting runs, or
	 * another trigger placing its baseline. Drawn from a generator of their own, after the rest of the plan.
	 */
	staticWrites(): void {
		const rng = new Prng(`account-life-static-writes:${this.options.seed}`);
		if (!rng.chance(1 / 3)) return;
		// Now and then, or about every poll (a Code node run by another trigger of the workflow each minute).
		const perDay = rng.chance(0.5) ? this.rates.staticWrite : this.rates.staticWrite * 10;
		for (let h = 0; h < this.options.days * 24; h++) {
			const hour = SIM_EPOCH + h * HOUR;
			for (let n = poisson(rng, perDay / 24); n > 0; n--) {
				const at = hour + Math.floor(rng.next() * HOUR);
				this.events.push({ at, kind: 'staticWrite', key: rng.pick(['runs', 'lastRun', 'other']) });
			}
		}
	}

	private isArchived(key: ContainerKey): boolean {
		return this.containers.get(key)?.archived ?? false;
	}
}

/** The plan of a seed. */
export function planAccountLife(options: PlanOptions): Plan {
	const planner = new Planner(options);
	planner.initialAccount();
	const initial = [...planner.containers.values()].map((c) => ({ key: c.key, name: c.name }));
	for (let d = 0; d < options.days; d++) {
		const day = SIM_EPOCH + d * DAY;
		planner.crawls(day);
		planner.happenings(day);
	}
	planner.pauses();
	planner.staticWrites();
	const events = planner.events
		.filter((e) => e.at < SIM_EPOCH + options.days * DAY)
		.map((e, n) => ({ e, n }))
		// Stable: events at one instant keep the order they were planned in (a group after its project).
		.sort((a, b) => a.e.at - b.e.at || a.n - b.n)
		.map(({ e }) => e);
	return { seed: options.seed, days: options.days, initial, events };
}

/** A short human description of an event, for reports. */
export function describeEvent(event: WorldEvent): string {
	const t = `${new Date(event.at).toISOString().slice(5, 19).replace('T', ' ')}`;
	const { at: _at, kind, ...rest } = event;
	return `${t} ${kind} ${JSON.stringify(rest)}`;
}
