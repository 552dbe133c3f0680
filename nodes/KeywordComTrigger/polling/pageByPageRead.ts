/**
 * Reading a keyword list not ordered by id (by rank, by text) page after page, each page read on from the last
 * records read (anchors): keywordListRead.ts hands such a list here.
 */
import { pageSizesUpTo, windowAround } from '../../shared/paging';
import {
	KEYWORD_PAGE_SIZE,
	keywordId,
	type FetchKeywords,
	type ListOutcome,
	type ListRead,
} from './listReadState';
import {
	isOutOfTime,
	type PollLimits,
	type RequestAllowance,
	type ServedList,
} from './pollContract';

/** Records kept as anchors of a read page by page: the last ones read, found again by id in the next page. */
export const ANCHORS = 5;
/** How far back (records before the last one read) a page is asked for when no anchor was found, at most. */
const MAX_BACK = ANCHORS * 16;

/**
 * Where a read page by page stands in a page: `index` of an anchor that has not moved, the read going on after it
 * (-1: the page holds none).
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

/** Pages before the read's place searched for its anchors, at most, before it goes on by index. */
const SEARCH_PAGES = 3;

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
export async function readPageByPage(
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
		anchors.length > 0
			? Math.max(read.back ?? 0, ANCHORS, Math.min(ANCHORS * 4, Math.floor(size / 10)))
			: ANCHORS;
	// How far back the next poll asks, when this one ends searching for the anchors.
	let searchedTo: number | undefined;
	// Ids taken by this read in this poll: a page asked again further back brings some of them again.
	const taken = new Set<string>();
	const standing = (): ListRead => {
		const at: ListRead = { ...read, lastIndex: x, listLength: length };
		if (size !== KEYWORD_PAGE_SIZE) at.pageSize = size;
		else delete at.pageSize;
		if (anchors.length > 0) at.anchors = anchors;
		else delete at.anchors;
		if (searchedTo !== undefined) at.back = searchedTo;
		else delete at.back;
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
	// A page was read on from in this poll.
	let advanced = false;
	for (;;) {
		if (!granted && (!limits.budget.mayStart() || allowance.grant(1) === 0))
			return { records, read: standing() };
		granted = false;
		// Within a page's reach (a search further back asks pages before the read's place).
		if (back <= Math.floor(size / 2)) while (back > 1 && !reaches(back)) back--;
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
			// added records before them) or were deleted. Ask further back once more.
			let further = Math.min(after < 0 ? back * 4 : MAX_BACK, Math.floor(size / 2));
			while (further > back && !reaches(further)) further--;
			// None at all (a crawl moved many records from before the read's place to after it): search back page by
			// page; anchors found there have only records not read yet after them.
			if (after < 0 && further <= back && back < SEARCH_PAGES * size && start > 0) {
				// The page that ends a little into this one (no record between them unsearched).
				const before = windowAround(start + ANCHORS * 2, 'backward', pageSizesUpTo(size));
				if (before.start < start) further = x - before.start + 1;
			}
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
				// No request left: the next poll goes on searching from here.
				if (!advanced) searchedTo = further;
				return { records, read: standing() };
			}
		}
		if (after < 0 && x >= 0 && anchors.length > 0 && count > 0 && start + count - 1 <= x) {
			// A page searched before the read's place that holds none: read on by index from where the read stood.
			anchors = [];
			back = ANCHORS;
			continue;
		}
		// No anchor (deleted, all of them; or none yet where an ordered read turned out not to be): read on by index,
		// moved back by as many records as the list lost since (a delete that took the anchors took those around them).
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
		advanced = true;
		searchedTo = undefined;
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
