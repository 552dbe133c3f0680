/**
 * The checker: holds the trigger to its promises on every poll, from the truth the world reports (what became
 * visible when, which projects and groups went away, came back or changed name when, which keywords moved or changed
 * tags) and from what n8n did (which poll's state each poll started from), never from the trigger's own state. The
 * promises are the README's and docs/exactly-once.md's; each rule below says which.
 *
 * - Safety: each alert (by id) and each keyword update (by keyword id and crawled_at) emitted at most once; nothing
 *   that was visible before activation; nothing outside the scope (judged on the event's project or group when it
 *   happened); nothing the filters leave out, and with the reasons (`matched`) the filters give; ranks as the API said
 *   them (null outside the top results).
 * - Liveness: each event in scope that the filters let through is emitted within `maxDelay` polls of becoming
 *   visible, counting only polls without weather that concerns it (a global fault, a latency spike, a tight budget, a
 *   killed poll or a restart excuse a poll for every event; a failing project excuses its own events). A poll that
 *   spent the whole request cap counts for no event: a crawl bigger than one poll's cap arrives at the cap's pace; so
 *   does one that ran into its time budget (a busy machine or a slow API: a backlog then takes more polls).
 * - Resources: requests per poll (every HTTP try), the stored state's size against its documented bound, a poll's
 *   wall time against its hard deadline (requests end at the budget; shaping may run on to that deadline), and an
 *   idle poll's cost (1 request) once the world has been quiet for two polls and the poll before did not spend the
 *   whole cap or its budget.
 *
 * What is neither owed nor forbidden (the documented limits, each judged from the world's truth):
 * - an event stamped in the second of activation (the trigger's "now" is that second);
 * - a keyword update whose keyword is deleted, crawled again (the newer crawl is owed), or moved to another project
 *   or group before it was due; one of a project or group deleted before it was due; for a trigger on one project or
 *   group, one of it that was renamed out of the scope before it was due, or one crawled before a rename into the
 *   scope and after the last poll n8n kept the trigger's state of (the trigger sees names at polls only);
 * - a keyword update emitted a second time after its keyword moved to another project or group (the group it moved
 *   to reads it again when its own read was behind; never a third time);
 * - a filter's verdict the world cannot give: the tags of a keyword changed after the event, the previous rank or
 *   URL unknown; an alert emitted with `tags_unknown` (its keyword's tags could not be read);
 * - a late alert stamped more than 4 minutes early or in a crowd of more than 150 (the trigger keeps 5 minutes and
 *   200 ids); a keyword churn added with the ranks of an earlier crawl.
 * A project's crawls before it was archived are owed (the trigger reads an archived project's list once more), unless
 * it is renamed while archived before they are read, or renamed and archived between two polls (its new name cannot be
 * learned), or neither the state the next poll starts from nor the trigger's memory of its process's last poll knew it
 * (created or restored after that state was kept, and a restart between: nothing looks it up); a crawl made while it
 * is archived (the API crawls no archived project; the fake's churn may, under a read) is neither.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	EXPECTED_TIME_FACTOR,
	hardDeadlineMs,
	pollBudgetMs,
} from '../../nodes/KeywordComTrigger/polling/budget';
import { UNPLACED } from '../../nodes/KeywordComTrigger/newAlert/alertScope';
import type { ContainerKey } from './plan.cjs';
import type { RankFilterKey } from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import type { FilterSetting, ScopeSetting, TriggerOptions } from './settings.cjs';
import type { Fact, TruthSink } from './world.cjs';

export type { ScopeSetting } from './settings.cjs';

export type ViolationKind =
	| 'duplicate'
	| 'before-activation'
	| 'out-of-scope'
	| 'filter'
	| 'unknown'
	| 'rank'
	| 'late'
	| 'lost'
	| 'requests'
	| 'idle-cost'
	| 'state'
	| 'time'
	| 'silent';

export interface Violation {
	kind: ViolationKind;
	/** Poll index (0 = activation); -1 for what is found at the end. */
	poll: number;
	/** World time (ms) of that poll. */
	at: number;
	detail: string;
}

export interface CheckerOptions {
	event: 'newAlert' | 'keywordUpdated';
	scope: ScopeSetting;
	/** Containers the scope names at activation (their keys), for telling renamed ones apart. */
	scopeKeys: ContainerKey[];
	/** Filters and output (absent: none, Output Raw). */
	options?: TriggerOptions;
	/** Polls within which an event must be emitted. Default 2. */
	maxDelay?: number;
	maxRequestsPerPoll?: number;
	/** Slack on a poll's wall time over its hard deadline (ms). */
	timeSlackMs?: number;
	/** How far the API's Date header runs ahead of the world's clock (ms; the fake's `dateSkewMs`). */
	dateSkewMs?: number;
	/** What an alert's `category` names (the fake's `alertCategory`): a warning may name the list it names. */
	alertCategory?: 'own-name' | 'project-name';
	/** Alerts of one second come in no id order (the fake's `alertTieOrder` 'mixed'). */
	mixedAlertTies?: boolean;
}

/** The budget the trigger assumes where n8n tells it none (the in-memory scheduler; README). */
const ASSUMED_BUDGET_MS = 30_000;

/**
 * A poll that ran this share of its budget stopped reading for time: it starts no request that could not be answered
 * within the budget (1.2 times its slowest so far), so it stops short of the budget by up to a request's time.
 */
const BUDGET_SPENT_SHARE = 0.75;

export interface PollObservation {
	index: number;
	/** World time (ms) the poll started. */
	at: number;
	label: string;
	/** Weather that excuses this poll for every event. */
	excused: boolean;
	/** Projects whose events this poll is excused for (one project's paths failing). */
	excusedProjects: ReadonlySet<ContainerKey>;
	items: IDataObject[] | null;
	requests: number;
	stateBytes: number;
	/** Containers in scope now (for the state bound). */
	containersInScope: number;
	wallMs: number;
	/** The budget n8n gave the poll (ms), if any. */
	budgetMs?: number;
	/** The slowest request the poll timed (ms), from its state: with the wall time, whether it stopped for time. */
	slowestRequestMs?: number;
	/** The poll whose stored state this poll started from (index; -1: none); undefined: not known. */
	startedFrom?: number;
	/** Nothing in the world and no weather since two polls before this one (an idle poll, unless the state is older). */
	quiet?: boolean;
	/** When the world last did anything (ms): an idle poll's state must be from after it. */
	lastActivityAt?: number;
	/** The names of the failing projects (`excusedProjects`) now. */
	failingNames?: ReadonlyMap<ContainerKey, string>;
	/** Their names when the poll began (one renamed in the middle of it is spoken of by either). */
	failingNamesAtStart?: ReadonlyMap<ContainerKey, string>;
	/** What the poll logged at level warn. */
	warnings?: readonly string[];
	/** The poll threw (n8n logged its error). */
	failed?: boolean;
	/** Whether the poll may say nothing of a failing project: it was killed, abandoned or did nothing (overlapping). */
	mayBeSilent?: boolean;
	/** The projects and groups in scope `groups/active` listed when the poll began; undefined: not known. */
	listed?: ReadonlySet<ContainerKey>;
	/** The life of n8n's process the poll ran in (what the trigger keeps in memory lasts one). */
	life?: number;
}

interface Tracked {
	fact: Fact;
	/** Must be emitted (in scope by name at the time, after activation, let through by the filters). */
	owed: boolean;
	/** Out of scope: emitting it breaks the scope. */
	forbidden: boolean;
	/** The filters leave it out (by the world's truth): emitting it breaks them. */
	filteredOut: boolean;
	emitted: number;
	emittedAt?: number;
	/** Polls that counted towards its delay so far. */
	waited: number;
	late: boolean;
	/** When it stopped being owed (ms), and why. */
	releasedAt?: number;
	releasedWhy?: string;
	/** Its keyword moved after it was emitted (a second emission is tolerated). */
	movedAfterEmission?: boolean;
}

const GROUP_SEPARATOR = '[sub]';
/** How late an alert may be stamped and still be owed (the trigger looks back 300 s). */
const LATE_ALERT_SECONDS = 240;
/** Most alerts at or after a late one's stamp for it to be owed (the trigger keeps 200 ids). */
const LATE_ALERT_CROWD = 150;
/** Seconds the trigger keeps back at the end of its window (the API's clock may be ahead of its stamps). */
const SETTLE_SECONDS = 2;
/** The trigger's look-back for late alerts: it keeps the ids of the alerts of that stretch before its poll. */
const LOOKBACK_SECONDS = 300;
/** Outside the top results, in a change. */
const OUTSIDE = 101;

function inScopeByName(name: string, scope: ScopeSetting): boolean {
	if (!scope.project) return true;
	if (scope.group) return name === `${scope.project}${GROUP_SEPARATOR}${scope.group}`;
	if (name === scope.project) return true;
	return scope.includeGroups !== false && name.startsWith(`${scope.project}${GROUP_SEPARATOR}`);
}

export interface Summary {
	events: number;
	owed: number;
	emitted: number;
	lost: number;
	late: number;
	duplicated: number;
	outOfScope: number;
	filteredOutEmitted: number;
	beforeActivation: number;
	unknown: number;
	rankErrors: number;
	released: number;
	/** Second emissions tolerated (their keyword moved to another group after the first). */
	movedEmittedAgain: number;
	worstDelay: number;
	polls: number;
	requestsMax: number;
	requestsP95: number;
	/** Polls that spent the whole request cap (a read bigger than a poll). */
	pollsAtCap: number;
	/** Most requests of an idle poll (nothing in the world for two polls). */
	idleRequestsMax: number;
	stateBytesMax: number;
	wallMsMax: number;
	/** Wall time of all polls together (ms). */
	wallMsTotal: number;
	/** Polls that took more than 300 ms. */
	slowPolls: number;
}

/** The reasons (`matched`) the trigger gives, in its order; undefined when the filters leave the event out. */
export type Verdict = { pass: true; matched: string[] } | { pass: false } | { pass: 'unknown' };

const effective = (rank: number | null) => (rank === null || rank === 0 ? OUTSIDE : rank);

/** A ranking URL as the trigger compares them: `NOT FOUND`, empty and missing are one value. */
function sameUrl(a: string | undefined, b: string | undefined): boolean {
	const norm = (url: string | undefined) =>
		url === undefined || url.trim() === '' || url.trim() === 'NOT FOUND' ? '-' : url.trim();
	return norm(a) === norm(b);
}

/** An event's ranks as the checker judges them (null: outside the top results; 'unknown': the world cannot say). */
interface Ranks {
	rank: number | null | undefined;
	previous: number | null | undefined | 'unknown';
}

/**
 * One filter's verdict from the world's truth: its reason, false when it leaves the event out, 'unknown' when the world
 * cannot tell, undefined when it is not set.
 */
type Rule = (
	fact: Fact,
	filters: FilterSetting,
	ranks: Ranks,
	tagsKnown: boolean,
) => string | false | 'unknown' | undefined;

/** The two ranks as the movement filters compare them, or why they cannot. */
function movement({
	rank,
	previous,
}: Ranks): { before: number; after: number } | false | 'unknown' {
	if (rank === undefined || previous === 'unknown') return 'unknown';
	if (previous === undefined) return false;
	return { before: effective(previous), after: effective(rank) };
}

/**
 * Each filter of the trigger's registry (nodes/KeywordComTrigger/filters/), judged here on its own from the world's
 * truth, in the registry's order (the order of the reasons). A filter added there fails to compile here until it is
 * judged.
 */
export const RANK_RULES: { readonly [Key in RankFilterKey]-?: Rule } = {
	movedBy: (_fact, filters, ranks) => {
		if (filters.movedBy === undefined) return undefined;
		const moved = movement(ranks);
		if (typeof moved !== 'object') return moved;
		const gained = moved.before - moved.after;
		const direction = filters.direction ?? 'either';
		if (gained >= filters.movedBy && gained > 0 && direction !== 'down') return 'moved_up';
		if (-gained >= filters.movedBy && gained < 0 && direction !== 'up') return 'moved_down';
		return false;
	},
	crossedTop: (_fact, filters, ranks) => {
		if (filters.crossedTop === undefined) return undefined;
		const moved = movement(ranks);
		if (typeof moved !== 'object') return moved;
		const { before, after } = moved;
		const n = filters.crossedTop === 0 ? (filters.topN ?? 5) : filters.crossedTop;
		const crossing = filters.crossing ?? 'either';
		if (before > n && after <= n && crossing !== 'left') return `top${n}_entered`;
		if (before <= n && after > n && crossing !== 'entered') return `top${n}_left`;
		return false;
	},
	rankingUrlChanged: (fact, filters) => {
		if (!filters.rankingUrlChanged || fact.kind === 'alert') return undefined;
		if (fact.url === undefined && fact.previousUrl === undefined) return 'unknown';
		if (fact.previousUrl === undefined || sameUrl(fact.url, fact.previousUrl)) return false;
		return 'ranking_url_changed';
	},
	tags: (fact, filters, _ranks, tagsKnown) => {
		if (!filters.tags || filters.tags.length === 0) return undefined;
		const wanted = new Set(filters.tags.map((tag) => tag.trim().toLowerCase()));
		if (fact.tags === undefined || !tagsKnown) return 'unknown';
		return fact.tags.some((tag) => wanted.has(tag.trim().toLowerCase())) ? 'tagged' : false;
	},
};

/**
 * What the filters say of an event, from the world's truth (RANK_RULES). `tagsKnown`: whether the event's tags are what
 * the trigger reads (they did not change after it).
 */
export function verdictOf(
	fact: Fact,
	filters: FilterSetting | undefined,
	onlyRankChanges: boolean,
	tagsKnown: boolean,
): Verdict {
	const matched: string[] = [];
	let unknown = false;
	const alert = fact.kind === 'alert';
	const ranks: Ranks = alert
		? { rank: fact.rank ?? null, previous: fact.prevrank ?? null }
		: { rank: fact.rank, previous: fact.previousRank };
	if (onlyRankChanges && !alert) {
		const { rank, previous } = ranks;
		if (rank === undefined || previous === 'unknown') unknown = true;
		else if (previous === undefined) {
			if (rank === null) return { pass: false };
		} else if (effective(previous) === effective(rank)) return { pass: false };
	}
	for (const rule of Object.values(RANK_RULES)) {
		const said = filters ? rule(fact, filters, ranks, tagsKnown) : undefined;
		if (said === false) return { pass: false };
		if (said === 'unknown') unknown = true;
		else if (said !== undefined) matched.push(said);
	}
	return unknown ? { pass: 'unknown' } : { pass: true, matched };
}

export class Checker implements TruthSink {
	readonly violations: Violation[] = [];
	private readonly facts = new Map<string, Tracked>();
	private readonly pending = new Set<Tracked>();
	private readonly byKeyword = new Map<string, Set<Tracked>>();
	/** Keywords added with ranks of an earlier crawl → updates stamped before this second are tolerated. */
	private readonly addedWithRanks = new Map<string, number>();
	/** Keyword id → when its tags last changed (ms). */
	private readonly tagsChangedAt = new Map<string, number>();
	/** Container → when it came into the scope by a rename (ms). */
	private readonly renamedIn = new Map<ContainerKey, number[]>();
	/** Container → every name it had (an alert's tag lookup goes by the name the alert carries). */
	private readonly namesOf = new Map<ContainerKey, Set<string>>();
	/** Keyword → when it was last deleted or moved to another project or group (ms): its list may not hold it. */
	private readonly keywordLeftAt = new Map<string, number>();
	/** Container → when it was last renamed or deleted (ms): its old name may be gone or another's now. */
	private readonly nameLeftAt = new Map<ContainerKey, number>();
	/** created_at of recent alerts (for late ones). */
	private recentAlerts: number[] = [];
	/** Alerts per created_at second, and the most in one second (the state bound with mixed ties). */
	private readonly alertsInSecond = new Map<number, number>();
	private largestSecond = 0;
	private activationAt: number | null = null;
	private activationSeconds = 0;
	private worstDelay = 0;
	private readonly requestCounts: number[] = [];
	private idleRequestsMax = 0;
	private stateBytesMax = 0;
	private wallMsMax = 0;
	private wallMsTotal = 0;
	private slowPolls = 0;
	private polls = 0;
	/** Poll index → its start time and the poll its state came from. */
	private readonly pollAt: number[] = [];
	private readonly pollFrom: Array<number | undefined> = [];
	/** Requests of each poll, by index. */
	private readonly pollRequests: number[] = [];
	/** Polls the weather excused (a fault, a timeout, a kill): what they left unread is read by the next ones. */
	private readonly pollExcused: boolean[] = [];
	/** Polls that ran into their time budget, by index. */
	private readonly pollSpentBudget: boolean[] = [];
	/** Failing projects each poll warned about, by poll index. */
	private readonly warnedIn = new Map<number, Set<ContainerKey>>();
	private readonly maxDelay: number;
	private readonly counts = {
		duplicated: 0,
		outOfScope: 0,
		filteredOut: 0,
		beforeActivation: 0,
		unknown: 0,
		rank: 0,
		movedAgain: 0,
	};
	/** Called on every new violation. */
	onViolation?: (violation: Violation) => void;

	constructor(readonly options: CheckerOptions) {
		this.maxDelay = options.maxDelay ?? 2;
	}

	private violate(kind: ViolationKind, poll: number, at: number, detail: string): void {
		const violation = { kind, poll, at, detail };
		this.violations.push(violation);
		this.onViolation?.(violation);
	}

	/** The activation poll starts at `at`: everything visible before it is history. */
	activated(at: number): void {
		this.activationAt = at;
		this.activationSeconds = Math.floor(at / 1000);
	}

	private get filters(): FilterSetting | undefined {
		const filters = this.options.options?.filters;
		return filters && Object.keys(filters).length > 0 ? filters : undefined;
	}

	private get onlyRankChanges(): boolean {
		return (
			this.options.event === 'keywordUpdated' && this.options.options?.onlyRankChanges === true
		);
	}

	private verdict(fact: Fact, at: number): Verdict {
		const id = fact.kind === 'alert' ? fact.keywordId : fact.id;
		const changed = id === undefined ? undefined : this.tagsChangedAt.get(id);
		return verdictOf(
			fact,
			this.filters,
			this.onlyRankChanges,
			changed === undefined || changed <= Math.min(at, fact.visibleAt),
		);
	}

	// ------------------------------------------------------------------------------------------- truth (TruthSink)

	fact(fact: Fact): void {
		if ((fact.kind === 'alert') !== (this.options.event === 'newAlert')) return;
		if (this.facts.has(fact.key)) return;
		const before = this.activationAt === null || fact.visibleAt < this.activationAt;
		// The second of activation: the trigger's "now" is that second, whatever came in it before or after.
		const activationSecond = fact.at === this.activationSeconds && !before;
		const byName = inScopeByName(fact.category, this.options.scope);
		const identity =
			!this.options.scope.project ||
			(fact.container !== undefined && this.options.scopeKeys.includes(fact.container)) ||
			(fact.project !== undefined &&
				!this.options.scope.group &&
				this.options.scope.includeGroups !== false &&
				this.options.scopeKeys.includes(fact.project));
		const verdict = this.verdict(fact, fact.visibleAt);
		const whileArchived =
			fact.kind === 'keyword' &&
			[fact.container, fact.project].some((key) => key !== undefined && this.archived.has(key));
		const tracked: Tracked = {
			fact,
			owed:
				!before &&
				!whileArchived &&
				!activationSecond &&
				byName &&
				!fact.tolerated &&
				this.lateAlertOwed(fact) &&
				verdict.pass === true,
			// A renamed project or group the scope named: neither owed nor forbidden.
			forbidden: !byName && !identity && !fact.tolerated,
			filteredOut: verdict.pass === false && !fact.tolerated,
			emitted: 0,
			waited: 0,
			late: false,
		};
		this.facts.set(fact.key, tracked);
		if (fact.container !== undefined) this.nameSeen(fact.container, fact.category);
		if (fact.kind === 'alert') {
			this.recentAlerts.push(fact.at);
			const inSecond = (this.alertsInSecond.get(fact.at) ?? 0) + 1;
			this.alertsInSecond.set(fact.at, inSecond);
			this.largestSecond = Math.max(this.largestSecond, inSecond);
			const horizon = Math.floor(fact.visibleAt / 1000) - 2 * LATE_ALERT_SECONDS;
			if (this.recentAlerts.length > 4_096)
				this.recentAlerts = this.recentAlerts.filter((t) => t >= horizon);
		}
		const keyword = fact.kind === 'alert' ? fact.keywordId : fact.id;
		if (fact.kind === 'keyword') {
			// A newer crawl of the same keyword: the older one is no longer owed (one item, the latest rank).
			for (const older of this.byKeyword.get(fact.id) ?? [])
				if (older.fact.kind === 'keyword') this.release(older, fact.visibleAt, 'crawled again');
		}
		if (keyword !== undefined) {
			let set = this.byKeyword.get(keyword);
			if (!set) this.byKeyword.set(keyword, (set = new Set()));
			set.add(tracked);
		}
		if (tracked.owed) this.pending.add(tracked);
	}

	/**
	 * An alert stamped before it appeared is owed while it is at most LATE_ALERT_SECONDS late and few alerts share
	 * that stretch (the trigger remembers 200 ids within 5 minutes of the newest alert seen; margins kept).
	 */
	private lateAlertOwed(fact: Fact): boolean {
		if (fact.kind !== 'alert') return true;
		const shownAt = Math.floor(fact.visibleAt / 1000);
		if (fact.at >= shownAt - 1) return true;
		// Stamped before activation, shown after: from before activation by its stamp, new by when it appeared.
		if (fact.at <= this.activationSeconds) return false;
		if (shownAt - fact.at > LATE_ALERT_SECONDS) return false;
		// Conservative: every alert of the last 6 minutes counts, whatever the trigger's newest one is.
		const from = Math.min(fact.at, shownAt - 360);
		let near = 0;
		for (const other of this.recentAlerts) if (other >= from) near++;
		return near <= LATE_ALERT_CROWD;
	}

	private release(tracked: Tracked, at: number, why: string): void {
		if (tracked.releasedAt !== undefined) return;
		tracked.releasedAt = at;
		tracked.releasedWhy = why;
	}

	/** Projects and groups archived now (their crawls from now on are neither owed nor forbidden). */
	private readonly archived = new Set<ContainerKey>();
	/** Projects and groups renamed since the last poll that listed them (when): no poll has shown the new name yet. */
	private readonly renamedUnseen = new Map<ContainerKey, number>();
	/** Projects and groups archived (when, and their project) whose departure no poll that ran to its end has met yet. */
	private readonly archivedUnmet = new Map<ContainerKey, { at: number; project: ContainerKey }>();
	/** What each poll that ran to its end listed, by poll index. */
	private readonly listedBy = new Map<number, ReadonlySet<ContainerKey>>();
	/** The last poll that ran to its end in each life of n8n's process (what the trigger remembers in it). */
	private readonly lastRunInLife = new Map<number, number>();

	containerChanged(
		key: ContainerKey,
		project: ContainerKey,
		at: number,
		change: 'archived' | 'restored' | 'deleted' | 'renamed',
		name?: string,
		oldName?: string,
	): void {
		const scope = this.options.scope;
		if (change === 'renamed' || change === 'deleted') this.nameLeftAt.set(key, at);
		if (change === 'renamed') {
			this.renamedUnseen.set(key, at);
			for (const known of [name, oldName]) if (known !== undefined) this.nameSeen(key, known);
			// Renamed while archived (the plan renames live ones; a change made mid-poll may land after an archive): it is
			// not in groups/active and the API looks projects up by name only, so what it owed cannot be read any more.
			if (this.archived.has(key) || this.archived.has(project))
				this.releaseCrawlsOf(key, project, at, `${key} renamed while archived`);
			// Renaming keeps what a trigger of every project owes; one scoped by name cannot follow it.
			if (!scope.project || name === undefined) return;
			const wasIn = oldName === undefined || inScopeByName(oldName, scope);
			const isIn = inScopeByName(name, scope);
			if (!wasIn && isIn) this.renamedIn.set(key, [...(this.renamedIn.get(key) ?? []), at]);
			if (wasIn && !isIn) {
				for (const tracked of this.pending)
					if (tracked.fact.kind === 'keyword' && tracked.fact.container === key)
						this.release(tracked, at, `${key} renamed out of the scope`);
			}
			return;
		}
		if (change === 'archived') {
			this.archived.add(key);
			this.archivedUnmet.set(key, { at, project });
			// Renamed, then archived before any poll listed the new name (seed 40): an archived one is not in
			// groups/active and the API looks projects and groups up by name only, so its crawls cannot be read.
			this.releaseCrawlsOf(
				key,
				project,
				at,
				`${key} renamed and archived between two polls`,
				(fact) =>
					[fact.container, fact.project].some(
						(container) => container !== undefined && this.renamedUnseen.has(container),
					),
			);
		}
		if (change !== 'archived') this.archivedUnmet.delete(key);
		if (change === 'restored') {
			this.archived.delete(key);
			return;
		}
		// An archived project's crawls stay owed (its list is read once more); a deleted one's are gone.
		if (change === 'deleted') this.releaseCrawlsOf(key, project, at, `${key} deleted`);
	}

	/** Releases the pending crawls of `key` (of a project: its groups' too) that `which` picks (all by default). */
	private releaseCrawlsOf(
		key: ContainerKey,
		project: ContainerKey,
		at: number,
		why: string,
		which: (fact: Fact) => boolean = () => true,
	): void {
		for (const tracked of this.pending) {
			const fact = tracked.fact;
			if (fact.kind !== 'keyword') continue;
			if (fact.container !== key && !(key === project && fact.project === project)) continue;
			if (which(fact)) this.release(tracked, at, why);
		}
	}

	keywordsAddedWithRanks(ids: string[], before: number): void {
		for (const id of ids) this.addedWithRanks.set(id, before);
	}

	keywordsDeleted(ids: string[], at: number): void {
		for (const id of ids) {
			this.keywordLeftAt.set(id, at);
			for (const tracked of this.byKeyword.get(id) ?? [])
				if (tracked.fact.kind === 'keyword') this.release(tracked, at, 'keyword deleted');
		}
	}

	keywordsMoved(ids: string[], _to: ContainerKey, _name: string, at: number): void {
		for (const id of ids) {
			this.keywordLeftAt.set(id, at);
			for (const tracked of this.byKeyword.get(id) ?? []) {
				if (tracked.fact.kind !== 'keyword') continue;
				if (tracked.emitted > 0) tracked.movedAfterEmission = true;
				this.release(tracked, at, 'keyword moved');
				// Read from where it went now: whether it is in scope there is the trigger's to judge.
				tracked.forbidden = false;
			}
		}
	}

	tagsChanged(ids: string[], at: number): void {
		for (const id of ids) {
			this.tagsChangedAt.set(id, at);
			if (!this.filters?.tags) continue;
			// The verdict of its events not emitted yet is no longer the world's to give.
			for (const tracked of this.byKeyword.get(id) ?? []) this.release(tracked, at, 'tags changed');
		}
	}

	// ------------------------------------------------------------------------------------------------------ polls

	/** The event an item is about: its key and time, from whichever output shape it has. */
	private keyOf(item: IDataObject): { key: string; at: number } | undefined {
		if (item.id === undefined || item.id === null) return undefined;
		const attributes = (item.attributes ?? {}) as IDataObject;
		const seconds = (value: unknown): number =>
			typeof value === 'string' && !/^\d+$/.test(value)
				? Math.floor(Date.parse(value) / 1000)
				: Number(value);
		if (this.options.event === 'newAlert') {
			const at = seconds(item.created_at ?? attributes.created_at);
			return { key: `a:${String(item.id)}`, at };
		}
		const at = seconds(item.crawled_at ?? attributes.crawled_at);
		return { key: `k:${String(item.id)}@${at}`, at };
	}

	private checkRanks(tracked: Tracked, item: IDataObject, poll: PollObservation): void {
		const fact = tracked.fact;
		const attributes = (item.attributes ?? {}) as IDataObject;
		if (fact.kind === 'keyword') {
			if (fact.rank !== undefined && 'rank' in item && (item.rank ?? null) !== fact.rank)
				this.rankError(
					poll,
					`${fact.key}: rank ${String(item.rank)}, the crawl's was ${String(fact.rank)}`,
				);
			return;
		}
		// Raw: the record's attributes; Simplified and Selected Fields: previous_rank/rank.
		const result = attributes.result ?? item.rank;
		const prevrank = attributes.prevrank ?? item.previous_rank;
		if (Number(result ?? 0) !== fact.rank || Number(prevrank ?? 0) !== fact.prevrank)
			this.rankError(
				poll,
				`${fact.key}: ranks ${String(prevrank)}→${String(result)}, the alert's were ${String(fact.prevrank)}→${String(fact.rank)}`,
			);
	}

	private rankError(poll: PollObservation, detail: string): void {
		this.counts.rank++;
		this.violate('rank', poll.index, poll.at, detail);
	}

	/** The filters' verdict against what the item says (`matched`), at its emission. */
	private checkFilters(tracked: Tracked, item: IDataObject, poll: PollObservation): void {
		if (!this.filters) return;
		const verdict = this.verdict(tracked.fact, poll.at);
		const matched = Array.isArray(item.matched) ? (item.matched as string[]) : undefined;
		// Tags that could not be read: the alert comes with `tags_unknown`, whatever its tags are.
		const unknownTags = matched?.includes('tags_unknown') === true;
		if (unknownTags && !this.tagsMayBeUnknown(tracked.fact, poll))
			this.violate(
				'silent',
				poll.index,
				poll.at,
				`${tracked.fact.key} of "${tracked.fact.category}" emitted with tags_unknown, its keyword still in that list and no warning names it`,
			);
		// A ranking history of one entry a day that lost the crawl before: passed on as `ranking_url_unknown`, said.
		const unknownUrl = matched?.includes('ranking_url_unknown') === true;
		if (unknownUrl && !this.urlMayBeUnknown(poll))
			this.violate(
				'silent',
				poll.index,
				poll.at,
				`${tracked.fact.key} emitted with ranking_url_unknown, and no warning says why`,
			);
		if (verdict.pass === 'unknown' || tracked.releasedAt !== undefined || tracked.fact.tolerated)
			return;
		if (verdict.pass === false) {
			if (unknownTags && this.passesButTags(tracked.fact)) return;
			if (unknownUrl && this.passesBut(tracked.fact, 'rankingUrlChanged')) return;
			this.counts.filteredOut++;
			this.violate(
				'filter',
				poll.index,
				poll.at,
				`${tracked.fact.key} of "${tracked.fact.category}" emitted, the filters leave it out`,
			);
			return;
		}
		const expected = verdict.matched.map((reason) =>
			unknownTags && reason === 'tagged'
				? 'tags_unknown'
				: unknownUrl && reason === 'ranking_url_changed'
					? 'ranking_url_unknown'
					: reason,
		);
		if (JSON.stringify(matched ?? []) !== JSON.stringify(expected))
			this.violate(
				'filter',
				poll.index,
				poll.at,
				`${tracked.fact.key}: matched ${JSON.stringify(matched)}, the filters give ${JSON.stringify(expected)}`,
			);
	}

	/**
	 * Whether an alert's tags may be unknown (docs/exactly-once.md, New Alert's Tags): its keyword left the list (deleted
	 * or moved: a list read whole does not hold it, said by nobody), its project or group was renamed or deleted since
	 * (a name freed may be taken by another), or the poll warned that the list of one of the names its project or group
	 * had could not be read. Otherwise the list holds the keyword and was read.
	 */
	private tagsMayBeUnknown(fact: Fact, poll: PollObservation): boolean {
		if (fact.kind !== 'alert' || fact.keywordId === undefined) return true;
		if ((this.keywordLeftAt.get(fact.keywordId) ?? -Infinity) >= fact.visibleAt) return true;
		// Renamed or deleted since: the name the alert carries answers 404 (warned) or names another list (silent).
		if ((this.nameLeftAt.get(fact.container ?? '') ?? -Infinity) >= fact.visibleAt) return true;
		const names = [fact.category, ...(this.namesOf.get(fact.container ?? '') ?? [])];
		// An alert that names only its project: its tags were looked for in the project's list.
		if (this.options.alertCategory === 'project-name') names.push(fact.category.split('[sub]')[0]);
		return (poll.warnings ?? []).some(
			(line) => line.includes('tags_unknown') && names.some((name) => line.includes(`"${name}"`)),
		);
	}

	private nameSeen(key: ContainerKey, name: string): void {
		const names = this.namesOf.get(key) ?? new Set<string>();
		this.namesOf.set(key, names.add(name));
	}

	/** Whether an event passes every filter but Tags. */
	private passesButTags(fact: Fact): boolean {
		return this.passesBut(fact, 'tags');
	}

	/** Whether an event passes every filter but `left`. */
	private passesBut(fact: Fact, left: 'tags' | 'rankingUrlChanged'): boolean {
		const filters = this.filters;
		if (!filters) return true;
		const others = { ...filters };
		delete others[left];
		return verdictOf(fact, others, this.onlyRankChanges, true).pass !== false;
	}

	/**
	 * Whether an update may come with `ranking_url_unknown` (the documented limit: the ranking history does not show
	 * the crawl before, or the rank before is not known): only where the poll said so in a warning.
	 */
	private urlMayBeUnknown(poll: PollObservation): boolean {
		return (poll.warnings ?? []).some((line) => line.includes('ranking_url_unknown'));
	}

	/** Whether a poll counts towards the delay of an event. */
	private countsFor(tracked: Tracked, poll: PollObservation): boolean {
		if (poll.excused || this.atCap(poll.requests) || this.spentBudget(poll)) return false;
		// Stamped in the last SETTLE_SECONDS by the API's clock when the poll began: left to the next poll (documented).
		const header = Math.floor((poll.at + (this.options.dateSkewMs ?? 0)) / 1000);
		if (tracked.fact.at > header - SETTLE_SECONDS) return false;
		const project = tracked.fact.project;
		return !(
			tracked.fact.kind === 'keyword' &&
			project !== undefined &&
			poll.excusedProjects.has(project)
		);
	}

	/**
	 * Whether a crawl outside the scope when it happened may be emitted: its project or group came into the scope by a
	 * rename after it, and the state the emitting poll started from goes back to a poll before the crawl (the trigger
	 * starts a project or group new to its scope where that state stood).
	 */
	private renamedInAfter(tracked: Tracked, poll: PollObservation): boolean {
		const fact = tracked.fact;
		const renames = [
			...(this.renamedIn.get(fact.container ?? '') ?? []),
			...(this.renamedIn.get(fact.project ?? '') ?? []),
		].filter((at) => at > fact.visibleAt && at <= poll.at);
		if (renames.length === 0) return false;
		// The last poll of the emitting poll's lineage before the rename.
		const rename = Math.min(...renames);
		let source: number | undefined = poll.startedFrom;
		while (source !== undefined && source >= 0 && this.pollAt[source] >= rename)
			source = this.pollFrom[source];
		if (source === undefined) return true;
		if (source < 0) return false;
		return fact.at > Math.floor(this.pollAt[source] / 1000) - SETTLE_SECONDS;
	}

	/**
	 * The first poll to run to its end after an archive notices the departure only of what the state it starts from or
	 * the trigger's memory of this process's last poll knew (docs/exactly-once.md, "Archive, restore, delete"): under
	 * the durable scheduler that state may be from before the container was created or restored, and a restart empties
	 * the memory. A crawl of a container neither listed is not read before its restore: released (seed 66).
	 */
	private meetArchives(poll: PollObservation): void {
		if (poll.listed === undefined || poll.life === undefined) return;
		if (poll.failed || poll.mayBeSilent) return;
		const from = poll.startedFrom;
		const remembered = this.lastRunInLife.get(poll.life);
		const knew = (key: ContainerKey) =>
			[from, remembered].some(
				(index) => index !== undefined && index >= 0 && this.listedBy.get(index)?.has(key),
			);
		for (const [key, { at, project }] of this.archivedUnmet) {
			if (at >= poll.at) continue;
			this.archivedUnmet.delete(key);
			this.releaseCrawlsOf(
				key,
				project,
				poll.at,
				`${key} archived, known to no state or memory of the poll`,
				(fact) => {
					const container = fact.container ?? fact.project;
					return container !== undefined && !knew(container);
				},
			);
		}
		this.listedBy.set(poll.index, poll.listed);
		this.lastRunInLife.set(poll.life, poll.index);
	}

	poll(poll: PollObservation): void {
		this.polls++;
		this.meetArchives(poll);
		// A poll that ran lists every live container under its name of when it began (one renamed in its middle, not).
		if (!poll.failed)
			for (const [key, at] of this.renamedUnseen) if (at < poll.at) this.renamedUnseen.delete(key);
		this.pollAt[poll.index] = poll.at;
		this.pollFrom[poll.index] = poll.startedFrom;
		const items = poll.items ?? [];
		for (const item of items) {
			const found = this.keyOf(item);
			const tracked = found ? this.facts.get(found.key) : undefined;
			if (!found || !tracked) {
				const added = found ? this.addedWithRanks.get(String(item.id)) : undefined;
				if (found && added !== undefined && found.at < added) continue;
				if (found && found.at <= this.activationSeconds) {
					this.counts.beforeActivation++;
					this.violate(
						'before-activation',
						poll.index,
						poll.at,
						`${found.key} is from before activation`,
					);
				} else {
					this.counts.unknown++;
					this.violate(
						'unknown',
						poll.index,
						poll.at,
						`${found?.key ?? JSON.stringify(item).slice(0, 120)} is no event the world made`,
					);
				}
				continue;
			}
			tracked.emitted++;
			if (tracked.emitted === 2 && tracked.movedAfterEmission) {
				this.counts.movedAgain++;
				continue;
			}
			if (tracked.emitted === 2 || (tracked.emitted === 3 && tracked.movedAfterEmission)) {
				this.counts.duplicated++;
				this.violate(
					'duplicate',
					poll.index,
					poll.at,
					`${found.key} emitted again (first in poll ${String(tracked.emittedAt)})`,
				);
			}
			if (tracked.emitted > 1) continue;
			tracked.emittedAt = poll.index;
			const fact = tracked.fact;
			if (this.activationAt === null || fact.visibleAt < this.activationAt) {
				this.counts.beforeActivation++;
				this.violate(
					'before-activation',
					poll.index,
					poll.at,
					`${fact.key} (${fact.category}) became visible before activation`,
				);
			} else if (
				tracked.forbidden &&
				!this.renamedInAfter(tracked, poll) &&
				!this.unplacedAndSaid(tracked, poll)
			) {
				this.counts.outOfScope++;
				this.violate(
					'out-of-scope',
					poll.index,
					poll.at,
					`${fact.key} of "${fact.category}" is outside the scope`,
				);
			}
			this.checkRanks(tracked, item, poll);
			this.checkFilters(tracked, item, poll);
			if (this.pending.has(tracked)) {
				const delay = tracked.waited + (this.countsFor(tracked, poll) ? 1 : 0);
				if (tracked.releasedAt === undefined) this.worstDelay = Math.max(this.worstDelay, delay);
				this.pending.delete(tracked);
			}
		}
		for (const tracked of [...this.pending]) {
			if (tracked.fact.visibleAt >= poll.at) continue;
			// (Released during this poll too: a project deleted while it read cannot be read any more.)
			if (tracked.releasedAt !== undefined && tracked.releasedAt <= poll.at) {
				this.pending.delete(tracked);
				continue;
			}
			if (!this.countsFor(tracked, poll)) continue;
			tracked.waited++;
			if (tracked.waited >= this.maxDelay && !tracked.late) {
				tracked.late = true;
				const fact = tracked.fact;
				this.violate(
					'late',
					poll.index,
					poll.at,
					`${fact.key} of "${fact.category}" (visible ${new Date(fact.visibleAt).toISOString()}) not emitted within ${this.maxDelay} polls`,
				);
			}
		}
		this.checkResources(poll);
		this.checkWarnings(poll);
	}

	/**
	 * A failure is never silent: once a poll warned that a project's list fails, each poll that goes on from its state
	 * warns again while the project fails and owes events that were there before it started (also when the poll ran
	 * out of time or requests before it).
	 */
	private checkWarnings(poll: PollObservation): void {
		const warned = new Set<ContainerKey>();
		for (const key of poll.excusedProjects) {
			const name = poll.failingNames?.get(key);
			if (name === undefined) continue;
			// A project, or one of its groups, that left groups/active and kept failing is given up, said in a warning that
			// names it (the documented limit): what it owed is released then, and a project is not spoken of again.
			const givenUp = (poll.warnings ?? []).flatMap((line) => {
				const named = new RegExp(
					`"(${escapeRegExp(name)}(?:\\[sub\\].*)?)" left groups/active`,
				).exec(line);
				return named && line.includes('given up') ? [named[1]] : [];
			});
			const projectGivenUp = givenUp.includes(name);
			for (const tracked of this.pending) {
				const fact = tracked.fact;
				if (fact.project !== key || tracked.releasedAt !== undefined) continue;
				const groupGivenUp =
					fact.container !== key &&
					givenUp.includes(fact.category) &&
					this.archived.has(fact.container ?? '');
				if (projectGivenUp || groupGivenUp)
					this.release(
						tracked,
						poll.at,
						`${projectGivenUp ? key : fact.container} given up after failing`,
					);
			}
			if (projectGivenUp) {
				warned.add(key);
				continue;
			}
			const names = [name, poll.failingNamesAtStart?.get(key) ?? name];
			if ((poll.warnings ?? []).some((line) => names.some((n) => line.includes(`"${n}`)))) {
				warned.add(key);
				continue;
			}
			const from = poll.startedFrom;
			const known = from !== undefined && from >= 0 && this.warnedIn.get(from)?.has(key);
			if (!known || poll.failed || poll.mayBeSilent) continue;
			// Events made while this very poll read the lists (churn) were not there for it to speak of.
			const owes = [...this.pending].some(
				(tracked) =>
					tracked.owed &&
					tracked.releasedAt === undefined &&
					tracked.fact.project === key &&
					tracked.fact.visibleAt < poll.at,
			);
			if (owes)
				this.violate(
					'silent',
					poll.index,
					poll.at,
					`"${name}" still fails and owes events, but the poll did not warn about it`,
				);
		}
		if (warned.size > 0) this.warnedIn.set(poll.index, warned);
	}

	/**
	 * An alert naming only its project, whose keyword's group the poll could not tell (the lookup failed, or the keyword
	 * is gone): the trigger emits it rather than lose it, and says so in a warning (the documented limit).
	 */
	private unplacedAndSaid(tracked: Tracked, poll: PollObservation): boolean {
		return (
			tracked.fact.key.startsWith('a:') &&
			(poll.warnings ?? []).some((line) => line.includes(UNPLACED))
		);
	}

	/** Whether a poll spent the whole request cap: it worked at the pace the cap allows. */
	private atCap(requests: number): boolean {
		return requests >= (this.options.maxRequestsPerPoll ?? 240);
	}

	/**
	 * Whether a poll ran into its time budget: it worked at the pace the machine and the API allowed. Past three
	 * quarters of it, or where the trigger's own rule stopped it: no request starts that 1.2 times the slowest one so
	 * far would not see answered within the budget (wide soak, seed 64 in-memory on a machine at load 8: batches of
	 * pages answered in several seconds, the poll stopped short of three quarters and left the read to the next one).
	 */
	private spentBudget(poll: PollObservation): boolean {
		const budget = poll.budgetMs ?? ASSUMED_BUDGET_MS;
		if (poll.wallMs >= BUDGET_SPENT_SHARE * budget) return true;
		const slowest = poll.slowestRequestMs ?? 0;
		return slowest > 0 && poll.wallMs + EXPECTED_TIME_FACTOR * slowest >= budget;
	}

	private checkResources(poll: PollObservation): void {
		this.requestCounts.push(poll.requests);
		this.pollRequests[poll.index] = poll.requests;
		this.pollSpentBudget[poll.index] = this.spentBudget(poll);
		this.pollExcused[poll.index] = poll.excused;
		const maxRequests = this.options.maxRequestsPerPoll ?? 240;
		if (poll.requests > maxRequests)
			this.violate(
				'requests',
				poll.index,
				poll.at,
				`${poll.requests} requests in one poll (at most ${maxRequests})`,
			);
		if (poll.quiet && !poll.excused && this.pending.size === 0 && !this.changedSinceState(poll)) {
			this.idleRequestsMax = Math.max(this.idleRequestsMax, poll.requests);
			if (poll.requests > 1)
				this.violate(
					'idle-cost',
					poll.index,
					poll.at,
					`an idle poll sent ${poll.requests} requests (an idle poll costs 1)`,
				);
		}
		this.stateBytesMax = Math.max(this.stateBytesMax, poll.stateBytes);
		const bound = this.stateBound(poll.containersInScope);
		if (poll.stateBytes > bound)
			this.violate(
				'state',
				poll.index,
				poll.at,
				`stored state ${poll.stateBytes} bytes (bound ${bound} for ${poll.containersInScope} containers in scope)`,
			);
		this.wallMsMax = Math.max(this.wallMsMax, poll.wallMs);
		this.wallMsTotal += poll.wallMs;
		if (poll.wallMs > 300) this.slowPolls++;
		if (poll.budgetMs === undefined) return;
		// Requests end at the budget; shaping what was read may run on to the hard deadline (docs/exactly-once.md).
		const deadline = hardDeadlineMs(poll.budgetMs, pollBudgetMs(poll.budgetMs));
		const slack = this.options.timeSlackMs ?? 400;
		if (poll.wallMs > deadline + slack)
			this.violate(
				'time',
				poll.index,
				poll.at,
				`the poll ran ${Math.round(poll.wallMs)} ms, its budget was ${poll.budgetMs} ms and its hard deadline ${deadline} ms`,
			);
	}

	/**
	 * Whether the world changed after the poll whose state this one started from (for New Alert, in the look-back
	 * before it: that poll kept those alerts' ids): under the durable scheduler without durable cursors n8n keeps a
	 * poll's state only when it emits, so a poll reads again what changed since the last one that emitted (an update
	 * the filters leave out, a project that left, the ids of the last alerts), however quiet the world is now.
	 */
	private changedSinceState(poll: PollObservation): boolean {
		const from = poll.startedFrom;
		// A poll after one that spent the whole cap or its budget may still be reading what that one could not reach;
		// one after an excused poll may be finishing a read the fault cut short (wide soak, seed 4: a 502 on a list's
		// second page; the next poll reads both pages again and finds nothing new).
		if (
			from !== undefined &&
			from >= 0 &&
			(this.atCap(this.pollRequests[from] ?? 0) ||
				this.pollSpentBudget[from] ||
				this.pollExcused[from])
		)
			return true;
		if (from === undefined || poll.lastActivityAt === undefined) return false;
		if (from < 0) return true;
		if (this.options.event === 'newAlert')
			return (
				poll.lastActivityAt >= this.pollAt[from] - (LOOKBACK_SECONDS + SETTLE_SECONDS + 1) * 1000
			);
		// That poll's mark stood SETTLE_SECONDS before its API clock: a crawl stamped in those seconds is read by the
		// polls after it, again at each until one emits (wide soak, seed 160: a crawl 1 s before the poll).
		const header = Math.floor((this.pollAt[from] + (this.options.dateSkewMs ?? 0)) / 1000);
		return Math.floor(poll.lastActivityAt / 1000) > header - SETTLE_SECONDS;
	}

	/**
	 * The documented bound (docs/exactly-once.md): Keyword Updated 1 KB plus 300 bytes per project or group in scope,
	 * whatever their keywords and the filters; New Alert 1 KB plus 200 alert ids (3.2 KB), and, where alerts of one
	 * second come in no id order, the ids of the largest second (a read that stopped inside it keeps them).
	 */
	stateBound(containers: number): number {
		if (this.options.event !== 'newAlert') return 1_024 + 300 * containers;
		return 1_024 + 16 * (200 + (this.options.mixedAlertTies ? this.largestSecond : 0));
	}

	/** At the end (after the quiet polls): every event still owed is lost. */
	finish(at: number): void {
		for (const tracked of this.pending) {
			if (tracked.releasedAt !== undefined) continue;
			const fact = tracked.fact;
			this.violate(
				'lost',
				-1,
				at,
				`${fact.key} of "${fact.category}" (visible ${new Date(fact.visibleAt).toISOString()}) never emitted`,
			);
		}
	}

	summary(): Summary {
		let events = 0;
		let owed = 0;
		let emitted = 0;
		let released = 0;
		for (const tracked of this.facts.values()) {
			if (this.activationAt === null || tracked.fact.visibleAt < this.activationAt) continue;
			if (!tracked.forbidden) events++;
			if (tracked.owed) owed++;
			if (tracked.emitted > 0) emitted++;
			if (tracked.owed && tracked.emitted === 0 && tracked.releasedAt !== undefined) released++;
		}
		const sorted = [...this.requestCounts].sort((a, b) => a - b);
		return {
			events,
			owed,
			emitted,
			lost: this.violations.filter((v) => v.kind === 'lost').length,
			late: this.violations.filter((v) => v.kind === 'late').length,
			duplicated: this.counts.duplicated,
			outOfScope: this.counts.outOfScope,
			filteredOutEmitted: this.counts.filteredOut,
			beforeActivation: this.counts.beforeActivation,
			unknown: this.counts.unknown,
			rankErrors: this.counts.rank,
			released,
			movedEmittedAgain: this.counts.movedAgain,
			worstDelay: this.worstDelay,
			polls: this.polls,
			requestsMax: sorted.length ? sorted[sorted.length - 1] : 0,
			requestsP95: sorted.length
				? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]
				: 0,
			pollsAtCap: this.requestCounts.filter((n) => this.atCap(n)).length,
			idleRequestsMax: this.idleRequestsMax,
			stateBytesMax: this.stateBytesMax,
			wallMsMax: Math.round(this.wallMsMax),
			wallMsTotal: Math.round(this.wallMsTotal),
			slowPolls: this.slowPolls,
		};
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
