/** AI Visibility Search Term resource: #25. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { assertPaired, assertSingleRequest, rl, runOk, useFake } from './helpers.cjs';

const fake = useFake();

describe('aiSearchTerm (engine)', () => {
	it('#25 aiSearchTerm getMany lists the search terms of a domain, simplified (topic name)', async () => {
		const domain = fake.api.state.aiDomains[0];
		const { items, raw, requests } = await runOk(fake, {
			resource: 'aiSearchTerm',
			operation: 'getMany',
			domainId: rl(domain.id, 'id'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domain.id}/search-terms`,
			query: {},
			body: null,
		});
		assert.equal(items.length, 7);
		assertPaired(raw, 0);
		assert.deepEqual(
			items.map((item) => item.term),
			domain.searchTerms.map((term) => term.term),
		);
		const first = items[0];
		assert.equal(first.topic, 'Running shoes');
		assert.equal(first.searchTermTopicRef, undefined);
		assert.deepEqual(first.engines, ['chatgpt_gui', 'google_ai_overview']);
		assert.equal(first.status, 'active');
		const orphan = items.find((item) => item.term === 'what shoes do ultrarunners wear')!;
		assert.equal(orphan.topic, null);
	});

	it('#25 aiSearchTerm getMany Output Raw keeps searchTermTopicRef', async () => {
		const domain = fake.api.state.aiDomains[1];
		const { items, requests } = await runOk(fake, {
			resource: 'aiSearchTerm',
			operation: 'getMany',
			domainId: rl(domain.id, 'list'),
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domain.id}/search-terms`,
		});
		assert.equal(items.length, 4);
		assert.deepEqual((items[0].searchTermTopicRef as IDataObject).name, 'Kaffee');
		assert.equal(items[0].region, 'ch');
	});
});
