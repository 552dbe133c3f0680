/**
 * Reading one project's or group's keyword list (#13) on from where its read stands, within the poll's budget:
 * with overlapping pages when the list is ordered by id (shared/reader.ts), page after page when it is not.
 */
import { readAfter, type PageSizes } from '../../shared/reader';
import { compareIds } from '../logic/cursor';
import { KEYWORD_PAGE_SIZE, keywordId, type ListRead } from '../logic/keywords';
import { idSequenceOf } from '../logic/order';
import { isOutOfTime, type PollLimits, type RequestAllowance, type ServedList } from './common';

/** Page sizes a read may ask for (varied so pages overlap, see shared/reader.ts). */
const PAGE_SIZES: PageSizes = { min: Math.ceil(KEYWORD_PAGE_SIZE / 2), max: KEYWORD_PAGE_SIZE };

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
	return Math.max(1, Math.ceil(Math.max(0, read.n - read.x - 1) / KEYWORDS_PER_PAGE));
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
	let orderKnown = read.e !== undefined || read.x >= 0;
	const learning: FetchKeywords = async (page, perPage) => {
		const served = await fetch(page, perPage);
		if (!orderKnown && page === 1) {
			orderKnown = true;
			const sequence = idSequenceOf(
				served.records.map(keywordId).filter((id): id is string => id !== undefined),
			);
			if (sequence === 'descending') read.o = 'd';
			else if (sequence === 'unordered') read.o = '?';
		}
		return served;
	};
	const records: unknown[] = [];
	if (read.o === '?') return await readPageByPage(fetch, read, records, limits, allowance);
	const outcome = await readAfter<string>(
		{ edge: read.e, index: read.x, total: read.n },
		{
			fetch: learning,
			direction: 'forward',
			keyOf: keywordId,
			compare: (a, b) => (read.o === 'd' ? compareIds(b, a) : compareIds(a, b)),
			sizes: PAGE_SIZES,
			// The budget may ask for more at once than the usual (see ListReads) once the list's length is known.
			concurrency: (position) =>
				Math.max(
					concurrency,
					limits.budget.concurrencyFor(
						pagesLeft({ h: read.h, x: position.index, n: position.total }),
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
	const next: ListRead = { h: read.h, x: index, n: total };
	if (edge !== undefined) next.e = edge;
	if (outcome.stoppedBy === 'unordered') {
		// Not ordered by id after all: on page by page from here.
		return await readPageByPage(fetch, { ...next, o: '?' }, records, limits, allowance);
	}
	if (read.o) next.o = read.o;
	const failed =
		outcome.stoppedBy === 'error' && !isOutOfTime(outcome.error) ? outcome.error : undefined;
	return { records, read: next, error: failed };
}

/**
 * A list not ordered by id: page after page from where the read stands (`x` = last index read). The API may serve
 * fewer records a page than asked (a capped page size): the size it serves is learned (`z`), and only an empty page,
 * or the page count, ends the read. A record moved from one page to another by a change between two requests may be
 * read twice (counted once) or missed; see README.
 */
async function readPageByPage(
	fetch: FetchKeywords,
	read: ListRead,
	records: unknown[],
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<ListOutcome> {
	let x = read.x;
	let size = read.z ?? KEYWORD_PAGE_SIZE;
	const standing = (): ListRead => {
		const at: ListRead = { ...read, x };
		if (size !== KEYWORD_PAGE_SIZE) at.z = size;
		else delete at.z;
		return at;
	};
	for (;;) {
		if (!limits.budget.mayStart() || allowance.grant(1) === 0) return { records, read: standing() };
		const page = Math.floor((x + 1) / size) + 1;
		let served: ServedList;
		try {
			served = await fetch(page, KEYWORD_PAGE_SIZE);
		} catch (error) {
			return { records, read: standing(), error: isOutOfTime(error) ? undefined : error };
		}
		const count = served.records.length;
		// The page size the API used: as it says, or (a short page where more should follow) as many as it sent.
		const told = served.perPage && served.perPage > 0 ? served.perPage : undefined;
		const pageStart = (page - 1) * (told ?? size);
		const moreKnown =
			served.totalPages !== undefined
				? page < served.totalPages
				: served.total !== undefined && pageStart + count < served.total;
		if (told !== undefined) size = told;
		else if (count > 0 && count < size && (moreKnown || page === 1)) size = count;
		const start = (page - 1) * size;
		const skip = x + 1 - start;
		records.push(...served.records.slice(Math.max(0, skip)));
		x = start + count - 1;
		const lastPage =
			count === 0 ||
			(served.totalPages !== undefined && page >= served.totalPages) ||
			(served.total !== undefined && start + count >= served.total);
		if (lastPage) return { records, read: 'done' };
	}
}
