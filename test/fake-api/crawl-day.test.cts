/**
 * The demo data's charts reach today at any hour: its keywords were crawled 10 minutes to 6 hours ago, but never
 * before today's midnight (UTC) once today is 10 minutes old. Before that fix, examples asking for "the last 30 days up
 * to today" got 29 days between midnight and 6:00 UTC.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { ymd } from '../../dev/fake-api/format.cjs';

function crawlTimes(now: number): number[] {
	const api = new FakeKeywordApi({ now: () => now, seed: 'demo' });
	const times: number[] = [];
	for (const keyword of api.state.keywords.values())
		if (keyword.crawledAt !== null) times.push(keyword.crawledAt * 1000);
	assert.ok(times.length >= 12, 'the demo data has crawled keywords');
	return times;
}

describe('fake API: the demo data is crawled today', () => {
	for (const [label, now] of [
		['00:11 UTC', Date.UTC(2026, 10, 26, 0, 11)],
		['00:31 UTC (when a CI run found the gap)', Date.UTC(2026, 10, 26, 0, 31)],
		['05:59 UTC', Date.UTC(2026, 10, 26, 5, 59)],
		['noon UTC', Date.UTC(2026, 10, 26, 12, 0)],
	] as const)
		test(`at ${label}: every keyword was crawled today, at least 10 minutes ago`, () => {
			for (const crawled of crawlTimes(now)) {
				assert.equal(ymd(crawled), ymd(now));
				assert.ok(crawled <= now - 600_000, 'at least 10 minutes before now');
			}
		});

	test('in the first 10 minutes of a day the crawls stay 10 minutes to 6 hours back (yesterday)', () => {
		const now = Date.UTC(2026, 10, 26, 0, 5);
		for (const crawled of crawlTimes(now)) {
			assert.ok(crawled <= now - 600_000 && crawled >= now - 6 * 3_600_000);
			assert.equal(ymd(crawled), '2026-11-25');
		}
	});
});
