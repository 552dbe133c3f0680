/** AI Visibility Domain resource: #23 list, #24 get. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertPaired, assertSingleRequest, rl, run, runOk, useFake } from './helpers.cjs';

const fake = useFake();

describe('aiDomain (engine)', () => {
	it('#23 aiDomain getMany lists every domain, one item each', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'aiDomain',
			operation: 'getMany',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/ai-visibility/domains',
			query: {},
			body: null,
		});
		assert.equal(items.length, 2);
		assertPaired(raw, 0);
		assert.deepEqual(
			items.map((item) => item.id),
			fake.api.state.aiDomains.map((domain) => domain.id),
		);
		assert.deepEqual(
			items.map((item) => item.domain),
			['acmeshoes.com', 'cafe-zuerich.ch'],
		);
		assert.equal(items[1].brand, 'Café Zürich');
		assert.deepEqual(Object.keys(items[0]), ['id', 'domain', 'brand']);
		const rawItems = (
			await runOk(fake, { resource: 'aiDomain', operation: 'getMany', output: 'raw' })
		).items;
		assert.equal(rawItems[0].searchTermsCount, 7, 'Raw keeps every field of the record');
	});

	it('#24 aiDomain get reads one domain by id (By ID mode)', async () => {
		const domain = fake.api.state.aiDomains[1];
		const { items, raw, requests } = await runOk(fake, {
			resource: 'aiDomain',
			operation: 'get',
			domainId: rl(domain.id, 'id'),
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domain.id}`,
			query: {},
			body: null,
		});
		assert.equal(items.length, 1);
		assertPaired(raw, 0);
		assert.equal(items[0].id, domain.id);
		assert.equal(items[0].domain, 'cafe-zuerich.ch');
		// Raw: the record as sent, with fields the document does not show.
		assert.deepEqual(
			(items[0].topics as Array<{ name: string }>).map((topic) => topic.name),
			['Kaffee', 'Brunch'],
		);
	});

	it('#24 aiDomain get from the list mode, and an unknown id reports the API 404', async () => {
		const domain = fake.api.state.aiDomains[0];
		const { items, requests } = await runOk(fake, {
			resource: 'aiDomain',
			operation: 'get',
			domainId: rl(domain.id, 'list'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domain.id}`,
		});
		assert.equal(items[0].domain, 'acmeshoes.com');
		const missing = await run(fake, {
			resource: 'aiDomain',
			operation: 'get',
			domainId: rl('does-not-exist', 'id'),
		});
		assert.equal(missing.requests.length, 1);
		assert.equal(missing.error?.httpCode, '404');
		assert.match(missing.error?.message ?? '', /does-not-exist/);
	});
});
