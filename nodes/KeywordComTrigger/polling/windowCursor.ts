/**
 * The window cursor: which events of a list stamped `(at, id)` have been emitted. Pure, no I/O. New Alert's cursor
 * (newAlert/alertCursor.ts) is one, plus where it stands in the alert list. How it is stored is in storedState.ts.
 *
 * Every alert has a key `(at, id)`: `at` its created_at (Unix seconds), `id` its id. Keys are ordered by `at`, then
 * by id (numerically when both are digits) in the **tie order** the API uses for alerts of the same second: ascending
 * unless the list showed otherwise (`tie: -1`), or **mixed** (`tie: 0`) when the list serves alerts of one second in
 * no id order at all. With mixed ties, keys of one second are equal (a "run"): a floor then always covers whole
 * seconds.
 *
 * A cursor remembers what has been emitted as:
 * - a **floor** `[at, id]`: every key at or below it counts as emitted; `id` null stands for "every id at `at`";
 * - **idsAboveFloor**: the ids emitted above the floor (alerts sharing the newest second, and those inside the
 *   look-back window, so that a late alert stamped in the same second or a little earlier is still caught);
 * - **newest**: the newest `at` emitted, from which the next floor is derived (`newest - lookback - 1`).
 * When more than `cap` ids would be kept, only the `cap` newest are, and the floor rises to the newest key dropped:
 * the state never grows past `cap` ids, whatever the history.
 *
 */
import { compareIds } from '../../shared/paging';

/** `[at, id]`: every key at or below it has been seen; `id` null covers all of second `at`. */
export type Floor = [number, string | null];

/** The order of alerts sharing one second: 1 = ids ascending with time, -1 = descending, 0 = mixed (no id order). */
export type TieOrder = 1 | -1 | 0;

/** What has been emitted (see the top of this file). */
export interface WindowCursor {
	/** Newest event time seen (Unix seconds). */
	newest: number;
	/** Every key at or below this one has been seen. */
	floor: Floor;
	/** Ids seen above the floor. */
	idsAboveFloor: string[];
	/** Tie order, when the list showed it is descending (-1) or mixed (0); absent: ascending. */
	tie?: -1 | 0;
}

export interface Stamped {
	id: string;
	at: number;
}

/** A key that may stand for a whole second (`id` null: after every alert of that second). */
export type Boundary = { at: number; id: string | null };

/** Ids are ordered the way both nodes order them (numerically when both are digits). */
export { compareIds };

/**
 * Time order of keys (and of boundaries: `id` null comes after every id of its second). With mixed ties (0), two
 * alerts of one second compare equal.
 */
export function timeOrder(tie: TieOrder = 1): (a: Boundary, b: Boundary) => number {
	return (a, b) => {
		if (a.at !== b.at) return a.at - b.at;
		if (a.id === b.id) return 0;
		if (a.id === null) return 1;
		if (b.id === null) return -1;
		return tie === 0 ? 0 : tie * compareIds(a.id, b.id);
	};
}

export function compareKeys(a: Stamped, b: Stamped, tie: TieOrder = 1): number {
	return timeOrder(tie)(a, b);
}

export function floorKey(floor: Floor): Boundary {
	return { at: floor[0], id: floor[1] };
}

/** Whether a key is at or below a floor. */
export function isCovered(record: Stamped, floor: Floor, tie: TieOrder = 1): boolean {
	return timeOrder(tie)(record, floorKey(floor)) <= 0;
}

/** The higher of two floors (`[at, null]` is above every `[at, id]`). */
export function maxFloor(a: Floor, b: Floor, tie: TieOrder = 1): Floor {
	return timeOrder(tie)(floorKey(a), floorKey(b)) >= 0 ? a : b;
}

function minFloor(a: Floor, b: Floor, tie: TieOrder): Floor {
	return timeOrder(tie)(floorKey(a), floorKey(b)) <= 0 ? a : b;
}

export function tieOf(cursor: WindowCursor | undefined): TieOrder {
	return cursor?.tie === -1 || cursor?.tie === 0 ? cursor.tie : 1;
}

/** A floor that covers whole seconds (with mixed ties an id inside a second means nothing): `[at, null]`. */
function wholeSeconds(floor: Floor): Floor {
	return [floor[0], null];
}

/** Whether an alert was emitted before: under the floor, or one of the ids kept above it. */
export function isSeen(
	record: Stamped,
	cursor: WindowCursor,
	seenIds: ReadonlySet<string>,
): boolean {
	return isCovered(record, cursor.floor, tieOf(cursor)) || seenIds.has(record.id);
}

/** A cursor that has seen everything up to and including `at` (and nothing after). */
export function cursorAt(at: number): WindowCursor {
	return { newest: at, floor: [at, null], idsAboveFloor: [] };
}

/** Drops duplicates (same id; the last copy read wins) and sorts oldest first (mixed ties: by id within a second). */
export function uniqueAscending<T extends Stamped>(records: readonly T[], tie: TieOrder = 1): T[] {
	const byId = new Map<string, T>();
	for (const record of records) byId.set(record.id, record);
	return [...byId.values()].sort((a, b) => compareKeys(a, b, tie) || compareIds(a.id, b.id));
}

export interface AdvanceOptions {
	/** Seconds before `newest` within which a late event is still caught (its id is remembered meanwhile). */
	lookback: number;
	/** Most ids the cursor keeps. */
	cap: number;
	/**
	 * What the read covers above the current floor: 'all' = every alert up to the newest (the read reached the end
	 * of the list); a key = every alert up to that key and none above it (the read stopped there: its time was up);
	 * 'newest-only' = only the newest alerts (first activation: what lies below them counts as seen).
	 */
	covers: 'all' | 'newest-only' | Boundary;
	/** Tie order of the list (stored in the cursor). */
	tie?: TieOrder;
	/**
	 * The newest second the API's clock says is over (its Date header, less a settling margin), when known: with
	 * alerts of one second in no id order, the seconds up to it are whole (the read held back the later ones).
	 */
	settled?: number;
	/**
	 * A second no alert that shows up from now on can be stamped at or before within the promised lateness: the API's
	 * clock (its Date header) less `lookback`. Once a read has covered everything up to `settled`, the floor rises to
	 * it, whatever the newest alert is: the ids of an old burst are not kept, and an idle poll finds the floor on page
	 * 1, once its look-back is over.
	 */
	quietUpTo?: number;
	/**
	 * Mixed ties: every id the cursor keeps is of this second (a read stopped inside it, and this one went on from
	 * there without reading them again). Once the floor covers that second, they are dropped.
	 */
	within?: number;
}

export interface Advanced<T extends Stamped> {
	/** Events not seen before, oldest first. */
	fresh: T[];
	cursor: WindowCursor;
}

/**
 * One poll's bookkeeping: which of `records` (every alert read above the floor) are new since `cursor`, and the
 * cursor after them. Without a cursor (first activation) nothing is new: the cursor is placed after everything read.
 */
export function advance<T extends Stamped>(
	cursor: WindowCursor | undefined,
	records: readonly T[],
	options: AdvanceOptions,
): Advanced<T> {
	const tie = options.tie ?? tieOf(cursor);
	const mixed = tie === 0;
	const all = uniqueAscending(records, tie);
	const seenIds = new Set(cursor?.idsAboveFloor ?? []);
	let floor: Floor = cursor?.floor ?? [Number.MIN_SAFE_INTEGER, null];
	// An id-level floor left from before the list showed mixed ties covers its whole second (isCovered reads it so).
	if (mixed) floor = wholeSeconds(floor);
	const above = all.filter((record) => !isCovered(record, floor, tie));
	const fresh = cursor ? above.filter((record) => !seenIds.has(record.id)) : [];

	let newest = cursor?.newest ?? Number.MIN_SAFE_INTEGER;
	for (const record of all) if (record.at > newest) newest = record.at;
	if (newest === Number.MIN_SAFE_INTEGER) newest = 0;

	// Nothing below the oldest alert read is known when only the newest were read: everything there counts as seen.
	if (options.covers === 'newest-only' && all.length > 0)
		floor = maxFloor(floor, mixed ? [all[0].at, null] : [all[0].at, all[0].id], tie);
	const lookback = Math.max(0, options.lookback);
	floor = maxFloor(floor, [newest - lookback - 1, null], tie);
	// By the API's clock, past the look-back, after a read that covered everything it could: nothing more can come
	// below it.
	const settled = options.settled;
	const coveredToClock =
		options.covers === 'all' ||
		(typeof options.covers === 'object' &&
			settled !== undefined &&
			options.covers.id === null &&
			options.covers.at >= settled);
	// Never past the newest alert (nothing is known of later seconds: a late alert there is still emitted). Where ids
	// ascend within a second, the newest second closes at its last id read: one arriving later in it is still new.
	if (options.quietUpTo !== undefined && coveredToClock) {
		const upTo = Math.min(options.quietUpTo, newest);
		const last = tie === 1 && upTo === newest ? lastOfSecond(all, newest) : undefined;
		floor = maxFloor(floor, last ? [newest, last.id] : [tie === 1 ? upTo - 1 : upTo, null], tie);
	}
	// A read that stopped at a key knows nothing above it: the floor may not rise past that key. With mixed ties the
	// stop's own second may hold alerts not read yet: only the seconds before it are known.
	let stoppedAt: Floor | undefined;
	if (typeof options.covers === 'object') {
		const { at, id } = options.covers;
		stoppedAt = mixed && id !== null ? [at - 1, null] : [at, id];
	}
	// (It is never below the old floor: the read started there.)
	if (stoppedAt) floor = minFloor(floor, stoppedAt, tie);

	// Ids of the old cursor the read did not reach (above where it stopped) stay, as they are: still emitted.
	const reached = new Set(all.map((record) => record.id));
	const unreached = stoppedAt ? [...seenIds].filter((id) => !reached.has(id)) : [];
	// Ids read above the new floor. An id of the old cursor that a read to the end did not return again was deleted
	// meanwhile (the read covers everything above the old floor).
	let keep = above.filter((record) => !isCovered(record, floor, tie));
	keep.sort((a, b) => compareKeys(b, a, tie) || compareIds(b.id, a.id));
	const cap = Math.max(0, options.cap - unreached.length);
	if (keep.length > cap) {
		const firstDropped = keep[cap];
		if (tie === 1) {
			floor = maxFloor(floor, [firstDropped.at, firstDropped.id], tie);
			keep.length = cap;
		} else {
			// A new alert of a second still going on lands anywhere in that second's alerts (mixed ties) or in front of
			// them (ids descending), maybe before where the read already was: it is seen by the next poll, which reads
			// that second again. So the floor covers whole seconds only, and only those over before this poll began
			// (before the newest one the last poll saw, or by the API's clock), nor past where a stopped read was sure.
			// Those seconds keep all their ids, even past the cap (bounded by the alerts of one poll's time).
			const before =
				options.settled !== undefined
					? Math.min(newest, options.settled)
					: cursor
						? cursor.newest - 1
						: newest - 1;
			floor = maxFloor(floor, [Math.min(firstDropped.at, before), null], tie);
			if (stoppedAt) floor = minFloor(floor, stoppedAt, tie);
			keep = keep.filter((record) => !isCovered(record, floor, tie));
		}
	}
	// Every id kept was of the second `within`, now under the floor: none is needed any more.
	const passed =
		options.within !== undefined && isCovered({ at: options.within, id: '' }, floor, tie);
	const next: WindowCursor = {
		newest,
		floor,
		idsAboveFloor: [...(passed ? [] : unreached), ...keep.map((record) => record.id)],
	};
	if (tie !== 1) next.tie = tie;
	return { fresh, cursor: next };
}

/** The last record of second `at` in `ascending` (records in (at, id) order). */
function lastOfSecond<T extends Stamped>(ascending: readonly T[], at: number): T | undefined {
	for (let n = ascending.length - 1; n >= 0; n--) if (ascending[n].at === at) return ascending[n];
	return undefined;
}
