/**
 * The days a rank chart covers, for tests of rank rows: the fake API charts each keyword up to the day of its last
 * crawl, which is yesterday for a while after midnight (UTC) until the keyword is crawled again, as the API does. A
 * test of "the last N days" expects rows up to that day, never past it.
 */
import { DAY_MS, ymd } from '../../dev/fake-api/format.cjs';
import type { FakeApiProcess } from './fake-api.cjs';

/** `YYYY-MM-DD` (UTC) of a moment, by default now. */
export const utcDay = (ms: number = Date.now()): string => ymd(ms);

/** `day` moved by `days` (negative: back). */
export const addDays = (day: string, days: number): string =>
	ymd(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/**
 * The days a keyword has rows for in a range asked from `from` up to `askedUpTo`: every day from `from` to the earlier
 * of `askedUpTo` and `crawledOn`, the day of its last crawl (empty when that is before `from`).
 */
export function chartedDays(from: string, askedUpTo: string, crawledOn: string): string[] {
	const to = crawledOn < askedUpTo ? crawledOn : askedUpTo;
	const days: string[] = [];
	for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
	return days;
}

/** The day of each keyword's last crawl in a project, by keyword id (keywords never crawled are left out). */
export async function lastCrawlDays(
	fake: FakeApiProcess,
	project: string,
): Promise<Map<string, string>> {
	const listed = await fake.api(
		'GET',
		`/api/v2/groups/${encodeURIComponent(project)}/keywords/?per_page=250`,
	);
	const days = new Map<string, string>();
	for (const keyword of listed.data as Array<{ id: string; attributes: { crawled_at: unknown } }>)
		if (typeof keyword.attributes.crawled_at === 'number')
			days.set(keyword.id, utcDay(keyword.attributes.crawled_at * 1000));
	return days;
}
