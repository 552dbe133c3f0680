/**
 * What the trigger stores between polls: the only place its stored keys appear. Pure. The working state has full
 * names (newAlert/alertCursor.ts, keywordUpdated/plan.ts); static data is JSON kept small, so it is stored with one-letter keys and list
 * orders (ListOrder in working code, ORDER_LETTERS), encoded and decoded here. A value that does not read back counts
 * as no state (anything malformed, another event, another format).
 *
 * Stored format 1 (STATE_VERSION); `?` marks a key that may be absent:
 *
 * | Key | Meaning |
 * |---|---|
 * | `v` | the format: 1 |
 * | `e` | the event: `newAlert`, `keywordUpdated` or `aiVisibilityUpdated` |
 * | `c` | the event's state, below |
 * | `l?` | `[slowest request, page work]` (ms) the last poll measured (budget.ts Measured) |
 * | **New Alert: `c`** | the AlertCursor (newAlert/alertCursor.ts) |
 * | `t` | newest: the newest created_at emitted (Unix seconds) |
 * | `f` | floor: `[at, id or null]`, every alert at or below it was seen (`null`: all of that second) |
 * | `k` | idsAboveFloor: ids seen (emitted or filtered out) above the floor, at most 200 |
 * | `i?` | tie: -1 ids descending within a second, 0 mixed; absent: ascending |
 * | `o?` | listOrder: `a` ascending (oldest first), `d` descending, `u` unordered |
 * | `x?`, `n?` | floorIndex, listLength: the floor's estimated list index, and the list's length then (both or none) |
 * | `z?` | pageSize: the page size the API serves, when below the 250 asked for |
 * | `w?` | within: alerts of one second in no id order, the second a read stopped inside of (its ids read are in `k`) |
 * | **Keyword Updated: `c`** | the KeywordState (keywordUpdated/plan.ts) |
 * | `s` | mark: every container in scope not in `p` has reported its keywords crawled up to it (Unix seconds) |
 * | `p` | containers behind the mark: a list (never an object keyed by name: a project may be called `__proto__`) of |
 * | `p[].k`, `p[].n` | its key (polling/containers.ts) and name |
 * | `p[].w` | reportedUpTo: keywords crawled up to this time were reported |
 * | `p[].r?` | read: a read in progress (ListRead), `{h, e?, x, n, o?, z?, a?, b?}`: |
 * | `r.h`, `r.e?` | windowEnd; lastId, the last keyword read |
 * | `r.x`, `r.n` | lastIndex, its estimated list index (-1 before the first page); listLength then |
 * | `r.o?` | idOrder: `d` descending, `?` unordered (read page by page); absent: ascending |
 * | `r.z?`, `r.a?` | pageSize, the size the API serves when below 250; anchors (page by page), the ids of the last records read |
 * | `r.b?` | back (page by page): how far back of `x` the next page is asked, when a poll ended searching for the anchors |
 * | `p[].f?` | failure: `{s, n}`, its last HTTP status (or null) and the polls in a row it failed |
 * | `p[].d?` | departed: 1 when it has left `groups/active` (a lookup or a read of it is to come) |
 * | `m` | known: the containers in scope at the last poll, `[project_id, name]` (or `[key]` for one known by name) |
 * | `o?` | historyOrder: `n` descending (newest first), `o` ascending |
 * | **AI Visibility Updated: `c`** | the AiState (aiVisibilityUpdated/poll.ts) |
 * | `d` | clockDay: the newest completed day (UTC day number) by the API's clock at that poll |
 * | `p` | each domain in scope, `[id, upTo]`: every day up to `upTo` (UTC day number) was emitted or passed |
 *
 * A format change gets a new `v`; a state of another format reads as none (the trigger starts at "now" again).
 *
 * The **activation baseline** (activationBaseline.ts), in the workflow's global static data under `keywordComTrigger` → node id, is a stored
 * state as above: the one the first poll after activation recorded. n8n's durable scheduler runs the activation poll
 * as a test poll and drops the node's static data it wrote; n8n's activation saves the workflow's global static data,
 * though, so the first scheduled poll finds "now" there and reports everything after it. It is removed by the first
 * poll that emits (n8n saves the node's own state with it in every mode; the activation poll of a workflow activated
 * again may save the global data without the node's).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Measured } from '../polling/budget';
import type { WindowCursor } from '../polling/windowCursor';
import type { AlertCursor } from '../newAlert/alertCursor';
import type { ContainerState, KeywordState } from '../keywordUpdated/plan';
import type { ListRead } from '../polling/listReadState';
import type { ListOrder } from '../../shared/paging';
import type { AiState } from '../aiVisibilityUpdated/poll';

export const STATE_VERSION = 1;

export type EventName = 'newAlert' | 'keywordUpdated' | 'aiVisibilityUpdated';

export type EventState = AlertCursor | KeywordState | AiState;

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
	const { o, x, n, z, w } = value as IDataObject;
	const listOrder = fromLetter(ORDER_LETTERS.alerts, o);
	if (listOrder) cursor.listOrder = listOrder;
	if (finiteNumber(x) && finiteNumber(n)) {
		cursor.floorIndex = x;
		cursor.listLength = n;
	}
	if (finiteNumber(z) && z > 0) cursor.pageSize = z;
	if (finiteNumber(w) && cursor.floorIndex !== undefined) cursor.within = w;
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
	if (cursor.pageSize !== undefined) stored.z = cursor.pageSize;
	if (cursor.within !== undefined) stored.w = cursor.within;
	return stored;
}

function decodeListRead(value: unknown): ListRead | undefined {
	if (!isObject(value)) return undefined;
	const { h, e, x, n, o, z, a, b } = value;
	if (!finiteNumber(h) || !finiteNumber(x) || !finiteNumber(n)) return undefined;
	if (e !== undefined && typeof e !== 'string') return undefined;
	const read: ListRead = { windowEnd: h, lastIndex: x, listLength: n };
	if (typeof e === 'string') read.lastId = e;
	const idOrder = fromLetter(ORDER_LETTERS.ids, o);
	if (idOrder) read.idOrder = idOrder;
	if (finiteNumber(z) && z > 0) read.pageSize = z;
	if (Array.isArray(a) && a.length > 0 && a.every((id) => typeof id === 'string'))
		read.anchors = (a as string[]).slice(-8);
	if (finiteNumber(b) && b > 0) read.back = b;
	return read;
}

function encodeListRead(read: ListRead): IDataObject {
	const stored: IDataObject = { h: read.windowEnd, x: read.lastIndex, n: read.listLength };
	if (read.lastId !== undefined) stored.e = read.lastId;
	const o = toLetter(ORDER_LETTERS.ids, read.idOrder);
	if (o !== undefined) stored.o = o;
	if (read.pageSize !== undefined) stored.z = read.pageSize;
	if (read.anchors !== undefined) stored.a = read.anchors;
	if (read.back !== undefined) stored.b = read.back;
	return stored;
}

function decodeContainer(name: unknown, value: unknown): ContainerState | undefined {
	if (typeof name !== 'string' || name === '' || !isObject(value) || !finiteNumber(value.w))
		return undefined;
	const entry: ContainerState = { name, reportedUpTo: value.w };
	const read = decodeListRead(value.r);
	if (read) entry.read = read;
	const failure = value.f;
	if (
		isObject(failure) &&
		finiteNumber(failure.n) &&
		(failure.s === null || typeof failure.s === 'string')
	)
		entry.failure = { status: failure.s, polls: failure.n };
	if (value.d === 1) entry.departed = true;
	return entry;
}

function encodeContainer(key: string, entry: ContainerState): IDataObject {
	const stored: IDataObject = { k: key, n: entry.name, w: entry.reportedUpTo };
	if (entry.read) stored.r = encodeListRead(entry.read);
	if (entry.failure) stored.f = { s: entry.failure.status, n: entry.failure.polls };
	if (entry.departed) stored.d = 1;
	return stored;
}

const ID_KEY = /^id:(\d+)$/;

/** `known` in its stored form: `[project_id, name]`, or `[key]` for a container known by name. */
function encodeKnown(known: Map<string, string>): unknown[] {
	return [...known].map(([key, name]) => {
		const id = ID_KEY.exec(key);
		return id ? [Number(id[1]), name] : [key];
	});
}

function decodeKnown(value: unknown): Map<string, string> {
	const known = new Map<string, string>();
	if (!Array.isArray(value)) return known;
	for (const entry of value as unknown[]) {
		if (!Array.isArray(entry)) continue;
		if (entry.length === 2 && finiteNumber(entry[0]) && typeof entry[1] === 'string')
			known.set(`id:${entry[0]}`, entry[1]);
		else if (entry.length === 1 && typeof entry[0] === 'string' && entry[0].startsWith('name:'))
			known.set(entry[0], entry[0].slice('name:'.length));
	}
	return known;
}

/** Keyword Updated's containers (`p`) from their stored form. */
function decodeContainers(value: unknown): Map<string, ContainerState> | undefined {
	if (!Array.isArray(value)) return undefined;
	const containers = new Map<string, ContainerState>();
	for (const raw of value) {
		if (!isObject(raw) || typeof raw.k !== 'string') continue;
		const entry = decodeContainer(raw.n, raw);
		if (entry) containers.set(raw.k, entry);
	}
	return containers;
}

/** Keyword Updated's state from its stored form. */
export function decodeKeywordState(value: unknown): KeywordState | undefined {
	if (!isObject(value) || !finiteNumber(value.s)) return undefined;
	const containers = decodeContainers(value.p);
	if (!containers) return undefined;
	const state: KeywordState = { mark: value.s, containers, known: decodeKnown(value.m) };
	const historyOrder = fromLetter(ORDER_LETTERS.history, value.o);
	if (historyOrder) state.historyOrder = historyOrder;
	return state;
}

/** Keyword Updated's state in its stored form. */
export function encodeKeywordState(state: KeywordState): IDataObject {
	const p = [...state.containers].map(([key, entry]) => encodeContainer(key, entry));
	const stored: IDataObject = { s: state.mark, p, m: encodeKnown(state.known) as IDataObject[] };
	const o = toLetter(ORDER_LETTERS.history, state.historyOrder);
	if (o !== undefined) stored.o = o;
	return stored;
}

/** AI Visibility Updated's state from its stored form. */
export function decodeAiState(value: unknown): AiState | undefined {
	if (!isObject(value) || !finiteNumber(value.d) || !Array.isArray(value.p)) return undefined;
	const domains = new Map<string, number>();
	for (const entry of value.p as unknown[]) {
		if (Array.isArray(entry) && typeof entry[0] === 'string' && finiteNumber(entry[1]))
			domains.set(entry[0], entry[1]);
	}
	return { clockDay: value.d, domains };
}

/** AI Visibility Updated's state in its stored form. */
export function encodeAiState(state: AiState): IDataObject {
	return { d: state.clockDay, p: [...state.domains] as unknown as IDataObject[] };
}

/** The state of `event` in the node's static data, or undefined (first poll, another event, another format). */
export function readEventState(event: EventName, staticData: IDataObject): FoundState | undefined {
	if (staticData.e !== event || staticData.v !== STATE_VERSION) return undefined;
	const state =
		event === 'aiVisibilityUpdated'
			? decodeAiState(staticData.c)
			: event === 'newAlert'
				? decodeAlertCursor(staticData.c)
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
			: event === 'aiVisibilityUpdated'
				? encodeAiState(state as AiState)
				: encodeAlertCursor(state as AlertCursor);
	const stored: StoredState = { v: STATE_VERSION, e: event, c };
	if (measured && measured.requestMs > 0)
		stored.l = [Math.round(measured.requestMs), Math.round(measured.pageWorkMs)];
	return stored;
}
