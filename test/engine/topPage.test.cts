/** Top Page resource: #21 GET /api/v2/groups/{project}/keywords/ranking-urls (Laravel paginator). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	CAFE,
	PROJECT,
	assertPaired,
	assertSingleRequest,
	enc,
	rl,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

const TOP_PAGE_KEYS = [
	'average_cpc',
	'average_previous_rank',
	'average_rank',
	'keywords',
	'ranking_url',
	'search_volume',
];

describe('topPage (engine)', () => {
	it('#21 topPage getMany with Limit 2: one request page=1 per_page=2, two records', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'topPage',
			operation: 'getMany',
			project: rl(PROJECT),
			limit: 2,
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes/keywords/ranking-urls',
			query: { page: '1', per_page: '2' },
			body: null,
		});
		assert.equal(items.length, 2);
		assertPaired(raw, 0);
		for (const item of items) assert.deepEqual(Object.keys(item).sort(), TOP_PAGE_KEYS);
		assert.ok((items[0].keywords as number) >= (items[1].keywords as number));
	});

	it('#21 topPage getMany Return All of a group: per_page=250, every page', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'topPage',
			operation: 'getMany',
			project: rl(PROJECT),
			group: rl('Shop & Deals'),
			returnAll: true,
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Shop%20%26%20Deals/keywords/ranking-urls',
			query: { page: '1', per_page: '250' },
		});
		assert.ok(items.length >= 1);
		for (const item of items) assert.match(String(item.ranking_url), /^https:\/\/acmeshoes\.com\//);
	});

	it('#21 topPage getMany of a non-ASCII project', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'topPage',
			operation: 'getMany',
			project: rl(CAFE),
			returnAll: true,
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${enc(CAFE)}/keywords/ranking-urls`,
			query: { page: '1', per_page: '250' },
		});
		assert.ok(items.length >= 1);
		assert.ok(items.every((item) => String(item.ranking_url).includes('cafe-zuerich.ch')));
	});
});
