/**
 * Keyword Updated: the events of a keyword list read, the keywords crawled within a container's window. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { compareIds } from './cursor';
import { crawledAt } from './keywordItem';

export interface KeywordEvent {
	id: string;
	at: number;
	record: IDataObject;
}

/** The keyword's id as text, or undefined. */
export function keywordId(record: unknown): string | undefined {
	if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const id = (record as IDataObject).id;
	return id === undefined || id === null || id === '' ? undefined : String(id);
}

/**
 * Keywords of a list crawled within the window `(reportedUpTo, windowEnd]`, as events. `elsewhere` names the other
 * projects and groups being read: a list that also holds their keywords (a project's list with its groups') leaves
 * those to their own.
 */
export function windowEvents(
	records: Iterable<unknown>,
	reportedUpTo: number,
	windowEnd: number,
	elsewhere?: ReadonlySet<string>,
): KeywordEvent[] {
	const events: KeywordEvent[] = [];
	for (const raw of records) {
		const id = keywordId(raw);
		if (id === undefined) continue;
		const record = raw as IDataObject;
		const at = crawledAt(record);
		if (at === undefined || at <= reportedUpTo || at > windowEnd) continue;
		const category = ((record.attributes ?? {}) as IDataObject).category;
		if (elsewhere && typeof category === 'string' && elsewhere.has(category)) continue;
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
