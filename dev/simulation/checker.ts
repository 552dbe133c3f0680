/**
 * The checker: holds the trigger to its promises on every poll, from the truth the world reports (what became
 * visible when, which projects and groups went away when), never from the trigger's own state.
 *
 * - Safety: each alert (by id) and each keyword update (by keyword id and crawled_at) emitted at most once; nothing
 *   that was visible before activation; nothing outside the scope (judged on the event's project or group when it
 *   happened); ranks as the API said them (null outside the top results).
 * - Liveness: each event in scope emitted within `maxDelay` polls of becoming visible, counting only polls without
 *   weather that concerns it (a global fault, a latency spike, a tight budget, a killed poll or a restart excuse a poll
 *   for every event; a failing project excuses its own events). An event stops being owed when its project or group is
 *   archived or deleted, its keyword deleted or crawled again (the newer crawl is owed instead) before it was due; and,
 *   for a trigger scoped to one project or group, when that project or group is renamed (the trigger's scope names the
 *   old name). Events of a renamed project stay owed by a trigger that watches every project.
 * - Resources: requests per poll, the stored state's size, a poll's wall time against its budget.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ContainerKey } from './plan';
import type { Fact, TruthSink } from './world';

export type ViolationKind =
	| 'duplicate'
	| 'before-activation'
	| 'out-of-scope'
	| 'unknown'
	| 'rank'
	| 'late'
	| 'lost'
	| 'requests'
	| 'state'
	| 'time';

export interface Violation {
	kind: ViolationKind;
	/** Poll index (0 = activation); -1 for what is found at the end. */
	poll: number;
	/** World time (ms) of that poll. */
	at: number;
	detail: string;
}

/** The trigger's scope, as its Project / Group / Include Groups fields say it. */
export interface ScopeSetting {
	project?: string;
	group?: string;
	includeGroups?: boolean;
}

export interface CheckerOptions {
	event: 'newAlert' | 'keywordUpdated';
	scope: ScopeSetting;
	/** Containers the scope names at activation (their keys), for telling renamed ones apart. */
	scopeKeys: ContainerKey[];
	/** Polls within which an event must be emitted. Default 2. */
	maxDelay?: number;
	maxRequestsPerPoll?: number;
	/** Slack on a poll's wall time over its budget (ms). */
	timeSlackMs?: number;
}

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
}

interface Tracked {
	fact: Fact;
	/** Must be emitted (in scope by name at the time, after activation). */
	owed: boolean;
	/** Out of scope: emitting it breaks the scope. */
	forbidden: boolean;
	emitted: number;
	emittedAt?: number;
	/** Polls that counted towards its delay so far. */
	waited: number;
	late: boolean;
	/** When it stopped being owed (ms), and why. */
	releasedAt?: number;
	releasedWhy?: string;
}

const GROUP_SEPARATOR = '[sub]';
/** How late an alert may be stamped and still be owed (the trigger looks back 300 s). */
const LATE_ALERT_SECONDS = 240;
/** Most alerts at or after a late one's stamp for it to be owed (the trigger keeps 200 ids). */
const LATE_ALERT_CROWD = 150;

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
	beforeActivation: number;
	unknown: number;
	rankErrors: number;
	released: number;
	worstDelay: number;
	polls: number;
	requestsMax: number;
	requestsP95: number;
	stateBytesMax: number;
	wallMsMax: number;
	/** Wall time of all polls together (ms). */
	wallMsTotal: number;
	/** Polls that took more than 300 ms. */
	slowPolls: number;
}

export class Checker implements TruthSink {
	readonly violations: Violation[] = [];
	private readonly facts = new Map<string, Tracked>();
	private readonly pending = new Set<Tracked>();
	private readonly pendingByKeyword = new Map<string, Set<Tracked>>();
	/** Keywords added with ranks of an earlier crawl → updates stamped before this second are tolerated. */
	private readonly addedWithRanks = new Map<string, number>();
	/** created_at of recent alerts (for late ones). */
	private recentAlerts: number[] = [];
	private activationAt: number | null = null;
	private activationSeconds = 0;
	private worstDelay = 0;
	private readonly requestCounts: number[] = [];
	private stateBytesMax = 0;
	private wallMsMax = 0;
	private wallMsTotal = 0;
	private slowPolls = 0;
	private polls = 0;
	private readonly maxDelay: number;
	private readonly counts = {
		duplicated: 0,
		outOfScope: 0,
		beforeActivation: 0,
		unknown: 0,
		rank: 0,
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

	// ------------------------------------------------------------------------------------------- truth (TruthSink)

	fact(fact: Fact): void {
		if ((fact.kind === 'alert') !== (this.options.event === 'newAlert')) return;
		const before = this.activationAt === null || fact.visibleAt < this.activationAt;
		const byName = inScopeByName(fact.category, this.options.scope);
		const identity =
			!this.options.scope.project ||
			(fact.container !== undefined && this.options.scopeKeys.includes(fact.container)) ||
			(fact.project !== undefined &&
				!this.options.scope.group &&
				this.options.scope.includeGroups !== false &&
				this.options.scopeKeys.includes(fact.project));
		const tracked: Tracked = {
			fact,
			owed: !before && byName && !fact.tolerated && this.lateAlertOwed(fact),
			// A renamed project or group the scope named: neither owed nor forbidden.
			forbidden: !byName && !identity && !fact.tolerated,
			emitted: 0,
			waited: 0,
			late: false,
		};
		if (this.facts.has(fact.key)) return;
		this.facts.set(fact.key, tracked);
		if (fact.kind === 'alert') {
			this.recentAlerts.push(fact.at);
			const horizon = Math.floor(fact.visibleAt / 1000) - 2 * LATE_ALERT_SECONDS;
			if (this.recentAlerts.length > 4_096)
				this.recentAlerts = this.recentAlerts.filter((t) => t >= horizon);
		}
		if (fact.kind === 'keyword') {
			// A newer crawl of the same keyword: the older one is no longer owed (one item, the latest rank).
			for (const older of this.pendingByKeyword.get(fact.id) ?? [])
				this.release(older, fact.visibleAt, 'crawled again');
		}
		if (tracked.owed) {
			this.pending.add(tracked);
			if (fact.kind === 'keyword') {
				let set = this.pendingByKeyword.get(fact.id);
				if (!set) this.pendingByKeyword.set(fact.id, (set = new Set()));
				set.add(tracked);
			}
		}
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

	containerChanged(
		key: ContainerKey,
		project: ContainerKey,
		at: number,
		change: 'archived' | 'deleted' | 'renamed',
	): void {
		// Renaming keeps what a trigger of every project owes; one scoped by name cannot follow it.
		if (change === 'renamed' && !this.options.scope.project) return;
		const wholeProject = key === project;
		for (const tracked of this.pending) {
			const fact = tracked.fact;
			if (fact.container === key || (wholeProject && fact.project === project))
				this.release(tracked, at, `${key} ${change}`);
		}
	}

	keywordsAddedWithRanks(ids: string[], before: number): void {
		for (const id of ids) this.addedWithRanks.set(id, before);
	}

	keywordsDeleted(ids: string[], at: number): void {
		for (const id of ids)
			for (const tracked of this.pendingByKeyword.get(id) ?? [])
				this.release(tracked, at, 'keyword deleted');
	}

	// ------------------------------------------------------------------------------------------------------ polls

	private keyOf(item: IDataObject): { key: string; at: number } | undefined {
		if (item.id === undefined || item.id === null) return undefined;
		const attributes = (item.attributes ?? {}) as IDataObject;
		if (this.options.event === 'newAlert') {
			const at = Number(attributes.created_at ?? item.created_at);
			return { key: `a:${String(item.id)}`, at };
		}
		const at = Number(item.crawled_at ?? attributes.crawled_at);
		return { key: `k:${String(item.id)}@${at}`, at };
	}

	private checkRanks(tracked: Tracked, item: IDataObject, poll: PollObservation): void {
		const fact = tracked.fact;
		const attributes = (item.attributes ?? {}) as IDataObject;
		if (fact.kind === 'keyword') {
			if (fact.rank !== undefined && (item.rank ?? null) !== fact.rank)
				this.rankError(
					poll,
					`${fact.key}: rank ${String(item.rank)}, the crawl's was ${String(fact.rank)}`,
				);
			return;
		}
		if (Number(attributes.result) !== fact.rank || Number(attributes.prevrank) !== fact.prevrank)
			this.rankError(
				poll,
				`${fact.key}: ranks ${String(attributes.prevrank)}→${String(attributes.result)}, the alert's were ${String(fact.prevrank)}→${String(fact.rank)}`,
			);
	}

	private rankError(poll: PollObservation, detail: string): void {
		this.counts.rank++;
		this.violate('rank', poll.index, poll.at, detail);
	}

	/** Whether a poll counts towards the delay of an event. */
	private counts_for(tracked: Tracked, poll: PollObservation): boolean {
		if (poll.excused) return false;
		const project = tracked.fact.project;
		return !(
			tracked.fact.kind === 'keyword' &&
			project !== undefined &&
			poll.excusedProjects.has(project)
		);
	}

	poll(poll: PollObservation): void {
		this.polls++;
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
			if (tracked.emitted === 2) {
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
			} else if (tracked.forbidden) {
				this.counts.outOfScope++;
				this.violate(
					'out-of-scope',
					poll.index,
					poll.at,
					`${fact.key} of "${fact.category}" is outside the scope`,
				);
			}
			this.checkRanks(tracked, item, poll);
			if (tracked.owed && this.pending.has(tracked)) {
				const delay = tracked.waited + (this.counts_for(tracked, poll) ? 1 : 0);
				this.worstDelay = Math.max(this.worstDelay, delay);
				this.pending.delete(tracked);
				this.pendingByKeyword.get(fact.id)?.delete(tracked);
			}
		}
		for (const tracked of [...this.pending]) {
			if (tracked.fact.visibleAt >= poll.at) continue;
			if (tracked.releasedAt !== undefined && tracked.releasedAt < poll.at) {
				this.pending.delete(tracked);
				this.pendingByKeyword.get(tracked.fact.id)?.delete(tracked);
				continue;
			}
			if (!this.counts_for(tracked, poll)) continue;
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
		// Resources
		this.requestCounts.push(poll.requests);
		const maxRequests = this.options.maxRequestsPerPoll ?? 240;
		if (poll.requests > maxRequests)
			this.violate(
				'requests',
				poll.index,
				poll.at,
				`${poll.requests} requests in one poll (at most ${maxRequests})`,
			);
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
		const slack = this.options.timeSlackMs ?? 750;
		if (poll.budgetMs !== undefined && poll.wallMs > poll.budgetMs + slack)
			this.violate(
				'time',
				poll.index,
				poll.at,
				`the poll ran ${Math.round(poll.wallMs)} ms, its budget was ${poll.budgetMs} ms`,
			);
	}

	/** 2 KB, plus 300 bytes per container in scope, plus 200 alert ids for New Alert. */
	stateBound(containers: number): number {
		return 2_048 + 300 * containers + (this.options.event === 'newAlert' ? 200 * 16 : 0);
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
			beforeActivation: this.counts.beforeActivation,
			unknown: this.counts.unknown,
			rankErrors: this.counts.rank,
			released,
			worstDelay: this.worstDelay,
			polls: this.polls,
			requestsMax: sorted.length ? sorted[sorted.length - 1] : 0,
			requestsP95: sorted.length
				? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]
				: 0,
			stateBytesMax: this.stateBytesMax,
			wallMsMax: Math.round(this.wallMsMax),
			wallMsTotal: Math.round(this.wallMsTotal),
			slowPolls: this.slowPolls,
		};
	}
}
