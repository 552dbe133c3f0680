/**
 * The de-duplication cursor shared by both events. Pure functions, no I/O.
 *
 * Every event has a key `(at, id)`: `at` a Unix time in seconds (an alert's created_at, a keyword's crawled_at) and
 * `id` the record id. Keys are ordered by `at`, then by id (numerically when both ids are digits).
 *
 * A cursor remembers what has been seen as:
 * - a **floor** `[at, id]`: every key at or below it counts as seen. `id` null stands for "every id at `at`";
 * - **k**: the ids seen above the floor, at or before `t` (a keyword id seen again with a later time is new) (the boundary: events sharing the newest second, and those inside the
 *   lookback window, so that a late event stamped in the same second or slightly earlier is still caught);
 * - **t**: the newest `at` seen, from which the next floor is derived (`t - lookback - 1`).
 * When more than `cap` ids would be kept, only the `cap` newest are, and the floor rises to the newest key dropped:
 * the state never grows past `cap` ids, whatever the history.
 */
export type Floor = [number, string | null];

export interface WindowCursor {
	/** Newest event time seen (Unix seconds). */
	t: number;
	/** Every key at or below this one has been seen. */
	f: Floor;
	/** Ids seen above the floor. */
	k: string[];
}

export interface Stamped {
	id: string;
	at: number;
}

export interface AdvanceOptions {
	/** Seconds before `t` within which a late event is still caught (its id is remembered meanwhile). */
	lookback: number;
	/** Most ids the cursor keeps. */
	cap: number;
	/**
	 * Whether `records` holds every event above the current floor (the read went down to the floor or to the end of
	 * the list). When not, the floor rises to the oldest event read, so that nothing older is reported later.
	 */
	complete: boolean;
}

const DIGITS = /^\d+$/;

/** Orders two ids: numerically when both are digits (without losing precision), else as text. */
export function compareIds(a: string, b: string): number {
	if (a === b) return 0;
	if (DIGITS.test(a) && DIGITS.test(b)) {
		const x = a.replace(/^0+(?=\d)/, '');
		const y = b.replace(/^0+(?=\d)/, '');
		if (x.length !== y.length) return x.length - y.length;
		return x < y ? -1 : x > y ? 1 : 0;
	}
	return a < b ? -1 : 1;
}

export function compareKeys(a: Stamped, b: Stamped): number {
	return a.at - b.at || compareIds(a.id, b.id);
}

/** Whether a key is at or below a floor. */
export function isCovered(record: Stamped, floor: Floor): boolean {
	const [at, id] = floor;
	if (record.at !== at) return record.at < at;
	return id === null || compareIds(record.id, id) <= 0;
}

/** The higher of two floors (`[at, null]` is above every `[at, id]`). */
export function maxFloor(a: Floor, b: Floor): Floor {
	if (a[0] !== b[0]) return a[0] > b[0] ? a : b;
	if (a[1] === null) return a;
	if (b[1] === null) return b;
	return compareIds(a[1], b[1]) >= 0 ? a : b;
}

export function isSeen(
	record: Stamped,
	cursor: WindowCursor,
	seenIds: ReadonlySet<string>,
): boolean {
	return isCovered(record, cursor.f) || (seenIds.has(record.id) && record.at <= cursor.t);
}

/** A cursor that has seen everything up to and including `at` (and nothing after). */
export function cursorAt(at: number): WindowCursor {
	return { t: at, f: [at, null], k: [] };
}

/** Drops duplicates (same id; the last copy read wins, it is the freshest) and sorts oldest first. */
export function uniqueAscending<T extends Stamped>(records: readonly T[]): T[] {
	const byId = new Map<string, T>();
	for (const record of records) byId.set(record.id, record);
	return [...byId.values()].sort(compareKeys);
}

export interface Advanced<T extends Stamped> {
	/** Events not seen before, oldest first. */
	fresh: T[];
	cursor: WindowCursor;
}

/**
 * One poll's bookkeeping: which of `records` are new since `cursor`, and the cursor after them.
 * Without a cursor (first activation) nothing is new: the cursor is placed after everything read.
 */
export function advance<T extends Stamped>(
	cursor: WindowCursor | undefined,
	records: readonly T[],
	options: AdvanceOptions,
): Advanced<T> {
	const all = uniqueAscending(records);
	const seenIds = new Set(cursor?.k ?? []);
	let floor: Floor = cursor?.f ?? [Number.MIN_SAFE_INTEGER, null];
	const above = all.filter((record) => !isCovered(record, floor));
	// An id counts as seen only at or before the newest time seen: a keyword crawled again later is a new event.
	const fresh = cursor
		? above.filter((record) => !(seenIds.has(record.id) && record.at <= cursor.t))
		: [];

	let t = cursor?.t ?? Number.MIN_SAFE_INTEGER;
	for (const record of all) if (record.at > t) t = record.at;
	if (t === Number.MIN_SAFE_INTEGER) t = 0;

	// Nothing below the oldest event read is known when the read stopped early: everything there counts as seen.
	if (!options.complete && all.length > 0) floor = maxFloor(floor, [all[0].at, all[0].id]);
	floor = maxFloor(floor, [t - Math.max(0, options.lookback) - 1, null]);

	// Ids above the new floor. An id of the old cursor that the read did not return again was deleted meanwhile
	// (the read covers everything above the old floor, and anything it did not reach is now below the floor).
	const keep = above.filter((record) => !isCovered(record, floor));
	keep.sort((a, b) => compareKeys(b, a));
	const cap = Math.max(0, options.cap);
	if (keep.length > cap) {
		const firstDropped = keep[cap];
		floor = maxFloor(floor, [firstDropped.at, firstDropped.id]);
		keep.length = cap;
	}
	const k = keep.map((record) => record.id);
	return { fresh, cursor: { t, f: floor, k } };
}

/** Reads a cursor back from static data; anything malformed counts as no cursor. */
export function readCursor(value: unknown): WindowCursor | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const { t, f, k } = value as Record<string, unknown>;
	if (typeof t !== 'number' || !Number.isFinite(t)) return undefined;
	if (!Array.isArray(f) || f.length !== 2 || typeof f[0] !== 'number' || !Number.isFinite(f[0]))
		return undefined;
	if (f[1] !== null && typeof f[1] !== 'string') return undefined;
	if (!Array.isArray(k) || !k.every((id) => typeof id === 'string')) return undefined;
	return { t, f: [f[0], f[1]], k: [...k] };
}
