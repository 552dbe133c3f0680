/**
 * What one poll does, over an injected API (fetch.ts in n8n, anything in tests). It returns the items and the next
 * state and never touches static data: the node stores the state only after this has fully succeeded.
 */
import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent, readPage } from '../KeywordCom/shared/paging';
import {
	ALERT_ID_CAP,
	ALERT_LOOKBACK_SECONDS,
	ALERT_PAGE_SIZE,
	MAX_ALERT_PAGES,
	alertCategory,
	alertItem,
	reachedFloor,
	toAlertEvents,
	type AlertEvent,
} from './logic/alerts';
import { advance, compareKeys, type WindowCursor } from './logic/cursor';
import {
	KEYWORD_PAGE_SIZE,
	advanceKeywords,
	epochSeconds,
	keywordItem,
	newestFirst,
	planKeywordPoll,
	rankChange,
	toContainers,
	toKeywordEvents,
	trimToBudget,
	type KeywordEvent,
	type KeywordState,
} from './logic/keywords';
import { inScope, type Scope } from './logic/scope';

export interface TriggerApi {
	/** One page of the alert list (#20), newest first. */
	alertsPage(page: number, perPage: number): Promise<unknown>;
	/** `groups/active` (#1) and the server's clock (Unix seconds) when it answered. */
	activeGroups(): Promise<{ body: unknown; serverTime: number }>;
	/** Every keyword of one project or group (#13, all pages of 250). */
	keywordList(name: string): Promise<unknown[]>;
	/** One page of a keyword list. */
	keywordPage(name: string, page: number, perPage: number): Promise<unknown>;
}

export interface PollSettings {
	scope: Scope;
	simplify: boolean;
	onlyRankChanges: boolean;
	/** Removed from everything emitted. */
	token?: string;
}

export interface PollOutcome<S> {
	items: IDataObject[];
	state: S;
}

/** What a manual run answers when there is nothing to show yet: a message for the user. */
export type NoEventYet = string;

/** Lists read at once when several projects changed (each list also reads 4 pages at once). */
const LIST_CONCURRENCY = 2;
/** Events a manual run ("Fetch Test Event") shows. */
export const SAMPLE_SIZE = 5;

// ---------------------------------------------------------------------------------------------------- New Alert

export async function pollNewAlerts(
	api: TriggerApi,
	cursor: WindowCursor | undefined,
	settings: PollSettings,
): Promise<PollOutcome<WindowCursor>> {
	const events: AlertEvent[] = [];
	let complete = false;
	for (let page = 1; page <= MAX_ALERT_PAGES; page++) {
		const info = readPage(
			'pagination',
			await api.alertsPage(page, ALERT_PAGE_SIZE),
			page,
			ALERT_PAGE_SIZE,
		);
		const pageEvents = toAlertEvents(info.records);
		events.push(...pageEvents);
		if (!info.hasNext || info.records.length === 0) {
			complete = true;
			break;
		}
		if (reachedFloor(pageEvents, cursor)) {
			complete = cursor !== undefined;
			break;
		}
	}
	const advanced = advance(cursor, events, {
		lookback: ALERT_LOOKBACK_SECONDS,
		cap: ALERT_ID_CAP,
		complete,
	});
	// Filtered-out alerts still moved the cursor above: they are never looked at again.
	const items = advanced.fresh
		.filter((event) => inScope(alertCategory(event.record), settings.scope))
		.map((event) => alertItem(event.record, settings.simplify, settings.token));
	return { items, state: advanced.cursor };
}

export async function sampleAlerts(
	api: TriggerApi,
	settings: PollSettings,
): Promise<IDataObject[] | NoEventYet> {
	const info = readPage('pagination', await api.alertsPage(1, ALERT_PAGE_SIZE), 1, ALERT_PAGE_SIZE);
	const newest = toAlertEvents(info.records).sort((a, b) => compareKeys(b, a));
	if (newest.length === 0) {
		return 'No alert yet. Keyword.com creates an alert when a tracked keyword moves by the threshold set in the app (Alerts → Settings); run this again once one has appeared.';
	}
	const matching = newest.filter((event) => inScope(alertCategory(event.record), settings.scope));
	const chosen = (matching.length > 0 ? matching : newest).slice(0, SAMPLE_SIZE).reverse();
	return chosen.map((event) => alertItem(event.record, settings.simplify, settings.token));
}

// ---------------------------------------------------------------------------------------------------- Keyword Updated

export async function pollKeywordUpdates(
	api: TriggerApi,
	state: KeywordState | undefined,
	settings: PollSettings,
): Promise<PollOutcome<KeywordState>> {
	const { body, serverTime } = await api.activeGroups();
	const plan = planKeywordPoll(state, toContainers(body), settings.scope, serverTime);
	const lists = await mapConcurrent(
		plan.reads,
		LIST_CONCURRENCY,
		async (read) => await api.keywordList(read.name),
	);
	const fresh: KeywordEvent[] = [];
	plan.reads.forEach((read, index) => {
		const advanced = advanceKeywords(read.cursor, lists[index]);
		plan.next.p[read.name].c = advanced.cursor;
		if (state) fresh.push(...advanced.fresh);
	});
	trimToBudget(plan.next);
	fresh.sort(compareKeys);
	const items = fresh
		.filter(
			(event) =>
				!settings.onlyRankChanges ||
				rankChange((event.record.attributes ?? {}) as IDataObject).rank_changed,
		)
		.map((event) => keywordItem(event.record, settings.simplify, settings.token));
	return { items, state: plan.next };
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
		const info = readPage(
			'pagination',
			await api.keywordPage(container.name, 1, KEYWORD_PAGE_SIZE),
			1,
			KEYWORD_PAGE_SIZE,
		);
		const events = newestFirst(toKeywordEvents(info.records));
		if (events.length === 0) continue;
		const changed = events.filter(
			(event) => rankChange((event.record.attributes ?? {}) as IDataObject).rank_changed,
		);
		const chosen = (settings.onlyRankChanges && changed.length > 0 ? changed : events)
			.slice(0, SAMPLE_SIZE)
			.reverse();
		return chosen.map((event) => keywordItem(event.record, settings.simplify, settings.token));
	}
	return (
		'No keyword has been updated yet' +
		(settings.scope.project ? ' in the chosen project' : '') +
		". Ranks are filled in after a keyword is added (at the next scheduled update); an on-demand refresh (Keyword.com → Refresh, or the Keyword.com node's Refresh operation) updates them at once."
	);
}
