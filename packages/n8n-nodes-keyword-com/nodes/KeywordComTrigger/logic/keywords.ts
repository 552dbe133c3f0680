/**
 * Keyword Updated: pure parts.
 *
 * One read of `groups/active` (#1) per poll tells, through each project's and group's `keywords_last_updated_at`,
 * which ones have fresh ranks; only those keyword lists (#13) are read. Per project or group the state keeps the
 * timestamp last seen (`u`) and, once its list has been read, a cursor over the keywords' `crawled_at` (`c`).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Stamped, WindowCursor } from './cursor';
import { advance, compareKeys, cursorAt, maxFloor, readCursor } from './cursor';
import { redactDeep } from '../../KeywordCom/shared/redact';
import { flattenRecord, shapeRecord } from '../../KeywordCom/shared/records';
import type { Scope } from './scope';
import { inScope, splitName } from './scope';

export const KEYWORD_PAGE_SIZE = 250;
/** Keyword ids one project or group keeps at its boundary second. */
export const KEYWORD_ID_CAP = 100;
/** Keyword ids the whole state keeps, all projects together. */
export const KEYWORD_ID_BUDGET = 500;
/**
 * A project whose `keywords_last_updated_at` is this close (seconds) to the server's clock may still receive ranks
 * stamped with that same second after the read; it is read again at the next poll even if the stamp has not moved.
 */
export const HOT_SECONDS = 2;

export interface Container {
	name: string;
	/** keywords_last_updated_at as the API sent it (ISO 8601), or null when never updated. */
	u: string | null;
}

export interface ContainerState {
	u: string | null;
	/** 1 when `u` was seen within HOT_SECONDS of the server's clock: read again next time. */
	h?: 1;
	/** Cursor over crawled_at, once the list has been read. */
	c?: WindowCursor;
}

export interface KeywordState {
	/** The newest keywords_last_updated_at seen over all projects (Unix seconds): a project that appears later
	 * reports only keywords crawled after it. */
	s: number;
	p: Record<string, ContainerState>;
}

export interface KeywordEvent extends Stamped {
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
		containers.push({ name, u: typeof u === 'string' && u !== '' ? u : null });
	}
	return containers;
}

export function isHot(u: string | null, serverNow: number): boolean {
	const at = epochSeconds(u);
	return at !== undefined && at >= serverNow - HOT_SECONDS;
}

export function readKeywordState(value: unknown): KeywordState | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const { s, p } = value as IDataObject;
	if (
		typeof s !== 'number' ||
		!Number.isFinite(s) ||
		!p ||
		typeof p !== 'object' ||
		Array.isArray(p)
	)
		return undefined;
	const containers: Record<string, ContainerState> = {};
	for (const [name, raw] of Object.entries(p as IDataObject)) {
		if (!raw || typeof raw !== 'object') continue;
		const entry = raw as IDataObject;
		const state: ContainerState = {
			u: typeof entry.u === 'string' ? entry.u : null,
		};
		if (entry.h === 1) state.h = 1;
		const cursor = readCursor(entry.c);
		if (cursor) state.c = cursor;
		containers[name] = state;
	}
	return { s, p: containers };
}

export interface ReadPlan {
	name: string;
	/** Undefined on first activation: the read only places the cursor. */
	cursor: WindowCursor | undefined;
}

export interface KeywordPlan {
	/** Projects and groups whose keyword list must be read, with the cursor each starts from. */
	reads: ReadPlan[];
	/** The next state, before the reads' results are applied. */
	next: KeywordState;
}

/**
 * Decides which keyword lists a poll reads. `state` undefined = first activation: nothing is reported, and only the
 * lists of projects updated this very second are read (to pin their boundary exactly).
 */
export function planKeywordPoll(
	state: KeywordState | undefined,
	containers: readonly Container[],
	scope: Scope,
	serverNow: number,
): KeywordPlan {
	const next: KeywordState = { s: state?.s ?? 0, p: {} };
	const reads: ReadPlan[] = [];
	for (const container of containers) {
		const at = epochSeconds(container.u);
		if (at !== undefined && at > next.s) next.s = at;
	}
	for (const { name, u } of containers) {
		const hot = isHot(u, serverNow);
		const entry: ContainerState = { u };
		if (hot) entry.h = 1;
		next.p[name] = entry;
		if (!inScope(name, scope) || u === null) continue; // out of scope: follow its timestamp, read nothing
		if (!state) {
			if (hot) reads.push({ name, cursor: undefined });
			continue;
		}
		const previous = state.p[name];
		if (previous && previous.u === u && !previous.h) {
			if (previous.c) entry.c = previous.c;
			continue;
		}
		// Changed (or new, or still hot): read it, starting from what it had seen.
		const start =
			previous?.c ?? (previous ? cursorAt(epochSeconds(previous.u) ?? 0) : cursorAt(state.s));
		entry.c = start;
		reads.push({ name, cursor: start });
	}
	return { reads, next };
}

/** Keywords of a list as events; keywords never crawled (crawled_at null) are left out. */
export function toKeywordEvents(records: readonly unknown[]): KeywordEvent[] {
	const events: KeywordEvent[] = [];
	for (const raw of records) {
		if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
		const record = raw as IDataObject;
		const attributes = (record.attributes ?? {}) as IDataObject;
		const crawled = attributes.crawled_at;
		const at =
			typeof crawled === 'number'
				? crawled
				: typeof crawled === 'string' && /^\d+$/.test(crawled)
					? Number(crawled)
					: undefined;
		if (record.id === undefined || record.id === null || at === undefined) continue;
		events.push({ id: String(record.id), at: Math.floor(at), record });
	}
	return events;
}

/** New keywords of one list read and the project's next cursor. */
export function advanceKeywords(cursor: WindowCursor | undefined, records: readonly unknown[]) {
	return advance(cursor, toKeywordEvents(records), {
		lookback: 0,
		cap: KEYWORD_ID_CAP,
		complete: true,
	});
}

/**
 * Keeps the ids of all projects together within `budget`: the largest boundary sets are cut first, their floor
 * rising to the first id dropped. Boundary ids all sit at the cursor's newest second (lookback 0).
 */
export function trimToBudget(state: KeywordState, budget = KEYWORD_ID_BUDGET): KeywordState {
	const cursors = Object.values(state.p)
		.map((entry) => entry.c)
		.filter((cursor): cursor is WindowCursor => cursor !== undefined && cursor.k.length > 0);
	let total = cursors.reduce((sum, cursor) => sum + cursor.k.length, 0);
	while (total > budget) {
		cursors.sort((a, b) => b.k.length - a.k.length);
		const largest = cursors[0];
		// Cut the largest set, never below an equal share of the budget unless it must go further.
		let keep = Math.max(
			largest.k.length - (total - budget),
			Math.floor(budget / cursors.length),
			0,
		);
		if (keep >= largest.k.length) keep = largest.k.length - 1;
		const dropped = largest.k[keep];
		largest.f = maxFloor(largest.f, [largest.t, dropped]);
		total -= largest.k.length - keep;
		largest.k = largest.k.slice(0, keep);
	}
	return state;
}

/** Rank 0 or null in a history means outside the top 100; for the change it counts as 101 (as the app's trends do). */
const OUTSIDE = 101;
function rankValue(rank: unknown): number | null {
	if (typeof rank !== 'number' || !Number.isFinite(rank)) return null;
	return rank > 0 ? rank : OUTSIDE;
}

export interface RankChange {
	/** Current rank, null outside the top 100. */
	rank: number | null;
	/** Rank of the update before, null outside the top 100 or when there was none. */
	previous_rank: number | null;
	/** previous − current (outside the top 100 counting as 101): positive = moved up. Null without a previous update. */
	change: number | null;
	rank_changed: boolean;
}

export function rankChange(attributes: IDataObject): RankChange {
	const history = Array.isArray(attributes.grankhistory)
		? (attributes.grankhistory as unknown[])
		: [];
	const grank = attributes.grank;
	const currentValue =
		typeof grank === 'number' && grank > 0 ? grank : (rankValue(history[0]) ?? OUTSIDE);
	const rank = currentValue === OUTSIDE ? null : currentValue;
	const previousValue = history.length > 1 ? rankValue(history[1]) : null;
	if (previousValue === null) {
		return {
			rank,
			previous_rank: null,
			change: null,
			rank_changed: rank !== null,
		};
	}
	const change = previousValue - currentValue;
	return {
		rank,
		previous_rank: previousValue === OUTSIDE ? null : previousValue,
		change,
		rank_changed: change !== 0,
	};
}

/** The item emitted for one updated keyword. The token never appears. */
export function keywordItem(
	record: IDataObject,
	simplify: boolean,
	token: string | undefined,
): IDataObject {
	const attributes = (record.attributes ?? {}) as IDataObject;
	const movement = rankChange(attributes);
	const crawledAt = typeof attributes.crawled_at === 'number' ? attributes.crawled_at : null;
	const category = typeof attributes.category === 'string' ? attributes.category : '';
	const { project, group } = splitName(category);
	const summary = {
		...movement,
		crawled_at: crawledAt,
		crawled_at_iso: crawledAt === null ? null : new Date(crawledAt * 1000).toISOString(),
	};
	if (!simplify) return redactDeep({ ...record, ...summary }, token);
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

/** Newest keywords first, for the sample of a manual run. */
export function newestFirst(events: readonly KeywordEvent[]): KeywordEvent[] {
	return [...events].sort((a, b) => compareKeys(b, a));
}
