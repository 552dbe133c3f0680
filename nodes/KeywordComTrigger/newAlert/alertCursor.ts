/**
 * New Alert's cursor: the window cursor (polling/windowCursor.ts) of the alerts emitted, plus the alert list's order and
 * where its floor was last seen in it, so that the next poll asks for the right page first. Pure.
 */
import type { ListOrder } from '../../shared/paging';
import {
	floorKey,
	isCovered,
	tieOf,
	type Boundary,
	type Stamped,
	type WindowCursor,
} from '../polling/windowCursor';
import { ALERT_PAGE_SIZE } from './alertRecords';

/** The cursor a poll keeps: what has been emitted, plus where its floor was last seen in the list. */
export interface AlertCursor extends WindowCursor {
	/** The list's order in time (ascending: oldest first). */
	listOrder?: ListOrder;
	/** Estimated list index of the last alert at or below the floor (reading from the floor). */
	floorIndex?: number;
	/** The list's length when `floorIndex` was estimated. */
	listLength?: number;
	/**
	 * The page size the API serves when it is below ALERT_PAGE_SIZE (it served a smaller page than asked). Pages are
	 * numbered by it, so the first page a poll asks for must be planned with it.
	 */
	pageSize?: number;
	/**
	 * Alerts of one second in no id order: the second a read stopped inside of, with nothing new before it (a second
	 * larger than one poll's read). The floor stands below it and idsAboveFloor holds the ids of its alerts read so far;
	 * `floorIndex` is where the read stopped, and the next read goes on from there, not from the second's start.
	 */
	within?: number;
}

/** The page size a read plans with: the one the API was seen to serve, else the largest there is. */
export function pageSizeOf(cursor: AlertCursor | undefined): number {
	return cursor?.pageSize ?? ALERT_PAGE_SIZE;
}

/**
 * The page size to keep after a read: the one the API served (`served`), kept only when below ALERT_PAGE_SIZE; a read
 * that learned nothing keeps the one known.
 */
export function keptPageSize(
	known: number | undefined,
	served: number | undefined,
): number | undefined {
	const size = served ?? known;
	return size !== undefined && size > 0 && size < ALERT_PAGE_SIZE ? size : undefined;
}

/** Where the floor is in the list: AlertCursor.floorIndex and listLength. */
export type FloorPosition = Required<Pick<AlertCursor, 'floorIndex' | 'listLength'>>;

/**
 * Where a read from the floor starts: the floor's last estimated place while the list keeps its order (a good first
 * guess), else a page in (newest first) or the end (oldest first); and the list's length then.
 */
export function floorStart(
	cursor: AlertCursor,
	order: Exclude<ListOrder, 'unordered'>,
	knownTotal?: number,
): { edge: Boundary; index: number; total: number; run?: string[] } {
	const kept = cursor.listOrder === order;
	const floorIndex = kept ? cursor.floorIndex : undefined;
	const listLength = kept ? cursor.listLength : knownTotal;
	const total = knownTotal ?? listLength ?? 0;
	const index =
		floorIndex ?? (order === 'descending' ? pageSizeOf(cursor) : Math.max(0, total - 1));
	const start = { index, total: listLength ?? total };
	// Inside a second read in part: its alerts compare equal, those whose ids were read are known (the run).
	if (cursor.within !== undefined && floorIndex !== undefined && tieOf(cursor) === 0)
		return { ...start, edge: { at: cursor.within, id: '' }, run: cursor.idsAboveFloor };
	return { ...start, edge: floorKey(cursor.floor) };
}

function countAbove(events: readonly Stamped[], cursor: WindowCursor): number {
	const tie = tieOf(cursor);
	return events.filter((event) => !isCovered(event, cursor.floor, tie)).length;
}

/**
 * A first poll's floor position, from the newest alerts it read (newest first: page 1; oldest first: the last page)
 * and the list's length. None for a list in no order.
 */
export function newestFloorPosition(
	order: ListOrder,
	newest: readonly Stamped[],
	cursor: WindowCursor,
	total: number,
): FloorPosition | undefined {
	const above = countAbove(newest, cursor);
	if (order === 'descending') return { floorIndex: above, listLength: total };
	if (order === 'ascending') return { floorIndex: total - 1 - above, listLength: total };
	return undefined;
}

/**
 * Where the new floor is likely to be in the list, for the next poll's first request: where the read ended (`end`),
 * moved back over the alerts read above the new floor. A read that used no position keeps the last estimate while
 * the order holds.
 */
export function nextFloorPosition(
	previous: AlertCursor,
	next: WindowCursor,
	order: ListOrder,
	read: readonly Stamped[],
	end: { index: number; total: number } | undefined,
	within = false,
): FloorPosition | undefined {
	if (!end)
		return previous.listOrder === order && previous.floorIndex !== undefined
			? { floorIndex: previous.floorIndex, listLength: previous.listLength ?? 0 }
			: undefined;
	// Stopped inside a second (AlertCursor.within): the next read goes on from where this one stopped.
	if (within) return { floorIndex: end.index, listLength: end.total };
	const above = countAbove(read, next);
	const backward = order === 'descending';
	const index = end.index + (backward ? above : -above);
	return { floorIndex: Math.max(backward ? 0 : -1, index), listLength: end.total };
}
