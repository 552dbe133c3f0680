/**
 * One page of a list: how the API shapes it, what it says, and how many records a page to ask for Return All / Limit.
 *
 * The API pages its lists in two shapes:
 * - `meta.pagination.{total,per_page,current_page,total_pages}` (keywords #13, alerts #20);
 * - Laravel's paginator, `meta.{total,per_page,current_page,last_page}` with `links.next` (top pages #21).
 * Both take `page` and `per_page` in the query.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../constants';
import type { AttemptHooks } from '../transport';

export type PageStyle = 'pagination' | 'laravel';

export interface PageInfo {
	records: unknown[];
	/** Total number of pages when the page says so. */
	totalPages?: number;
	/** Records in the whole list when the page says so. */
	total?: number;
	/** The page size the API used when the page says so. */
	perPage?: number;
	hasNext: boolean;
}

/** A count from the page's meta (a number, or digits as text); undefined when absent or not a count. */
function count(value: unknown): number | undefined {
	const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}

export function parsePage(
	style: PageStyle,
	body: unknown,
	page: number,
	perPage: number,
): PageInfo {
	const object = (body ?? {}) as IDataObject;
	const records = Array.isArray(object.data) ? (object.data as unknown[]) : [];
	const meta = (object.meta ?? {}) as IDataObject;
	const links = (object.links ?? {}) as IDataObject;
	const pagination = (style === 'pagination' ? meta.pagination : meta) as IDataObject | undefined;
	const total = Number(style === 'pagination' ? pagination?.total_pages : pagination?.last_page);
	const totalPages = Number.isFinite(total) && total >= 0 ? total : undefined;
	const hasNext =
		totalPages !== undefined ? page < totalPages : links.next ? true : records.length >= perPage;
	const served = count(pagination?.per_page);
	return {
		records,
		totalPages,
		total: count(pagination?.total),
		perPage: served && served > 0 ? served : undefined,
		hasNext,
	};
}

/** How many records to ask per page and at most how many pages to read for Return All / Limit. */
export function planPages(
	returnAll: boolean,
	limit: number,
): { perPage: number; maxRecords: number } {
	if (returnAll) return { perPage: MAX_PAGE_SIZE, maxRecords: Number.POSITIVE_INFINITY };
	return { perPage: Math.min(MAX_PAGE_SIZE, Math.max(1, limit)), maxRecords: limit };
}

/** A read's page size, its record cap (Infinity for Return All) and how many requests it may have in flight. */
export interface ReadPlan {
	perPage: number;
	maxRecords: number;
	concurrency: number;
}

/** Fetches one page; `hooks` tie its request to the page's slot (given back as soon as the answer is in, see slots.ts). */
export type FetchPage = (page: number, perPage: number, hooks?: AttemptHooks) => Promise<unknown>;
