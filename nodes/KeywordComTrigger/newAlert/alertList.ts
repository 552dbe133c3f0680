/**
 * New Alert: reading the alert list (#20) from the cursor's floor towards the newest alert, whichever way the list
 * runs. The order is read from the records (polling/recordOrder.ts), not from the sort parameters sent. Every read stays
 * within the poll's budget and request cap.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	pageSizesUpTo,
	readInBatches,
	type ListOrder,
	type ReadPosition,
} from '../../shared/paging';
import { ALERT_PAGE_SIZE, alertKey, toAlertEvents, type AlertEvent } from './alertRecords';
import {
	floorKey,
	isCovered,
	tieOf,
	timeOrder,
	type Boundary,
	type Stamped,
	type TieOrder,
} from '../polling/windowCursor';
import { floorStart, keptPageSize, pageSizeOf, type AlertCursor } from './alertCursor';
import { timeSequenceOf, type TimeSequence } from '../polling/recordOrder';
import {
	READ_CONCURRENCY,
	isOnePage,
	isOutOfTime,
	lastPageOf,
	type PollLimits,
	type RequestAllowance,
	type ServedList,
} from '../polling/pollContract';

export type FetchAlerts = (page: number, perPage: number) => Promise<ServedList>;

export interface AlertRead {
	events: AlertEvent[];
	/** What the read covers above the floor (AdvanceOptions.covers). */
	covers: 'all' | Boundary;
	/** The reader's position at the end (for the next poll's estimate), when it used one. */
	position?: ReadPosition<Boundary>;
	order: ListOrder;
	tie: TieOrder;
	error?: unknown;
	/** Why a read that failed nothing still made no progress (reported every poll while it lasts). */
	stalled?: string;
	/** The page size the API served, when the read learned it (AlertCursor.pageSize). */
	servedPageSize?: number;
}

/** A page too short to show an order counts as newest first (the order asked for). */
export function orderOf(sequence: ListOrder | undefined): ListOrder {
	return sequence ?? 'descending';
}

/**
 * The first page, and the newest alerts: those of page 1, or of the last page when page 1 shows the list runs oldest
 * first. A page 1 of one second whose ids tell nothing (no id order within a second) cannot show the order: the last
 * page then tells it, by its seconds.
 */
export async function readNewestAlerts(
	fetch: FetchAlerts,
): Promise<TimeSequence & { first: ServedList; events: AlertEvent[] }> {
	const first = await fetch(1, ALERT_PAGE_SIZE);
	const events = toAlertEvents(first.records);
	const shown = timeSequenceOf(events);
	// Page numbers follow the size served (first.perPage), whatever was asked.
	const lastPage = lastPageOf(first, ALERT_PAGE_SIZE);
	if (shown.sequence === 'ascending' && lastPage > 1) {
		const newest = toAlertEvents((await fetch(lastPage, ALERT_PAGE_SIZE)).records);
		return { ...shown, first, events: newest };
	}
	if (shown.sequence === undefined) {
		const byLast = await orderByLastPage(fetch, first, events);
		if (byLast?.order === 'ascending')
			return { ...shown, sequence: 'ascending', first, events: byLast.last };
		if (byLast?.order === 'descending') return { ...shown, sequence: 'descending', first, events };
	}
	return { ...shown, first, events };
}

/**
 * A page 1 that cannot show the list's order (all of one second, ids in no order within it): the last page's seconds
 * tell it, newer than page 1's (oldest first) or older (newest first). Undefined with one page, or when the last page
 * is of that second too.
 */
async function orderByLastPage(
	fetch: FetchAlerts,
	first: ServedList,
	events: readonly AlertEvent[],
): Promise<{ order: 'ascending' | 'descending'; last: AlertEvent[] } | undefined> {
	const lastPage = lastPageOf(first, ALERT_PAGE_SIZE);
	if (lastPage <= 1 || events.length === 0) return undefined;
	const last = toAlertEvents((await fetch(lastPage, ALERT_PAGE_SIZE)).records);
	const at = events[0].at;
	if (last.length > 0 && last.every((event) => event.at > at)) return { order: 'ascending', last };
	if (last.length > 0 && last.every((event) => event.at < at)) return { order: 'descending', last };
	return undefined;
}

/**
 * Pages 2 to the last of a list in no order, a batch at a time, within the budget and the request cap: their alerts,
 * in list order, up to the first page that failed.
 */
export async function readRestOfList(
	fetch: FetchAlerts,
	first: ServedList,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<{ events: AlertEvent[]; complete: boolean; error?: unknown }> {
	const pages = Array.from({ length: lastPageOf(first, ALERT_PAGE_SIZE) - 1 }, (_, n) => n + 2);
	const events: AlertEvent[] = [];
	const { budget } = limits;
	for (let next = 0; next < pages.length; ) {
		const wanted = budget.concurrencyFor(pages.length - next, READ_CONCURRENCY);
		const batch = pages.slice(next, next + allowance.grant(budget.affordable(wanted)));
		if (batch.length === 0) return { events, complete: false };
		next += batch.length;
		const answers = await Promise.allSettled(
			batch.map(async (page) => await fetch(page, ALERT_PAGE_SIZE)),
		);
		for (const answer of answers) {
			if (answer.status === 'fulfilled') events.push(...toAlertEvents(answer.value.records));
			else
				return {
					events,
					complete: false,
					error: isOutOfTime(answer.reason) ? undefined : answer.reason,
				};
		}
	}
	return { events, complete: true };
}

/**
 * Reads from the cursor's floor towards the newest alert, the way the list runs (shared/paging/). Undefined when
 * the list turns out not to run that way (the caller looks again).
 */
export async function readAlertsFromFloor(
	fetch: FetchAlerts,
	cursor: AlertCursor,
	order: Exclude<ListOrder, 'unordered'>,
	tie: TieOrder,
	limits: PollLimits,
	allowance: RequestAllowance,
	knownTotal?: number,
	pageSize = pageSizeOf(cursor),
	from?: ReadPosition<Boundary>,
): Promise<AlertRead | undefined> {
	// Oldest to newest.
	const direction = order === 'descending' ? 'backward' : 'forward';
	const start = from ?? floorStart(cursor, order, knownTotal);
	const sizes = pageSizesUpTo(pageSize);
	const outcome = await readInBatches(start, {
		fetch,
		direction,
		keyOf: alertKey,
		compare: timeOrder(tie),
		sizes,
		// As many at once as the budget needs to read what is left, from the floor to the newest end.
		concurrency: (position) => {
			const left = direction === 'backward' ? position.index : position.total - position.index;
			// Pages overlap by a record or a few: about the page size less 20 new alerts a page.
			const pages = Math.ceil(Math.max(0, left) / Math.max(1, sizes.max - 20)) + 1;
			return limits.budget.concurrencyFor(pages, READ_CONCURRENCY);
		},
		mayContinue: () => limits.budget.mayStart(),
		grant: (wanted) => allowance.grant(limits.budget.affordable(wanted)),
		// Mixed ties: alerts of one second are told apart by id.
		runIdOf: tie === 0 ? (key) => key.id ?? '' : undefined,
	});
	if (outcome.stoppedBy === 'unordered') return undefined;
	const events = outcome.fresh.map(({ key, record }) => ({
		...(key as Stamped),
		record: record as IDataObject,
	}));
	const failed =
		outcome.stoppedBy === 'error' && !isOutOfTime(outcome.error) ? outcome.error : undefined;
	return {
		events,
		covers: outcome.complete
			? 'all'
			: (outcome.position.edge ?? start.edge ?? floorKey(cursor.floor)),
		position: outcome.position,
		order,
		tie,
		error: failed,
		servedPageSize: outcome.sizes.max < sizes.max ? outcome.sizes.max : undefined,
	};
}

/** Looks at the first page to tell the list's order, then reads from the floor accordingly. */
export async function probeAndReadAlerts(
	fetch: FetchAlerts,
	fetchOne: FetchAlerts,
	cursor: AlertCursor,
	limits: PollLimits,
	allowance: RequestAllowance,
	doubted = false,
): Promise<AlertRead> {
	const first = await fetchOne(1, ALERT_PAGE_SIZE);
	const firstEvents = toAlertEvents(first.records);
	const shown = timeSequenceOf(firstEvents, tieOf(cursor));
	const tie = shown.tie;
	// Asked for the largest page: the size served is the API's (and tells when it has grown back).
	const servedPageSize = first.perPage;
	// A first page that cannot tell (all of one second) keeps the order the list showed before, unless it is doubted:
	// then the last page tells it.
	const known =
		!doubted && (cursor.listOrder === 'ascending' || cursor.listOrder === 'descending')
			? cursor.listOrder
			: undefined;
	// Nor known (or doubted): the last page tells it, when there is time for it.
	const sequence =
		shown.sequence ??
		(known === undefined && !isOnePage(first, ALERT_PAGE_SIZE) && limits.budget.mayStart()
			? (await orderByLastPage(fetchOne, first, firstEvents))?.order
			: undefined);
	const order = sequence ?? known;
	if (isOnePage(first, ALERT_PAGE_SIZE)) {
		return { events: firstEvents, covers: 'all', order: orderOf(order), tie, servedPageSize };
	}
	if (order === 'descending' || order === 'ascending') {
		// Newest first and the floor already on page 1 (alerts before it there): everything new is on it.
		if (
			order === 'descending' &&
			firstEvents.some((event) => isCovered(event, cursor.floor, tie))
		) {
			return {
				events: firstEvents,
				covers: 'all',
				position: { edge: undefined, index: 0, total: first.total ?? firstEvents.length },
				order,
				tie,
				servedPageSize,
			};
		}
		// Oldest first, the order not known before: where the floor is was not kept, but page 1 (the oldest alerts) shows
		// it when newer alerts follow it there. The read goes on after page 1, with its alerts above the floor.
		const onFirstPage =
			order === 'ascending' && cursor.listOrder !== 'ascending'
				? afterFirstPage(first, firstEvents, cursor, tie)
				: undefined;
		// Else, turned round from newest first: the floor's place was counted from the newest end (records are added there).
		const turned =
			order === 'ascending' &&
			cursor.listOrder !== 'ascending' &&
			cursor.floorIndex !== undefined &&
			cursor.listLength !== undefined
				? {
						edge: floorKey(cursor.floor),
						index: cursor.listLength - 1 - cursor.floorIndex,
						total: cursor.listLength,
					}
				: undefined;
		const read = await readAlertsFromFloor(
			fetch,
			cursor,
			order,
			tie,
			limits,
			allowance,
			first.total,
			keptPageSize(cursor.pageSize, servedPageSize) ?? ALERT_PAGE_SIZE,
			onFirstPage?.position ?? turned,
		);
		if (read)
			return {
				...read,
				events: [...(onFirstPage?.fresh ?? []), ...read.events],
				servedPageSize: read.servedPageSize ?? servedPageSize,
			};
	}
	return {
		...(await readAllAlerts(fetch, first, cursor, tie, limits, allowance, sequence)),
		servedPageSize,
	};
}

/**
 * Oldest first: where a read goes on after page 1 when the floor is on it (newer alerts follow it there), and the
 * alerts of page 1 above the floor. Undefined when page 1 holds nothing above the floor.
 */
function afterFirstPage(
	first: ServedList,
	events: AlertEvent[],
	cursor: AlertCursor,
	tie: TieOrder,
): { position: ReadPosition<Boundary>; fresh: AlertEvent[] } | undefined {
	const fresh = events.filter((event) => !isCovered(event, cursor.floor, tie));
	const last = events[events.length - 1];
	if (fresh.length === 0 || last === undefined) return undefined;
	const position: ReadPosition<Boundary> = {
		edge: { at: last.at, id: last.id },
		index: first.records.length - 1,
		total: first.total ?? first.records.length,
	};
	// Alerts of one second in no id order: those of the last second on page 1 are known by id.
	if (tie === 0) position.run = events.filter((event) => event.at === last.at).map((e) => e.id);
	return { position, fresh };
}

/**
 * A list in no usable order: every page, every poll (emitted only once all were read). Remembered as in no order only
 * when its first page showed it (`shown`); a first page that could not tell leaves the next poll to look again.
 */
async function readAllAlerts(
	fetch: FetchAlerts,
	first: ServedList,
	cursor: AlertCursor,
	tie: TieOrder,
	limits: PollLimits,
	allowance: RequestAllowance,
	shown: ListOrder | undefined,
): Promise<AlertRead> {
	const order: ListOrder =
		shown === 'unordered' || !cursor.listOrder ? 'unordered' : cursor.listOrder;
	const rest = await readRestOfList(fetch, first, limits, allowance);
	// Nothing is known until every page is in: the read covers no more than the floor.
	if (!rest.complete) {
		const pages = lastPageOf(first, ALERT_PAGE_SIZE);
		const stalled =
			rest.error === undefined
				? `the alert list comes in no time order, so it is read whole at every poll, and its ${pages} pages did not fit in this poll's time; nothing is emitted until one poll reads them all`
				: undefined;
		const covers = floorKey(cursor.floor);
		return { events: [], covers, order, tie, error: rest.error, stalled };
	}
	return {
		events: [...toAlertEvents(first.records), ...rest.events],
		covers: 'all',
		order,
		tie,
	};
}
