/**
 * What the trigger stores between polls: the only place its stored keys appear. Pure. The working state has full
 * names (cursor.ts, keywords.ts); static data is JSON kept small, so it is stored with one-letter keys and list
 * orders (ListOrder in working code, ORDER_LETTERS), encoded and decoded here. A value that does not read back counts
 * as no state (anything malformed, another event, a newer version).
 *
 * Stored format, version 3 (STATE_VERSION); `?` marks a key that may be absent:
 *
 * | Key | Meaning |
 * |---|---|
 * | `v` | the format version: 3 (1 and 2 are still read) |
 * | `e` | the event: `newAlert` or `keywordUpdated` |
 * | `c` | the event's state, below |
 * | `l?` | `[slowest request, page work]` (ms) the last poll measured (budget.ts Measured) |
 * | **New Alert: `c`** | the AlertCursor (cursor.ts) |
 * | `t` | newest: the newest created_at emitted (Unix seconds) |
 * | `f` | floor: `[at, id or null]`, every alert at or below it was seen (`null`: all of that second) |
 * | `k` | idsAboveFloor: ids seen (emitted or filtered out) above the floor, at most 200 |
 * | `i?` | tie: -1 ids descending within a second, 0 mixed; absent: ascending |
 * | `o?` | listOrder: `a` ascending (oldest first), `d` descending, `u` unordered |
 * | `x?`, `n?` | floorIndex, listLength: the floor's estimated list index, and the list's length then (both or none) |
 * | **Keyword Updated: `c`** | the KeywordState (keywords.ts) |
 * | `s` | newestUpdate: the newest update time seen (Unix seconds) |
 * | `p` | containers: a list (never an object keyed by name: a project may be called `__proto__`) of |
 * | `p[].k`, `p[].n` | its key (containers.ts) and name |
 * | `p[].w` | reportedUpTo: keywords crawled up to this time were reported |
 * | `p[].q?` | heldBackUpdate: an update whose second was held back once |
 * | `p[].r?` | read: a read in progress (ListRead), `{h, e?, x, n, o?, z?, a?}`: |
 * | `r.h`, `r.e?` | windowEnd; lastId, the last keyword read |
 * | `r.x`, `r.n` | lastIndex, its estimated list index (-1 before the first page); listLength then |
 * | `r.o?` | idOrder: `d` descending, `?` unordered (read page by page); absent: ascending |
 * | `r.z?`, `r.a?` | page by page: pageSize, the size the API serves; anchors, the ids of the last records read |
 * | `p[].f?` | failure: `{s, n}`, its last HTTP status (or null) and the polls in a row it failed |
 * | `o?` | historyOrder: `n` descending (newest first), `o` ascending |
 * | `u?` | rankingUrls: `[[keyword id, URL hash], …]`, oldest first, while Ranking URL Changed is on |
 *
 * Earlier versions: 2 kept Keyword Updated's `p` as an object keyed by name (read as containers known by name); 1 kept
 * per name `{u: keywords_last_updated_at, c?: a New Alert cursor over crawled_at}` (read as done up to its newest).
 *
 * The **activation baseline**, in the workflow's global static data under `keywordComTrigger` → node id, is a stored
 * state as above: the one the first poll after activation recorded. n8n's durable scheduler runs the activation poll
 * as a test poll and drops the node's static data it wrote; n8n's activation saves the workflow's global static data,
 * though, so the first scheduled poll finds "now" there and reports everything after it. It is removed by the first
 * poll that writes the node's own state (saved with it).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Measured } from './budget';
import { nameKey } from './containers';
import type { AlertCursor, WindowCursor } from './cursor';
import type { ContainerState, KeywordState, ListRead } from './keywords';
import type { RankingUrlMemory } from './rankingUrls';
import type { ListOrder } from '../../shared/paging';
import { apiTimeSeconds } from '../../shared/time';

export const STATE_VERSION = 3;

export type EventName = 'newAlert' | 'keywordUpdated';

export type EventState = AlertCursor | KeywordState;

/** The node's static data (see the table above). */
export interface StoredState {
	v: typeof STATE_VERSION;
	e: EventName;
	c: IDataObject;
	l?: [number, number];
}

/** A state read back from static data. */
export interface FoundState {
	state: EventState;
	/** What the last poll measured: the next poll plans its first requests with it. */
	measured?: Measured;
}

/** Key of the activation baselines in the workflow's global static data. */
export const BASELINE_KEY = 'keywordComTrigger';

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function finiteNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

type OrderLetters = Partial<Record<ListOrder, string>>;

/** Each stored list order's letters (the table above); an order without one is not stored. */
const ORDER_LETTERS = {
	alerts: { ascending: 'a', descending: 'd', unordered: 'u' },
	ids: { descending: 'd', unordered: '?' },
	history: { descending: 'n', ascending: 'o' },
} satisfies Record<string, OrderLetters>;

function fromLetter(letters: OrderLetters, letter: unknown): ListOrder | undefined {
	return (Object.keys(letters) as ListOrder[]).find((order) => letters[order] === letter);
}

function toLetter(letters: OrderLetters, order: ListOrder | undefined): string | undefined {
	return order === undefined ? undefined : letters[order];
}

function decodeWindowCursor(value: unknown): WindowCursor | undefined {
	if (!isObject(value)) return undefined;
	const { t, f, k, i } = value;
	if (!finiteNumber(t)) return undefined;
	if (!Array.isArray(f) || f.length !== 2 || !finiteNumber(f[0])) return undefined;
	if (f[1] !== null && typeof f[1] !== 'string') return undefined;
	if (!Array.isArray(k) || !k.every((id) => typeof id === 'string')) return undefined;
	const cursor: WindowCursor = { newest: t, floor: [f[0], f[1]], idsAboveFloor: [...k] };
	if (i === -1 || i === 0) cursor.tie = i;
	return cursor;
}

/** New Alert's cursor from its stored form. */
export function decodeAlertCursor(value: unknown): AlertCursor | undefined {
	const cursor: AlertCursor | undefined = decodeWindowCursor(value);
	if (!cursor) return undefined;
	const { o, x, n } = value as IDataObject;
	const listOrder = fromLetter(ORDER_LETTERS.alerts, o);
	if (listOrder) cursor.listOrder = listOrder;
	if (finiteNumber(x) && finiteNumber(n)) {
		cursor.floorIndex = x;
		cursor.listLength = n;
	}
	return cursor;
}

/** New Alert's cursor in its stored form. */
export function encodeAlertCursor(cursor: AlertCursor): IDataObject {
	const stored: IDataObject = { t: cursor.newest, f: [...cursor.floor], k: cursor.idsAboveFloor };
	if (cursor.tie !== undefined) stored.i = cursor.tie;
	const o = toLetter(ORDER_LETTERS.alerts, cursor.listOrder);
	if (o !== undefined) stored.o = o;
	if (cursor.floorIndex !== undefined) stored.x = cursor.floorIndex;
	if (cursor.listLength !== undefined) stored.n = cursor.listLength;
	return stored;
}

function decodeListRead(value: unknown): ListRead | undefined {
	if (!isObject(value)) return undefined;
	const { h, e, x, n, o, z, a } = value;
	if (!finiteNumber(h) || !finiteNumber(x) || !finiteNumber(n)) return undefined;
	if (e !== undefined && typeof e !== 'string') return undefined;
	const read: ListRead = { windowEnd: h, lastIndex: x, listLength: n };
	if (typeof e === 'string') read.lastId = e;
	const idOrder = fromLetter(ORDER_LETTERS.ids, o);
	if (idOrder) read.idOrder = idOrder;
	if (finiteNumber(z) && z > 0) read.pageSize = z;
	if (Array.isArray(a) && a.length > 0 && a.every((id) => typeof id === 'string'))
		read.anchors = (a as string[]).slice(-8);
	return read;
}

function encodeListRead(read: ListRead): IDataObject {
	const stored: IDataObject = { h: read.windowEnd, x: read.lastIndex, n: read.listLength };
	if (read.lastId !== undefined) stored.e = read.lastId;
	const o = toLetter(ORDER_LETTERS.ids, read.idOrder);
	if (o !== undefined) stored.o = o;
	if (read.pageSize !== undefined) stored.z = read.pageSize;
	if (read.anchors !== undefined) stored.a = read.anchors;
	return stored;
}

function decodeContainer(name: unknown, value: unknown): ContainerState | undefined {
	if (typeof name !== 'string' || name === '' || !isObject(value) || !finiteNumber(value.w))
		return undefined;
	const entry: ContainerState = { name, reportedUpTo: value.w };
	if (finiteNumber(value.q)) entry.heldBackUpdate = value.q;
	const read = decodeListRead(value.r);
	if (read) entry.read = read;
	const failure = value.f;
	if (
		isObject(failure) &&
		finiteNumber(failure.n) &&
		(failure.s === null || typeof failure.s === 'string')
	)
		entry.failure = { status: failure.s, polls: failure.n };
	return entry;
}

function encodeContainer(key: string, entry: ContainerState): IDataObject {
	const stored: IDataObject = { k: key, n: entry.name, w: entry.reportedUpTo };
	if (entry.heldBackUpdate !== undefined) stored.q = entry.heldBackUpdate;
	if (entry.read) stored.r = encodeListRead(entry.read);
	if (entry.failure) stored.f = { s: entry.failure.status, n: entry.failure.polls };
	return stored;
}

function decodeRankingUrls(value: unknown): RankingUrlMemory | undefined {
	if (!Array.isArray(value)) return undefined;
	const memory: RankingUrlMemory = new Map();
	for (const entry of value as unknown[]) {
		if (
			Array.isArray(entry) &&
			entry.length === 2 &&
			typeof entry[0] === 'string' &&
			typeof entry[1] === 'string'
		)
			memory.set(entry[0], entry[1]);
	}
	return memory;
}

/** Keyword Updated's state from its stored form (version 3, or 2: `p` an object keyed by name). */
export function decodeKeywordState(value: unknown): KeywordState | undefined {
	if (!isObject(value) || !finiteNumber(value.s)) return undefined;
	const containers = new Map<string, ContainerState>();
	if (Array.isArray(value.p)) {
		for (const raw of value.p) {
			if (!isObject(raw) || typeof raw.k !== 'string') continue;
			const entry = decodeContainer(raw.n, raw);
			if (entry) containers.set(raw.k, entry);
		}
	} else if (isObject(value.p)) {
		for (const name of Object.keys(value.p)) {
			const entry = decodeContainer(name, value.p[name]);
			if (entry) containers.set(nameKey(name), entry);
		}
	} else return undefined;
	const state: KeywordState = { newestUpdate: value.s, containers };
	const historyOrder = fromLetter(ORDER_LETTERS.history, value.o);
	if (historyOrder) state.historyOrder = historyOrder;
	const urls = decodeRankingUrls(value.u);
	if (urls) state.rankingUrls = urls;
	return state;
}

/** Keyword Updated's state in its stored form. */
export function encodeKeywordState(state: KeywordState): IDataObject {
	const p = [...state.containers].map(([key, entry]) => encodeContainer(key, entry));
	const stored: IDataObject = { s: state.newestUpdate, p };
	const o = toLetter(ORDER_LETTERS.history, state.historyOrder);
	if (o !== undefined) stored.o = o;
	if (state.rankingUrls) stored.u = [...state.rankingUrls];
	return stored;
}

/**
 * A Keyword Updated state of version 1 (per container: the last `keywords_last_updated_at` seen and a cursor over
 * crawled_at): each container done up to the newest crawled_at it had seen.
 */
function keywordStateFromVersion1(value: unknown): KeywordState | undefined {
	if (!isObject(value) || typeof value.s !== 'number' || !isObject(value.p)) return undefined;
	const containers = new Map<string, ContainerState>();
	for (const name of Object.keys(value.p)) {
		const raw = value.p[name];
		if (!isObject(raw)) continue;
		const reportedUpTo = decodeWindowCursor(raw.c)?.newest ?? apiTimeSeconds(raw.u);
		if (reportedUpTo !== undefined) containers.set(nameKey(name), { name, reportedUpTo });
	}
	return { newestUpdate: value.s, containers };
}

/** The state of `event` in the node's static data, or undefined (first poll, another event, unknown version). */
export function readEventState(event: EventName, staticData: IDataObject): FoundState | undefined {
	if (staticData.e !== event) return undefined;
	if (staticData.v !== STATE_VERSION && staticData.v !== 2 && staticData.v !== 1) return undefined;
	const state =
		event === 'newAlert'
			? decodeAlertCursor(staticData.c)
			: staticData.v === 1
				? keywordStateFromVersion1(staticData.c)
				: decodeKeywordState(staticData.c);
	if (!state) return undefined;
	const found: FoundState = { state };
	const measured = staticData.l;
	if (
		Array.isArray(measured) &&
		measured.length === 2 &&
		measured.every((ms) => typeof ms === 'number')
	)
		found.measured = { requestMs: measured[0] as number, pageWorkMs: measured[1] as number };
	return found;
}

export function storedState(event: EventName, state: EventState, measured?: Measured): StoredState {
	const c =
		event === 'keywordUpdated'
			? encodeKeywordState(state as KeywordState)
			: encodeAlertCursor(state as AlertCursor);
	const stored: StoredState = { v: STATE_VERSION, e: event, c };
	if (measured && measured.requestMs > 0)
		stored.l = [Math.round(measured.requestMs), Math.round(measured.pageWorkMs)];
	return stored;
}

function baselines(globalData: IDataObject): IDataObject {
	if (!isObject(globalData[BASELINE_KEY])) globalData[BASELINE_KEY] = {};
	return globalData[BASELINE_KEY] as IDataObject;
}

/**
 * The activation baseline of this node for `event`, when one is there. (One marked used, `a: 1`, by an earlier
 * version of this node counts as none.)
 */
export function findBaseline(
	event: EventName,
	globalData: IDataObject,
	nodeId: string,
): FoundState | undefined {
	const entry = isObject(globalData[BASELINE_KEY])
		? (globalData[BASELINE_KEY] as IDataObject)[nodeId]
		: undefined;
	if (!isObject(entry) || entry.a === 1) return undefined;
	return readEventState(event, entry);
}

/** Removes this node's activation baseline (its own state is written now, and saved with the removal). */
export function dropBaseline(globalData: IDataObject, nodeId: string): void {
	const all = globalData[BASELINE_KEY];
	if (!isObject(all) || !Object.prototype.hasOwnProperty.call(all, nodeId)) return;
	delete all[nodeId];
	if (Object.keys(all).length === 0) delete globalData[BASELINE_KEY];
}

/** Records the state a first poll placed at "now" as this node's activation baseline. */
export function putBaseline(
	event: EventName,
	state: EventState,
	globalData: IDataObject,
	nodeId: string,
): void {
	baselines(globalData)[nodeId] = storedState(event, state) as unknown as IDataObject;
}
