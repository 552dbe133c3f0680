/**
 * Keyword Updated: pure parts.
 *
 * An event is a keyword whose `crawled_at` moved. Each poll reads `groups/active` (#1) once: a project's or group's
 * `keywords_last_updated_at` tells whether any of its keywords was crawled since it was last looked at, and only
 * those keyword lists (#13) are read.
 *
 * Time windows make it exactly once without remembering keyword ids. Per container (project or group) the state
 * keeps `w`: its keywords crawled up to that time have been reported. When its `keywords_last_updated_at` (U) has
 * moved past `w`, its list is read and the keywords crawled in the window `(w, h]` are reported, `h` = U fixed when
 * the read began; a keyword crawled later belongs to the next window, which the next move of U opens. Both ends come
 * from the API's own stamps (U and crawled_at), never from this machine's clock. Only U's own second is held back
 * once, when the API's clock (its Date header) says it is not over yet: keywords may still be stamped with it.
 *
 * A read too long for one poll stops where the poll's time is up and goes on at the next poll from the last keyword
 * it read (by id, not by page: the list may have changed meanwhile).
 */
import type { IDataObject } from 'n8n-workflow';

import { redactDeep } from '../../shared/redact';
import { isoTime, shapeForOutput, type OutputChoice } from '../../shared/output';
import { flattenRecord, shapeRecord } from '../../shared/records';
import { compareIds } from './cursor';
import { rankChange, type HistoryOrder } from './ranks';
import { inScope, splitName, type Scope } from '../../shared/groupName';

export const KEYWORD_PAGE_SIZE = 250;

/**
 * A container updated this close (seconds, by the API's Date header) to the poll may still be receiving ranks stamped
 * with that second: the second is left to the next read.
 */
export const SETTLE_SECONDS = 2;

export interface Container {
	name: string;
	/** keywords_last_updated_at as the API sent it (ISO 8601), or null when never updated. */
	u: string | null;
	/** Its keywords, all statuses (`keywords_count`), when given: how long its list is believed to be. */
	count?: number;
}

/** A read of one container's keyword list that goes on over several polls. */
export interface ListRead {
	/** The window's end: keywords crawled after it wait for the next read. */
	h: number;
	/** Id of the last keyword read (the read goes on after it); absent before the first page. */
	e?: string;
	/** Estimated list index of `e` (-1 before the first page). */
	x: number;
	/** The list's length when `x` was estimated. */
	n: number;
	/** The list is ordered by id descending (absent: ascending; '?' : not by id, read page by page). */
	o?: 'd' | '?';
}

export interface ContainerState {
	/** Keywords crawled up to this time (Unix seconds) have been reported. */
	w: number;
	/** A keywords_last_updated_at (Unix seconds) whose own second was held back once (the next read includes it). */
	q?: number;
	/** A read in progress. */
	r?: ListRead;
}

export interface KeywordState {
	/** The newest keywords_last_updated_at seen (Unix seconds): a container seen for the first time is done up to it. */
	s: number;
	/** Every container in scope that has been updated. */
	p: Record<string, ContainerState>;
	/** The history order, once the data has shown it (ranks.ts). */
	o?: 'n' | 'o';
}

export interface KeywordEvent {
	id: string;
	at: number;
	record: IDataObject;
}

/** Unix seconds of an ISO timestamp, or undefined. */
export function epochSeconds(value: string | null | undefined): number | undefined {
	if (!value) return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** The projects and groups of a `groups/active` answer. */
export function toContainers(body: unknown): Container[] {
	const data = (body as IDataObject | undefined)?.data;
	if (!Array.isArray(data)) return [];
	const containers: Container[] = [];
	for (const raw of data) {
		if (!raw || typeof raw !== 'object') continue;
		const record = raw as IDataObject;
		const attributes = (record.attributes ?? {}) as IDataObject;
		const name = String(record.id ?? attributes.name ?? '');
		if (!name) continue;
		const u = attributes.keywords_last_updated_at;
		const container: Container = { name, u: typeof u === 'string' && u !== '' ? u : null };
		const counts = attributes.keywords_count;
		if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
			container.count = Object.values(counts as IDataObject).reduce<number>(
				(sum, value) => sum + (typeof value === 'number' && Number.isFinite(value) ? value : 0),
				0,
			);
		}
		containers.push(container);
	}
	return containers;
}

function finiteNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

function readListRead(value: unknown): ListRead | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const { h, e, x, n, o } = value as IDataObject;
	if (!finiteNumber(h) || !finiteNumber(x) || !finiteNumber(n)) return undefined;
	if (e !== undefined && typeof e !== 'string') return undefined;
	const read: ListRead = { h, x, n };
	if (typeof e === 'string') read.e = e;
	if (o === 'd' || o === '?') read.o = o;
	return read;
}

export function readKeywordState(value: unknown): KeywordState | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const { s, p, o } = value as IDataObject;
	if (!finiteNumber(s) || !p || typeof p !== 'object' || Array.isArray(p)) return undefined;
	const containers: Record<string, ContainerState> = {};
	for (const [name, raw] of Object.entries(p as IDataObject)) {
		if (!raw || typeof raw !== 'object') continue;
		const { w, q, r } = raw as IDataObject;
		if (!finiteNumber(w)) continue;
		const entry: ContainerState = { w };
		if (finiteNumber(q)) entry.q = q;
		const read = readListRead(r);
		if (read) entry.r = read;
		containers[name] = entry;
	}
	const state: KeywordState = { s, p: containers };
	if (o === 'n' || o === 'o') state.o = o;
	return state;
}

/** A list read this poll: the container, its window `(w, read.h]` and where its read stands. */
export interface ListJob {
	name: string;
	w: number;
	read: ListRead;
	/** The update whose second this window holds back (ContainerState.q). */
	q?: number;
}

export interface KeywordPlan {
	jobs: ListJob[];
	/** The next state before the jobs' results (settleJob adds them). */
	next: KeywordState;
}

/**
 * Which lists a poll reads. `serverNow` is the API's clock (Date header) when `groups/active` answered. Without a
 * state (first activation) nothing is read: every container is done up to its last update.
 */
export function planKeywordPoll(
	state: KeywordState | undefined,
	containers: readonly Container[],
	scope: Scope,
	serverNow: number,
): KeywordPlan {
	let s = state?.s ?? 0;
	for (const { u } of containers) s = Math.max(s, epochSeconds(u) ?? s);
	const next: KeywordState = { s, p: {} };
	if (state?.o) next.o = state.o;
	const jobs: ListJob[] = [];
	for (const { name, u, count } of containers) {
		if (!inScope(name, scope)) continue;
		const updated = epochSeconds(u);
		const known = state?.p[name];
		if (updated === undefined) {
			if (known) next.p[name] = known;
			continue;
		}
		if (!state) {
			next.p[name] = { w: updated };
			continue;
		}
		// Seen for the first time (new, restored or now in scope): done up to the newest update seen last time.
		const entry: ContainerState = known ?? { w: state.s };
		if (entry.r) {
			jobs.push({ name, w: entry.w, read: entry.r, q: entry.q });
			continue;
		}
		if (updated <= entry.w) {
			next.p[name] = entry;
			continue;
		}
		const recent = serverNow - SETTLE_SECONDS < updated && entry.q !== updated;
		const h = recent ? updated - 1 : updated;
		if (h <= entry.w) {
			// Only the held-back second is new: it is read at the next poll.
			next.p[name] = { w: entry.w, q: updated };
			continue;
		}
		const job: ListJob = { name, w: entry.w, read: { h, x: -1, n: count ?? 0 } };
		if (recent) job.q = updated;
		jobs.push(job);
	}
	return { jobs, next };
}

/**
 * A poll that only goes on with the reads in progress (they come first: a poll whose time is short spends it on them
 * instead of on `groups/active`). Every other container stays as it was.
 */
export function planResume(state: KeywordState): KeywordPlan {
	const next: KeywordState = { s: state.s, p: {} };
	if (state.o) next.o = state.o;
	const jobs: ListJob[] = [];
	for (const [name, entry] of Object.entries(state.p)) {
		if (entry.r) jobs.push({ name, w: entry.w, read: entry.r, q: entry.q });
		else next.p[name] = entry;
	}
	return { jobs, next };
}

/** Whether a read is in progress (the next poll then resumes it first, see planResume). */
export function hasReadsInProgress(state: KeywordState | undefined): boolean {
	return !!state && Object.values(state.p).some((entry) => entry.r !== undefined);
}

/** Records a job's outcome in the next state: done up to its window's end, or a read still going on. */
export function settleJob(next: KeywordState, job: ListJob, read: ListRead | 'done'): void {
	const entry: ContainerState = read === 'done' ? { w: job.read.h } : { w: job.w, r: read };
	if (job.q !== undefined) entry.q = job.q;
	next.p[job.name] = entry;
}

/** Unix seconds of a keyword's crawled_at, or undefined (never crawled). */
export function crawledAt(record: IDataObject): number | undefined {
	const crawled = ((record.attributes ?? {}) as IDataObject).crawled_at;
	if (typeof crawled === 'number' && Number.isFinite(crawled)) return Math.floor(crawled);
	if (typeof crawled === 'string' && /^\d+$/.test(crawled)) return Number(crawled);
	return undefined;
}

/** The keyword's id as text, or undefined. */
export function keywordId(record: unknown): string | undefined {
	if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const id = (record as IDataObject).id;
	return id === undefined || id === null || id === '' ? undefined : String(id);
}

/** Keywords of a list crawled within the window `(w, h]`, as events. */
export function windowEvents(records: Iterable<unknown>, w: number, h: number): KeywordEvent[] {
	const events: KeywordEvent[] = [];
	for (const raw of records) {
		const id = keywordId(raw);
		if (id === undefined) continue;
		const record = raw as IDataObject;
		const at = crawledAt(record);
		if (at === undefined || at <= w || at > h) continue;
		events.push({ id, at, record });
	}
	return events;
}

/** Events oldest first (crawled_at, then id); a keyword read twice (two lists, or a shifted page) counts once. */
export function uniqueOldestFirst(events: readonly KeywordEvent[]): KeywordEvent[] {
	const byId = new Map<string, KeywordEvent>();
	for (const event of events) {
		const seen = byId.get(event.id);
		if (!seen || event.at > seen.at) byId.set(event.id, event);
	}
	return [...byId.values()].sort((a, b) => a.at - b.at || compareIds(a.id, b.id));
}

/** The item emitted for one updated keyword. The token never appears. */
export function keywordItem(
	record: IDataObject,
	output: OutputChoice,
	token: string | undefined,
	order: HistoryOrder | 'conflict' | undefined,
): IDataObject {
	const attributes = (record.attributes ?? {}) as IDataObject;
	const movement = rankChange(attributes, order);
	const crawled = crawledAt(record) ?? null;
	const category = typeof attributes.category === 'string' ? attributes.category : '';
	const { project, group } = splitName(category);
	const summary = {
		...movement,
		crawled_at: crawled,
		crawled_at_iso: crawled === null ? null : new Date(crawled * 1000).toISOString(),
	};
	if (output.version >= 2) return redactDeep(keywordItemV2(record, output, summary), token);
	if (!output.simplify) return redactDeep({ ...record, ...summary }, token);
	const shaped = shapeRecord(record, 'keyword', true);
	const flat = flattenRecord(record);
	return redactDeep(
		{
			id: shaped.id,
			kw: shaped.kw,
			project,
			group,
			category,
			project_id: shaped.project_id,
			url: shaped.url,
			region: shaped.region,
			language: shaped.language,
			type: shaped.type,
			...movement,
			best: flat.best ?? null,
			rankingurl: flat.rankingurl ?? null,
			ms: flat.ms ?? null,
			tags: shaped.tags ?? [],
			crawled_at: summary.crawled_at,
			crawled_at_iso: summary.crawled_at_iso,
		},
		token,
	);
}

/**
 * Version 2 (the Output choice): Simplified is the action node's keyword (keyword.ts of output) with the update's
 * previous rank and change in place of the best rank and search volume; Raw is the record plus the update's ranks;
 * Selected Fields picks from both.
 */
function keywordItemV2(
	record: IDataObject,
	output: OutputChoice,
	summary: IDataObject,
): IDataObject {
	if (output.mode === 'raw') return { ...record, ...summary };
	// Selected Fields picks from the record's fields and the update's ranks alike.
	if (output.mode === 'selected') {
		return shapeForOutput({ ...flattenRecord(record), ...summary }, 'keyword', output);
	}
	const shaped = shapeForOutput(record, 'keyword', output);
	return {
		id: shaped.id,
		keyword: shaped.keyword,
		project: shaped.project,
		group: shaped.group,
		region: shaped.region,
		rank: summary.rank,
		previous_rank: summary.previous_rank,
		change: summary.change,
		ranking_url: shaped.ranking_url,
		crawled_at: isoTime(summary.crawled_at),
	};
}
