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
	ALERT_ID_CAP,
	ALERT_LOOKBACK_SECONDS,
	alertCategory,
	filteredAlertItems,
} from './alertRecords';
import {
	advance,
	compareKeys,
	tieOf,
	timeOrder,
	type TieOrder,
	type WindowCursor,
} from '../polling/windowCursor';
import {
	keptPageSize,
	newestFloorPosition,
	nextFloorPosition,
	type AlertCursor,
} from './alertCursor';
import { SETTLE_SECONDS } from '../polling/triggerApi';
import { alertsInScope } from './alertScope';
import { GroupNames } from './alertKeywordLookup';
import {
	orderOf,
	probeAndReadAlerts,
	readAlertsFromFloor,
	readNewestAlerts,
	readRestOfList,
	type AlertRead,
	type FetchAlerts,
} from './alertList';
import { tagsForAlerts } from './alertTags';
import {
	MAX_REQUESTS_PER_POLL,
	RequestAllowance,
	SAMPLE_SIZE,
	messageOf,
	servedList,
	statusOf,
	type NoEventYet,
	type PollLimits,
	type PollOutcome,
	type PollProblem,
	type PollSettings,
	type TriggerApi,
} from '../polling/pollContract';

export async function pollNewAlerts(
	api: TriggerApi,
	cursor: AlertCursor | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<AlertCursor>> {
	const allowance =
		limits.allowance ?? new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	// Requests are granted by the caller (the reader asks for its batches; single pages take one).
	const fetch: FetchAlerts = async (page, perPage) =>
		servedList(await limits.budget.timed(async () => await api.alertsPage(page, perPage)));
	const fetchOne: FetchAlerts = async (page, perPage) => {
		allowance.grant(1);
		return await fetch(page, perPage);
	};
	if (!cursor) return await alertBaseline(fetchOne, limits, allowance);

	let read: AlertRead | undefined;
	let doubted = false;
	if (cursor.listOrder === 'ascending' || cursor.listOrder === 'descending') {
		const order = cursor.listOrder;
		read = await readAlertsFromFloor(fetch, cursor, order, tieOf(cursor), limits, allowance);
		// Newest first, yet nothing new on page 1 though the list grew: the order was a guess (a first page of one second)
		// and the list may run the other way. Look again, the last page telling.
		const grew = (read?.position?.total ?? 0) > (cursor.listLength ?? Number.POSITIVE_INFINITY);
		if (read && order === 'descending' && read.events.length === 0 && grew) {
			// Two requests (page 1, the last page) must fit; else the next poll looks, its order not taken as known.
			if (limits.budget.roundsLeft(1) >= 2)
				read = await probeAndReadAlerts(fetch, fetchOne, cursor, limits, allowance, true);
			else doubted = true;
		}
	}
	// No order known, or the list no longer runs the way it did: look at its first page.
	if (!read) read = await probeAndReadAlerts(fetch, fetchOne, cursor, limits, allowance);

	const progress = read.events.length > 0 || read.covers === 'all';
	if (read.error !== undefined && !progress) throw read.error;
	// The API's clock (its Date header; README: what the trigger takes for granted): the seconds up to `settled` are over.
	const clock = api.serverNow();
	const settled = clock === undefined ? undefined : clock - SETTLE_SECONDS;
	const held = wholeSecondsRead(holdBackUnsettled(read, settled), read.tie, cursor);
	// By the API's clock, what no late alert can be stamped at or before any more.
	const quietUpTo = settled === undefined ? undefined : settled - ALERT_LOOKBACK_SECONDS - 1;
	const advanced = advance(cursor, held.events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		covers: held.covers,
		tie: read.tie,
		settled,
		quietUpTo,
		...(cursor.within !== undefined && { within: cursor.within }),
	});
	const within = stoppedWithin(held, read.tie, cursor, advanced.cursor);
	const next: AlertCursor = {
		...advanced.cursor,
		listOrder: read.order,
		...nextFloorPosition(
			cursor,
			advanced.cursor,
			read.order,
			read.events,
			read.position,
			within !== undefined,
		),
	};
	if (within !== undefined && next.floorIndex !== undefined) next.within = within;
	if (doubted) {
		// The read placed itself in a list it took the wrong way round: the floor's place as counted before stays.
		delete next.listOrder;
		next.floorIndex = cursor.floorIndex;
		next.listLength = cursor.listLength;
	}
	const pageSize = keptPageSize(cursor.pageSize, read.servedPageSize);
	if (pageSize !== undefined) next.pageSize = pageSize;

	// Filtered-out alerts still moved the cursor: they are never looked at again.
	// Both ask groups/active when an alert names only its project: once a poll.
	const groups = new GroupNames(api, limits, allowance);
	const placed = await alertsInScope(
		api,
		advanced.fresh.map((event) => event.record),
		settings.scope,
		settings.filters,
		limits,
		allowance,
		groups,
	);
	const records = placed.records;
	const known = await tagsForAlerts(
		api,
		records,
		settings.filters,
		limits,
		allowance,
		placed.tags,
		groups,
	);
	const items = filteredAlertItems(
		records,
		settings.filters,
		settings.output,
		settings.token,
		false,
		known,
	);
	const problems: PollProblem[] = [...placed.problems, ...(known?.problems ?? [])];
	if (read.error !== undefined)
		problems.push({ status: statusOf(read.error), message: messageOf(read.error) });
	if (read.stalled !== undefined) problems.push({ status: null, message: read.stalled });
	return { items, state: next, complete: read.covers === 'all', problems };
}

/**
 * Alerts of one second in no id order (or ids descending): a new alert of a second not over yet may land before
 * where the read is, so the seconds the API's clock does not show over (`settled`) are left to the next poll, whole.
 * Then the cursor never has to keep the ids of a second still filling (a burst of thousands in one second).
 */
function holdBackUnsettled(
	read: AlertRead,
	settled: number | undefined,
): Pick<AlertRead, 'events' | 'covers'> {
	if (read.tie === 1 || settled === undefined) return read;
	const events = read.events.filter((event) => event.at <= settled);
	if (events.length === read.events.length && read.covers !== 'all') return read;
	const bound = { at: settled, id: null };
	const covers =
		read.covers === 'all' || timeOrder(read.tie)(read.covers, bound) > 0 ? bound : read.covers;
	return { events, covers };
}

/**
 * Alerts of one second in no id order, a read that stopped inside a second: the floor covers whole seconds only, so
 * every alert of that second read so far would be kept as an id, past the cap (thousands in a burst). When the read
 * brought new alerts of earlier seconds, it stops after them instead, and the next poll reads that second whole. (A
 * read that brought nothing new before it keeps it as it is, so that each poll moves on.)
 */
function wholeSecondsRead(
	held: Pick<AlertRead, 'events' | 'covers'>,
	tie: TieOrder,
	cursor: AlertCursor,
): Pick<AlertRead, 'events' | 'covers'> {
	const stop = held.covers;
	if (tie !== 0 || typeof stop !== 'object' || stop.id === null) return held;
	const events = held.events.filter((event) => event.at < stop.at);
	if (events.length === held.events.length) return held;
	const seen = new Set(cursor.idsAboveFloor);
	if (!events.some((event) => !seen.has(event.id))) return held;
	return { events, covers: { at: stop.at - 1, id: null } };
}

/**
 * Stopped inside a second of mixed ties with nothing new before it (wholeSecondsRead kept it): the second the next
 * read goes on inside of (AlertCursor.within), when every id the cursor keeps is of that second.
 */
function stoppedWithin(
	held: Pick<AlertRead, 'events' | 'covers'>,
	tie: TieOrder,
	cursor: AlertCursor,
	next: WindowCursor,
): number | undefined {
	const stop = held.covers;
	if (tie !== 0 || typeof stop !== 'object' || stop.id === null) return undefined;
	const ofSecond = new Set(held.events.filter((event) => event.at === stop.at).map((e) => e.id));
	if (cursor.within === stop.at) for (const id of cursor.idsAboveFloor) ofSecond.add(id);
	return next.idsAboveFloor.every((id) => ofSecond.has(id)) ? stop.at : undefined;
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
	const { first, events, sequence, tie } = await readNewestAlerts(fetch);
	const order = orderOf(sequence);
	let complete = true;
	if (order === 'unordered') {
		const rest = await readRestOfList(fetch, first, limits, allowance);
		events.push(...rest.events);
		complete = rest.complete;
	}
	const covers = order === 'unordered' ? (complete ? 'all' : 'newest-only') : 'newest-only';
	const advanced = advance(undefined, events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		covers,
		tie,
	});
	const state: AlertCursor = { ...advanced.cursor, listOrder: order };
	const pageSize = keptPageSize(undefined, first.perPage);
	if (pageSize !== undefined) state.pageSize = pageSize;
	if (order === 'unordered' && !complete) {
		// Not every page fitted in this poll: the newest alert seen stands for "now".
		state.floor = [state.newest, null];
		state.idsAboveFloor = [];
	}
	const total = first.total ?? events.length;
	Object.assign(state, newestFloorPosition(order, events, state, total));
	return { items: [], state, complete: true, problems: [] };
}

/** A manual run ("Fetch Test Event"): the newest alerts, whatever the cursor. */
export async function sampleAlerts(
	api: TriggerApi,
	settings: PollSettings,
): Promise<IDataObject[] | NoEventYet> {
	const { events } = await readNewestAlerts(async (page, perPage) =>
		servedList(await api.alertsPage(page, perPage)),
	);
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
