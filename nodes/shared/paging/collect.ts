/**
 * Return All / Limit: reads a paged list for the action node, in order, losing nothing while the list changes (see
 * collectPages).
 */
import { readAsServed } from './asServed';
import { judgeWindowTakingAll } from './judge';
import type { OrderOf, RecordOrder } from './listOrder';
import {
	planPages,
	parsePage,
	type FetchPage,
	type PageInfo,
	type PageStyle,
	type ReadPlan,
} from './pages';
import { readPipelined } from './pipeline';
import { learnPageSizes, type PageSizes, type ServedPage } from './windows';

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
 * pipeline.ts): a record present during the whole read is returned exactly once, however records are added or deleted
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
		const first = parsePage(style, await fetchPage(1, perPage), 1, perPage);
		if (first.records.length >= maxRecords || !first.hasNext)
			return shape(first.records).slice(0, maxRecords);
		const order = settings
			.order?.(first.records)
			.find((candidate) => !failedOrders.has(candidate.name));
		if (order && first.total !== undefined) {
			const read = await readOrdered(
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

function asServedPage(info: PageInfo): ServedPage {
	return { records: info.records, total: info.total, perPage: info.perPage };
}

/** The ordered read: page 1 is the first window, the rest comes from readPipelined. */
async function readOrdered<T>(
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
	const sizes: PageSizes = learnPageSizes(
		{ min: Math.ceil(perPage / 2), max: perPage },
		perPage,
		firstSize,
	);
	const verdict = judgeWindowTakingAll(
		{ page: 1, perPage, start: 0 },
		{ ...asServedPage(first), perPage: firstSize },
		{ index: -1, total: first.total ?? 0 },
		order.keyOf,
		order.compare,
	);
	if (verdict.kind !== 'accept') return { stoppedBy: 'unordered', requests: 1 };
	take(verdict.fresh);
	if (verdict.end || results.length >= maxRecords) return { results, requests: 1 };
	const outcome = await readPipelined(verdict.position, {
		fetch: async (page, size, hooks) =>
			asServedPage(parsePage(style, await fetchPage(page, size, hooks), page, size)),
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
