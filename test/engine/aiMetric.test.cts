/** AI Visibility Metric resource: #26 dashboard, #27 sentiment, #28 citations. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { assertPaired, assertSingleRequest, rl, runOk, useFake } from './helpers.cjs';

const fake = useFake();

const domainId = () => fake.api.state.aiDomains[0].id;

describe('aiMetric (engine)', () => {
	it('#26 aiMetric getDashboard without filters, Output Raw: no query, one item with the three blocks', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getDashboard',
			domainId: rl(domainId(), 'id'),
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domainId()}/metrics`,
			query: {},
			body: null,
		});
		assert.equal(requests[0].rawQuery, '');
		assert.equal(items.length, 1);
		assertPaired(raw, 0);
		assert.deepEqual(Object.keys(items[0]).sort(), [
			'competitorMetrics',
			'competitorTimeSeriesData',
			'ownBrandMetrics',
		]);
		const own = items[0].ownBrandMetrics as IDataObject;
		assert.equal(typeof own.visibilityScore, 'number');
		const daily = (own.historicalData as IDataObject).daily as IDataObject;
		assert.equal((daily.timestamps as unknown[]).length, 30, 'default 30 days, daily');
	});

	it('#26 aiMetric getDashboard sends every filter: topics[], search_terms[], engine[], timeframe, period_offset, aggregation', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getDashboard',
			domainId: rl(domainId(), 'list'),
			output: 'raw',
			filters: {
				topics: ['Running shoes', 'Brand'],
				searchTerms: ['best trail running shoes'],
				engines: ['chatgpt_gui'],
				timeframe: '7d',
				periodOffset: -1,
				aggregation: 'weekly',
			},
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domainId()}/metrics`,
			query: {
				'topics[]': ['Running shoes', 'Brand'],
				'search_terms[]': ['best trail running shoes'],
				'engine[]': ['chatgpt_gui'],
				timeframe: '7d',
				period_offset: '-1',
				aggregation: 'weekly',
			},
		});
		assert.match(requests[0].rawQuery, /topics%5B%5D=Running(%20|\+)shoes&topics%5B%5D=Brand/);
		assert.equal(items.length, 1);
		const own = items[0].ownBrandMetrics as IDataObject;
		const historical = own.historicalData as Record<string, IDataObject>;
		assert.ok((historical.weekly.timestamps as unknown[]).length > 0);
		assert.equal((historical.daily.timestamps as unknown[]).length, 0);
	});

	it('#26 aiMetric getDashboard accepts a bare number of days as timeframe', async () => {
		const { requests } = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getDashboard',
			domainId: rl(domainId(), 'id'),
			filters: { timeframe: '14', periodOffset: 0 },
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domainId()}/metrics`,
			query: { timeframe: '14', period_offset: '0' },
		});
	});

	it('#27 aiMetric getSentiment returns the whole report as one item; filters as topics[] and search_terms[]', async () => {
		const plain = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getSentiment',
			domainId: rl(domainId(), 'id'),
		});
		assertSingleRequest(plain.requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domainId()}/metrics/sentiment`,
			query: {},
			body: null,
		});
		assert.equal(plain.items.length, 1);
		const data = plain.items[0].data as IDataObject;
		assert.equal((data.brandSentiment as IDataObject).name, 'Acme Shoes');
		assert.ok(Array.isArray(data.byEngine));
		assert.equal(plain.items[0].links, undefined);

		const filtered = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getSentiment',
			domainId: rl(domainId(), 'id'),
			filters: {
				topics: ['Hiking'],
				searchTerms: ['acme shoes vs nike', 'best running shoes for beginners'],
			},
		});
		assertSingleRequest(filtered.requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${domainId()}/metrics/sentiment`,
			query: {
				'topics[]': ['Hiking'],
				'search_terms[]': ['acme shoes vs nike', 'best running shoes for beginners'],
			},
		});
		const meta = filtered.items[0].meta as IDataObject;
		assert.deepEqual(meta.filters, {
			topics: ['Hiking'],
			search_terms: ['acme shoes vs nike', 'best running shoes for beginners'],
		});
	});

	it('#28 aiMetric getCitations returns the whole report as one item; filters as topics[] and search_terms[]', async () => {
		const other = fake.api.state.aiDomains[1].id;
		const plain = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getCitations',
			domainId: rl(other, 'id'),
		});
		assertSingleRequest(plain.requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${other}/metrics/citations`,
			query: {},
			body: null,
		});
		assert.equal(plain.items.length, 1);
		const data = plain.items[0].data as IDataObject;
		assert.equal(typeof data.totalCitations, 'number');
		assert.ok(
			(data.domains as IDataObject[]).some(
				(domain) => domain.domain === 'cafe-zuerich.ch' && domain.isOwnDomain === true,
			),
		);

		const filtered = await runOk(fake, {
			resource: 'aiMetric',
			operation: 'getCitations',
			domainId: rl(other, 'id'),
			filters: { topics: ['Kaffee', 'Brunch'], searchTerms: ['specialty coffee zurich'] },
		});
		assertSingleRequest(filtered.requests, {
			method: 'GET',
			rawPath: `/api/v2/ai-visibility/domains/${other}/metrics/citations`,
			query: { 'topics[]': ['Kaffee', 'Brunch'], 'search_terms[]': ['specialty coffee zurich'] },
		});
		assert.equal((filtered.items[0].meta as IDataObject).searchTermsCount, 1);
	});
});
