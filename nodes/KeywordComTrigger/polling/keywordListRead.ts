/**
 * Reading one project's or group's keyword list (#13) on from where its read stands, within the poll's budget:
 * with overlapping pages when the list is ordered by id (shared/paging/), page after page when it is not.
 */
import { compareIds, pageSizesUpTo, readInBatches } from '../../shared/paging';
import { idSequenceOf } from './recordOrder';
import { readPageByPage } from './pageByPageRead';
import { isOutOfTime, type PollLimits, type RequestAllowance } from './pollContract';
import {
	KEYWORD_PAGE_SIZE,
	keywordId,
	type FetchKeywords,
	type ListOutcome,
	type ListRead,
} from './listReadState';

/** About how many new keywords one page brings (pages overlap by a record or a few). */
export const KEYWORDS_PER_PAGE = KEYWORD_PAGE_SIZE - 20;

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
