/** Ranking History resource: #14 POST /api/v2/keywords/chart. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	PROJECT,
	assertPaired,
	assertSingleRequest,
	keywordIdsOf,
	run,
	runOk,
	useFake,
} from './helpers';

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

	it('#14 rankingHistory getChart raw (Simplify off) returns the positional chart records; default 30 days', async () => {
		const id = keywordIdsOf(fake, `${PROJECT}[sub]Blog`)[0];
		const { items, requests } = await runOk(fake, {
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: id,
			simplify: false,
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
