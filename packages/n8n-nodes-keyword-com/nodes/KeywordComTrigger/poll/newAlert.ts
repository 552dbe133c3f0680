/**
 * New Alert, one poll: read the alert list (#20) from the cursor's floor towards the newest alert, whichever way the
 * list runs, and emit the alerts not seen before, oldest first. Returns the items and the next cursor; never touches
 * static data (the node stores the cursor only after this has returned).
 *
 * A poll works within its time budget and the request cap. One that reaches either stops starting requests, emits the
 * complete part of what it read (the oldest alerts, in order) and returns a cursor that goes on exactly there.
 */
import type { IDataObject } from 'n8n-workflow';

import { inScope } from '../../shared/groupName';
import {
	readInBatches,
	type Direction,
	type PageSizes,
	type ReadPosition,
} from '../../shared/paging';
import {
	ALERT_ID_CAP,
	ALERT_LOOKBACK_SECONDS,
	ALERT_PAGE_SIZE,
	alertCategory,
	alertKey,
	alertKeywordId,
	alertMove,
	filteredAlertItems,
	toAlertEvents,
	type AlertEvent,
} from '../logic/alerts';
import {
	advance,
	compareKeys,
	floorKey,
	isCovered,
	tieOf,
	timeOrder,
	type Boundary,
	type Stamped,
	type TieOrder,
	type WindowCursor,
} from '../logic/cursor';
import { matchFilters, type MovementFilters } from '../logic/filters';
import { timeSequenceOf } from '../logic/order';
import { readAlertTags, type AlertTags } from './alertTags';
import {
	MAX_REQUESTS_PER_POLL,
	READ_CONCURRENCY,
	RequestAllowance,
	SAMPLE_SIZE,
	isOnePage,
	isOutOfTime,
	lastPageOf,
	messageOf,
	servedList,
	statusOf,
	type NoEventYet,
	type PollLimits,
	type PollOutcome,
	type PollProblem,
	type PollSettings,
	type ServedList,
	type TriggerApi,
} from './common';

/** Page sizes a read may ask for (varied so pages overlap, see shared/paging/). */
const PAGE_SIZES: PageSizes = { min: Math.ceil(ALERT_PAGE_SIZE / 2), max: ALERT_PAGE_SIZE };

/** Alert list order kept in the cursor: 'a' oldest first, 'd' newest first, 'u' neither. */
type AlertOrder = 'a' | 'd' | 'u';

/** The cursor as stored: the de-duplication cursor plus where its floor was last seen in the list. */
export interface AlertCursor extends WindowCursor {
	/** The list's order. */
	o?: AlertOrder;
	/** Estimated list index of the last alert at or below the floor (reading from the floor). */
	x?: number;
	/** The list's length when `x` was estimated. */
	n?: number;
}

export function readAlertCursor(
	cursor: WindowCursor | undefined,
	raw: unknown,
): AlertCursor | undefined {
	if (!cursor) return undefined;
	const { o, x, n } = (raw ?? {}) as IDataObject;
	const result: AlertCursor = { ...cursor };
	if (o === 'a' || o === 'd' || o === 'u') result.o = o;
	if (typeof x === 'number' && Number.isFinite(x) && typeof n === 'number' && Number.isFinite(n)) {
		result.x = x;
		result.n = n;
	}
	return result;
}

/** Reading direction through the list for an order: oldest to newest. */
function directionOf(order: AlertOrder): Direction {
	return order === 'd' ? 'backward' : 'forward';
}

function orderOf(sequence: ReturnType<typeof timeSequenceOf>['sequence']): AlertOrder {
	return sequence === 'ascending' ? 'a' : sequence === 'unordered' ? 'u' : 'd';
}

type FetchAlerts = (page: number, perPage: number) => Promise<ServedList>;

interface AlertRead {
	events: AlertEvent[];
	/** What the read covers above the floor (AdvanceOptions.covers). */
	covers: 'all' | Boundary;
	/** The reader's position at the end (for the next poll's estimate), when it used one. */
	position?: ReadPosition<Boundary>;
	order: AlertOrder;
	tie: TieOrder;
	error?: unknown;
	/** Why a read that failed nothing still made no progress (reported every poll while it lasts). */
	stalled?: string;
}

export async function pollNewAlerts(
	api: TriggerApi,
	cursor: AlertCursor | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<AlertCursor>> {
	const allowance = new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	// Requests are granted by the caller (the reader asks for its batches; single pages take one).
	const fetch: FetchAlerts = async (page, perPage) =>
		servedList(await limits.budget.timed(async () => await api.alertsPage(page, perPage)));
	const fetchOne: FetchAlerts = async (page, perPage) => {
		allowance.grant(1);
		return await fetch(page, perPage);
	};
	if (!cursor) return await alertBaseline(fetchOne, limits, allowance);

	let read: AlertRead | undefined;
	if (cursor.o === 'a' || cursor.o === 'd')
		read = await readAlertsFromFloor(fetch, cursor, cursor.o, tieOf(cursor), limits, allowance);
	// No order known, or the list no longer runs the way it did: look at its first page.
	if (!read) read = await probeAndReadAlerts(fetch, fetchOne, cursor, limits, allowance);

	const progress = read.events.length > 0 || read.covers === 'all';
	if (read.error !== undefined && !progress) throw read.error;
	const advanced = advance(cursor, read.events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		covers: read.covers,
		tie: read.tie,
	});
	const next: AlertCursor = { ...advanced.cursor, o: read.order };
	const hint = floorHint(read, next, cursor);
	if (hint) {
		next.x = hint.x;
		next.n = hint.n;
	}
	// Filtered-out alerts still moved the cursor: they are never looked at again.
	const records = advanced.fresh
		.filter((event) => inScope(alertCategory(event.record), settings.scope))
		.map((event) => event.record);
	const known = await tagsFor(api, records, settings.filters, limits, allowance);
	const items = filteredAlertItems(
		records,
		settings.filters,
		settings.output,
		settings.token,
		false,
		known,
	);
	const problems: PollProblem[] = [...(known?.problems ?? [])];
	if (read.error !== undefined)
		problems.push({ status: statusOf(read.error), message: messageOf(read.error) });
	if (read.stalled !== undefined) problems.push({ status: null, message: read.stalled });
	return { items, state: next, complete: read.covers === 'all', problems };
}

/**
 * With the filter Tags: the tags of the keywords of the alerts that pass the other filters, read from their projects'
 * keyword lists (poll/alertTags.ts). Nothing is read without that filter or without such alerts.
 */
async function tagsFor(
	api: TriggerApi,
	records: readonly IDataObject[],
	filters: MovementFilters | undefined,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertTags | undefined> {
	if (!filters?.tags || filters.tags.length === 0) return undefined;
	const others: MovementFilters = { movedBy: filters.movedBy, crossedTop: filters.crossedTop };
	const wanted = new Map<string, Set<string>>();
	for (const record of records) {
		const keywordId = alertKeywordId(record);
		if (keywordId === undefined || !matchFilters(alertMove(record), others)) continue;
		const category = alertCategory(record);
		const ids = wanted.get(category) ?? new Set<string>();
		wanted.set(category, ids.add(keywordId));
	}
	return wanted.size === 0 ? undefined : await readAlertTags(api, wanted, limits, allowance);
}

/**
 * First activation: the newest alerts mark "now"; nothing is emitted. A list in no time order at all is read within
 * the poll's budget and request cap: the newest alert seen marks "now" then.
 */
async function alertBaseline(
	fetch: FetchAlerts,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<PollOutcome<AlertCursor>> {
	const first = await fetch(1, ALERT_PAGE_SIZE);
	let events = toAlertEvents(first.records);
	const { sequence, tie } = timeSequenceOf(events);
	const order = orderOf(sequence);
	const lastPage = lastPageOf(first, ALERT_PAGE_SIZE);
	let complete = true;
	if (order === 'a' && lastPage > 1) {
		// Oldest first: the newest alerts are on the last page.
		events = toAlertEvents((await fetch(lastPage, ALERT_PAGE_SIZE)).records);
	} else if (order === 'u' && lastPage > 1) {
		const pages = Array.from({ length: lastPage - 1 }, (_, n) => n + 2);
		const read = await readPages(fetch, pages, limits, allowance);
		for (const page of read.served) events.push(...toAlertEvents(page.records));
		complete = read.complete;
	}
	const covers = order === 'u' ? (complete ? 'all' : 'newest-only') : 'newest-only';
	const advanced = advance(undefined, events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		covers,
		tie,
	});
	const state: AlertCursor = { ...advanced.cursor, o: order };
	if (order === 'u' && !complete) {
		// Not every page fitted in this poll: the newest alert seen stands for "now".
		state.f = [state.t, null];
		state.k = [];
	}
	const total = first.total ?? events.length;
	const above = events.filter((event) => !isCovered(event, state.f, tie)).length;
	if (order === 'd') {
		state.x = above;
		state.n = total;
	} else if (order === 'a') {
		state.x = total - 1 - above;
		state.n = total;
	}
	return { items: [], state, complete: true, problems: [] };
}

/** Pages of a list in no order, a batch at a time, within the budget and the request cap. */
async function readPages(
	fetch: FetchAlerts,
	pages: number[],
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<{ served: ServedList[]; complete: boolean; error?: unknown }> {
	const served: ServedList[] = [];
	const { budget } = limits;
	for (let next = 0; next < pages.length; ) {
		const wanted = budget.concurrencyFor(pages.length - next, READ_CONCURRENCY);
		const batch = pages.slice(next, next + allowance.grant(budget.affordable(wanted)));
		if (batch.length === 0) return { served, complete: false };
		next += batch.length;
		const answers = await Promise.allSettled(
			batch.map(async (page) => await fetch(page, ALERT_PAGE_SIZE)),
		);
		for (const answer of answers) {
			if (answer.status === 'fulfilled') served.push(answer.value);
			else
				return {
					served,
					complete: false,
					error: isOutOfTime(answer.reason) ? undefined : answer.reason,
				};
		}
	}
	return { served, complete: true };
}

/**
 * Reads from the cursor's floor towards the newest alert, the way the list runs (shared/paging/). Undefined when
 * the list turns out not to run that way (the caller looks again).
 */
async function readAlertsFromFloor(
	fetch: FetchAlerts,
	cursor: AlertCursor,
	order: 'a' | 'd',
	tie: TieOrder,
	limits: PollLimits,
	allowance: RequestAllowance,
	knownTotal?: number,
): Promise<AlertRead | undefined> {
	const direction = directionOf(order);
	const edge = floorKey(cursor.f);
	const total = knownTotal ?? cursor.n ?? 0;
	const index = cursor.x ?? (direction === 'backward' ? ALERT_PAGE_SIZE : Math.max(0, total - 1));
	const start: ReadPosition<Boundary> = { edge, index, total: cursor.n ?? total };
	const outcome = await readInBatches(start, {
		fetch,
		direction,
		keyOf: alertKey,
		compare: timeOrder(tie),
		sizes: PAGE_SIZES,
		// As many at once as the budget needs to read what is left, from the floor to the newest end.
		concurrency: (position) => {
			const left = direction === 'backward' ? position.index : position.total - position.index;
			// Pages overlap by a record or a few: about 230 new alerts a page.
			const pages = Math.ceil(Math.max(0, left) / (PAGE_SIZES.max - 20)) + 1;
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
		covers: outcome.complete ? 'all' : (outcome.position.edge ?? edge),
		position: outcome.position,
		order,
		tie,
		error: failed,
	};
}

/** Looks at the first page to tell the list's order, then reads from the floor accordingly. */
async function probeAndReadAlerts(
	fetch: FetchAlerts,
	fetchOne: FetchAlerts,
	cursor: AlertCursor,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertRead> {
	const first = await fetchOne(1, ALERT_PAGE_SIZE);
	const firstEvents = toAlertEvents(first.records);
	const { sequence, tie } = timeSequenceOf(firstEvents, tieOf(cursor));
	if (isOnePage(first, ALERT_PAGE_SIZE)) {
		return { events: firstEvents, covers: 'all', order: orderOf(sequence), tie };
	}
	if (sequence === 'descending' || sequence === 'ascending') {
		const order = sequence === 'descending' ? 'd' : 'a';
		// Newest first and the floor already on page 1 (alerts before it there): everything new is on it.
		if (order === 'd' && firstEvents.some((event) => isCovered(event, cursor.f, tie))) {
			return {
				events: firstEvents,
				covers: 'all',
				position: { edge: undefined, index: 0, total: first.total ?? firstEvents.length },
				order,
				tie,
			};
		}
		// The floor's last known place is still a good first guess when the list kept its order.
		const hinted: AlertCursor =
			cursor.o === order ? cursor : { ...cursor, x: undefined, n: first.total };
		const read = await readAlertsFromFloor(
			fetch,
			hinted,
			order,
			tie,
			limits,
			allowance,
			first.total,
		);
		if (read) return read;
	}
	return await readAllAlerts(fetch, first, cursor, tie, limits, allowance);
}

/** A list in no usable order: every page, every poll (emitted only once all were read). */
async function readAllAlerts(
	fetch: FetchAlerts,
	first: ServedList,
	cursor: AlertCursor,
	tie: TieOrder,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertRead> {
	const events = toAlertEvents(first.records);
	const pages = Array.from({ length: lastPageOf(first, ALERT_PAGE_SIZE) - 1 }, (_, n) => n + 2);
	const read = await readPages(fetch, pages, limits, allowance);
	// Nothing is known until every page is in: the read covers no more than the floor.
	if (!read.complete) {
		const stalled =
			read.error === undefined
				? `the alert list comes in no time order, so it is read whole at every poll, and its ${pages.length + 1} pages did not fit in this poll's time; nothing is emitted until one poll reads them all`
				: undefined;
		return { events: [], covers: floorKey(cursor.f), order: 'u', tie, error: read.error, stalled };
	}
	for (const page of read.served) events.push(...toAlertEvents(page.records));
	return { events, covers: 'all', order: 'u', tie };
}

/**
 * Where the new floor is likely to be in the list, for the next poll's first request: the reader's end position,
 * moved back over the alerts read above the new floor.
 */
function floorHint(
	read: AlertRead,
	next: AlertCursor,
	previous: AlertCursor,
): { x: number; n: number } | undefined {
	if (!read.position)
		return previous.o === read.order && previous.x !== undefined
			? { x: previous.x, n: previous.n ?? 0 }
			: undefined;
	const tie = tieOf(next);
	const above = read.events.filter((event) => !isCovered(event, next.f, tie)).length;
	const direction = directionOf(read.order);
	const x = read.position.index + (direction === 'backward' ? above : -above);
	return { x: Math.max(direction === 'backward' ? 0 : -1, x), n: read.position.total };
}

export async function sampleAlerts(
	api: TriggerApi,
	settings: PollSettings,
): Promise<IDataObject[] | NoEventYet> {
	const first = servedList(await api.alertsPage(1, ALERT_PAGE_SIZE));
	let events = toAlertEvents(first.records);
	const lastPage = lastPageOf(first, ALERT_PAGE_SIZE);
	if (timeSequenceOf(events).sequence === 'ascending' && lastPage > 1) {
		events = toAlertEvents(servedList(await api.alertsPage(lastPage, ALERT_PAGE_SIZE)).records);
	}
	const newest = events.sort((a, b) => compareKeys(b, a));
	if (newest.length === 0) {
		return 'No alert yet. Keyword.com creates an alert when a tracked keyword moves by the threshold set in the app (Alerts → Settings); run this again once one has appeared.';
	}
	const matching = newest.filter((event) => inScope(alertCategory(event.record), settings.scope));
	// Newest first, those the filters let through (or all when none does), then the newest few oldest first.
	return filteredAlertItems(
		(matching.length > 0 ? matching : newest).map((event) => event.record),
		settings.filters,
		settings.output,
		settings.token,
		true,
	)
		.slice(0, SAMPLE_SIZE)
		.reverse();
}
