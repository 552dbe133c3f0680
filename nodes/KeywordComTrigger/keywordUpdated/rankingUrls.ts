/**
 * Keyword Updated, filter Ranking URL Changed: whether an update's ranking URL differs from the one before. Pure.
 *
 * A keyword record carries its current `rankingurl` only. The ranking history (#14, `rankingurls`: a ranking URL per
 * date, newest first) carries the ones before, so the trigger asks it for the keywords a poll reports (only those
 * the other filters let through) and compares the update's URL with the entry before the update's own date: the
 * URL of the keyword's previous update, or, where the API keeps one entry a day, of the day before. Nothing is kept
 * between polls, however many keywords the account has; a keyword without an entry before (its first update) does
 * not pass.
 */
import type { IDataObject } from 'n8n-workflow';

/** `NOT FOUND` (the API's "no ranking URL") and a missing or empty URL are one value. */
function normalised(url: unknown): string {
	if (typeof url !== 'string' || url.trim() === '' || url.trim() === 'NOT FOUND') return '-';
	return url.trim();
}

export function sameRankingUrl(a: unknown, b: unknown): boolean {
	return normalised(a) === normalised(b);
}

/** The ranking URL of a keyword record (`attributes.rankingurl`). */
export function rankingUrlOf(record: IDataObject): unknown {
	return ((record.attributes ?? {}) as IDataObject).rankingurl;
}

export interface UrlEntry {
	/** `YYYY-MM-DD`. */
	date: string;
	url: unknown;
}

/** From a ranking-history answer (#14): keyword id → its ranking URLs by date, newest first. */
export function chartUrls(body: unknown): Map<string, UrlEntry[]> {
	const found = new Map<string, UrlEntry[]>();
	const data = (body as IDataObject | undefined)?.data;
	if (!Array.isArray(data)) return found;
	for (const item of data as unknown[]) {
		if (!item || typeof item !== 'object') continue;
		const { kwid, data: parts } = item as IDataObject;
		if (kwid === undefined || kwid === null || !Array.isArray(parts)) continue;
		// The fifth part of the chart data holds the ranking URLs (spec §4.2, E).
		const urls = (parts[4] as IDataObject | undefined)?.rankingurls;
		if (!Array.isArray(urls)) continue;
		const entries = (urls as unknown[])
			.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object')
			.filter((entry) => typeof entry.date === 'string')
			.map((entry) => ({ date: entry.date as string, url: entry.rankingurl }))
			.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
		found.set(String(kwid), entries);
	}
	return found;
}

/**
 * Whether the URL of an update at `crawledAt` (Unix seconds) differs from the entry before the update's date;
 * undefined when the history has none before it.
 */
export function rankingUrlChanged(
	entries: readonly UrlEntry[],
	crawledAt: number,
	url: unknown,
): boolean | undefined {
	const day = new Date(crawledAt * 1000).toISOString().slice(0, 10);
	const own = entries.findIndex((entry) => entry.date <= day);
	const before =
		own < 0 ? undefined : entries.find((entry, n) => n > own && entry.date < entries[own].date);
	return before === undefined ? undefined : !sameRankingUrl(url, before.url);
}
