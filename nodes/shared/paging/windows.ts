/**
 * The window arithmetic of an overlapping read (see index.ts): what a page is, where a read stands, and which
 * (`page`, `per_page`) to ask next so that the answer holds the edge and the records after it. Pure.
 *
 * Positions are list indices (page p of size s holds indices (p-1)·s … p·s-1). The reading order is the order of the
 * keys; `direction` says whether it runs with the list's indices ('forward') or against them ('backward': a list
 * served newest first, read oldest first).
 */
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
	 * Only with `runIdOf` (judgeWindow).
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
 * The sizes a read asks for, up to `largest` (the API's largest page, or the size it was seen to serve): from half of
 * it, so that a page can always be placed to hold the last record read.
 */
export function pageSizesUpTo(largest: number): PageSizes {
	return { min: Math.ceil(largest / 2), max: largest };
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

/**
 * The page sizes to ask for from now on, given what the API served for a request: a smaller page than asked is its
 * maximum (nothing new when it is the maximum already known: the request was planned before it was); a larger page
 * than asked means it serves one size only (then pages cannot be made to overlap, see Window.adjacent).
 */
export function learnPageSizes(
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
