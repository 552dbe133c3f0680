/**
 * Keyword Updated: the events of a keyword list read, the keywords crawled within a container's window. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { isGroupName } from '../../shared/groupName';
import { compareIds } from '../../shared/paging';
import { keywordId } from '../polling/listReadState';
import { crawledAt } from './updateItem';

export interface KeywordEvent {
	id: string;
	at: number;
	record: IDataObject;
}

/**
 * Keywords of the list of `listName` crawled within the window `(reportedUpTo, windowEnd]`, as events. A project's
 * list that also holds its groups' keywords (their category is a group's) leaves those to the groups' own lists,
 * whatever becomes of the groups: listed or not, archived, renamed, in scope or not.
 */
export function windowEvents(
	records: Iterable<unknown>,
	reportedUpTo: number,
	windowEnd: number,
	listName: string,
): KeywordEvent[] {
	const events: KeywordEvent[] = [];
	for (const raw of records) {
		const id = keywordId(raw);
		if (id === undefined) continue;
		const record = raw as IDataObject;
		const at = crawledAt(record);
		if (at === undefined || at <= reportedUpTo || at > windowEnd) continue;
		if (!isOwnKeyword(listName, ((record.attributes ?? {}) as IDataObject).category)) continue;
		events.push({ id, at, record });
	}
	return events;
}

/** Events oldest first (crawled_at, then id); a keyword read twice (two lists, or a shifted page) counts once. */
export function uniqueOldestFirst(events: readonly KeywordEvent[]): KeywordEvent[] {
	const byId = new Map<string, KeywordEvent>();
	for (const event of events) {
		const seen = byId.get(event.id);
		if (!seen || event.at > seen.at) byId.set(event.id, event);
	}
	return [...byId.values()].sort((a, b) => a.at - b.at || compareIds(a.id, b.id));
}

/** Whether a keyword record of a list read by `name` is the list's own: a project's list may hold its groups' too. */
export function isOwnKeyword(listName: string, category: unknown): boolean {
	return isGroupName(listName) || !isGroupName(category);
}
