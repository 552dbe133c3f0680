/** Alert resource: #20 GET /api/v2/alerts (paged by meta.pagination). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { assertPaired, assertSingleRequest, runOk, useFake } from './helpers.cjs';

const fake = useFake();

describe('alert (engine)', () => {
	it('#20 alert getMany with Limit 3: one request page=1 per_page=3, three simplified alerts newest first', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'alert',
			operation: 'getMany',
			limit: 3,
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/alerts',
			query: { page: '1', per_page: '3' },
			body: null,
		});
		assert.equal(items.length, 3);
		assertPaired(raw, 0);
		const created = items.map((item) => Date.parse(String(item.created_at)));
		assert.deepEqual(
			created,
			[...created].sort((a, b) => b - a),
		);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), [
				'id',
				'keyword',
				'project',
				'group',
				'region',
				'url',
				'previous_rank',
				'rank',
				'change',
				'created_at',
			]);
			assert.equal(item.change, (item.previous_rank as number) - (item.rank as number));
		}
	});

	it('#20 alert getMany Return All (raw records) gets every seeded alert with per_page=250', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'alert',
			operation: 'getMany',
			returnAll: true,
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/alerts',
			query: { page: '1', per_page: '250' },
		});
		assert.equal(items.length, fake.api.state.alerts.length);
		assert.equal(items.length, 12);
		for (const item of items) {
			assert.equal(item.type, 'alert');
			const attributes = item.attributes as IDataObject;
			assert.equal(typeof attributes.keyword_id, 'number');
			assert.equal(typeof attributes.prevrank, 'number');
		}
	});

	it('#20 alert getMany passes the options as last, sort_direction, sort_field, view_type', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'alert',
			operation: 'getMany',
			returnAll: true,
			options: { last: 2, sortDirection: 'asc', sortField: 'id', viewType: 'all' },
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/alerts',
			query: {
				last: '2',
				sort_direction: 'asc',
				sort_field: 'id',
				view_type: 'all',
				page: '1',
				per_page: '250',
			},
		});
		const since = Math.floor(Date.UTC(2026, 0, 15, 12) / 1000) - 2 * 86400;
		const expected = fake.api.state.alerts.filter((alert) => alert.createdAt >= since);
		assert.equal(items.length, expected.length);
		assert.ok(items.length > 0 && items.length < 12);
		const ids = items.map((item) => Number(item.id));
		assert.deepEqual(
			ids,
			[...ids].sort((a, b) => a - b),
			'ascending by id',
		);
	});
});
