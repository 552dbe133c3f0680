/**
 * Return All / Limit on a list in no usable order: every page once, as served, with what tells that the list changed
 * under the read (collect.ts then reads it again).
 */
import { parsePage, type FetchPage, type PageInfo, type PageStyle, type ReadPlan } from './pages';
import { RequestSlots, slotHooks } from './slots';

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
export async function readAsServed<T>(
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
					const info = parsePage(
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
		const info = parsePage(style, await fetchPage(page, perPage), page, perPage);
		facts.push(factsOf(info, identity));
		for (const result of shape(info.records)) results.push(result);
		if (!info.hasNext || info.records.length === 0) break;
	}
	const complete = results.length < maxRecords;
	const changed = changeShown(facts, (total) => (complete ? total : undefined));
	return { results: results.slice(0, maxRecords), changed, requests: page };
}
