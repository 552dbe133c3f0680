/**
 * The request counts of the benchmarks (bench/, BENCHMARKS.md), asserted fast (no injected latency except where a
 * request must be held to count overlap; no real n8n) so a regression fails CI. Runs the node through n8n's engine
 * (test/harness) with real HTTP to the in-process fake.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
	BENCH_NODE_VERSIONS,
	MeasuredFake,
	listRequests,
	rl,
	runKeywordCom,
	sameOrder,
} from '../../bench/lib.cjs';
import { quietReadRequests, quietReadWindows } from '../../dev/quiet-read.cjs';
import { chartedDays, utcDay } from '../../e2e/lib/rank-days.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll } from '../harness/index.cjs';

const PROJECT = 'Bulk Project';
const KEYWORDS = 50_000;
const getMany = (extra: Record<string, unknown> = {}) => ({
	resource: 'keyword',
	operation: 'getMany',
	project: rl(PROJECT),
	returnAll: true,
	...extra,
});

describe('benchmark request counts: Return All on 50,000 keywords', () => {
	let fake: MeasuredFake;
	let ids: string[];
	before(async () => {
		fake = await new MeasuredFake().start();
		ids = await fake.addKeywords(PROJECT, KEYWORDS);
	});
	after(async () => await fake?.stop());

	it('issues exactly 217 list requests (⌈50,000/250⌉ = 200 plus 17 for the overlap of the windows) and keeps the API order', async () => {
		await fake.reset();
		const run = await runKeywordCom(fake, getMany());
		const lists = listRequests(await fake.requests());
		// Page 1 of 250, then windows of 125–250 that each start at (or just before) the last keyword read: 249 new
		// keywords a request at best, 230 on average. No plan with pages of at most 250 that overlap does better.
		assert.equal(quietReadRequests(KEYWORDS), 217);
		assert.equal(lists.length, 217);
		assert.equal(lists[0].query.per_page, '250');
		assert.ok(
			lists.every((r) => Number(r.query.per_page) >= 125 && Number(r.query.per_page) <= 250),
		);
		assert.deepEqual(
			lists.map((r) => `${r.query.page}/${r.query.per_page}`).sort(),
			quietReadWindows(KEYWORDS)
				.map((w) => `${w.page}/${w.perPage}`)
				.sort(),
		);
		assert.equal(run.result.items.length, KEYWORDS);
		assert.ok(
			sameOrder(
				run.result.items.map((i) => i.json),
				ids,
			),
			'records in the API order',
		);
	});

	it('Limit 260 stops after 2 requests', async () => {
		await fake.reset();
		const run = await runKeywordCom(fake, getMany({ returnAll: false, limit: 260 }));
		assert.equal(listRequests(await fake.requests()).length, 2);
		assert.ok(
			sameOrder(
				run.result.items.map((i) => i.json),
				ids.slice(0, 260),
			),
		);
	});

	it('concurrency 4 (the default) never has more than 4 requests in flight, and does overlap them', async () => {
		await fake.reset();
		await fake.setLatency(15);
		try {
			await runKeywordCom(fake, getMany({ returnAll: false, limit: 250 * 24 }));
		} finally {
			await fake.setLatency(0);
		}
		assert.equal(listRequests(await fake.requests()).length, 26);
		assert.equal(await fake.peakInFlight(), 4);
	});

	it('concurrency 1 sends one page after another', async () => {
		await fake.reset();
		await fake.setLatency(5);
		try {
			await runKeywordCom(
				fake,
				getMany({ returnAll: false, limit: 250 * 8, options: { concurrency: 1 } }),
			);
		} finally {
			await fake.setLatency(0);
		}
		assert.equal(await fake.peakInFlight(), 1);
	});

	it('a 429 mid-way is retried and nothing is lost', async () => {
		await fake.reset();
		await fake.faultAtRequest(100, {
			method: 'GET',
			path: /\/keywords\/?$/,
			times: 1,
			status: 429,
			retryAfter: '0',
		});
		const run = await runKeywordCom(fake, getMany());
		const lists = listRequests(await fake.requests());
		assert.equal(lists.filter((r) => r.status === 429).length, 1);
		assert.equal(lists.length, 218);
		assert.ok(
			sameOrder(
				run.result.items.map((i) => i.json),
				ids,
			),
			'all 50,000 records, in order, no duplicates',
		);
	});
});

describe('benchmark request counts: bulk add of 10,000 keywords in one item', () => {
	const keywords = Array.from({ length: 10_000 }, (_, i) => `bulk keyword ${i + 1}`);
	for (const [chunkSize, expected] of [
		[undefined, 40],
		[1000, 10],
	] as const) {
		it(`Chunk Size ${chunkSize ?? '250 (default)'} → ${expected} requests`, async () => {
			const fake = await new MeasuredFake().start(); // fresh: the API allows 10,000 added keywords a day
			try {
				await fake.addProject('Bulk Add');
				await fake.reset();
				const run = await runKeywordCom(fake, {
					resource: 'keyword',
					operation: 'add',
					project: rl('Bulk Add'),
					keywords,
					url: 'acme.com',
					options: chunkSize ? { chunkSize } : {},
				});
				const requests = await fake.requests();
				assert.equal(requests.length, expected);
				assert.ok(requests.every((r) => r.method === 'POST'));
				assert.equal(run.result.items.length, 1);
				assert.equal(run.result.items[0].json.added, 10_000);
			} finally {
				await fake.stop();
			}
		});
	}
});

describe('benchmark request counts: trigger on a 50,000-keyword account', () => {
	let fake: MeasuredFake;
	const trigger = new KeywordComTrigger();
	before(async () => {
		// The fake's clock an hour behind: every project looks settled, as between two scheduled updates.
		fake = await new MeasuredFake({ clockOffsetMs: 3_600_000 }).start();
		for (let p = 1; p <= 5; p++) await fake.addKeywords(`Project ${p}`, 10_000);
		await fake.addAlerts(30);
	});
	after(async () => await fake?.stop());

	const poll = async (event: string, staticData?: Record<string, unknown>) => {
		await fake.reset();
		const outcome = await runPoll({
			nodeType: trigger,
			typeVersion: BENCH_NODE_VERSIONS.keywordComTrigger,
			parameters: { event },
			credentials: fake.credentials(),
			staticData: staticData as never,
		});
		assert.equal(outcome.error, undefined, outcome.error?.message);
		return { outcome, requests: await fake.requests() };
	};

	it('Keyword Updated: an idle poll costs at most 2 requests, then 1; after one project moved, only its list is read (at most 44 requests for 40 pages)', async () => {
		const first = await poll('keywordUpdated');
		const idle = await poll('keywordUpdated', first.outcome.staticData);
		assert.ok(idle.requests.length <= 2, `idle poll: ${idle.requests.length} requests`);
		assert.equal(idle.outcome.items, null);

		// The API stamps updates to the second; with the fake's clock offset the trigger's "updated this very second"
		// guard cannot see the fake's time, so let the second change before the update.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const moved = await fake.simulateRankUpdate('Project 3');
		const after = await poll('keywordUpdated', idle.outcome.staticData);
		const lists = listRequests(after.requests);
		// ⌈10,000/250⌉ = 40 pages for a plain read; the trigger's pages overlap the one before by at least one keyword (so
		// that a keyword added or deleted between two requests cannot shift another out of sight): at most 10 % more.
		assert.ok(lists.length >= 40 && lists.length <= 44, `${lists.length} list requests`);
		assert.ok(lists.every((r) => r.path.includes('/groups/Project 3/')));
		assert.equal(after.requests.length, 1 + lists.length);
		assert.equal(after.outcome.items?.[0]?.length, moved);

		const idleAgain = await poll('keywordUpdated', after.outcome.staticData);
		assert.ok(idleAgain.requests.length <= 2, `idle poll: ${idleAgain.requests.length} requests`);
		// Past the seconds a poll's mark holds back (the last 2 of the API's clock), an idle poll is groups/active alone.
		await new Promise((resolve) => setTimeout(resolve, 2_100));
		const quiet = await poll('keywordUpdated', idleAgain.outcome.staticData);
		assert.equal(quiet.requests.length, 1, 'a quiet poll: groups/active alone');
	});

	it('New Alert: an idle poll costs at most 2 requests, then 1', async () => {
		const first = await poll('newAlert');
		const idle = await poll('newAlert', first.outcome.staticData);
		assert.ok(idle.requests.length <= 2, `idle poll: ${idle.requests.length} requests`);
		await new Promise((resolve) => setTimeout(resolve, 2_100));
		const quiet = await poll('newAlert', idle.outcome.staticData);
		assert.equal(quiet.requests.length, 1, 'a quiet poll: the first page of alerts alone');
	});
});

describe('benchmark request counts: one row per keyword per day, 1,000 keywords × 30 days', () => {
	const ROWS_PROJECT = 'Rank Export';
	let fake: MeasuredFake;
	before(async () => {
		fake = await new MeasuredFake().start();
		await fake.addProject(ROWS_PROJECT);
		await fake.addKeywords(ROWS_PROJECT, 1000);
	});
	after(async () => await fake?.stop());

	it('sends the list’s 5 requests and ⌈1,000/100⌉ = 10 charts (the naive way: 1,005), and gives a row per keyword per charted day (30,000)', async () => {
		await fake.reset();
		const day = (daysAgo: number) =>
			new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
		const run = await runKeywordCom(fake, {
			resource: 'rankingHistory',
			operation: 'getMany',
			project: rl(ROWS_PROJECT),
			returnAll: true,
			startDate: day(29),
			endDate: day(0),
		});
		const requests = await fake.requests();
		assert.equal(quietReadRequests(1000), 5);
		assert.equal(listRequests(requests).length, 5);
		const charts = requests.filter(
			(r) => r.method === 'POST' && r.path.endsWith('/keywords/chart'),
		);
		assert.equal(charts.length, 10);
		assert.equal(requests.length, 15);
		assert.ok(charts.every((r) => r.query.limit === '31'));
		// Each keyword is charted up to its last crawl: today, but in the first minutes of a UTC day.
		let rows = 0;
		for (const keyword of fake.api.state.keywords.values())
			if (keyword.container.name === ROWS_PROJECT && keyword.crawledAt !== null)
				rows += chartedDays(day(29), day(0), utcDay(keyword.crawledAt * 1000)).length;
		assert.ok(rows >= 29_000, `the keywords were crawled yesterday or today (${rows} rows)`);
		assert.equal(run.result.items.length, rows);
	});
});
