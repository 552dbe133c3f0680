import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './constants';

/**
 * The API pages its lists in two shapes:
 * - `meta.pagination.{current_page,total_pages}` (keywords #13, alerts #20);
 * - Laravel's paginator, `meta.{current_page,last_page}` with `links.next` (top pages #21).
 * Both take `page` and `per_page` in the query.
 */
export type PageStyle = 'pagination' | 'laravel';

export interface PageInfo {
	records: unknown[];
	/** Total number of pages when the page says so. */
	totalPages?: number;
	hasNext: boolean;
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
		totalPages !== undefined
			? page < totalPages
			: links.next
				? true
				: records.length >= perPage;
	return { records, totalPages, hasNext };
}

/** How many records to ask per page and at most how many pages to read for Return All / Limit. */
export function planPages(returnAll: boolean, limit: number): { perPage: number; maxRecords: number } {
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

/**
 * A lease on one of a fixed number of request slots. The request runner gives its slot back as soon as a page's
 * answer is in, before parsing it, so the next page is already on the wire while this one is parsed and shaped; it
 * takes a slot again before any retry. So at most `concurrency` requests are in flight, and the client's own work
 * (JSON parsing, Simplify, redaction) overlaps the waiting instead of delaying the next request.
 */
export interface SlotLease {
	/**
	 * Gives the slot back; calling it again does nothing. True when a waiting page took the slot at once (then its
	 * request is about to leave).
	 */
	release(): boolean;
	/**
	 * Takes a slot again after `release` (for a retry: ahead of the pages not yet started, which come later in the
	 * list); does nothing while the slot is held. Fails once the read was stopped (`RequestSlots.stop`).
	 */
	acquire(): Promise<void>;
}

/** `size` request slots, handed out first come, first served (pages leave in page order). */
export class RequestSlots {
	private free: number;

	private readonly waiting: Array<() => void> = [];

	private stopped = false;

	constructor(size: number) {
		// A whole number of at least 1 (the option may come from an expression).
		this.free = Math.max(1, Math.floor(size) || 1);
	}

	async lease(): Promise<SlotLease> {
		await this.take(false);
		let held = true;
		return {
			release: () => {
				if (!held) return false;
				held = false;
				return this.give();
			},
			acquire: async () => {
				if (held) return;
				if (this.stopped) throw new Error('Not retried: another page of this list failed');
				await this.take(true);
				held = true;
			},
		};
	}

	/**
	 * The read failed: pages whose answer is still on the way finish, but none is retried (a retry after a 429 may
	 * wait up to a minute, and would overlap whatever the workflow does next).
	 */
	stop(): void {
		this.stopped = true;
	}

	private async take(first: boolean): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
	}

	/** True when the slot went straight to a waiting page. */
	private give(): boolean {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
		return next !== undefined;
	}
}

/** Fetches one page; `lease` is the page's request slot (given back early by the request runner, see SlotLease). */
export type FetchPage = (page: number, perPage: number, lease?: SlotLease) => Promise<unknown>;

/**
 * Reads a paged list. Page 1 tells how many pages there are; the rest are fetched with at most `concurrency` requests
 * in flight (see SlotLease), requested and returned in page order, and no page beyond what Limit needs is requested.
 * Without a page count it falls back to one page after another.
 *
 * `shape` turns each page's records into results, one result per record, as soon as the page arrives: that work runs
 * while the next pages are still on the wire, and the raw page is dropped at once instead of all pages being held
 * until the end.
 */
export async function collectPages<T = unknown>(
	style: PageStyle,
	fetchPage: FetchPage,
	{ returnAll, limit, concurrency }: { returnAll: boolean; limit: number; concurrency: number },
	shape: (records: unknown[]) => T[] = (records) => records as T[],
): Promise<T[]> {
	const { perPage, maxRecords } = planPages(returnAll, limit);
	const first = readPage(style, await fetchPage(1, perPage), 1, perPage);
	const results = shape(first.records);
	if (results.length >= maxRecords || !first.hasNext) return results.slice(0, maxRecords);

	if (first.totalPages !== undefined) {
		const neededPages = Math.min(first.totalPages, Math.ceil(maxRecords / perPage));
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
					const result = shape(readPage(style, await fetchPage(page, perPage, lease), page, perPage).records);
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
		return results.slice(0, maxRecords);
	}

	for (let page = 2; results.length < maxRecords; page++) {
		const info = readPage(style, await fetchPage(page, perPage), page, perPage);
		for (const result of shape(info.records)) results.push(result);
		if (!info.hasNext || info.records.length === 0) break;
	}
	return results.slice(0, maxRecords);
}
