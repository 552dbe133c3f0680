/**
 * Paged lists through the engine: keywords #13 and alerts #20 (`meta.pagination`) and top pages #21 (Laravel
 * `meta.last_page` + `links.next`). Top pages: Return All asks per_page=250 and reads ⌈n/250⌉ pages. Keywords and
 * alerts (lists in an order): page 1 at per_page=250, then windows that each hold the last record read (sizes 125–250,
 * shared/paging/), so a list that changes between two requests loses and repeats nothing. Limit stops early.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest } from '../../dev/fake-api/index.cjs';
import { quietReadWindows } from '../../dev/quiet-read.cjs';
import {
	TOKEN,
	assertOperationError,
	assertRequest,
	enc,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

const BULK = 'Bulk Project';
const KEYWORD_COUNT = 620;
const PAGES_PROJECT = 'Pages & Co';
const EXTRA_ALERTS = 600;

let bulkIds: string[] = [];

/** `{page, per_page}` of each request, as numbers. */
const pagesOf = (requests: RecordedRequest[]) =>
	requests.map((request) => ({
		page: Number(request.query.page),
		per_page: Number(request.query.per_page),
	}));

function assertPages(
	requests: RecordedRequest[],
	rawPath: string,
	perPage: number,
	pages: number[],
	extraQuery: Record<string, string> = {},
) {
	assert.equal(
		requests.length,
		pages.length,
		`requests: ${requests.map((request) => request.rawQuery).join(' | ')}`,
	);
	for (const request of requests) {
		assertRequest(request, { method: 'GET', rawPath, body: null });
		assert.deepEqual(
			{ ...request.query },
			{ ...extraQuery, page: request.query.page, per_page: String(perPage) },
		);
	}
	assert.equal(
		Number(requests[0].query.page),
		pages[0],
		'page 1 first: it tells how many pages there are',
	);
	assert.deepEqual(
		pagesOf(requests)
			.map((entry) => entry.page)
			.sort((a, b) => a - b),
		pages,
	);
}

/** The windows an ordered list is read in while it does not change, up to `wanted` records (paging/collect.ts). */
function quietWindows(
	total: number,
	wanted = Number.POSITIVE_INFINITY,
): Array<{ page: number; per_page: number }> {
	return quietReadWindows(Math.min(total, wanted)).map((window) => ({
		page: window.page,
		per_page: window.perPage,
	}));
}

/** The requests of an ordered read: the quiet windows (page 1 first), each with the same extra query. */
function assertWindows(
	requests: RecordedRequest[],
	rawPath: string,
	windows: Array<{ page: number; per_page: number }>,
	extraQuery: Record<string, string> = {},
) {
	assert.equal(
		requests.length,
		windows.length,
		`requests: ${requests.map((request) => request.rawQuery).join(' | ')}`,
	);
	for (const request of requests) {
		assertRequest(request, { method: 'GET', rawPath, body: null });
		assert.deepEqual(
			{ ...request.query },
			{ ...extraQuery, page: request.query.page, per_page: request.query.per_page },
		);
	}
	assert.deepEqual(
		pagesOf(requests)[0],
		{ page: 1, per_page: 250 },
		'page 1 first: it tells the order and the total',
	);
	const byPage = (a: { page: number }, b: { page: number }) => a.page - b.page;
	assert.deepEqual(pagesOf(requests).sort(byPage), [...windows].sort(byPage));
}

/** What the fake serves for a list, read straight over HTTP (not through the node). */
async function fetchAll(path: string): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const response = await fetch(
			`${fake.baseUrl}${path}${path.includes('?') ? '&' : '?'}per_page=250&page=${page}`,
			{
				headers: { authorization: `Bearer ${TOKEN}` },
			},
		);
		const body = (await response.json()) as { data: IDataObject[] };
		records.push(...body.data);
		if (body.data.length < 250) return records;
	}
}

const keywordList = (extra: IDataObject = {}) => ({
	resource: 'keyword',
	operation: 'getMany',
	project: rl(BULK),
	...extra,
});

describe('pagination (engine)', () => {
	before(() => {
		bulkIds = fake.api.addKeywords(BULK, KEYWORD_COUNT);
		assert.equal(bulkIds.length, KEYWORD_COUNT);
	});

	describe('#13 keywords', () => {
		it(`#13 keyword getMany Return All reads ${KEYWORD_COUNT} keywords in 3 overlapping windows (250, 249, 248), in id order`, async () => {
			const { items, requests } = await runOk(fake, keywordList({ returnAll: true }));
			assert.deepEqual(quietWindows(KEYWORD_COUNT), [
				{ page: 1, per_page: 250 },
				{ page: 2, per_page: 249 },
				{ page: 3, per_page: 248 },
			]);
			assertWindows(
				requests,
				'/api/v2/groups/Bulk%20Project/keywords/',
				quietWindows(KEYWORD_COUNT),
			);
			assert.equal(items.length, KEYWORD_COUNT);
			assert.deepEqual(
				items.map((item) => item.id),
				bulkIds,
			);
			assert.ok(items.every((item) => item.project === BULK && item.group === null));
		});

		it('#13 keyword getMany Limit 30 sends exactly one request with per_page=30', async () => {
			const { items, requests } = await runOk(fake, keywordList({ limit: 30 }));
			assertPages(requests, '/api/v2/groups/Bulk%20Project/keywords/', 30, [1]);
			assert.equal(items.length, 30);
			assert.deepEqual(
				items.map((item) => item.id),
				bulkIds.slice(0, 30),
			);
		});

		it('#13 keyword getMany Limit 250 is one full page, one request', async () => {
			const { items, requests } = await runOk(fake, keywordList({ limit: 250 }));
			assertPages(requests, '/api/v2/groups/Bulk%20Project/keywords/', 250, [1]);
			assert.deepEqual(
				items.map((item) => item.id),
				bulkIds.slice(0, 250),
			);
		});

		it('#13 keyword getMany Limit 260 sends two requests (250, then 249 from the 250th on) and returns 260 items', async () => {
			const { items, requests } = await runOk(fake, keywordList({ limit: 260 }));
			assertWindows(
				requests,
				'/api/v2/groups/Bulk%20Project/keywords/',
				quietWindows(KEYWORD_COUNT, 260),
			);
			assert.equal(requests.length, 2);
			assert.equal(items.length, 260);
			assert.deepEqual(
				items.map((item) => item.id),
				bulkIds.slice(0, 260),
			);
		});

		it('#13 keyword getMany Limit above the total reads every page once and returns everything', async () => {
			const { items, requests } = await runOk(fake, keywordList({ limit: 5000 }));
			assertWindows(
				requests,
				'/api/v2/groups/Bulk%20Project/keywords/',
				quietWindows(KEYWORD_COUNT),
			);
			assert.equal(items.length, KEYWORD_COUNT);
		});

		it('#13 keyword getMany keeps the date filter on every page', async () => {
			const { items, requests } = await runOk(
				fake,
				keywordList({ returnAll: true, options: { date: '2026-01-14' } }),
			);
			assertWindows(
				requests,
				'/api/v2/groups/Bulk%20Project/keywords/',
				quietWindows(KEYWORD_COUNT),
				{ date: '2026-01-14' },
			);
			assert.equal(items.length, KEYWORD_COUNT);
		});

		it('#13 keyword getMany Concurrency 1 and 4 give identical output; 1 reads the pages in order', async () => {
			const sequential = await runOk(
				fake,
				keywordList({ returnAll: true, options: { concurrency: 1 } }),
			);
			assert.deepEqual(pagesOf(sequential.requests), quietWindows(KEYWORD_COUNT));
			const parallel = await runOk(
				fake,
				keywordList({ returnAll: true, options: { concurrency: 4 } }),
			);
			assertWindows(
				parallel.requests,
				'/api/v2/groups/Bulk%20Project/keywords/',
				quietWindows(KEYWORD_COUNT),
			);
			assert.deepEqual(parallel.items, sequential.items);
			assert.equal(parallel.items.length, KEYWORD_COUNT);
			// Slow the fake down so the parallel pages really overlap; the order of the output must not change.
			fake.api.setLatency(15);
			try {
				const slow = await runOk(
					fake,
					keywordList({ returnAll: true, options: { concurrency: 4 } }),
				);
				assert.deepEqual(slow.items, sequential.items);
			} finally {
				fake.api.setLatency(0);
			}
		});

		it('#13 keyword getMany with Limit 0 (from an expression) sends no request', async () => {
			const outcome = await run(fake, keywordList({ limit: '={{ 0 }}' }));
			assert.equal(
				outcome.requests.length,
				0,
				`Limit 0 must not ask the API for a page: ${outcome.requests.map((r) => r.rawQuery).join(' | ')}`,
			);
			if (outcome.error) {
				assertOperationError(outcome.error);
				assert.match(outcome.error.message, /Limit/);
			} else assert.equal(outcome.items.length, 0);
		});
	});

	describe('#20 alerts', () => {
		let expectedIds: string[] = [];
		before(() => {
			fake.api.addAlerts(EXTRA_ALERTS, { category: BULK });
			expectedIds = [...fake.api.state.alerts]
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
				.map((alert) => String(alert.id));
			assert.equal(expectedIds.length, EXTRA_ALERTS + 12);
		});

		it('#20 alert getMany Return All reads every alert in overlapping windows (250, 249, 248), newest first', async () => {
			const { items, requests } = await runOk(fake, {
				resource: 'alert',
				operation: 'getMany',
				returnAll: true,
			});
			assertWindows(requests, '/api/v2/alerts', quietWindows(expectedIds.length));
			assert.equal(requests.length, 3);
			assert.deepEqual(
				items.map((item) => item.id),
				expectedIds,
			);
		});

		it('#20 alert getMany Limit 30 is one request per_page=30; Limit 260 two requests and 260 items', async () => {
			const thirty = await runOk(fake, { resource: 'alert', operation: 'getMany', limit: 30 });
			assertPages(thirty.requests, '/api/v2/alerts', 30, [1]);
			assert.deepEqual(
				thirty.items.map((item) => item.id),
				expectedIds.slice(0, 30),
			);
			const more = await runOk(fake, { resource: 'alert', operation: 'getMany', limit: 260 });
			assertWindows(more.requests, '/api/v2/alerts', quietWindows(expectedIds.length, 260));
			assert.deepEqual(
				more.items.map((item) => item.id),
				expectedIds.slice(0, 260),
			);
		});

		it('#20 alert getMany keeps its filters on every page; Concurrency 1 vs 4 identical', async () => {
			const options = { sortDirection: 'asc', sortField: 'id' };
			const sequential = await runOk(fake, {
				resource: 'alert',
				operation: 'getMany',
				returnAll: true,
				options: { ...options, concurrency: 1 },
			});
			assertWindows(sequential.requests, '/api/v2/alerts', quietWindows(expectedIds.length), {
				sort_direction: 'asc',
				sort_field: 'id',
			});
			assert.deepEqual(pagesOf(sequential.requests), quietWindows(expectedIds.length));
			const parallel = await runOk(fake, {
				resource: 'alert',
				operation: 'getMany',
				returnAll: true,
				options: { ...options, concurrency: 4 },
			});
			assert.deepEqual(parallel.items, sequential.items);
			assert.deepEqual(
				sequential.items.map((item) => item.id),
				[...expectedIds].sort((a, b) => Number(a) - Number(b)),
			);
		});
	});

	describe('#21 top pages', () => {
		let expectedUrls: string[] = [];
		before(async () => {
			fake.api.addKeywords(
				PAGES_PROJECT,
				Array.from({ length: 700 }, (_, index) => ({
					kw: `page keyword ${index}`,
					url: `https://pages.example/p${index}/`,
				})),
			);
			const records = await fetchAll(`/api/v2/groups/${enc(PAGES_PROJECT)}/keywords/ranking-urls`);
			expectedUrls = records.map((record) => String(record.current_ranking_url));
			assert.ok(
				expectedUrls.length > 500,
				`need more than two pages of top pages, the fake serves ${expectedUrls.length}`,
			);
		});

		it('#21 topPage getMany Return All follows the Laravel paginator: ⌈n/250⌉ requests of per_page=250', async () => {
			const { items, requests } = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES_PROJECT),
				returnAll: true,
			});
			const pages = Array.from(
				{ length: Math.ceil(expectedUrls.length / 250) },
				(_, index) => index + 1,
			);
			assertPages(requests, '/api/v2/groups/Pages%20%26%20Co/keywords/ranking-urls', 250, pages);
			assert.deepEqual(
				items.map((item) => item.ranking_url),
				expectedUrls,
			);
		});

		it('#21 topPage getMany Limit 30 is one request per_page=30; Limit 260 two requests and 260 items', async () => {
			const thirty = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES_PROJECT),
				limit: 30,
			});
			assertPages(thirty.requests, '/api/v2/groups/Pages%20%26%20Co/keywords/ranking-urls', 30, [
				1,
			]);
			assert.deepEqual(
				thirty.items.map((item) => item.ranking_url),
				expectedUrls.slice(0, 30),
			);
			const more = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES_PROJECT),
				limit: 260,
			});
			assertPages(
				more.requests,
				'/api/v2/groups/Pages%20%26%20Co/keywords/ranking-urls',
				250,
				[1, 2],
			);
			assert.deepEqual(
				more.items.map((item) => item.ranking_url),
				expectedUrls.slice(0, 260),
			);
		});

		it('#21 topPage getMany Concurrency 1 vs 4 gives identical output', async () => {
			const sequential = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES_PROJECT),
				returnAll: true,
				options: { concurrency: 1 },
			});
			const parallel = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES_PROJECT),
				returnAll: true,
				options: { concurrency: 4 },
			});
			assert.deepEqual(parallel.items, sequential.items);
			assert.equal(parallel.items.length, expectedUrls.length);
		});
	});
});
