/**
 * Keyword Updated: the state and what a poll reads. Pure.
 *
 * An event is a keyword whose `crawled_at` moved. Each poll reads `groups/active` (#1): a project's or group's update
 * time (containers.ts) tells whether any of its keywords was crawled since it was last looked at, and only those
 * keyword lists (#13) are read.
 *
 * Time windows make it exactly once without remembering keyword ids. Per project or group the state keeps `w`: its
 * keywords crawled up to that time have been reported. When its update time (U) has moved past `w`, its list is read
 * and the keywords crawled in the window `(w, h]` are reported, `h` = U fixed when the read began; a keyword crawled
 * later belongs to the next window, which the next move of U opens. Both ends come from the API's own stamps (U and
 * crawled_at), never from this machine's clock. Only U's own second is held back once, when the API's clock (its Date
 * header) says it is not over yet: keywords may still be stamped with it.
 *
 * Each project and group stands alone: its window, its read in progress (a read too long for one poll goes on at the
 * next from the last keyword it read, by id, not by page) and its failures. One whose list fails is **parked** with
 * its window and read (tried once a poll, after the others, until it answers); the others go on as usual. One that has
 * left `groups/active` (archived or deleted) finishes a read in progress if its list still answers, and is forgotten
 * when its list is gone (404/410).
 */
import type { IDataObject } from 'n8n-workflow';

import { inScope, type Scope } from '../../shared/groupName';
import { nameKey, type Container } from './containers';
import { readRankingUrls, storedRankingUrls, type RankingUrlMemory } from './rankingUrls';

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
	h: number;
	/** Id of the last keyword read (the read goes on after it); absent before the first page. */
	e?: string;
	/** Estimated list index of `e` (-1 before the first page; the last index read, read page by page). */
	x: number;
	/** The list's length when `x` was estimated. */
	n: number;
	/** The list is ordered by id descending (absent: ascending; '?' : not by id, read page by page). */
	o?: 'd' | '?';
	/** Read page by page: the page size the API serves (when it serves fewer than asked). */
	z?: number;
	/** Read page by page: the ids of the last records read (the next page is read on from them). */
	a?: string[];
}

/** A project or group whose list failed at the last polls (it is parked). */
export interface Failure {
	/** HTTP status of the last failure; null when there was no answer. */
	s: string | null;
	/** Polls in a row it has failed. */
	n: number;
}

export interface ContainerState {
	/** Its name when last seen (lists are read by name). */
	name: string;
	/** Keywords crawled up to this time (Unix seconds) have been reported. */
	w: number;
	/** An update time (Unix seconds) whose own second was held back once (the next read includes it). */
	q?: number;
	/** A read in progress. */
	r?: ListRead;
	/** Parked: its list failed at the last polls. */
	f?: Failure;
}

export interface KeywordState {
	/** The newest update time seen (Unix seconds): a container seen for the first time is done up to it. */
	s: number;
	/** Every project and group in scope that has been updated, by key (containers.ts). */
	p: Map<string, ContainerState>;
	/** The history order, once the data has shown it (ranks.ts). */
	o?: 'n' | 'o';
	/** Ranking URLs at each keyword's last update, while the filter Ranking URL Changed is on (rankingUrls.ts). */
	u?: RankingUrlMemory;
}

/** A list read this poll: the container, its window `(w, read.h]` and where its read stands. */
export interface ListJob {
	/** Where its state goes (containers.ts). */
	key: string;
	/** The name its list is read by. */
	name: string;
	w: number;
	read: ListRead;
	/** The update whose second this window holds back (ContainerState.q). */
	q?: number;
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

function finiteNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function readListRead(value: unknown): ListRead | undefined {
	if (!isObject(value)) return undefined;
	const { h, e, x, n, o, z, a } = value;
	if (!finiteNumber(h) || !finiteNumber(x) || !finiteNumber(n)) return undefined;
	if (e !== undefined && typeof e !== 'string') return undefined;
	const read: ListRead = { h, x, n };
	if (typeof e === 'string') read.e = e;
	if (o === 'd' || o === '?') read.o = o;
	if (finiteNumber(z) && z > 0) read.z = z;
	if (Array.isArray(a) && a.length > 0 && a.every((id) => typeof id === 'string'))
		read.a = (a as string[]).slice(-8);
	return read;
}

function readEntry(name: unknown, raw: unknown): ContainerState | undefined {
	if (typeof name !== 'string' || name === '' || !isObject(raw) || !finiteNumber(raw.w))
		return undefined;
	const entry: ContainerState = { name, w: raw.w };
	if (finiteNumber(raw.q)) entry.q = raw.q;
	const read = readListRead(raw.r);
	if (read) entry.r = read;
	const failure = raw.f;
	if (
		isObject(failure) &&
		finiteNumber(failure.n) &&
		(failure.s === null || typeof failure.s === 'string')
	)
		entry.f = { s: failure.s, n: failure.n };
	return entry;
}

/**
 * The state as stored (static data is JSON): `{s, p: [{k, n, w, q?, r?, f?}, ...], o?}`, a list rather than an
 * object keyed by name, so that no project name is ever an object key (a project called `__proto__`). A stored state
 * of the earlier format (`p` an object keyed by name) reads as the same containers, known by their names.
 */
export function readKeywordState(value: unknown): KeywordState | undefined {
	if (!isObject(value) || !finiteNumber(value.s)) return undefined;
	const containers = new Map<string, ContainerState>();
	if (Array.isArray(value.p)) {
		for (const raw of value.p) {
			if (!isObject(raw) || typeof raw.k !== 'string') continue;
			const entry = readEntry(raw.n, raw);
			if (entry) containers.set(raw.k, entry);
		}
	} else if (isObject(value.p)) {
		for (const name of Object.keys(value.p)) {
			const entry = readEntry(name, value.p[name]);
			if (entry) containers.set(nameKey(name), entry);
		}
	} else return undefined;
	const state: KeywordState = { s: value.s, p: containers };
	if (value.o === 'n' || value.o === 'o') state.o = value.o;
	const urls = readRankingUrls(value.u);
	if (urls) state.u = urls;
	return state;
}

/** The state in its stored form (see readKeywordState). */
export function storedKeywordState(state: KeywordState): IDataObject {
	const p = [...state.p].map(([k, { name, ...rest }]) => ({ k, n: name, ...rest }));
	const stored: IDataObject = { s: state.s, p: p as unknown as IDataObject[] };
	if (state.o) stored.o = state.o;
	if (state.u) stored.u = storedRankingUrls(state.u);
	return stored;
}

function jobOf(key: string, entry: ContainerState): ListJob {
	const job: ListJob = { key, name: entry.name, w: entry.w, read: entry.r as ListRead };
	if (entry.q !== undefined) job.q = entry.q;
	if (entry.f) job.parked = entry.f;
	return job;
}

/**
 * Reads in progress that can go on before `groups/active` has answered (a poll whose time is short spends it on
 * reading): not parked ones, which wait to learn whether their container is still there.
 */
export function readsInProgress(state: KeywordState | undefined): ListJob[] {
	if (!state) return [];
	return [...state.p]
		.filter(([, entry]) => entry.r !== undefined && entry.f === undefined)
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
	let s = state?.s ?? 0;
	for (const { u } of containers) if (u !== undefined) s = Math.max(s, u);
	const next: KeywordState = { s, p: new Map() };
	if (state?.o) next.o = state.o;
	if (state?.u) next.u = state.u;
	const jobs: ListJob[] = [];
	const parked: ListJob[] = [];
	// Each stored entry goes with the container of the same key (or, known by name only, of the same name).
	const byKey = new Map(containers.map((container) => [container.key, container]));
	const byName = new Map(containers.map((container) => [container.name, container]));
	const listedFor = (key: string, entry: ContainerState): Container | undefined =>
		byKey.get(key) ?? (key === nameKey(entry.name) ? byName.get(entry.name) : undefined);
	const claimed = new Set<string>();
	const startedKeys = new Map(started.map((job) => [job.key, job]));

	for (const [key, entry] of state?.p ?? []) {
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
			const gone = entry.f?.s !== undefined && entry.f.s !== null && GONE.has(entry.f.s);
			if (entry.r && !gone)
				(entry.f ? parked : jobs).push({ ...jobOf(key, entry), departed: true });
			continue;
		}
		const current: ContainerState = { ...entry, name: listed.name };
		const planned = planContainer(listed, current, serverNow);
		if (planned.job) (current.f ? parked : jobs).push(planned.job);
		else next.p.set(listed.key, planned.entry);
	}

	for (const container of containers) {
		if (claimed.has(container.key) || !inScope(container.name, scope)) continue;
		if (container.u === undefined) continue;
		if (!state) {
			next.p.set(container.key, { name: container.name, w: container.u });
			continue;
		}
		// Seen for the first time (new, restored or now in scope): done up to the newest update seen last time.
		const planned = planContainer(container, { name: container.name, w: state.s }, serverNow);
		if (planned.job) jobs.push(planned.job);
		else next.p.set(container.key, planned.entry);
	}
	return { jobs: [...jobs, ...parked], next };
}

/** One listed container: a list to read (a read in progress, or a new window), or its entry as it stays. */
function planContainer(
	container: Container,
	entry: ContainerState,
	serverNow: number,
): { job?: ListJob; entry: ContainerState } {
	const { key, u, count } = container;
	if (entry.r) return { job: jobOf(key, entry), entry };
	if (u === undefined || u <= entry.w) return { entry };
	const recent = serverNow - SETTLE_SECONDS < u && entry.q !== u;
	const h = recent ? u - 1 : u;
	// Only the held-back second is new: it is read at the next poll.
	if (h <= entry.w) return { entry: { ...entry, q: u } };
	const job = jobOf(key, { ...entry, r: { h, x: -1, n: count ?? 0 } });
	delete job.q;
	if (recent) job.q = u;
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
	return planContainer(container, { name: container.name, w: ended.read.h }, serverNow).job;
}

/** Records a job's outcome in the next state. */
export function settleJob(next: KeywordState, job: ListJob, result: ListResult): void {
	if (job.dropped || result.kind === 'gone') return;
	const entry: ContainerState = { name: job.name, w: job.w };
	if (result.kind === 'done') {
		// A departed container's window is read: nothing more will come from it.
		if (job.departed) return;
		entry.w = job.read.h;
	} else entry.r = result.read;
	if (job.q !== undefined) entry.q = job.q;
	if (result.kind === 'failed') {
		entry.f = { s: result.status, n: (job.parked?.n ?? 0) + 1 };
		if (job.departed && entry.f.n >= DEPARTED_FAILURES) return;
	}
	next.p.set(job.key, entry);
}

/** Whether any read is in progress or parked (the next poll has more to do). */
export function hasReadsInProgress(state: KeywordState | undefined): boolean {
	return !!state && [...state.p.values()].some((entry) => entry.r !== undefined);
}
