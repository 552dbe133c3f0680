/**
 * Keyword Updated: the state and what a poll reads. Pure; how the state is stored is in state/storedState.ts.
 *
 * An event is a keyword whose `crawled_at` moved. Each poll reads `groups/active` (#1): a project's or group's update
 * time (containers.ts) tells whether any of its keywords was crawled since it was last looked at, and only those
 * keyword lists (#13) are read.
 *
 * **One mark for the whole account.** The state keeps a `mark`: every project and group in scope has reported its
 * keywords crawled up to it, except those the state names (below). The mark is the newest update time `groups/active`
 * showed, held back to the API's clock (its Date header) less SETTLE_SECONDS: a keyword crawled in those seconds may
 * not show in the update times yet. A project or group whose update time passed the mark has its list read for the
 * window `(mark, new mark]`, and is at the new mark once read. So all share one window: a keyword moved to another
 * group after it was reported is not reported again there (unless that group is behind), one seen for the first time
 * (created, restored, renamed into scope) starts at the mark, and the state does not grow with the account.
 *
 * **Behind the mark.** A project or group stands alone when it cannot keep up, and only then does the state name it:
 * a read too long for one poll goes on at the next from the last keyword it read (by id, not by page), from the mark
 * it started at; one whose list fails is **parked** with its window and read (tried once a poll, after the others,
 * until it answers); one that has left `groups/active` is looked up (#2) once: an archived one has its window read
 * to its last update, a deleted one (404/410) is forgotten. Either way the others' events are emitted as usual.
 *
 * **Known.** The state also keeps the projects and groups in scope at the last poll (their keys and names), so that
 * one that leaves `groups/active` between two polls is noticed (an archive right after a crawl).
 */
import { inScope, type Scope } from '../../shared/groupName';
import type { ListOrder } from '../../shared/paging';
import type { ListRead } from '../polling/listReadState';
import { GONE } from '../polling/pollContract';
import { type Container } from '../polling/containers';
import { markAt } from './mark';

/** A project or group that has left `groups/active` and keeps failing is forgotten after this many polls. */
export const DEPARTED_FAILURES = 10;

/** A project or group whose list failed at the last polls (it is parked). */
export interface Failure {
	/** HTTP status of the last failure; null when there was no answer. */
	status: string | null;
	/** Polls in a row it has failed. */
	polls: number;
}

/**
 * A container this process's last poll knew (seenLastPoll.ts): its name then, and for one that left, how its lookup
 * or read was failing.
 */
export interface SeenContainer {
	name: string;
	failure?: Failure;
}

/** A project or group behind the mark. */
export interface ContainerState {
	/** Its name when last seen (lists are read by name). */
	name: string;
	/** Keywords crawled up to this time (Unix seconds) have been reported. */
	reportedUpTo: number;
	/** A read in progress. */
	read?: ListRead;
	/** Parked: its list (or its lookup, when departed) failed at the last polls. */
	failure?: Failure;
	/** It has left `groups/active`; what became of it is not known yet (a lookup, or its read, is to come). */
	departed?: boolean;
}

export interface KeywordState {
	/** Every container in scope not in `containers` has reported its keywords crawled up to this (Unix seconds). */
	mark: number;
	/** The containers behind the mark, by key (containers.ts). */
	containers: Map<string, ContainerState>;
	/** The containers in scope at the last poll: key → name (to notice one that leaves `groups/active`). */
	known: Map<string, string>;
	/** The rank history's order in time, once the data has shown it (polling/rankHistory.ts); never unordered. */
	historyOrder?: ListOrder;
}

/** A list read this poll: the container, its window `(reportedUpTo, read.windowEnd]` and where its read stands. */
export interface ListJob {
	/** Where its state goes (containers.ts). */
	key: string;
	/** The name its list is read by. */
	name: string;
	/** The window's start (ContainerState.reportedUpTo). */
	reportedUpTo: number;
	read: ListRead;
	/** It failed at the last polls: tried once, after the others. */
	parked?: Failure;
	/** It is no longer in `groups/active`. */
	departed?: boolean;
	/** Departed: its last update (its lookup told), which its windows read up to before it is forgotten. */
	until?: number;
	/** Out of scope now (renamed out of it): its outcome is not kept. */
	dropped?: boolean;
	/** Departed, its read ended this poll and it was looked up (#2) in it: the lookup settled it (departureLookups.ts). */
	lookedUp?: boolean;
}

/** A container that left `groups/active`, to be looked up (#2): archived (read its window) or deleted (forget). */
export interface DepartureJob {
	key: string;
	name: string;
	reportedUpTo: number;
	/** Its lookup failed at the last polls. */
	parked?: Failure;
}

/** How a job ended. */
export type ListResult =
	/** The window is read to its end. */
	| { kind: 'done' }
	/** Time or the request cap stopped it: it goes on from `read`. */
	| { kind: 'reading'; read: ListRead }
	/** A request failed: parked, going on from `read`. */
	| { kind: 'failed'; read: ListRead; status: string | null }
	/** The list is gone (404/410) and the container is not in `groups/active`: forgotten. */
	| { kind: 'gone' }
	/** Not tried this poll (time or the request cap ran out before it): it stays as it stood, failure and all. */
	| { kind: 'untried' };

export interface KeywordPlan {
	/** Lists to read, besides those already started: healthy ones first, parked ones last. */
	jobs: ListJob[];
	/** Containers that left `groups/active`, to look up. */
	departures: DepartureJob[];
	/** The next state before the jobs' results (settleJob adds them). */
	next: KeywordState;
}

/** A container that left `groups/active`, to look up (departures.ts). */
export function departureOf(key: string, entry: ContainerState): DepartureJob {
	const job: DepartureJob = { key, name: entry.name, reportedUpTo: entry.reportedUpTo };
	if (entry.failure) job.parked = entry.failure;
	return job;
}

export function jobOf(key: string, entry: ContainerState): ListJob {
	const job: ListJob = {
		key,
		name: entry.name,
		reportedUpTo: entry.reportedUpTo,
		read: entry.read as ListRead,
	};
	if (entry.failure) job.parked = entry.failure;
	if (entry.departed) job.departed = true;
	return job;
}

/**
 * A new window `(reportedUpTo, mark]` of a container whose update time passed `reportedUpTo`; `count`: its keywords
 * (keywords_count), how long its list is believed to be (the read sizes its first batch by it).
 */
export function windowJob(
	key: string,
	name: string,
	reportedUpTo: number,
	mark: number,
	count = 0,
): ListJob {
	return {
		key,
		name,
		reportedUpTo,
		read: { windowEnd: mark, lastIndex: -1, listLength: count },
	};
}

/**
 * Reads in progress that can go on before `groups/active` has answered (a poll whose time is short spends it on
 * reading): not parked ones, which wait to learn whether their container is still there, nor departed ones.
 */
export function readsInProgress(state: KeywordState | undefined): ListJob[] {
	if (!state) return [];
	return [...state.containers]
		.filter(
			([, entry]) =>
				entry.read !== undefined && entry.failure === undefined && entry.departed !== true,
		)
		.map(([key, entry]) => jobOf(key, entry));
}

/**
 * The first poll (activation): "now" is the mark; a container updated after it (in the last seconds) is behind,
 * done up to its update (what came before activation is never reported).
 */
export function firstState(
	containers: readonly Container[],
	scope: Scope,
	now: number | undefined,
): KeywordState {
	const mark = markAt(containers, now);
	const state: KeywordState = { mark, containers: new Map(), known: new Map() };
	for (const container of containers) {
		if (!inScope(container.name, scope)) continue;
		state.known.set(container.key, container.name);
		const updatedAt = container.updatedAt;
		if (updatedAt !== undefined && updatedAt > mark)
			state.containers.set(container.key, { name: container.name, reportedUpTo: updatedAt });
	}
	return state;
}

/**
 * Which lists a poll reads, given `groups/active`. `now` is the API's clock for update times when it answered.
 * `started` are the reads already going on (readsInProgress): their key and name are brought up to date here (a
 * rename), and they are marked departed or dropped when their container left. `seen`: what this process's last poll
 * knew (seenLastPoll.ts), where the state may be older.
 */
export function planKeywordPoll(
	state: KeywordState,
	containers: readonly Container[],
	scope: Scope,
	now: number | undefined,
	started: readonly ListJob[] = [],
	seen?: ReadonlyMap<string, SeenContainer>,
): KeywordPlan {
	const mark = markAt(containers, now, state.mark);
	const next: KeywordState = { mark, containers: new Map(), known: new Map() };
	if (state.historyOrder) next.historyOrder = state.historyOrder;
	const jobs: ListJob[] = [];
	const parked: ListJob[] = [];
	const departures: DepartureJob[] = [];
	const byKey = new Map(containers.map((container) => [container.key, container]));
	const listedNames = new Set(containers.map((container) => container.name));
	const startedKeys = new Map(started.map((job) => [job.key, job]));

	for (const [key, entry] of state.containers) {
		const listed = byKey.get(key);
		const job = startedKeys.get(key);
		if (listed && !inScope(listed.name, scope)) {
			// Renamed out of the chosen project or group: forgotten.
			if (job) job.dropped = true;
			continue;
		}
		if (job) {
			if (listed) Object.assign(job, { name: listed.name, departed: false });
			// Gone, and its name taken by another: what was read by that name was the other's list.
			else if (listedNames.has(entry.name)) job.dropped = true;
			else job.departed = true;
			continue;
		}
		if (!listed) {
			// Left groups/active (archived or deleted). Its name taken by another: the name no longer reads its list.
			if (listedNames.has(entry.name)) continue;
			if (entry.read) {
				const failure = entry.failure;
				const gone =
					failure?.status !== undefined && failure.status !== null && GONE.has(failure.status);
				if (!gone) (entry.failure ? parked : jobs).push({ ...jobOf(key, entry), departed: true });
			} else departures.push(departureOf(key, entry));
			continue;
		}
		const current: ContainerState = { ...entry, name: listed.name };
		delete current.departed;
		const moved = listed.updatedAt !== undefined && listed.updatedAt > current.reportedUpTo;
		if (current.read) (current.failure ? parked : jobs).push(jobOf(key, current));
		else if (moved && mark > current.reportedUpTo)
			jobs.push(windowJob(key, listed.name, current.reportedUpTo, mark, listed.count));
		// Ahead of the mark (done up to an update of the last seconds before activation), or moved within them: as is.
		else if (moved || current.reportedUpTo > mark) next.containers.set(key, current);
		// Otherwise nothing of it was crawled after what it reported: it is at the mark again.
	}

	for (const container of containers) {
		if (!inScope(container.name, scope)) continue;
		next.known.set(container.key, container.name);
		if (state.containers.has(container.key) || startedKeys.has(container.key)) continue;
		// At the mark (new, restored, now in scope, or simply up to date): read when it moved past it.
		if (container.updatedAt !== undefined && container.updatedAt > state.mark && mark > state.mark)
			jobs.push(windowJob(container.key, container.name, state.mark, mark, container.count));
	}

	// Known at the last poll, gone from groups/active now, not behind: what became of it is looked up.
	for (const [key, knownName] of state.known) {
		// By the name this process's last poll saw, where the state is older (renamed since it was kept).
		const name = seen?.get(key)?.name ?? knownName;
		if (byKey.has(key) || state.containers.has(key) || listedNames.has(name)) continue;
		departures.push({ key, name, reportedUpTo: state.mark });
	}
	// Known to this process's last poll and not to the state this one starts from (seenLastPoll.ts): gone now, so
	// looked up as well, from the mark of that state.
	for (const [key, { name, failure }] of seen ?? []) {
		if (byKey.has(key) || state.known.has(key) || state.containers.has(key)) continue;
		if (startedKeys.has(key) || listedNames.has(name) || !inScope(name, scope)) continue;
		departures.push(departureOf(key, { name, reportedUpTo: state.mark, failure }));
	}
	return { jobs: [...jobs, ...parked], departures, next };
}

/**
 * The next window of a container whose read has just ended behind the mark (it started at an earlier mark, and its
 * update time moved on meanwhile): read in the same poll, when there is time. Undefined when there is none.
 */
export function nextWindow(
	container: Container,
	ended: ListJob,
	mark: number,
): ListJob | undefined {
	const from = ended.read.windowEnd;
	if (from >= mark || container.updatedAt === undefined || container.updatedAt <= from)
		return undefined;
	return windowJob(ended.key, container.name, from, mark, container.count);
}

/**
 * Records a job's outcome in the next state. True when a departed container is given up by it (it failed
 * DEPARTED_FAILURES polls in a row): the poll says so.
 */
export function settleJob(next: KeywordState, job: ListJob, result: ListResult): boolean {
	if (job.dropped || result.kind === 'gone') return false;
	const entry: ContainerState = { name: job.name, reportedUpTo: job.reportedUpTo };
	if (job.departed) entry.departed = true;
	if (result.kind === 'untried') {
		entry.read = job.read;
		if (job.parked) entry.failure = job.parked;
		next.containers.set(job.key, entry);
		return false;
	}
	if (result.kind === 'done') {
		// A departed container read up to its last update: nothing more will come from it. One read to the mark is at
		// it: nothing to keep (an earlier window of it settled in this poll is superseded). A departed one whose last
		// update no lookup told (its read began before it left) is looked up (#2) in the same poll, time allowing, for
		// what was crawled after this window and before it left; that lookup settles it. Not looked up: it stays,
		// departed, and the next poll looks it up.
		const departedDone = job.departed && job.until !== undefined && job.read.windowEnd >= job.until;
		// Reported up to its window's end: the mark may stand there, so that a restore starts after it, whether or not a
		// lookup follows (one that never answers, or finds its name taken, forgets it behind the mark otherwise).
		if (job.departed) next.mark = Math.max(next.mark, job.read.windowEnd);
		if (job.lookedUp) return false;
		if (departedDone || (!job.departed && job.read.windowEnd >= next.mark)) {
			next.containers.delete(job.key);
			return false;
		}
		entry.reportedUpTo = job.read.windowEnd;
	} else entry.read = result.read;
	if (result.kind === 'failed') {
		entry.failure = { status: result.status, polls: (job.parked?.polls ?? 0) + 1 };
		if (job.departed && entry.failure.polls >= DEPARTED_FAILURES) return true;
	}
	next.containers.set(job.key, entry);
	if (job.departed) next.known.set(job.key, job.name);
	return false;
}

/** Whether any read is in progress or parked (the next poll has more to do). */
export function hasReadsInProgress(state: KeywordState | undefined): boolean {
	return !!state && [...state.containers.values()].some((entry) => entry.read !== undefined);
}
