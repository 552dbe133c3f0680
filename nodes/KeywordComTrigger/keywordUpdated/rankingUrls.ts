/**
 * Keyword Updated, filter Ranking URL Changed: whether an update's ranking URL differs from the one of the keyword's
 * crawl before it, however long ago. Pure.
 *
 * A keyword record carries its current `rankingurl` only. The ranking history (#14, `rankingurls`: a ranking URL and
 * rank per date, newest first) carries the ones before; the document does not say whether it keeps one entry a crawl,
 * one a day, or one every calendar day with a "NOT FOUND" filler on days without a crawl. The crawl before is told by
 * its rank, which the record's rank history gives: outside the top results, its URL was "NOT FOUND" and the history
 * is not needed; else it is the first entry after the update's own with a rank, and that rank must be the one before
 * (a filler has none). Where the history shows another rank there (one entry a day: a second crawl of one day
 * replaced the first), it does not show the crawl before: the verdict is 'unknown', and the update is passed on as
 * such rather than lost. A keyword without a crawl before (its first update) does not pass. Where the rank history
 * does not tell the rank before, the entry after the update's own is taken for the crawl before, unless it has no
 * rank while an older one has (a filler, or a crawl outside the results): 'unknown' then.
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
	/** The rank on that date; null outside the top results (or a filler); undefined when not given. */
	rank: number | null | undefined;
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
			.map((entry) => ({
				date: entry.date as string,
				rank:
					entry.rank === undefined
						? undefined
						: typeof entry.rank === 'number' && entry.rank > 0
							? entry.rank
							: null,
				url: entry.rankingurl,
			}))
			.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
		found.set(String(kwid), entries);
	}
	return found;
}

/** What the ranking history says of an update's URL. */
export type UrlVerdict =
	/** Changed, or not, from the crawl before. */
	| boolean
	/** No crawl before it (a first update): it does not pass. */
	| undefined
	/** The history does not show the crawl before (one entry a day): passed on as `ranking_url_unknown`. */
	| 'unknown'
	/** The history asked does not reach back far enough: ask for more. */
	| 'further';

/** The rank of the crawl before an update, as the record's rank history tells it. */
export type PreviousRank =
	/** A rank (1–100). */
	| number
	/** Outside the top results. */
	| 'outside'
	/** No crawl before (a first update). */
	| 'none'
	/** The rank history does not tell. */
	| 'unknown';

/**
 * The verdict on an update at `crawledAt` (Unix seconds) whose URL is `url`, from `entries` (newest first);
 * `mayReachFurther`: the request asked less than the API gives.
 */
export function rankingUrlChanged(
	entries: readonly UrlEntry[],
	crawledAt: number,
	url: unknown,
	previous: PreviousRank,
	mayReachFurther = false,
): UrlVerdict {
	if (previous === 'none') return undefined;
	if (previous === 'outside') return !sameRankingUrl(url, 'NOT FOUND');
	const day = new Date(crawledAt * 1000).toISOString().slice(0, 10);
	// The update's own entry: the newest of its date (a later crawl since would be newer still, and dated later).
	const own = entries.findIndex((entry) => entry.date <= day);
	if (own < 0 || entries[own].date < day)
		return mayReachFurther && entries.every((entry) => entry.date > day) ? 'further' : 'unknown';
	if (previous === 'unknown') {
		// The rank before not known (the rank history's order not learnt): the next entry, unless it has no rank and
		// an older one has (a filler of a day without a crawl, or a crawl outside the results: it cannot be told).
		const next = entries[own + 1];
		if (next === undefined) return mayReachFurther ? 'further' : 'unknown';
		if (next.rank === null && entries.slice(own + 2).some((entry) => entry.rank !== null))
			return 'unknown';
		return !sameRankingUrl(url, next.url);
	}
	const before = entries.find((entry, n) => n > own && entry.rank !== null);
	if (before === undefined) return mayReachFurther ? 'further' : 'unknown';
	if (before.rank !== undefined && before.rank !== previous) return 'unknown';
	return !sameRankingUrl(url, before.url);
}
