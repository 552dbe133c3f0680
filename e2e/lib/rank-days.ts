/**
 * The days a rank chart covers, for tests of rank rows: the fake API charts each keyword up to the day of its last
 * crawl, which is yesterday for a while after midnight (UTC) until the keyword is crawled again, as the API does. A
 * test of "the last N days" expects rows up to that day, never past it.
 */
import type { FakeApiProcess } from './fake-api';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` (UTC) of a moment, by default now. */
export const utcDay = (ms: number = Date.now()): string => new Date(ms).toISOString().slice(0, 10);

/** `day` moved by `days` (negative: back). */
export const addDays = (day: string, days: number): string =>
	utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** Every day from `from` to `to`, both included (empty when `to` is before `from`). */
export function daysFrom(from: string, to: string): string[] {
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
