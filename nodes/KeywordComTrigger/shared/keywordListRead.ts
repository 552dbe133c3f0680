/**
 * Reading one project's or group's keyword list (#13) on from where its read stands, within the poll's budget:
 * with overlapping pages when the list is ordered by id (shared/paging/), page after page when it is not.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	compareIds,
	pageSizesUpTo,
	readInBatches,
	windowAround,
	type ListOrder,
} from '../../shared/paging';
import { idSequenceOf } from './listOrder';
import {
	isOutOfTime,
	type PollLimits,
	type RequestAllowance,
	type ServedList,
} from './pollContract';

/** Keywords asked for a page (the API's largest). */
export const KEYWORD_PAGE_SIZE = 250;

/** A read of one container's keyword list that goes on over several polls. */
export interface ListRead {
	/** The window's end: keywords crawled after it wait for the next read. */
	windowEnd: number;
	/** Id of the last keyword read (the read goes on after it); absent before the first page. */
	lastId?: string;
	/** Estimated list index of `lastId` (-1 before the first page; the last index read, read page by page). */
	lastIndex: number;
	/** The list's length when `lastIndex` was estimated. */
	listLength: number;
	/** The list's order by id (absent: ascending; unordered: read page by page). */
	idOrder?: ListOrder;
	/**
	 * The page size the API serves, when it served fewer than asked: page numbers count in it, so the read plans its
	 * next page with it.
	 */
	pageSize?: number;
	/** Read page by page: the ids of the last records read (the next page is read on from them). */
	anchors?: string[];
}

/** The keyword's id as text, or undefined. */
export function keywordId(record: unknown): string | undefined {
	if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const id = (record as IDataObject).id;
	return id === undefined || id === null || id === '' ? undefined : String(id);
}

/** About how many new keywords one page brings (pages overlap by a record or a few). */
export const KEYWORDS_PER_PAGE = KEYWORD_PAGE_SIZE - 20;

export type FetchKeywords = (page: number, perPage: number) => Promise<ServedList>;

export interface ListOutcome {
	/** Records read this poll (after where the read stood). */
	records: unknown[];
	/** Where the read stands now, or 'done' when it reached the end of the list. */
	read: ListRead | 'done';
	/** A request that failed (not for lack of time): the read stands where it was before it. */
	error?: unknown;
}

/** Pages a read still has to go, as far as the list's length tells. */
export function pagesLeft(read: ListRead): number {
	return Math.max(
		1,
		Math.ceil(Math.max(0, read.listLength - read.lastIndex - 1) / KEYWORDS_PER_PAGE),
	);
}

/** Reads one list on from `start`. Never throws: a failure comes back as `error`, with what was read before it. */
export async function readKeywordList(
	fetch: FetchKeywords,
	start: ListRead,
	limits: PollLimits,
	allowance: RequestAllowance,
	concurrency: number,
): Promise<ListOutcome> {
	const read: ListRead = { ...start };
	// A new read learns the list's order from its first page, which comes in the first batch of pages.
	let orderKnown = read.lastId !== undefined || read.lastIndex >= 0;
	const learning: FetchKeywords = async (page, perPage) => {
		const served = await fetch(page, perPage);
		if (!orderKnown && page === 1) {
			orderKnown = true;
			const sequence = idSequenceOf(
				served.records.map(keywordId).filter((id): id is string => id !== undefined),
			);
			if (sequence === 'descending' || sequence === 'unordered') read.idOrder = sequence;
		}
		return served;
	};
	const records: unknown[] = [];
	if (read.idOrder === 'unordered')
		return await readPageByPage(fetch, read, records, limits, allowance);
	const outcome = await readInBatches<string>(
		{ edge: read.lastId, index: read.lastIndex, total: read.listLength },
		{
			fetch: learning,
			direction: 'forward',
			keyOf: keywordId,
			compare: (a, b) => (read.idOrder === 'descending' ? compareIds(b, a) : compareIds(a, b)),
			sizes: pageSizesUpTo(Math.min(KEYWORD_PAGE_SIZE, read.pageSize ?? KEYWORD_PAGE_SIZE)),
			// The budget may ask for more at once than the usual (see ListReads) once the list's length is known.
			concurrency: (position) =>
				Math.max(
					concurrency,
					limits.budget.concurrencyFor(
						pagesLeft({
							windowEnd: read.windowEnd,
							lastIndex: position.index,
							listLength: position.total,
						}),
						concurrency,
					),
				),
			mayContinue: () => limits.budget.mayStart(),
			grant: (wanted) => allowance.grant(limits.budget.affordable(wanted)),
		},
	);
	for (const { record } of outcome.fresh) records.push(record);
	if (outcome.complete) return { records, read: 'done' };
	const { edge, index, total } = outcome.position;
	const next: ListRead = { windowEnd: read.windowEnd, lastIndex: index, listLength: total };
	if (edge !== undefined) next.lastId = edge;
	if (outcome.sizes.max < KEYWORD_PAGE_SIZE) next.pageSize = outcome.sizes.max;
	if (outcome.stoppedBy === 'unordered') {
		// Not ordered by id after all: on page by page from here.
		next.idOrder = 'unordered';
		return await readPageByPage(fetch, next, records, limits, allowance);
	}
	if (read.idOrder) next.idOrder = read.idOrder;
	const failed =
		outcome.stoppedBy === 'error' && !isOutOfTime(outcome.error) ? outcome.error : undefined;
	return { records, read: next, error: failed };
}

/** Records kept as anchors of a read page by page: the last ones read, found again by id in the next page. */
export const ANCHORS = 5;
/** How far back (records before the last one read) a page is asked for when no anchor was found, at most. */
const MAX_BACK = ANCHORS * 16;

/**
 * Where a read page by page stands in a page: `index` of the last anchor that has not moved (-1: the page holds none).
 * A list that reorders itself (by rank) moves a keyword crawled under the read anywhere, an anchor too: taken for the
 * read's place, one moved further on would skip every record between, one moved back would have records read again.
 * Anchors that did not move are still in the order read, hardly further apart than they were (a few records added or
 * moved in between): the read stands in the largest such group, the one nearest where the last anchor should be
 * (`expected`, an index in the page) when two are as large. Within it, after the first anchors right next to each
 * other (a pair that moved a little further on together stays side by side too), or else after its first: what
 * follows is anchors (not taken again) or records added or moved in. `sure`: the group has two anchors or more; a
 * single one may be one that moved.
 */
export function anchorPosition(
	ids: ReadonlyArray<string | undefined>,
	anchors: readonly string[],
	expected: number,
): { index: number; sure: boolean } {
	const order = new Map(anchors.map((id, n) => [id, n]));
	const groups: Array<Array<{ at: number; rank: number }>> = [];
	ids.forEach((id, at) => {
		const rank = id === undefined ? undefined : order.get(id);
		if (rank === undefined) return;
		const group = groups[groups.length - 1];
		const previous = group?.[group.length - 1];
		if (previous && rank > previous.rank && at - previous.at <= rank - previous.rank + GROUP_SLACK)
			group.push({ at, rank });
		else groups.push([{ at, rank }]);
	});
	let best: (typeof groups)[number] | undefined;
	let bestDistance = 0;
	for (const group of groups) {
		const last = group[group.length - 1];
		// How far from where the read left off this group puts the last anchor.
		const distance = Math.abs(last.at + (anchors.length - 1 - last.rank) - expected);
		if (
			!best ||
			group.length > best.length ||
			(group.length === best.length && distance < bestDistance)
		) {
			best = group;
			bestDistance = distance;
		}
	}
	if (!best) return { index: -1, sure: false };
	// The first anchors right next to each other: a moved one may still land right after them, never between.
	let k = 0;
	while (k + 1 < best.length && best[k + 1].at !== best[k].at + 1) k++;
	if (k + 1 === best.length) k = 0;
	while (k + 1 < best.length && best[k + 1].at === best[k].at + 1) k++;
	return { index: best[k].at, sure: best.length > 1 };
}

/** Records added or moved in between two anchors that did not move, at most, for them to count as one group. */
const GROUP_SLACK = ANCHORS;

/**
 * A list not ordered by id: page after page from where the read stands (`lastIndex` = last index read, `anchors` =
 * the ids of the last records read, `listLength` = the list's length then). Each page is asked so that it holds those
 * records again (page sizes vary, as for an ordered list) and is read on from where they stand (anchorPosition): a
 * record added or deleted before the read's place between two requests shifts the rest, and the anchors say where
 * the read really is. A page that holds none (all of them deleted meanwhile), or a single one that may have moved, is
 * asked further back; then the read goes on by index, less what the list lost since. The API may serve fewer records
 * a page than asked (a capped page size): that size is learned (`pageSize`) from a page shorter than asked, and only
 * an empty page, or the page count, ends the read. A list that reorders itself between two requests (by rank, as
 * ranks change) can still have a record move from the unread part to the part read: crawled then, it is read by the
 * next read.
 */
async function readPageByPage(
	fetch: FetchKeywords,
	read: ListRead,
	records: unknown[],
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<ListOutcome> {
	let x = read.lastIndex;
	let size = read.pageSize ?? KEYWORD_PAGE_SIZE;
	let anchors = read.anchors ?? [];
	// The list's length when `x` was found (0: not known).
	let length = read.listLength;
	// A read going on from an earlier poll asks further back (minutes of deletes before its place may have passed), by
	// a tenth of a page at most.
	let back =
		anchors.length > 0 ? Math.max(ANCHORS, Math.min(ANCHORS * 4, Math.floor(size / 10))) : ANCHORS;
	// Ids taken by this read in this poll: a page asked again further back brings some of them again.
	const taken = new Set<string>();
	const standing = (): ListRead => {
		const at: ListRead = { ...read, lastIndex: x, listLength: length };
		if (size !== KEYWORD_PAGE_SIZE) at.pageSize = size;
		else delete at.pageSize;
		if (anchors.length > 0) at.anchors = anchors;
		else delete at.anchors;
		return at;
	};
	/** The page that holds the `b` records read last and those after them (the first page of a new read). */
	const windowFor = (b: number) =>
		x < 0
			? { page: 1, perPage: size, start: 0 }
			: windowAround(
					anchors.length > 0 ? Math.max(0, x - b + 1) : x + 1,
					'forward',
					pageSizesUpTo(size),
				);
	// A page asked further back must still hold the record after the last one read, or the read would not move on.
	const reaches = (b: number) => {
		const w = windowFor(b);
		return w.start + w.perPage - 1 > x;
	};
	// A request granted ahead: asking further back within one page's turn.
	let granted = false;
	// Requests of this read in this poll.
	let pages = 0;
	for (;;) {
		if (!granted && (!limits.budget.mayStart() || allowance.grant(1) === 0))
			return { records, read: standing() };
		granted = false;
		pages++;
		while (back > 1 && !reaches(back)) back--;
		const window = windowFor(back);
		let served: ServedList;
		try {
			served = await fetch(window.page, window.perPage);
		} catch (error) {
			return { records, read: standing(), error: isOutOfTime(error) ? undefined : error };
		}
		const count = served.records.length;
		// The page size the API used: as it says, or (a short page where more should follow) as many as it sent.
		const told = served.perPage && served.perPage > 0 ? served.perPage : undefined;
		const used = told ?? (count > 0 && count < window.perPage ? count : window.perPage);
		const start = (window.page - 1) * used;
		const moreKnown =
			served.totalPages !== undefined
				? window.page < served.totalPages
				: served.total !== undefined && start + count < served.total;
		// Fewer than asked: the API's largest page (the size asked for varies from page to page).
		if (told !== undefined && told < window.perPage) size = Math.min(size, told);
		else if (told === undefined && count > 0 && count < window.perPage && (moreKnown || x < 0))
			size = count;
		const ids = served.records.map(keywordId);
		let after = -1;
		if (anchors.length > 0) {
			const found = anchorPosition(ids, anchors, x - start);
			after = found.index;
			// None here, or a single one that may have moved: the others moved further back than thought (deleted or
			// added records before them) or were deleted. Ask further back once more. With no request left for it, the
			// next poll asks this page again, unless it was this poll's first (a read never stands still): then the
			// read goes on from what this page tells.
			let further = Math.min(after < 0 ? back * 4 : MAX_BACK, Math.floor(size / 2));
			while (further > back && !reaches(further)) further--;
			if (
				(after < 0 || (!found.sure && anchors.length > 1)) &&
				count > 0 &&
				start > 0 &&
				further > back
			) {
				if (limits.budget.mayStart() && allowance.grant(1) > 0) {
					back = further;
					granted = true;
					continue;
				}
				if (pages > 1) return { records, read: standing() };
			}
		}
		// No anchor (deleted, all of them; or none yet where an ordered read turned out not to be): read on by index,
		// moved back by as many records as the list lost since.
		if (after < 0 && x >= 0) {
			const lost = served.total !== undefined && length > served.total ? length - served.total : 0;
			if (x - lost < start - 1) {
				// The read's place is now before this page: ask again from there.
				x -= lost;
				length = served.total ?? length;
				continue;
			}
			after = Math.min(count, x - lost - start + 1) - 1;
		}
		const anchored = new Set(anchors);
		served.records.slice(after + 1).forEach((record, n) => {
			const id = ids[after + 1 + n];
			// An anchor further on moved there under the read (crawled): it was read before.
			if (id !== undefined && (taken.has(id) || anchored.has(id))) return;
			if (id !== undefined) taken.add(id);
			records.push(record);
		});
		x = start + count - 1;
		if (served.total !== undefined) length = served.total;
		back = ANCHORS;
		const last = ids.filter((id): id is string => id !== undefined).slice(-ANCHORS);
		if (last.length > 0) anchors = last;
		const lastPage =
			count === 0 ||
			(served.totalPages !== undefined && window.page >= served.totalPages) ||
			(served.total !== undefined && start + count >= served.total);
		if (lastPage) return { records, read: 'done' };
	}
}
