/**
 * A keyword list (#13) as both ways of reading it see it: the page size asked for, a keyword's id, and where a read
 * that goes on over several polls stands (keywordListRead.ts, pageByPageRead.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../../shared/paging';
import type { ServedList } from './pollContract';

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

export type FetchKeywords = (page: number, perPage: number) => Promise<ServedList>;

export interface ListOutcome {
	/** Records read this poll (after where the read stood). */
	records: unknown[];
	/** Where the read stands now, or 'done' when it reached the end of the list. */
	read: ListRead | 'done';
	/** A request that failed (not for lack of time): the read stands where it was before it. */
	error?: unknown;
}
