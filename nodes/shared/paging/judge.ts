/**
 * Judging an answer of an overlapping read (see index.ts): does the window connect with what was read (it holds the
 * edge and records after it, in order), and if not, where the edge is likely to be now. OverlappingRead keeps the
 * position both drivers move with these verdicts.
 */
import {
	learnPageSizes,
	shiftedIndex,
	type Direction,
	type PageSizes,
	type ReadPosition,
	type ServedPage,
	type Window,
} from './windows';

export type Verdict<K> =
	/** The window connects: `fresh` are the records after the edge, in reading order. */
	| {
			kind: 'accept';
			fresh: Array<{ key: K; record: unknown }>;
			position: ReadPosition<K>;
			end: boolean;
	  }
	/** No record after the edge in this window, and the list ends here: the read is complete. */
	| { kind: 'end'; position: ReadPosition<K> }
	/** The window does not connect (the list shifted, or the estimate was off): ask again around `position.index`. */
	| { kind: 'move'; position: ReadPosition<K>; toward: 'start' | 'end' }
	/** The records are not in the expected order: the list is not ordered the way it was thought to be. */
	| { kind: 'unordered' };

/**
 * Judges one served window against the read's position. `keyOf` gives a record's key (undefined: the record is not
 * an event and is stepped over); `compare` orders keys in reading order. With `runIdOf`, keys may compare equal (a
 * run, in any order within it) and are told apart by that id: a record of the edge's run is known when its id was read.
 */
export function judgeWindow<K>(
	window: Window,
	served: ServedPage,
	position: ReadPosition<K>,
	direction: Direction,
	keyOf: (record: unknown) => K | undefined,
	compare: (a: K, b: K) => number,
	runIdOf?: (key: K) => string,
): Verdict<K> {
	const count = served.records.length;
	const total = served.total ?? position.total;
	// Where the window really starts: the page number times the page size the API used.
	const size = served.perPage && served.perPage > 0 ? served.perPage : window.perPage;
	const start = (window.page - 1) * size;
	const inReadingOrder =
		direction === 'forward' ? [...served.records] : [...served.records].reverse();
	const keyed: Array<{ key: K; record: unknown }> = [];
	for (const record of inReadingOrder) {
		const key = keyOf(record);
		if (key !== undefined) keyed.push({ key, record });
	}
	for (let n = 1; n < keyed.length; n++) {
		const order = compare(keyed[n - 1].key, keyed[n].key);
		if (order > 0 || (order === 0 && !runIdOf)) return { kind: 'unordered' };
	}
	const atListStart = direction === 'forward' ? start === 0 : start + count >= total;
	const atListEnd = direction === 'forward' ? count < size || start + count >= total : start === 0;
	const edge = position.edge;
	const runRead = new Set(position.run ?? []);
	// Read before: at or before the edge; in a run, only the ids read (the rest of the run may still come).
	const known = (key: K): boolean => {
		if (edge === undefined) return false;
		const order = compare(key, edge);
		return order < 0 || (order === 0 && (!runIdOf || runRead.has(runIdOf(key))));
	};
	const before = keyed.filter((entry) => known(entry.key)).length;
	// Index of the window's last record in reading order.
	const lastIndex = direction === 'forward' ? start + count - 1 : start;
	if (count === 0) {
		// An empty list, or a page past its end: the list is shorter than believed, or the read is through.
		if (
			start === 0 ||
			(direction === 'forward' && position.exact === true && position.index >= start - 1)
		) {
			return { kind: 'end', position: { ...position, total } };
		}
		const index = Math.min(position.index, total - 1);
		return {
			kind: 'move',
			position: { ...position, index, total, exact: false },
			toward: direction === 'forward' ? 'start' : 'end',
		};
	}
	if (edge === undefined && !atListStart) {
		// Reading from the start, but this window does not reach it (the list grew since its length was known).
		const index = direction === 'forward' ? -1 : total;
		return { kind: 'move', position: { ...position, index, total, exact: false }, toward: 'start' };
	}
	// A page next to the edge's page connects when nothing was added or deleted in between (same total).
	const connectsByAdjacency =
		window.adjacent === true &&
		position.exact === true &&
		served.total !== undefined &&
		served.total === position.total;
	if (edge !== undefined && before === 0 && !atListStart && !connectsByAdjacency) {
		// Everything here is after the edge, and records may lie between: the list moved towards this window. Where
		// the edge is now: past this window, and (as far as the totals tell) shifted by what was added or deleted.
		const shifted = shiftedIndex(position, total, direction);
		const index =
			direction === 'forward' ? Math.min(start - 1, shifted) : Math.max(start + count, shifted);
		return { kind: 'move', position: { ...position, index, total, exact: false }, toward: 'start' };
	}
	if (before === keyed.length) {
		// Nothing after the edge here: the window's last record is at or before the edge (the edge itself, maybe).
		const last = keyed[keyed.length - 1];
		const exact =
			edge !== undefined &&
			last !== undefined &&
			compare(last.key, edge) === 0 &&
			lastIsKeyed(served, direction, keyOf);
		const moved: ReadPosition<K> = { ...position, index: lastIndex, total, exact };
		return atListEnd
			? { kind: 'end', position: moved }
			: { kind: 'move', position: moved, toward: 'end' };
	}
	// Everything after the known records (in a run they may come in any order: the unread ones, wherever they are).
	const fresh = runIdOf ? keyed.filter((entry) => !known(entry.key)) : keyed.slice(before);
	const last = keyed[keyed.length - 1].key;
	const accepted: ReadPosition<K> = {
		edge: last,
		index: lastIndex,
		total,
		exact: lastIsKeyed(served, direction, keyOf),
	};
	if (runIdOf) {
		const run = new Set(edge !== undefined && compare(last, edge) === 0 ? runRead : []);
		for (const entry of keyed) if (compare(entry.key, last) === 0) run.add(runIdOf(entry.key));
		accepted.run = [...run];
	}
	return { kind: 'accept', fresh, position: accepted, end: atListEnd };
}

/** Whether the window's last record in reading order is an event (then `lastIndex` is exactly its index). */
function lastIsKeyed<K>(
	served: ServedPage,
	direction: Direction,
	keyOf: (record: unknown) => K | undefined,
): boolean {
	const records = served.records;
	const last = direction === 'forward' ? records[records.length - 1] : records[0];
	return last !== undefined && keyOf(last) !== undefined;
}

/**
 * Judges a window for a read that takes every record (forward). Stricter than judgeWindow where that would lose
 * records: a record without a key would be stepped over, and an empty page after the edge is the end of the list only
 * if the edge was the list's last record when it was read (otherwise records were deleted before it and the rest moved
 * back into pages already asked for).
 */
export function judgeWindowTakingAll<K>(
	window: Window,
	served: ServedPage,
	position: ReadPosition<K>,
	keyOf: (record: unknown) => K | undefined,
	compare: (a: K, b: K) => number,
): Verdict<K> {
	if (served.records.some((record) => keyOf(record) === undefined)) return { kind: 'unordered' };
	const lastWhenRead = position.exact === true && position.index >= position.total - 1;
	if (served.records.length === 0 && window.page > 1 && !lastWhenRead) {
		const total = served.total ?? position.total;
		const index = Math.max(-1, Math.min(shiftedIndex(position, total, 'forward'), total - 1));
		return { kind: 'move', position: { ...position, index, total, exact: false }, toward: 'start' };
	}
	return judgeWindow(window, served, position, 'forward', keyOf, compare);
}

/** How far a repeated correction jumps (doubling), so a badly stale estimate is found again in a few requests. */
function jump(toward: 'start' | 'end', direction: Direction, streak: number): number {
	const distance = Math.min(2 ** Math.max(0, streak - 1), 1024) - 1;
	const sign = (toward === 'end') === (direction === 'forward') ? 1 : -1;
	return sign * distance;
}

/**
 * Where an overlapping read stands, moved by each answer in list order (both drivers, batches.ts and pipeline.ts,
 * feed it theirs): it learns the page sizes served, judges the answer and moves past the records accepted, or, for a
 * window that does not connect, to the corrected estimate, jumping further while the same correction repeats.
 */
export class OverlappingRead<K> {
	private streak = 0;

	private lastToward: 'start' | 'end' | undefined;

	constructor(
		public position: ReadPosition<K>,
		public sizes: PageSizes,
		private readonly direction: Direction,
		private readonly judge: (
			window: Window,
			served: ServedPage,
			position: ReadPosition<K>,
		) => Verdict<K>,
	) {}

	/** Takes the answer to `window`; the verdict tells the driver what to do (`position` has moved already). */
	follow(window: Window, served: ServedPage): Verdict<K> {
		this.sizes = learnPageSizes(this.sizes, window.perPage, served.perPage);
		const verdict = this.judge(window, served, this.position);
		if (verdict.kind === 'unordered') return verdict;
		if (verdict.kind === 'move') {
			this.streak = verdict.toward === this.lastToward ? this.streak + 1 : 1;
			this.lastToward = verdict.toward;
			const index = verdict.position.index + jump(verdict.toward, this.direction, this.streak);
			this.position = { ...verdict.position, index };
			return verdict;
		}
		if (verdict.kind === 'accept') {
			this.streak = 0;
			this.lastToward = undefined;
		}
		this.position = verdict.position;
		return verdict;
	}
}
