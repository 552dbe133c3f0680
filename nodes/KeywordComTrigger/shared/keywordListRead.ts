/**
 * Reading one project's or group's keyword list (#13) on from where its read stands, within the poll's budget:
 * with overlapping pages when the list is ordered by id (shared/paging/), page after page when it is not.
 */
import type { IDataObject } from 'n8n-workflow';

import { compareIds, pageSizesUpTo, readInBatches, type ListOrder } from '../../shared/paging';
import { idSequenceOf } from './listOrder';
import { readPageByPage } from './pageByPageRead';
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
	/** Read page by page: how far back of `lastIndex` to ask, when a poll ended searching for the anchors. */
	back?: number;
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
