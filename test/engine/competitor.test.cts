/** Competitor resource: #15 GET /api/v2/metrics/{project}/competitors/{keyword_id}/history. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	CAFE,
	PROJECT,
	assertPaired,
	assertSingleRequest,
	enc,
	keywordIdsOf,
	rl,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

describe('competitor (engine)', () => {
	it('#15 competitor getHistory sends dateRange=FROM.TO and returns one item per day, newest first', async () => {
		const id = keywordIdsOf(fake, PROJECT)[0];
		const { items, raw, requests } = await runOk(fake, {
			resource: 'competitor',
			operation: 'getHistory',
			project: rl(PROJECT),
			keywordId: id,
			startDate: '2026-01-10',
			endDate: '2026-01-13',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/Acme%20Shoes/competitors/${id}/history`,
			query: { dateRange: '2026-01-10.2026-01-13' },
			body: null,
		});
		assert.deepEqual(
			items.map((item) => item.date),
			['Jan 13, 2026', 'Jan 12, 2026', 'Jan 11, 2026', 'Jan 10, 2026'],
		);
		assertPaired(raw, 0);
		for (const item of items) {
			assert.equal(typeof item.rank, 'number');
			const results = item.top_results as IDataObject[];
			assert.ok(results.length > 0 && results.length <= 10, 'Simplified: the top 10');
			assert.deepEqual(Object.keys(results[0]).sort(), ['resultType', 'title', 'url']);
		}
	});

	it('#15 competitor getHistory of a group keyword, a one-day range, dates given as ISO date-times', async () => {
		const id = keywordIdsOf(fake, `${PROJECT}[sub]Shop & Deals`)[1];
		const { items, requests } = await runOk(fake, {
			resource: 'competitor',
			operation: 'getHistory',
			project: rl(PROJECT),
			group: rl('Shop & Deals'),
			keywordId: id,
			startDate: '2026-01-14T00:00:00.000Z',
			endDate: '2026-01-14',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/Acme%20Shoes[sub]Shop%20%26%20Deals/competitors/${id}/history`,
			query: { dateRange: '2026-01-14.2026-01-14' },
		});
		assert.equal(items.length, 1);
		assert.equal(items[0].date, 'Jan 14, 2026');
	});

	it('#15 competitor getHistory on a non-ASCII project name', async () => {
		const id = keywordIdsOf(fake, CAFE)[0];
		const { items, requests } = await runOk(fake, {
			resource: 'competitor',
			operation: 'getHistory',
			project: rl(CAFE),
			keywordId: id,
			startDate: '2026-01-15',
			endDate: '2026-01-15',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/${enc(CAFE)}/competitors/${id}/history`,
		});
		assert.equal(items.length, 1);
	});
});
