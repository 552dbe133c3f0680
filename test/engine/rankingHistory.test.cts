/** Ranking History resource: #14 POST /api/v2/keywords/chart. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import type { RecordedRequest } from '../../dev/fake-api/index.cjs';
import { getProjectTags } from '../../nodes/shared/loadOptions';
import {
	FIXED_NOW,
	PROJECT,
	TOKEN,
	assertPaired,
	assertRequest,
	assertSingleRequest,
	keywordIdsOf,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

describe('rankingHistory (engine)', () => {
	it('#14 rankingHistory getChart posts the keyword ids with action=chart&limit=N; one simplified item per keyword', async () => {
		const ids = keywordIdsOf(fake, PROJECT).slice(0, 2);
		const { items, raw, requests } = await runOk(fake, {
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: ids.join(', '),
			days: 5,
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/keywords/chart',
			query: { action: 'chart', limit: '5' },
			body: { keyword_ids: ids.map(Number) },
		});
		assert.equal(items.length, 2);
		assertPaired(raw, 0);
		assert.deepEqual(
			items.map((item) => item.keyword_id),
			ids.map(Number),
		);
		const first = items[0];
		assert.equal(first.keyword, 'running shoes');
		assert.equal(first.domain, 'acmeshoes.com');
		assert.equal(first.project, PROJECT);
		assert.equal(first.region, 'google.com');
		assert.equal(first.language, 'en');
		assert.equal(first.days, 5);
		const history = first.history as IDataObject[];
		assert.equal(history.length, 5);
		assert.equal(history[0].date, '2026-01-15');
		assert.equal(history[4].date, '2026-01-11');
		assert.deepEqual(first.series, [{ name: 'acmeshoes.com', points: 5 }]);
	});

	it('#14 rankingHistory getChart Output Raw returns the positional chart records; default 30 days', async () => {
		const id = keywordIdsOf(fake, `${PROJECT}[sub]Blog`)[0];
		const { items, requests } = await runOk(fake, {
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: id,
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/keywords/chart',
			query: { action: 'chart', limit: '30' },
			body: { keyword_ids: [Number(id)] },
		});
		assert.equal(items.length, 1);
		assert.equal(items[0].kwid, Number(id));
		const parts = items[0].data as unknown[];
		assert.equal(parts.length, 5);
		assert.match(String(parts[2]), new RegExp(`\\|${PROJECT}\\[sub\\]Blog\\|`));
		assert.equal((parts[4] as IDataObject).days, 30);
	});

	it('#14 rankingHistory getChart takes 180 days and ids from an expression list', async () => {
		const ids = keywordIdsOf(fake, PROJECT).slice(3, 6);
		const { items, requests } = await runOk(
			fake,
			{
				resource: 'rankingHistory',
				operation: 'getChart',
				keywordIds: '={{ $json.ids }}',
				days: 180,
			},
			{ items: [{ json: { ids } }] },
		);
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/keywords/chart',
			query: { action: 'chart', limit: '180' },
			body: { keyword_ids: ids.map(Number) },
		});
		assert.equal(items.length, 3);
		assert.ok(items.every((item) => (item.history as unknown[]).length === 180));
	});

	it('#14 rankingHistory getChart of an unknown keyword id reports the API 404', async () => {
		const outcome = await run(fake, {
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: '987654321',
		});
		assert.equal(outcome.requests.length, 1);
		assert.equal(outcome.error?.httpCode, '404');
		assert.match(outcome.error?.message ?? '', /987654321/);
	});
});

/**
 * Ranking History → Get Many: the keyword list (#13), then the charts (#14) of the chosen keywords in chunks; one row
 * per keyword per day. The fake's clock (and Date header) is 2026-01-15; a keyword's history is set by hand so every
 * row is known.
 */
describe('rankingHistory getMany (engine): one row per keyword per day', () => {
	const rows = useFake();
	const base = { resource: 'rankingHistory', operation: 'getMany', project: rl(PROJECT) };
	const chartRequests = (requests: RecordedRequest[]) =>
		requests.filter((request) => request.rawPath === '/api/v2/keywords/chart');
	const listRequests = (requests: RecordedRequest[]) =>
		requests.filter((request) => request.method === 'GET');

	/** Sets the newest-first history of the keyword `kw` of PROJECT, crawled on 2026-01-15; returns its id. */
	function knownHistory(kw: string, history: number[]): string {
		const container = rows.api.state.findContainer(PROJECT);
		assert.ok(container);
		const keyword = container.keywordIds
			.map((id) => rows.api.state.keywords.get(id))
			.find((candidate) => candidate?.kw === kw);
		assert.ok(keyword, kw);
		keyword.history = history;
		keyword.crawledAt = Math.floor(FIXED_NOW / 1000) - 3600;
		// One crawl a day, the newest an hour ago.
		keyword.historyAt = history.map((_, daysAgo) => (keyword.crawledAt ?? 0) - daysAgo * 86_400);
		keyword.rankingUrl = 'https://acmeshoes.com/running/';
		return String(keyword.id);
	}

	it('exact rows of a known history: dates oldest first, out of the top results and NOT FOUND as null, change from the day before (outside = 101)', async () => {
		// 2026-01-15 back to 2026-01-09; 0 = outside the top results.
		const id = knownHistory('running shoes', [3, 0, 5, 7, 0, 12, 9]);
		const { items, requests, raw } = await runOk(rows, {
			...base,
			startDate: '2026-01-11',
			endDate: '2026-01-15',
			keywords: [id],
		});
		const row = (date: string, rank: number | null, previous: number | null, change: number) => ({
			date,
			keyword_id: id,
			keyword: 'running shoes',
			project: PROJECT,
			group: null,
			region: 'google.com',
			rank,
			previous_rank: previous,
			change,
			ranking_url: rank === null ? null : 'https://acmeshoes.com/running/',
		});
		assert.deepEqual(items, [
			row('2026-01-11', null, 12, 12 - 101),
			row('2026-01-12', 7, null, 101 - 7),
			row('2026-01-13', 5, 7, 2),
			row('2026-01-14', null, 5, 5 - 101),
			row('2026-01-15', 3, null, 101 - 3),
		]);
		assertPaired(raw, 0);
		// The list read once (one page), then one chart: back from the API's today to the day before the range.
		assert.equal(listRequests(requests).length, 1);
		assert.equal(requests.length, 2);
		assertRequest(chartRequests(requests)[0], {
			method: 'POST',
			rawPath: '/api/v2/keywords/chart',
			query: { action: 'chart', limit: '6' },
			body: { keyword_ids: [Number(id)] },
		});
	});

	it('the first day’s change is null when the chart cannot reach the day before (the range starts 179 days back)', async () => {
		const history = Array.from({ length: 200 }, (_, daysAgo) => 10 + (daysAgo % 5));
		const id = knownHistory('trail running shoes', history);
		const { items, requests } = await runOk(rows, {
			...base,
			startDate: '2025-07-20',
			endDate: '2025-07-21',
			keywords: ['Trail Running Shoes'],
		});
		assert.deepEqual(
			items.map((item) => [item.date, item.keyword_id, item.rank, item.previous_rank, item.change]),
			[
				['2025-07-20', id, history[179], null, null],
				['2025-07-21', id, history[178], history[179], history[179] - history[178]],
			],
		);
		assert.equal(chartRequests(requests)[0].query.limit, '180');
	});

	it('tags and keyword texts choose the keywords; empty dates mean the API’s last 30 days; Raw and Selected Fields', async () => {
		const brand = await runOk(rows, { ...base, tags: ['brand'], returnAll: true });
		const container = rows.api.state.findContainer(PROJECT);
		assert.ok(container);
		const brandIds = container.keywordIds
			.filter((id) => rows.api.state.keywords.get(id)?.tags.includes('Brand'))
			.map(String);
		assert.equal(brandIds.length, 2);
		assert.deepEqual(chartRequests(brand.requests)[0].body, { keyword_ids: brandIds.map(Number) });
		assert.equal(chartRequests(brand.requests)[0].query.limit, '31');
		assert.equal(brand.items.length, 2 * 30);
		assert.deepEqual(
			[...new Set(brand.items.map((item) => item.keyword_id))],
			brandIds,
			'keyword by keyword, in the list’s order',
		);
		assert.equal(brand.items[0].date, '2025-12-17');
		assert.equal(brand.items[29].date, '2026-01-15');

		const range = { startDate: '2026-01-14', endDate: '2026-01-15', keywords: 'acme shoes' };
		const rawRows = await runOk(rows, { ...base, ...range, output: 'raw' });
		assert.equal(rawRows.items.length, 2);
		for (const item of rawRows.items) {
			assert.deepEqual(Object.keys(item), ['kwid', 'date', 'rank', 'rankingurl']);
			assert.equal(String(item.kwid), brandIds[0]);
		}
		const selected = await runOk(rows, {
			...base,
			...range,
			output: 'selected',
			fields: ['date', 'keyword', 'ranking_url', 'language'],
		});
		assert.deepEqual(Object.keys(selected.items[0]), [
			'date',
			'keyword',
			'ranking_url',
			'language',
		]);
		assert.equal(selected.items[1].keyword, 'acme shoes');
		assert.equal(selected.items[1].language, 'en');
	});

	it('Limit charts only the keywords the rows need', async () => {
		const { items, requests } = await runOk(rows, {
			...base,
			startDate: '2026-01-13',
			endDate: '2026-01-15',
			limit: 4,
		});
		assert.equal(items.length, 4);
		const charts = chartRequests(requests);
		// 4 rows of 3 days: 2 keywords first, and no more were needed.
		assert.equal(charts.length, 1);
		assert.equal((charts[0].body as { keyword_ids: number[] }).keyword_ids.length, 2);
	});

	it('the keywords go in chunks of Keywords per Request, several at a time; every keyword gets its rows', async () => {
		const all = keywordIdsOf(rows, PROJECT);
		const { items, requests } = await runOk(rows, {
			...base,
			startDate: '2026-01-15',
			endDate: '2026-01-15',
			returnAll: true,
			options: { chunkSize: 4 },
		});
		const charts = chartRequests(requests);
		assert.equal(charts.length, Math.ceil(all.length / 4));
		const sent = charts.flatMap((chart) => (chart.body as { keyword_ids: number[] }).keyword_ids);
		assert.deepEqual([...sent].sort(), all.map(Number).sort());
		assert.deepEqual(
			items.map((item) => item.keyword_id),
			all,
		);
	});

	for (const over of ['serve-first', 'reject'] as const) {
		it(`an API that charts fewer keywords a request than asked (${over}) is followed: every keyword, no request above its cap after it showed`, async () => {
			const all = keywordIdsOf(rows, PROJECT);
			rows.api.setBehaviour({ chartMaxKeywords: 3, chartOverCap: over });
			try {
				const { items, requests } = await runOk(rows, {
					...base,
					startDate: '2026-01-15',
					endDate: '2026-01-15',
					returnAll: true,
					options: { chunkSize: 8, concurrency: 1 },
				});
				assert.deepEqual(
					items.map((item) => item.keyword_id),
					all,
				);
				const sizes = chartRequests(requests).map(
					(chart) => (chart.body as { keyword_ids: number[] }).keyword_ids.length,
				);
				assert.equal(sizes[0], 8);
				// serve-first: 3 served, the rest asked in threes. reject: halved to 4 (refused), then 2.
				const after = over === 'serve-first' ? 3 : 2;
				assert.ok(
					sizes.slice(over === 'serve-first' ? 1 : 2).every((size) => size <= after),
					`sizes ${sizes.join(', ')}`,
				);
				const expected =
					over === 'serve-first'
						? 1 + Math.ceil((all.length - 3) / 3)
						: 2 + Math.ceil(all.length / 2);
				assert.equal(sizes.length, expected, `sizes ${sizes.join(', ')}`);
			} finally {
				rows.api.setBehaviour({ chartMaxKeywords: null, chartOverCap: 'serve-first' });
			}
		});
	}

	it('bad input sends nothing: not a date, start after end, more than 180 days, Keywords per Request out of range', async () => {
		for (const [parameters, message] of [
			[{ startDate: '2026-02-30' }, /Start Date.*not a valid date/],
			[{ startDate: '2026-01-15', endDate: '2026-01-14' }, /Start Date.*after the End Date/],
			[{ startDate: '2025-01-01', endDate: '2026-01-15' }, /at most 180/],
			[{ options: { chunkSize: 0 } }, /Keywords per Request/],
		] as const) {
			const outcome = await run(rows, { ...base, ...parameters });
			assert.match(outcome.error?.message ?? '', message);
			assert.equal(outcome.requests.length, 0, JSON.stringify(parameters));
		}
	});

	it('a range beyond the API’s 180 days or an unknown keyword: the list is read, no chart is asked', async () => {
		const back = await run(rows, { ...base, startDate: '2025-07-19', endDate: '2025-07-20' });
		assert.match(back.error?.message ?? '', /2025-07-19 is more than 180 days back.*2025-07-20/);
		assert.equal(chartRequests(back.requests).length, 0);
		const unknown = await run(rows, { ...base, keywords: ['no such keyword'] });
		assert.match(unknown.error?.message ?? '', /Keywords: "no such keyword" is neither/);
		assert.equal(chartRequests(unknown.requests).length, 0);
	});
});

describe('the Tags list of Ranking History → Get Many (loadOptions getProjectTags)', () => {
	const tagsFake = useFake();
	/** What n8n gives a loadOptions method, with its HTTP helper answered by the fake over real HTTP. */
	const context = (project: unknown) =>
		({
			getCurrentNodeParameter: (name: string) => (name === 'project' ? project : undefined),
			getCredentials: async () => ({ apiToken: TOKEN, baseUrl: tagsFake.baseUrl }),
			getNode: () => ({ name: 'Keyword.com', type: 'keywordCom', typeVersion: 1, parameters: {} }),
			helpers: {
				httpRequestWithAuthentication: async (
					_type: string,
					options: { method: string; url: string; baseURL: string },
				) => {
					const response = await fetch(`${options.baseURL}${options.url}`, {
						method: options.method,
						headers: { authorization: `Bearer ${TOKEN}` },
					});
					return {
						statusCode: response.status,
						body: await response.text(),
						headers: Object.fromEntries(response.headers),
					};
				},
			},
		}) as unknown as ILoadOptionsFunctions;

	it('lists the chosen project’s tag names, sorted, after one request; nothing before a project is chosen', async () => {
		tagsFake.api.clearRequests();
		const options = await getProjectTags.call(context(rl(PROJECT)));
		const container = tagsFake.api.state.findContainer(PROJECT);
		assert.ok(container);
		const expected = [...container.tags.values()]
			.filter((tag) => tag.count > 0)
			.map((tag) => tag.name)
			.sort((a, b) => a.localeCompare(b));
		assert.ok(expected.length >= 5);
		assert.deepEqual(
			options.map((option) => option.value),
			expected,
		);
		assert.deepEqual(
			tagsFake.api.requests.map((request) => `${request.method} ${request.rawPath}`),
			['GET /api/v2/groups/Acme%20Shoes'],
		);
		assert.deepEqual(await getProjectTags.call(context(rl(''))), []);
		assert.equal(tagsFake.api.requests.length, 1);
	});
});
