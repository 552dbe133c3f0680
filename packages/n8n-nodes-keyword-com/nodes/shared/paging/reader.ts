/**
 * Reading an ordered, paged list from a known point on, while it changes underneath: how the trigger pages, and how
 * Return All / Limit page a list whose records show an order.
 *
 * The API pages with `page` and `per_page` only, so a record added or deleted before the reader's position shifts
 * everything after it from one page to the next between two requests: a plain page-after-page read then skips or
 * repeats records without noticing. Here every page read must **overlap** what was already read: the window
 * (`page`, `per_page`) is chosen so that it holds the last record read (the edge) and the records after it, and an
 * answer is accepted only when it really holds a record at or before the edge and records after it, in order. The
 * page size varies a little (within `sizes`) to place the edge inside the window rather than on its border. An answer
 * that does not connect (the list shifted) moves the estimate of the edge's position and is asked again. So nothing is
 * skipped, and nothing is taken twice, whatever was added or deleted meanwhile.
 *
 * Positions are list indices (page p of size s holds indices (p-1)·s … p·s-1). The reading order is the order of the
 * keys (`compare`); `direction` says whether it runs with the list's indices ('forward') or against them ('backward':
 * a list served newest first, read oldest first).
 *
 * Pure functions plus two drivers that take the I/O as a parameter: `readAfter` (the trigger: a batch of windows at
 * a time, within a time budget) and `readPipelined` (Return All / Limit: windows planned ahead, so that up to
 * `concurrency` requests stay in flight).
 */
import { RequestSlots, slotHooks } from './slots';
import type { AttemptHooks } from '../transport';

/** One page as the API served it. */
export interface ServedPage {
	/** The page's records in list order. */
	records: readonly unknown[];
	/** `meta.pagination.total`, when given. */
	total?: number;
	/** The page size the API used (`meta.pagination.per_page`), when given. */
	perPage?: number;
}

export type Direction = 'forward' | 'backward';

export interface Window {
	page: number;
	perPage: number;
	/** Index of the window's first record in the list. */
	start: number;
	/**
	 * The page right after the edge's page, not holding the edge: only when the page size cannot move the edge off a
	 * page border (the API serves one size whatever is asked). Such a window connects only if the list kept its
	 * length since the edge was read (see judgeWindow).
	 */
	adjacent?: boolean;
}

/** Where a read stands: after `edge` (undefined: at the start), believed to be at list index `index`. */
export interface ReadPosition<K> {
	edge?: K;
	/**
	 * Keys that compare equal form a run (alerts of one second in no id order): the ids of the edge's run read so far.
	 * Only with `runs` (ReadOptions).
	 */
	run?: string[];
	/**
	 * Estimated index of the edge record. At the start: -1 reading forward; `total` (one past the end) backward.
	 */
	index: number;
	/** The list's total when `index` was estimated (for backward reads, records added in front shift it). */
	total: number;
	/** The edge record itself was seen at `index` (not an estimate): a page next to it may connect by adjacency. */
	exact?: boolean;
}

export interface PageSizes {
	min: number;
	max: number;
}

/**
 * The window holding `index` with the most records after it in reading order, of a size in `sizes`. Reading forward
 * the edge should sit near the window's start; backward, near its end.
 */
export function windowAround(index: number, direction: Direction, sizes: PageSizes): Window {
	// Reading backward near the list's front: one first page holds the edge and everything before it.
	if (direction === 'backward' && index >= 0 && index < sizes.max && sizes.min < sizes.max) {
		return { page: 1, perPage: Math.max(sizes.min, index + 1), start: 0 };
	}
	let best: Window | undefined;
	let bestGain = -1;
	for (let size = sizes.max; size >= sizes.min; size--) {
		const at = Math.max(0, index);
		const page = Math.floor(at / size) + 1;
		const start = (page - 1) * size;
		const gain = direction === 'forward' ? start + size - 1 - index : index - start;
		if (gain > bestGain) {
			best = { page, perPage: size, start };
			bestGain = gain;
		}
		if (gain >= size - 1) break;
	}
	const window = best as Window;
	if (bestGain > 0 || index < 0) return window;
	// The edge is the last record of its page whatever the size: take the next page.
	const page = direction === 'forward' ? window.page + 1 : window.page - 1;
	return { page, perPage: window.perPage, start: (page - 1) * window.perPage, adjacent: true };
}

/**
 * The next `count` windows from `index`, each holding the last index of the one before (they overlap). Reading
 * forward, no window is planned past `total` records (when known) but the first: the rest of a short list is not
 * asked for. `drift`: by how many records the list has been moving per request (records added in front of the edge,
 * or deleted before it); the n-th window of the batch is answered after n more requests, so it keeps that much room
 * before the edge (up to half the smallest page).
 */
export function planWindows(
	index: number,
	direction: Direction,
	sizes: PageSizes,
	count: number,
	total = 0,
	drift = 0,
): Window[] {
	const windows: Window[] = [];
	let at = index;
	for (let n = 0; n < count; n++) {
		// The first window is always asked: even at index 0 the list may have grown in front of the edge.
		if (direction === 'backward' && n > 0 && at <= 0) break;
		if (direction === 'forward' && n > 0 && at >= total - 1) break;
		const room = at < 0 ? 0 : Math.min(Math.floor(sizes.min / 2), Math.ceil(drift * (n + 1)));
		const held = direction === 'forward' ? Math.max(-1, at - room) : at + room;
		const window = windowAround(held, direction, sizes);
		windows.push(window);
		at = direction === 'forward' ? window.start + window.perPage - 1 : window.start;
	}
	return windows;
}

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

/**
 * Where the edge is likely to be now that the list has `total` records: read backward (a newest-first list), what was
 * added arrived in front of the edge and pushed it back; read forward, only a list that got shorter moved it forward
 * (records added at the end do not move it). An estimate only: every window is checked against the edge anyway.
 */
export function shiftedIndex<K>(
	position: ReadPosition<K>,
	total: number,
	direction: Direction,
): number {
	const delta = total - position.total;
	return position.index + (direction === 'backward' ? delta : Math.min(0, delta));
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

export interface ReadOptions<K> {
	fetch: (page: number, perPage: number) => Promise<ServedPage>;
	direction: Direction;
	keyOf: (record: unknown) => K | undefined;
	compare: (a: K, b: K) => number;
	sizes: PageSizes;
	/** Windows requested at once: a number, or asked before each batch given where the read stands. */
	concurrency: number | ((position: ReadPosition<K>) => number);
	/** Asked before each batch of requests: false stops the read where it is (the poll's time is up). */
	mayContinue: () => boolean;
	/**
	 * Asked before each batch for `wanted` requests: how many may be sent (taken from an allowance shared with other
	 * reads of the same poll; 0 stops the read).
	 */
	grant: (wanted: number) => number;
	/** Keys that compare equal are a run told apart by this id (see judgeWindow). */
	runIdOf?: (key: K) => string;
}

export interface ReadOutcome<K> {
	/** Records after the starting edge, in reading order, each once. */
	fresh: Array<{ key: K; record: unknown }>;
	/** Where the read stopped; pass it back to go on. */
	position: ReadPosition<K>;
	/** The read reached the end of the list. */
	complete: boolean;
	/** Why it stopped before the end. */
	stoppedBy?: 'time' | 'requests' | 'error' | 'unordered';
	error?: unknown;
	requests: number;
}

/**
 * The page sizes to ask for from now on, given what the API served for a request: a smaller page than asked is its
 * maximum (nothing new when it is the maximum already known: the request was planned before it was); a larger page
 * than asked means it serves one size only (then pages cannot be made to overlap, see Window.adjacent).
 */
export function servedSizes(
	sizes: PageSizes,
	asked: number,
	served: number | undefined,
): PageSizes {
	if (served === undefined || served <= 0 || served === asked) return sizes;
	if (served < asked) {
		if (served >= sizes.max) return sizes;
		return { min: Math.max(1, Math.ceil(served / 2)), max: served };
	}
	return { min: served, max: served };
}

/** How far a repeated correction jumps (doubling), so a badly stale estimate is found again in a few requests. */
function jump(toward: 'start' | 'end', direction: Direction, streak: number): number {
	const distance = Math.min(2 ** Math.max(0, streak - 1), 1024) - 1;
	const sign = (toward === 'end') === (direction === 'forward') ? 1 : -1;
	return sign * distance;
}

/**
 * Reads on from `position` until the end of the list, the time or request budget, an error or a shift it cannot
 * follow. Windows are fetched `concurrency` at a time and judged in order; the first that does not connect ends the
 * batch (the later ones were planned from a position that no longer holds).
 */
export async function readAfter<K>(
	start: ReadPosition<K>,
	options: ReadOptions<K>,
): Promise<ReadOutcome<K>> {
	const fresh: Array<{ key: K; record: unknown }> = [];
	let position = start;
	let requests = 0;
	let sizes = options.sizes;
	let streak = 0;
	let lastToward: 'start' | 'end' | undefined;
	const finish = (
		outcome: Omit<ReadOutcome<K>, 'fresh' | 'position' | 'requests'>,
	): ReadOutcome<K> => ({
		fresh,
		position,
		requests,
		...outcome,
	});
	// How fast the list moves under the read (records a request, see planWindows): totals served since the first answer.
	let answered = 0;
	let firstTotal = 0;
	for (;;) {
		if (!options.mayContinue()) return finish({ complete: false, stoppedBy: 'time' });
		const concurrency =
			typeof options.concurrency === 'number' ? options.concurrency : options.concurrency(position);
		const planned = planWindows(
			position.index,
			options.direction,
			sizes,
			Math.max(1, concurrency),
			position.total,
			answered > 1 ? Math.abs(position.total - firstTotal) / (answered - 1) : 0,
		);
		if (planned.length === 0) return finish({ complete: true });
		const granted = options.grant(planned.length);
		if (granted <= 0) return finish({ complete: false, stoppedBy: 'requests' });
		const windows = planned.slice(0, granted);
		requests += windows.length;
		const answers = await Promise.allSettled(
			windows.map(async (window) => await options.fetch(window.page, window.perPage)),
		);
		for (let n = 0; n < windows.length; n++) {
			const answer = answers[n];
			if (answer.status === 'rejected')
				return finish({ complete: false, stoppedBy: 'error', error: answer.reason });
			answered++;
			if (answered === 1) firstTotal = answer.value.total ?? position.total;
			sizes = servedSizes(sizes, windows[n].perPage, answer.value.perPage);
			const verdict = judgeWindow(
				windows[n],
				answer.value,
				position,
				options.direction,
				options.keyOf,
				options.compare,
				options.runIdOf,
			);
			if (verdict.kind === 'unordered') return finish({ complete: false, stoppedBy: 'unordered' });
			if (verdict.kind === 'end') {
				position = verdict.position;
				return finish({ complete: true });
			}
			if (verdict.kind === 'move') {
				streak = verdict.toward === lastToward ? streak + 1 : 1;
				lastToward = verdict.toward;
				position = {
					...verdict.position,
					index: verdict.position.index + jump(verdict.toward, options.direction, streak),
				};
				break;
			}
			streak = 0;
			lastToward = undefined;
			for (const entry of verdict.fresh) fresh.push(entry);
			position = verdict.position;
			if (verdict.end) return finish({ complete: true });
		}
	}
}

export interface PipelineOptions<K> {
	/** Fetches one window; `hooks` tie its request to its slot (given back once the answer is in, see slots.ts). */
	fetch: (page: number, perPage: number, hooks: AttemptHooks) => Promise<ServedPage>;
	keyOf: (record: unknown) => K | undefined;
	compare: (a: K, b: K) => number;
	sizes: PageSizes;
	/** Most requests in flight. */
	concurrency: number;
	/** Records wanted after the start position (Infinity: up to the end of the list). */
	wanted: number;
	/** Most requests the read may send, given the list's total as last seen. */
	maxRequests: (total: number) => number;
	/** Takes the records of each window accepted that lie after the edge, in list order; returns how many it kept. */
	take: (fresh: Array<{ key: K; record: unknown }>) => number;
}

export interface PipelineOutcome<K> {
	position: ReadPosition<K>;
	/** The end of the list, or the records wanted, was reached. */
	complete: boolean;
	/** Why it stopped before: too many requests (the list changes faster than it can be followed), or out of order. */
	stoppedBy?: 'requests' | 'unordered';
	/** Requests sent. */
	requests: number;
}

interface PlannedWindow {
	window: Window;
	/** Its answer is no longer wanted: not sent if it has not left yet, not retried, ignored. */
	discarded: boolean;
	sent: boolean;
	answer?: { ok: true; value: ServedPage } | { ok: false; error: unknown };
	done: Promise<void>;
}

/**
 * Judges a window for a read that takes every record (forward). Stricter than judgeWindow where that would lose
 * records: a record without a key would be stepped over, and an empty page after the edge is the end of the list only
 * if the edge was the list's last record when it was read (otherwise records were deleted before it and the rest moved
 * back into pages already asked for).
 */
export function judgeInOrder<K>(
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

/**
 * Reads a list forward from `start` to its end (or until `wanted` records were taken) while it may change, with up to
 * `concurrency` requests in flight. Windows are planned ahead from where the previous one is expected to end, each
 * holding that record (see windowAround), and sent as request slots free up; their answers are judged in list order.
 * A window that does not connect (the list shifted) discards the windows planned after it, sent or not (their answers
 * are ignored, none is retried), and reading goes on from the corrected position. So every record present throughout
 * the read is taken once, in order. A quiet list costs only the overlap of one record a window (page sizes permitting);
 * once records are deleted before the edge, the windows overlap a little more for a while (`margin`).
 */
export async function readPipelined<K>(
	start: ReadPosition<K>,
	options: PipelineOptions<K>,
): Promise<PipelineOutcome<K>> {
	const slots = new RequestSlots(options.concurrency);
	// More windows planned than slots: a slot freed by an answer goes at once to the next window (its request leaves
	// before that answer is parsed), and an answer that comes late does not leave the other slots idle.
	const ahead = 2 * Math.max(1, Math.floor(options.concurrency) || 1) + 1;
	const queue: PlannedWindow[] = [];
	const outstanding = new Set<Promise<void>>();
	let position = start;
	let sizes = options.sizes;
	let planAt = start.index;
	let requests = 0;
	let taken = 0;
	let streak = 0;
	let lastToward: 'start' | 'end' | undefined;
	// Records a window keeps before the expected edge: 0 while the list is quiet (the fewest requests); when records
	// are deleted before the edge between two requests, enough that the next windows still hold it.
	let margin = 0;
	const maxMargin = Math.floor(options.sizes.min / 2);

	const launch = (window: Window): PlannedWindow => {
		const entry: PlannedWindow = { window, discarded: false, sent: false, done: Promise.resolve() };
		entry.done = (async () => {
			const lease = await slots.lease();
			try {
				if (entry.discarded) return;
				entry.sent = true;
				requests++;
				const hooks = slotHooks(lease, () => {
					if (entry.discarded) throw new Error('Not retried: the answer is no longer needed');
				});
				entry.answer = { ok: true, value: await options.fetch(window.page, window.perPage, hooks) };
			} catch (error) {
				entry.answer = { ok: false, error };
			} finally {
				lease.release();
			}
		})();
		const done = entry.done;
		outstanding.add(done);
		void done.then(() => outstanding.delete(done));
		return entry;
	};

	const discardAll = () => {
		for (const entry of queue) entry.discarded = true;
		queue.length = 0;
	};

	const fill = () => {
		if (queue.length === 0) planAt = position.index;
		// Index of the last record wanted; a window is always asked after the position, to see where the list ends.
		const lastWanted = position.index + (options.wanted - taken);
		while (queue.length < ahead) {
			if (queue.length > 0 && (planAt >= position.total - 1 || planAt >= lastWanted)) break;
			const waiting = queue.filter((entry) => !entry.sent).length;
			if (requests + waiting >= options.maxRequests(position.total)) break;
			let window = windowAround(
				planAt < 0 ? planAt : Math.max(0, planAt - margin),
				'forward',
				sizes,
			);
			// Only a window that reaches past the edge helps (with one page size, none but the next page does).
			if (window.start + window.perPage - 1 <= planAt)
				window = windowAround(planAt, 'forward', sizes);
			queue.push(launch(window));
			planAt = window.start + window.perPage - 1;
		}
	};

	const outcome = (
		rest: Omit<PipelineOutcome<K>, 'position' | 'requests'>,
	): PipelineOutcome<K> => ({
		position,
		requests,
		...rest,
	});

	try {
		fill();
		while (queue.length > 0) {
			const head = queue[0];
			await head.done;
			queue.shift();
			const answer = head.answer as NonNullable<PlannedWindow['answer']>;
			if (!answer.ok) throw answer.error;
			const before = sizes;
			sizes = servedSizes(sizes, head.window.perPage, answer.value.perPage);
			const verdict = judgeInOrder(
				head.window,
				answer.value,
				position,
				options.keyOf,
				options.compare,
			);
			if (verdict.kind === 'unordered') return outcome({ complete: false, stoppedBy: 'unordered' });
			if (verdict.kind === 'end') {
				position = verdict.position;
				return outcome({ complete: true });
			}
			if (verdict.kind === 'move') {
				if (verdict.toward === 'start') margin = Math.min(maxMargin, Math.max(4, 2 * margin));
				streak = verdict.toward === lastToward ? streak + 1 : 1;
				lastToward = verdict.toward;
				position = {
					...verdict.position,
					index: verdict.position.index + jump(verdict.toward, 'forward', streak),
				};
				discardAll();
			} else {
				streak = 0;
				lastToward = undefined;
				// How far the edge moved back since it was read (records deleted before it): keep twice that in hand.
				const size =
					answer.value.perPage && answer.value.perPage > 0
						? answer.value.perPage
						: head.window.perPage;
				const found =
					(head.window.page - 1) * size + answer.value.records.length - verdict.fresh.length - 1;
				const drift = position.edge === undefined ? 0 : position.index - found;
				margin =
					drift > 0
						? Math.min(maxMargin, Math.max(margin, 2 * drift))
						: Math.floor((margin * 3) / 4);
				position = verdict.position;
				taken += options.take(verdict.fresh);
				if (verdict.end || taken >= options.wanted) return outcome({ complete: true });
				// The API serves other page sizes than planned with: the windows planned after this one would not connect.
				if (sizes.min !== before.min || sizes.max !== before.max) discardAll();
			}
			fill();
		}
		return outcome({ complete: false, stoppedBy: 'requests' });
	} finally {
		// Nothing outlives the read: windows not sent are dropped, those in flight answer (and are not retried).
		slots.stop();
		discardAll();
		await Promise.all([...outstanding]);
	}
}
