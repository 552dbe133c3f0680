/**
 * What Return All sends on a list that does not change while it is read (the reference the request-count tests and
 * benchmarks compare with): page 1, then the overlapping windows of the package's ordered reader
 * (nodes/shared/paging/). Kept out of the package: only tests and benchmarks need it.
 */
import { MAX_PAGE_SIZE } from '../nodes/shared/constants';
import { windowAround } from '../nodes/shared/paging/windows';

/**
 * The pages Return All asks for, in order, on a list of `total` records in an order that does not change while it is
 * read: page 1, then overlapping windows (see readOrdered in nodes/shared/paging/collect.ts).
 */
export function quietReadWindows(
	total: number,
	perPage: number = MAX_PAGE_SIZE,
): Array<{ page: number; perPage: number }> {
	const sizes = { min: Math.ceil(perPage / 2), max: perPage };
	const windows = [{ page: 1, perPage }];
	for (let edge = perPage - 1; edge < total - 1; ) {
		const window = windowAround(edge, 'forward', sizes);
		windows.push({ page: window.page, perPage: window.perPage });
		edge = window.start + window.perPage - 1;
	}
	return windows;
}

/** The requests Return All sends for such a list. */
export function quietReadRequests(total: number, perPage: number = MAX_PAGE_SIZE): number {
	return quietReadWindows(total, perPage).length;
}
