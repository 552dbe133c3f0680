import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../constants';
import type { OrderOf, RecordOrder } from './listOrder';
import {
	judgeInOrder,
	readPipelined,
	servedSizes,
	type PageSizes,
	type ServedPage,
} from './reader';
import { RequestSlots, slotHooks } from './slots';
import type { AttemptHooks } from '../transport';

/**
 * The API pages its lists in two shapes:
 * - `meta.pagination.{total,per_page,current_page,total_pages}` (keywords #13, alerts #20);
 * - Laravel's paginator, `meta.{total,per_page,current_page,last_page}` with `links.next` (top pages #21).
 * Both take `page` and `per_page` in the query.
 */
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

export function readPage(style: PageStyle, body: unknown, page: number, perPage: number): PageInfo {
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

/** Runs `task` over `inputs` with at most `concurrency` running at once; results keep the input order. */
export async function mapConcurrent<T, R>(
	inputs: readonly T[],
	concurrency: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(inputs.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < inputs.length) {
			const index = next++;
			const pending = task(inputs[index], index);
			// A failed page stops the other workers from starting new pages; the failure itself propagates below.
			pending.catch(() => {
				failed = true;
			});
			results[index] = await pending;
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}

/** Fetches one page; `hooks` tie its request to the page's slot (given back as soon as the answer is in, see slots.ts). */
export type FetchPage = (page: number, perPage: number, hooks?: AttemptHooks) => Promise<unknown>;

export interface ReadSettings {
	returnAll: boolean;
	limit: number;
	concurrency: number;
	/** The orders the list's records may show (listOrder.ts); without one the list is read in pages as served. */
	order?: OrderOf;
	/** What tells records apart (listOrder.ts identityOf): none is taken twice, a repeat shows a change. */
	identity?: (record: unknown) => string | undefined;
}

/** Reads of a list in no usable order, when it keeps changing while it is read: the first and 2 more. */
export const LIST_READ_TRIES = 3;

/** The list changed while it was read, and reading it again did not get a consistent copy. */
export class ListChangedError extends Error {
	readonly description: string;

	constructor(
		/** Records added or removed as far as the pages showed; 0 when the read could not keep up with the changes. */
		readonly changed: number,
		readonly tries: number,
		readonly requests: number,
	) {
		super(
			changed > 0
				? `The list changed while it was being read (${changed} record${changed === 1 ? '' : 's'} added or removed during the read, ${tries} ${tries === 1 ? 'try' : 'tries'}); run the node again`
				: `The list changed while it was being read, faster than it could be followed (${requests} requests); run the node again`,
		);
		this.name = 'ListChangedError';
		this.description =
			'Keyword.com added or removed records of this list while the node read it page by page, so the result would have missed records or held some twice. Nothing was returned for this item. Run the node again, ideally when the list is not being updated (not during a rank update or a bulk add or delete); with Limit, fewer pages are read.';
	}
}

/**
 * Reads a paged list for Return All / Limit: page 1, then the rest with at most `concurrency` requests in flight (see
 * SlotLease), records in the API's order, and no page beyond what Limit needs.
 *
 * A list whose page 1 shows an order (`settings.order`) is read with overlapping windows (readPipelined in
 * reader.ts): a record present during the whole read is returned exactly once, however records are added or deleted
 * meanwhile. Any other list is read page by page as served, and a change under the read (totals that differ, a
 * record twice, fewer or more records than the total) reads it again, up to LIST_READ_TRIES times in all; then it
 * fails with ListChangedError rather than return a result with records missing or twice.
 *
 * `shape` turns records into results, one result per record, page by page as they come in: that work runs while the
 * next pages are still on the wire, and the raw pages are dropped at once instead of all being held until the end.
 */
export async function collectPages<T = unknown>(
	style: PageStyle,
	fetchPage: FetchPage,
	settings: ReadSettings,
	shape: (records: unknown[]) => T[] = (records) => records as T[],
): Promise<T[]> {
	const { perPage, maxRecords } = planPages(settings.returnAll, settings.limit);
	const plan = { perPage, maxRecords, concurrency: settings.concurrency };
	const failedOrders = new Set<string>();
	let changedTries = 0;
	for (;;) {
		const first = readPage(style, await fetchPage(1, perPage), 1, perPage);
		if (first.records.length >= maxRecords || !first.hasNext)
			return shape(first.records).slice(0, maxRecords);
		const order = settings
			.order?.(first.records)
			.find((candidate) => !failedOrders.has(candidate.name));
		if (order && first.total !== undefined) {
			const read = await readInOrder(
				style,
				fetchPage,
				first,
				order,
				plan,
				shape,
				settings.identity,
			);
			if (read.results) return read.results;
			// A later page broke the order page 1 showed: read again in the next order page 1 fits, or as served.
			if (read.stoppedBy === 'unordered') {
				failedOrders.add(order.name);
				continue;
			}
			throw new ListChangedError(0, 1, read.requests);
		}
		const read = await readAsServed(style, fetchPage, first, plan, shape, settings.identity);
		if (read.changed === 0) return read.results;
		changedTries++;
		if (changedTries >= LIST_READ_TRIES)
			throw new ListChangedError(read.changed, changedTries, read.requests);
	}
}

interface ReadPlan {
	perPage: number;
	maxRecords: number;
	concurrency: number;
}

function served(info: PageInfo): ServedPage {
	return { records: info.records, total: info.total, perPage: info.perPage };
}

/** The ordered read: page 1 is the first window, the rest comes from readPipelined. */
async function readInOrder<T>(
	style: PageStyle,
	fetchPage: FetchPage,
	first: PageInfo,
	order: RecordOrder,
	{ perPage, maxRecords, concurrency }: ReadPlan,
	shape: (records: unknown[]) => T[],
	identity: ((record: unknown) => string | undefined) | undefined,
): Promise<{ results?: T[]; stoppedBy?: 'unordered' | 'requests'; requests: number }> {
	const results: T[] = [];
	const seen = new Set<string>();
	const take = (fresh: Array<{ record: unknown }>): number => {
		const records: unknown[] = [];
		for (const { record } of fresh) {
			if (results.length + records.length >= maxRecords) break;
			// Windows never hand a record over twice; this keeps it so should the API change a record's place.
			const id = identity?.(record);
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			records.push(record);
		}
		for (const result of shape(records)) results.push(result);
		return records.length;
	};
	// A page 1 shorter than asked while more follow: the API's largest page, when it does not say so itself.
	const firstSize =
		first.perPage ?? (first.records.length < perPage ? first.records.length : undefined);
	const sizes: PageSizes = servedSizes(
		{ min: Math.ceil(perPage / 2), max: perPage },
		perPage,
		firstSize,
	);
	const verdict = judgeInOrder(
		{ page: 1, perPage, start: 0 },
		{ ...served(first), perPage: firstSize },
		{ index: -1, total: first.total ?? 0 },
		order.keyOf,
		order.compare,
	);
	if (verdict.kind !== 'accept') return { stoppedBy: 'unordered', requests: 1 };
	take(verdict.fresh);
	if (verdict.end || results.length >= maxRecords) return { results, requests: 1 };
	const outcome = await readPipelined(verdict.position, {
		fetch: async (page, size, hooks) =>
			served(readPage(style, await fetchPage(page, size, hooks), page, size)),
		keyOf: order.keyOf,
		compare: order.compare,
		sizes,
		concurrency,
		wanted: maxRecords - results.length,
		// A safety net far above what a changing list needs (every window asked about 3 times over).
		maxRequests: (total) => 20 + 3 * Math.ceil(Math.min(total, maxRecords) / sizes.min),
		take,
	});
	if (outcome.complete) return { results, requests: outcome.requests + 1 };
	return { stoppedBy: outcome.stoppedBy, requests: outcome.requests + 1 };
}

/** What one page of a read as served showed, kept after its records were shaped and dropped. */
interface PageFacts {
	total?: number;
	totalPages?: number;
	count: number;
	/** The records' identities; undefined when a record has none. */
	ids?: string[];
}

function factsOf(
	info: PageInfo,
	identity: ((record: unknown) => string | undefined) | undefined,
): PageFacts {
	let ids: string[] | undefined = identity ? [] : undefined;
	for (const record of info.records) {
		const id = identity?.(record);
		if (id === undefined) {
			ids = undefined;
			break;
		}
		ids?.push(id);
	}
	return { total: info.total, totalPages: info.totalPages, count: info.records.length, ids };
}

/**
 * How many records the pages show were added or removed while they were read (0: no sign of a change): totals or page
 * counts that differ, a record on two pages, or a count of distinct records other than the list's total.
 */
function changeShown(
	pages: readonly PageFacts[],
	expected: (total: number) => number | undefined,
): number {
	const totals = pages
		.map((page) => page.total)
		.filter((total): total is number => total !== undefined);
	let changed = totals.length > 0 ? Math.max(...totals) - Math.min(...totals) : 0;
	if (new Set(pages.map((page) => page.totalPages)).size > 1) changed = Math.max(changed, 1);
	let distinct = pages.reduce((sum, page) => sum + page.count, 0);
	// Identities count only when every record has one and no page repeats one (then they do not tell records apart).
	const usable = pages.every(
		(page) => page.ids !== undefined && new Set(page.ids).size === page.ids.length,
	);
	if (usable) {
		const all = new Set<string>();
		for (const page of pages) for (const id of page.ids as string[]) all.add(id);
		changed = Math.max(changed, distinct - all.size);
		distinct = all.size;
	}
	const want = totals.length > 0 ? expected(totals[totals.length - 1]) : undefined;
	if (want !== undefined) changed = Math.max(changed, Math.abs(distinct - want));
	return changed;
}

/** The read as served (a list in no usable order): every page once, with what it needs to tell a change. */
async function readAsServed<T>(
	style: PageStyle,
	fetchPage: FetchPage,
	first: PageInfo,
	{ perPage, maxRecords, concurrency }: ReadPlan,
	shape: (records: unknown[]) => T[],
	identity: ((record: unknown) => string | undefined) | undefined,
): Promise<{ results: T[]; changed: number; requests: number }> {
	const results = shape(first.records);
	const facts = [factsOf(first, identity)];

	const totalPages = first.totalPages;
	if (totalPages !== undefined) {
		const neededPages = Math.min(totalPages, Math.ceil(maxRecords / perPage));
		const pages = Array.from({ length: Math.max(0, neededPages - 1) }, (_, index) => index + 2);
		const slots = new RequestSlots(concurrency);
		let failed = false;
		const shaped = await Promise.all(
			pages.map(async (page) => {
				const lease = await slots.lease();
				let done = false;
				try {
					// A failed page fails the whole read: the pages still waiting for a slot are not requested.
					if (failed) return [];
					const info = readPage(
						style,
						await fetchPage(page, perPage, slotHooks(lease)),
						page,
						perPage,
					);
					facts[page - 1] = factsOf(info, identity);
					const result = shape(info.records);
					done = true;
					return result;
				} finally {
					if (!done) {
						failed = true;
						slots.stop();
					}
					lease.release();
				}
			}),
		);
		for (const page of shaped) for (const result of page) results.push(result);
		// Read to the end: as many records as the total. Stopped early for Limit: full pages, when their size is known.
		const size = first.perPage;
		const expected = (total: number) =>
			neededPages >= totalPages
				? total
				: size !== undefined
					? Math.min(total, neededPages * size)
					: undefined;
		return {
			results: results.slice(0, maxRecords),
			changed: changeShown(facts, expected),
			requests: neededPages,
		};
	}

	let page = 2;
	for (; results.length < maxRecords; page++) {
		const info = readPage(style, await fetchPage(page, perPage), page, perPage);
		facts.push(factsOf(info, identity));
		for (const result of shape(info.records)) results.push(result);
		if (!info.hasNext || info.records.length === 0) break;
	}
	const complete = results.length < maxRecords;
	const changed = changeShown(facts, (total) => (complete ? total : undefined));
	return { results: results.slice(0, maxRecords), changed, requests: page };
}
