/**
 * Keyword Updated: the state and what a poll reads. Pure; how the state is stored is in state.ts.
 *
 * An event is a keyword whose `crawled_at` moved. Each poll reads `groups/active` (#1): a project's or group's update
 * time (containers.ts) tells whether any of its keywords was crawled since it was last looked at, and only those
 * keyword lists (#13) are read.
 *
 * Time windows make it exactly once without remembering keyword ids. Per project or group the state keeps
 * `reportedUpTo`: its keywords crawled up to that time have been reported. When its update time (U) has moved past
 * it, its list is read and the keywords crawled in the window `(reportedUpTo, windowEnd]` are reported, `windowEnd` =
 * U fixed when the read began; a keyword crawled later belongs to the next window, which the next move of U opens.
 * Both ends come from the API's own stamps (U and crawled_at), never from this machine's clock. Only U's own second is
 * held back once (`heldBackUpdate`), when the API's clock (its Date header) says it is not over yet: keywords may
 * still be stamped with it.
 *
 * Each project and group stands alone: its window, its read in progress (a read too long for one poll goes on at the
 * next from the last keyword it read, by id, not by page) and its failures. One whose list fails is **parked** with
 * its window and read (tried once a poll, after the others, until it answers); the others go on as usual. One that has
 * left `groups/active` (archived or deleted) finishes a read in progress if its list still answers, and is forgotten
 * when its list is gone (404/410).
 */
import { inScope, type Scope } from '../../shared/groupName';
import type { ListOrder } from '../../shared/paging';
import { nameKey, type Container } from './containers';
import type { RankingUrlMemory } from './rankingUrls';

export const KEYWORD_PAGE_SIZE = 250;

/**
 * A container updated this close (seconds, by the API's Date header) to the poll may still be receiving ranks stamped
 * with that second: the second is left to the next read.
 */
export const SETTLE_SECONDS = 2;

/** A list's answer that means it is gone. */
export const GONE = new Set(['404', '410']);

/** A project or group that has left `groups/active` and whose list keeps failing is forgotten after this many polls. */
export const DEPARTED_FAILURES = 10;

/** A read of one container's keyword list that goes on over several polls. */
export interface ListRead {
	/** The window's end: keywords crawled after it wait for the next read. */
	windowEnd: number;
	/** Id of the last keyword read (the read goes on after it); absent before the first page. */
	lastId?: string;
	/** Estimated list index of `lastId` (-1 before the first page; the last index read, read page by page). */
	lastIndex: number;
	/** The list's length when `lastIndex` was estimated. */
	listLength: number;
	/** The list's order by id (absent: ascending; unordered: read page by page). */
	idOrder?: ListOrder;
	/** Read page by page: the page size the API serves (when it serves fewer than asked). */
	pageSize?: number;
	/** Read page by page: the ids of the last records read (the next page is read on from them). */
	anchors?: string[];
}

/** A project or group whose list failed at the last polls (it is parked). */
export interface Failure {
	/** HTTP status of the last failure; null when there was no answer. */
	status: string | null;
	/** Polls in a row it has failed. */
	polls: number;
}

export interface ContainerState {
	/** Its name when last seen (lists are read by name). */
	name: string;
	/** Keywords crawled up to this time (Unix seconds) have been reported. */
	reportedUpTo: number;
	/** An update time (Unix seconds) whose own second was held back once (the next read includes it). */
	heldBackUpdate?: number;
	/** A read in progress. */
	read?: ListRead;
	/** Parked: its list failed at the last polls. */
	failure?: Failure;
}

export interface KeywordState {
	/** The newest update time seen (Unix seconds): a container seen for the first time is done up to it. */
	newestUpdate: number;
	/** Every project and group in scope that has been updated, by key (containers.ts). */
	containers: Map<string, ContainerState>;
	/** The rank history's order in time, once the data has shown it (ranks.ts); never unordered. */
	historyOrder?: ListOrder;
	/** Ranking URLs at each keyword's last update, while the filter Ranking URL Changed is on (rankingUrls.ts). */
	rankingUrls?: RankingUrlMemory;
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
	/** The update whose second this window holds back (ContainerState.heldBackUpdate). */
	heldBackUpdate?: number;
	/** It failed at the last polls: tried once, after the others. */
	parked?: Failure;
	/** It is no longer in `groups/active`. */
	departed?: boolean;
	/** Out of scope now (renamed out of it): its outcome is not kept. */
	dropped?: boolean;
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
	| { kind: 'gone' };

export interface KeywordPlan {
	/** Lists to read, besides those already started: healthy ones first, parked ones last. */
	jobs: ListJob[];
	/** The next state before the jobs' results (settleJob adds them). */
	next: KeywordState;
}

function jobOf(key: string, entry: ContainerState): ListJob {
	const job: ListJob = {
		key,
		name: entry.name,
		reportedUpTo: entry.reportedUpTo,
		read: entry.read as ListRead,
	};
	if (entry.heldBackUpdate !== undefined) job.heldBackUpdate = entry.heldBackUpdate;
	if (entry.failure) job.parked = entry.failure;
	return job;
}

/**
 * Reads in progress that can go on before `groups/active` has answered (a poll whose time is short spends it on
 * reading): not parked ones, which wait to learn whether their container is still there.
 */
export function readsInProgress(state: KeywordState | undefined): ListJob[] {
	if (!state) return [];
	return [...state.containers]
		.filter(([, entry]) => entry.read !== undefined && entry.failure === undefined)
		.map(([key, entry]) => jobOf(key, entry));
}

/**
 * Which lists a poll reads, given `groups/active`. `serverNow` is the API's clock (Date header) when it answered.
 * Without a state (first activation) nothing is read: every container is done up to its last update. `started` are
 * the reads already going on (readsInProgress): their key and name are brought up to date here (a rename), and they
 * are marked departed or dropped when their container left.
 */
export function planKeywordPoll(
	state: KeywordState | undefined,
	containers: readonly Container[],
	scope: Scope,
	serverNow: number,
	started: readonly ListJob[] = [],
): KeywordPlan {
	let newestUpdate = state?.newestUpdate ?? 0;
	for (const { updatedAt } of containers)
		if (updatedAt !== undefined) newestUpdate = Math.max(newestUpdate, updatedAt);
	const next: KeywordState = { newestUpdate, containers: new Map() };
	if (state?.historyOrder) next.historyOrder = state.historyOrder;
	if (state?.rankingUrls) next.rankingUrls = state.rankingUrls;
	const jobs: ListJob[] = [];
	const parked: ListJob[] = [];
	// Each stored entry goes with the container of the same key (or, known by name only, of the same name).
	const byKey = new Map(containers.map((container) => [container.key, container]));
	const byName = new Map(containers.map((container) => [container.name, container]));
	const listedFor = (key: string, entry: ContainerState): Container | undefined =>
		byKey.get(key) ?? (key === nameKey(entry.name) ? byName.get(entry.name) : undefined);
	const claimed = new Set<string>();
	const startedKeys = new Map(started.map((job) => [job.key, job]));

	for (const [key, entry] of state?.containers ?? []) {
		const listed = listedFor(key, entry);
		const job = startedKeys.get(key);
		if (listed) claimed.add(listed.key);
		if (listed && !inScope(listed.name, scope)) {
			// Renamed out of the chosen project or group: forgotten.
			if (job) job.dropped = true;
			continue;
		}
		if (job) {
			if (listed) Object.assign(job, { key: listed.key, name: listed.name });
			else job.departed = true;
			continue;
		}
		if (!listed) {
			// Archived or deleted: a read in progress goes on while its list answers (not when it was gone already);
			// otherwise nothing is left to do.
			const status = entry.failure?.status;
			const gone = status !== undefined && status !== null && GONE.has(status);
			if (entry.read && !gone)
				(entry.failure ? parked : jobs).push({ ...jobOf(key, entry), departed: true });
			continue;
		}
		const current: ContainerState = { ...entry, name: listed.name };
		const planned = planContainer(listed, current, serverNow);
		if (planned.job) (current.failure ? parked : jobs).push(planned.job);
		else next.containers.set(listed.key, planned.entry);
	}

	for (const container of containers) {
		if (claimed.has(container.key) || !inScope(container.name, scope)) continue;
		if (container.updatedAt === undefined) continue;
		if (!state) {
			next.containers.set(container.key, {
				name: container.name,
				reportedUpTo: container.updatedAt,
			});
			continue;
		}
		// Seen for the first time (new, restored or now in scope): done up to the newest update seen last time.
		const entry = { name: container.name, reportedUpTo: state.newestUpdate };
		const planned = planContainer(container, entry, serverNow);
		if (planned.job) jobs.push(planned.job);
		else next.containers.set(container.key, planned.entry);
	}
	return { jobs: [...jobs, ...parked], next };
}

/** One listed container: a list to read (a read in progress, or a new window), or its entry as it stays. */
function planContainer(
	container: Container,
	entry: ContainerState,
	serverNow: number,
): { job?: ListJob; entry: ContainerState } {
	const { key, updatedAt, count } = container;
	if (entry.read) return { job: jobOf(key, entry), entry };
	if (updatedAt === undefined || updatedAt <= entry.reportedUpTo) return { entry };
	const recent = serverNow - SETTLE_SECONDS < updatedAt && entry.heldBackUpdate !== updatedAt;
	const windowEnd = recent ? updatedAt - 1 : updatedAt;
	// Only the held-back second is new: it is read at the next poll.
	if (windowEnd <= entry.reportedUpTo) return { entry: { ...entry, heldBackUpdate: updatedAt } };
	const read: ListRead = { windowEnd, lastIndex: -1, listLength: count ?? 0 };
	const job = jobOf(key, { ...entry, read });
	delete job.heldBackUpdate;
	if (recent) job.heldBackUpdate = updatedAt;
	return { job, entry };
}

/**
 * The next window of a container whose read has just ended (its update time moved on meanwhile): read in the same
 * poll, when there is time. Undefined when there is none yet.
 */
export function nextWindow(
	container: Container,
	ended: ListJob,
	serverNow: number,
): ListJob | undefined {
	// No second is held back "once" yet within one poll: the API's clock has not moved since groups/active answered.
	const entry = { name: container.name, reportedUpTo: ended.read.windowEnd };
	return planContainer(container, entry, serverNow).job;
}

/** Records a job's outcome in the next state. */
export function settleJob(next: KeywordState, job: ListJob, result: ListResult): void {
	if (job.dropped || result.kind === 'gone') return;
	const entry: ContainerState = { name: job.name, reportedUpTo: job.reportedUpTo };
	if (result.kind === 'done') {
		// A departed container's window is read: nothing more will come from it.
		if (job.departed) return;
		entry.reportedUpTo = job.read.windowEnd;
	} else entry.read = result.read;
	if (job.heldBackUpdate !== undefined) entry.heldBackUpdate = job.heldBackUpdate;
	if (result.kind === 'failed') {
		entry.failure = { status: result.status, polls: (job.parked?.polls ?? 0) + 1 };
		if (job.departed && entry.failure.polls >= DEPARTED_FAILURES) return;
	}
	next.containers.set(job.key, entry);
}

/** Whether any read is in progress or parked (the next poll has more to do). */
export function hasReadsInProgress(state: KeywordState | undefined): boolean {
	return !!state && [...state.containers.values()].some((entry) => entry.read !== undefined);
}
