/**
 * What one poll does, over an injected API (fetch.ts in n8n, anything in tests). It returns the items and the next
 * state and never touches static data: the node stores the state only after this has returned.
 *
 * Every poll works within a time budget (logic/budget.ts) and a request cap. One that reaches either stops starting
 * requests, emits the complete part of what it read (the oldest events, in order) and returns a state that goes on
 * exactly there; the next poll reads on.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutputChoice } from '../shared/output';
import { mapConcurrent } from '../shared/paging';
import {
	ALERT_ID_CAP,
	ALERT_LOOKBACK_SECONDS,
	ALERT_PAGE_SIZE,
	alertCategory,
	alertItem,
	alertKey,
	toAlertEvents,
	type AlertEvent,
} from './logic/alerts';
import type { PollBudget } from './logic/budget';
import {
	advance,
	compareIds,
	compareKeys,
	floorKey,
	isCovered,
	tieOf,
	timeOrder,
	type Boundary,
	type Stamped,
	type WindowCursor,
} from './logic/cursor';
import {
	KEYWORD_PAGE_SIZE,
	crawledAt,
	epochSeconds,
	hasReadsInProgress,
	keywordId,
	keywordItem,
	planKeywordPoll,
	planResume,
	settleJob,
	toContainers,
	uniqueOldestFirst,
	windowEvents,
	type KeywordEvent,
	type KeywordPlan,
	type KeywordState,
	type ListJob,
	type ListRead,
} from './logic/keywords';
import { idSequenceOf, timeSequenceOf } from './logic/order';
import { learnHistoryOrder, rankChange, type HistoryOrder } from './logic/ranks';
import {
	readAfter,
	type Direction,
	type PageSizes,
	type ReadPosition,
	type ServedPage,
} from '../shared/reader';
import { inScope, type Scope } from '../shared/groupName';

export interface TriggerApi {
	/** One page of the alert list (#20); newest first is asked for, but any order is read correctly. */
	alertsPage(page: number, perPage: number): Promise<unknown>;
	/** `groups/active` (#1) and the server's clock (Unix seconds) when it answered. */
	activeGroups(): Promise<{ body: unknown; serverTime: number }>;
	/** One page of a keyword list (#13). */
	keywordPage(name: string, page: number, perPage: number): Promise<unknown>;
}

export interface PollSettings {
	scope: Scope;
	/** How items are shaped: version 1's Simplify, version 2's Output choice. */
	output: OutputChoice;
	onlyRankChanges: boolean;
	/** Removed from everything emitted. */
	token?: string;
}

export interface PollLimits {
	budget: PollBudget;
	/** Most list requests one poll sends. */
	maxRequests?: number;
}

export interface PollOutcome<S> {
	items: IDataObject[];
	state: S;
	/** Everything there was has been read (false: the poll's time or request budget ended it first). */
	complete: boolean;
	/** A failure the poll got past by keeping what it had read before it (the next poll tries again). */
	error?: unknown;
}

/** What a manual run answers when there is nothing to show yet: a message for the user. */
export type NoEventYet = string;

/** Most list requests in one poll (60,000 records): the rest waits for the next poll. */
export const MAX_REQUESTS_PER_POLL = 240;
/** Pages requested at once by one list read. */
export const READ_CONCURRENCY = 4;
/** Keyword lists read at once when several projects changed. */
const LIST_CONCURRENCY = 2;
/** Page sizes a read may ask for (varied so pages overlap, see logic/reader.ts). */
const PAGE_SIZES: PageSizes = { min: Math.ceil(ALERT_PAGE_SIZE / 2), max: ALERT_PAGE_SIZE };
/** Events a manual run ("Fetch Test Event") shows. */
export const SAMPLE_SIZE = 5;

/** A list page's records and paging facts. */
export interface ServedList extends ServedPage {
	totalPages?: number;
}

export function servedList(body: unknown): ServedList {
	const object = (body ?? {}) as IDataObject;
	const records = Array.isArray(object.data) ? (object.data as unknown[]) : [];
	const pagination = ((object.meta ?? {}) as IDataObject).pagination as IDataObject | undefined;
	const number = (value: unknown) => {
		const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0
			? parsed
			: undefined;
	};
	return {
		records,
		total: number(pagination?.total),
		perPage: number(pagination?.per_page),
		totalPages: number(pagination?.total_pages),
	};
}

/** Requests one poll may still send, shared by its reads. */
class RequestAllowance {
	constructor(public left: number) {}

	take(): void {
		this.left--;
	}
}

function lastPageOf(first: ServedList, perPage: number): number {
	if (first.totalPages !== undefined) return Math.max(1, first.totalPages);
	return first.total !== undefined ? Math.max(1, Math.ceil(first.total / perPage)) : 1;
}

function isOnePage(first: ServedList, perPage: number): boolean {
	if (first.totalPages !== undefined) return first.totalPages <= 1;
	if (first.total !== undefined) return first.total <= first.records.length;
	return first.records.length < perPage;
}

/** Whether an error is the poll's time running out (the transport's `outOfTime`). */
export function isOutOfTime(error: unknown): boolean {
	return (error as { outOfTime?: unknown } | undefined)?.outOfTime === true;
}

// ---------------------------------------------------------------------------------------------------- New Alert

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

interface AlertRead {
	events: AlertEvent[];
	/** What the read covers above the floor (AdvanceOptions.covers). */
	covers: 'all' | Boundary;
	/** The reader's position at the end (for the next poll's estimate), when it used one. */
	position?: ReadPosition<Boundary>;
	order: AlertOrder;
	tie: 1 | -1;
	error?: unknown;
}

export async function pollNewAlerts(
	api: TriggerApi,
	cursor: AlertCursor | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<AlertCursor>> {
	const allowance = new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	const fetch = async (page: number, perPage: number): Promise<ServedList> => {
		allowance.take();
		return servedList(await limits.budget.timed(async () => await api.alertsPage(page, perPage)));
	};
	if (!cursor) return await alertBaseline(fetch);

	let read: AlertRead | undefined;
	if (cursor.o === 'a' || cursor.o === 'd')
		read = await readAlertsFromFloor(fetch, cursor, cursor.o, tieOf(cursor), limits, allowance);
	// No order known, or the list no longer runs the way it did: look at its first page.
	if (!read) read = await probeAndReadAlerts(fetch, cursor, limits, allowance);

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
	const items = advanced.fresh
		.filter((event) => inScope(alertCategory(event.record), settings.scope))
		.map((event) => alertItem(event.record, settings.output, settings.token));
	return { items, state: next, complete: read.covers === 'all', error: read.error };
}

/** First activation: the newest alerts mark "now"; nothing is emitted. */
async function alertBaseline(
	fetch: (page: number, perPage: number) => Promise<ServedList>,
): Promise<PollOutcome<AlertCursor>> {
	const first = await fetch(1, ALERT_PAGE_SIZE);
	let events = toAlertEvents(first.records);
	const { sequence, tie } = timeSequenceOf(events);
	const order: AlertOrder = sequence === 'ascending' ? 'a' : sequence === 'unordered' ? 'u' : 'd';
	let newestPage = first;
	const lastPage = lastPageOf(first, ALERT_PAGE_SIZE);
	if (order !== 'd' && lastPage > 1) {
		// Oldest first: the newest alerts are on the last page. Unordered: every page is needed.
		const pages =
			order === 'a' ? [lastPage] : Array.from({ length: lastPage - 1 }, (_, n) => n + 2);
		const served = await mapConcurrent(
			pages,
			READ_CONCURRENCY,
			async (page) => await fetch(page, ALERT_PAGE_SIZE),
		);
		if (order === 'a') {
			newestPage = served[0];
			events = toAlertEvents(newestPage.records);
		} else {
			for (const page of served) events.push(...toAlertEvents(page.records));
		}
	}
	const advanced = advance(undefined, events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		covers: order === 'u' ? 'all' : 'newest-only',
		tie,
	});
	const state: AlertCursor = { ...advanced.cursor, o: order };
	const total = first.total ?? events.length;
	if (order === 'd') {
		state.x = events.filter((event) => !isCovered(event, state.f, tie)).length;
		state.n = total;
	} else if (order === 'a') {
		const above = events.filter((event) => !isCovered(event, state.f, tie)).length;
		state.x = total - 1 - above;
		state.n = total;
	}
	return { items: [], state, complete: true };
}

/**
 * Reads from the cursor's floor towards the newest alert, the way the list runs (logic/reader.ts). Undefined when
 * the list turns out not to run that way (the caller looks again).
 */
async function readAlertsFromFloor(
	fetch: (page: number, perPage: number) => Promise<ServedList>,
	cursor: AlertCursor,
	order: 'a' | 'd',
	tie: 1 | -1,
	limits: PollLimits,
	allowance: RequestAllowance,
	knownTotal?: number,
): Promise<AlertRead | undefined> {
	const direction = directionOf(order);
	const edge = floorKey(cursor.f);
	const total = knownTotal ?? cursor.n ?? 0;
	const index = cursor.x ?? (direction === 'backward' ? ALERT_PAGE_SIZE : Math.max(0, total - 1));
	const start: ReadPosition<Boundary> = { edge, index, total: cursor.n ?? total };
	const outcome = await readAfter(start, {
		fetch,
		direction,
		keyOf: alertKey,
		compare: timeOrder(tie),
		sizes: PAGE_SIZES,
		concurrency: READ_CONCURRENCY,
		mayContinue: () => limits.budget.mayStart(),
		maxRequests: Math.max(0, allowance.left),
	});
	if (outcome.stoppedBy === 'unordered') return undefined;
	const events = outcome.fresh.map(({ key, record }) => ({
		...(key as Stamped),
		record: record as IDataObject,
	}));
	const stoppedError = outcome.stoppedBy === 'error' ? outcome.error : undefined;
	return {
		events,
		covers: outcome.complete ? 'all' : (outcome.position.edge ?? edge),
		position: outcome.position,
		order,
		tie,
		error: stoppedError,
	};
}

/** Looks at the first page to tell the list's order, then reads from the floor accordingly. */
async function probeAndReadAlerts(
	fetch: (page: number, perPage: number) => Promise<ServedList>,
	cursor: AlertCursor,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertRead> {
	const first = await fetch(1, ALERT_PAGE_SIZE);
	const firstEvents = toAlertEvents(first.records);
	const { sequence, tie } = timeSequenceOf(firstEvents, tieOf(cursor));
	if (isOnePage(first, ALERT_PAGE_SIZE)) {
		const order: AlertOrder = sequence === 'ascending' ? 'a' : sequence === 'unordered' ? 'u' : 'd';
		return { events: firstEvents, covers: 'all', order, tie };
	}
	if (sequence === 'descending' || sequence === 'ascending') {
		const order = sequence === 'descending' ? 'd' : 'a';
		// Newest first and the floor already on page 1: everything new is on it.
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
	return await readAllAlerts(fetch, first, cursor, tie, limits);
}

/** A list in no usable order: every page, every poll (emitted only once all were read). */
async function readAllAlerts(
	fetch: (page: number, perPage: number) => Promise<ServedList>,
	first: ServedList,
	cursor: AlertCursor,
	tie: 1 | -1,
	limits: PollLimits,
): Promise<AlertRead> {
	const events = toAlertEvents(first.records);
	const pages = Array.from({ length: lastPageOf(first, ALERT_PAGE_SIZE) - 1 }, (_, n) => n + 2);
	let stopped: unknown;
	await mapConcurrent(pages, READ_CONCURRENCY, async (page) => {
		if (stopped !== undefined) return;
		if (!limits.budget.mayStart()) {
			stopped = new Error('The poll’s time ran out before the whole alert list was read.');
			(stopped as { outOfTime?: boolean }).outOfTime = true;
			return;
		}
		try {
			events.push(...toAlertEvents((await fetch(page, ALERT_PAGE_SIZE)).records));
		} catch (error) {
			stopped = error;
		}
	});
	// Nothing is known until every page is in: the read covers no more than the floor.
	if (stopped !== undefined)
		return { events: [], covers: floorKey(cursor.f), order: 'u', tie, error: stopped };
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
	const chosen = (matching.length > 0 ? matching : newest).slice(0, SAMPLE_SIZE).reverse();
	return chosen.map((event) => alertItem(event.record, settings.output, settings.token));
}

// ---------------------------------------------------------------------------------------------------- Keyword Updated

interface ListOutcome {
	/** Records read this poll (after where the read stood). */
	records: unknown[];
	/** Where the read stands now, or 'done' when it reached the end of the list. */
	read: ListRead | 'done';
	error?: unknown;
}

/** Reads one container's list on from where its read stands, within the poll's budget. Never throws. */
async function readKeywordList(
	api: TriggerApi,
	job: ListJob,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<ListOutcome> {
	const read: ListRead = { ...job.read };
	// A new read learns the list's order from its first page, which comes in the first batch of pages.
	let orderKnown = read.e !== undefined || read.x >= 0;
	const fetch = async (page: number, perPage: number): Promise<ServedList> => {
		allowance.take();
		const served = servedList(
			await limits.budget.timed(async () => await api.keywordPage(job.name, page, perPage)),
		);
		if (!orderKnown && page === 1) {
			orderKnown = true;
			const sequence = idSequenceOf(
				served.records.map(keywordId).filter((id): id is string => id !== undefined),
			);
			if (sequence === 'descending') read.o = 'd';
			else if (sequence === 'unordered') read.o = '?';
		}
		return served;
	};
	const records: unknown[] = [];
	try {
		if (read.o === '?') return await readPageByPage(fetch, read, records, limits, allowance);
		const outcome = await readAfter<string>(
			{ edge: read.e, index: read.x, total: read.n },
			{
				fetch,
				direction: 'forward',
				keyOf: keywordId,
				compare: (a, b) => (read.o === 'd' ? compareIds(b, a) : compareIds(a, b)),
				sizes: PAGE_SIZES,
				concurrency: READ_CONCURRENCY,
				mayContinue: () => limits.budget.mayStart(),
				maxRequests: Math.max(0, allowance.left),
			},
		);
		for (const { record } of outcome.fresh) records.push(record);
		if (outcome.complete) return { records, read: 'done' };
		const { edge, index, total } = outcome.position;
		const next: ListRead = { h: read.h, x: index, n: total };
		if (edge !== undefined) next.e = edge;
		if (outcome.stoppedBy === 'unordered') {
			// Not ordered by id after all: on page by page from here.
			return await readPageByPage(fetch, { ...next, o: '?' }, records, limits, allowance);
		}
		if (read.o) next.o = read.o;
		return {
			records,
			read: next,
			error: outcome.stoppedBy === 'error' ? outcome.error : undefined,
		};
	} catch (error) {
		// The project or group is gone (deleted or archived meanwhile): nothing more to report from it.
		if ((error as { httpCode?: unknown }).httpCode === '404') return { records, read: 'done' };
		return { records, read, error };
	}
}

/**
 * A list not ordered by id: page after page from where the read stands (`x` = last index read). A record moved
 * from one page to another by a change between two requests may be read twice (counted once) or missed; see README.
 */
async function readPageByPage(
	fetch: (page: number, perPage: number) => Promise<ServedList>,
	read: ListRead,
	records: unknown[],
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<ListOutcome> {
	let x = read.x;
	for (;;) {
		if (!limits.budget.mayStart() || allowance.left <= 0) return { records, read: { ...read, x } };
		const page = Math.floor((x + 1) / KEYWORD_PAGE_SIZE) + 1;
		let served: ServedList;
		try {
			served = await fetch(page, KEYWORD_PAGE_SIZE);
		} catch (error) {
			return { records, read: { ...read, x }, error };
		}
		const skip = x + 1 - (page - 1) * KEYWORD_PAGE_SIZE;
		records.push(...served.records.slice(Math.max(0, skip)));
		x = (page - 1) * KEYWORD_PAGE_SIZE + served.records.length - 1;
		if (served.records.length < KEYWORD_PAGE_SIZE) return { records, read: 'done' };
	}
}

function historyOrderOf(state: KeywordState | undefined): HistoryOrder | undefined {
	return state?.o === 'n' ? 'newestFirst' : state?.o === 'o' ? 'oldestFirst' : undefined;
}

export async function pollKeywordUpdates(
	api: TriggerApi,
	state: KeywordState | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<KeywordState>> {
	let plan: KeywordPlan;
	const resuming = hasReadsInProgress(state);
	if (state && resuming) plan = planResume(state);
	else {
		const { body, serverTime } = await limits.budget.timed(async () => await api.activeGroups());
		plan = planKeywordPoll(state, toContainers(body), settings.scope, serverTime);
	}
	if (!state) return { items: [], state: plan.next, complete: true };
	const allowance = new RequestAllowance(
		(limits.maxRequests ?? MAX_REQUESTS_PER_POLL) - (resuming ? 0 : 1),
	);
	const found: KeywordEvent[] = [];
	const errors: unknown[] = [];
	let progress = false;
	let complete = true;
	await mapConcurrent(plan.jobs, LIST_CONCURRENCY, async (job) => {
		const outcome = await readKeywordList(api, job, limits, allowance);
		if (outcome.error !== undefined) errors.push(outcome.error);
		if (outcome.read === 'done') progress = true;
		else {
			complete = false;
			if (outcome.read.e !== job.read.e || outcome.records.length > 0) progress = true;
		}
		// A read that could not start is kept as one in progress: the next poll begins with it.
		settleJob(plan.next, job, outcome.read);
		found.push(...windowEvents(outcome.records, job.w, job.read.h));
	});
	if (errors.length > 0 && !progress) throw errors[0];
	const events = uniqueOldestFirst(found);
	const order = learnHistoryOrder(
		historyOrderOf(state),
		events.map((event) => (event.record.attributes ?? {}) as IDataObject),
	);
	if (order === 'newestFirst' || order === 'oldestFirst')
		plan.next.o = order === 'newestFirst' ? 'n' : 'o';
	const items = events
		.filter(
			(event) =>
				!settings.onlyRankChanges ||
				rankChange((event.record.attributes ?? {}) as IDataObject, order).rank_changed !== false,
		)
		.map((event) => keywordItem(event.record, settings.output, settings.token, order));
	return { items, state: plan.next, complete: complete && !resuming, error: errors[0] };
}

export async function sampleKeywordUpdates(
	api: TriggerApi,
	settings: PollSettings,
): Promise<IDataObject[] | NoEventYet> {
	const { body } = await api.activeGroups();
	const updated = toContainers(body)
		.filter((container) => container.u !== null && inScope(container.name, settings.scope))
		.sort((a, b) => (epochSeconds(b.u) ?? 0) - (epochSeconds(a.u) ?? 0));
	// The most recently updated projects first; the first page of a list is enough to show real keywords.
	for (const container of updated.slice(0, 3)) {
		const { records } = servedList(await api.keywordPage(container.name, 1, KEYWORD_PAGE_SIZE));
		const events = records
			.map((raw) => ({ raw, at: crawledAt(raw as IDataObject) }))
			.filter((entry): entry is { raw: unknown; at: number } => entry.at !== undefined)
			.sort((a, b) => b.at - a.at)
			.map((entry) => entry.raw as IDataObject);
		if (events.length === 0) continue;
		const order = learnHistoryOrder(
			undefined,
			events.map((record) => (record.attributes ?? {}) as IDataObject),
		);
		const changed = events.filter(
			(record) =>
				rankChange((record.attributes ?? {}) as IDataObject, order).rank_changed !== false,
		);
		const chosen = (settings.onlyRankChanges && changed.length > 0 ? changed : events)
			.slice(0, SAMPLE_SIZE)
			.reverse();
		return chosen.map((record) => keywordItem(record, settings.output, settings.token, order));
	}
	return (
		'No keyword has been updated yet' +
		(settings.scope.project ? ' in the chosen project' : '') +
		". Ranks are filled in after a keyword is added (at the next scheduled update); an on-demand refresh (Keyword.com → Refresh, or the Keyword.com node's Refresh operation) updates them at once."
	);
}
