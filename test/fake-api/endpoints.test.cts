/**
 * A structural check of every endpoint against the record shapes of the specification. Each test's title names the
 * endpoints it checks (`#13`); the last test holds that every endpoint an operation of the node calls (the operation
 * registry, test/operations) has one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { OPERATIONS } from '../operations/index.cjs';
import { enc, startFake, TOKEN, type Fake } from './helpers.cjs';

const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SQL_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const GROUP_ATTRIBUTES = [
	'project_id',
	'auth',
	'name',
	'keywords_count',
	'tags_count',
	'tags',
	'keywords_last_updated_at',
	'shortkey',
	'notes_count',
	'updated_at',
	'crawled_at',
	'password',
	'company_name',
	'company_desc',
	'company_link',
	'company_logo',
	'sov_view_key',
	'url',
	'currency_code',
	'project_overview_settings',
];
const LIST_KEYWORD_ATTRIBUTES = [
	'project_id',
	'category',
	'url',
	'auth',
	'kw',
	'source',
	'start',
	'notes',
	'tags_count',
	'tags',
	'tag',
	'region',
	'language',
	'in_featured',
	'has_featured',
	'has_featured_url',
	'ignore_local',
	'ignore_featured',
	'exact',
	'type',
	'gmb',
	'near',
	'isfav',
	'status',
	'clicks',
	'impressions',
	'ctr',
	'ms',
	'competition',
	'cpc',
	'gpage',
	'features',
	'grank',
	'grank_int',
	'brank',
	'yrank',
	'best',
	'seocomp',
	'in_local_pack',
	'rankingurl',
	'grankhistory',
	'trends',
	'search_intents',
	'updated_at',
	'crawled_at',
];
const SINGLE_ONLY = ['serp_features', 'included_in_sov', 'currency_symbol', 'is_paginated'];
const ACCOUNT_ATTRIBUTES = [
	'user_is_restricted',
	'onboarding',
	'verified',
	'user_id',
	'support_hash',
	'support_user_id',
	'name',
	'addon_master_email',
	'addon_master_disabled',
	'addon_restricted',
	'api_token',
	'showall',
	'sharedcountapi',
	'access_level',
	'gsc_connected',
	'used',
	'package',
	'refreshes',
	'daily_added',
	'contactnum',
	'contactnum_code',
	'country',
	'countrystate',
	'last_login_at',
	'created_at',
	'created_at_ts',
	'disabled',
	'is_not_payment_provider_user',
	'is_free_plan',
	'currency_code',
	'serp_and_ranking_history_limit_date',
	'trial_is_used',
	'package_info',
];
const PERIODS = ['daily', 'weekly', 'monthly', 'semester', 'yearly', 'life'];
const AGGS = ['hourly', 'daily', 'weekly', 'monthly'];
const SERIES_KEYS = [
	'visibilityScore',
	'sentiment',
	'mentions',
	'citations',
	'avgPosition',
	'detectionRate',
	'top3',
	'timestamps',
	'brandNotFound',
];

function hasKeys(obj: Record<string, unknown>, keys: string[], what: string): void {
	for (const k of keys) assert.ok(k in obj, `${what} lacks "${k}"`);
}

function checkGroupRecord(rec: any, opts: { tagCounts: boolean }): void {
	assert.equal(rec.type, 'group');
	assert.equal(typeof rec.id, 'string');
	hasKeys(rec.attributes, GROUP_ATTRIBUTES, `group ${rec.id}`);
	const a = rec.attributes;
	assert.ok(Number.isInteger(a.project_id));
	assert.ok(
		Array.isArray(a.keywords_count)
			? a.keywords_count.length === 0
			: Number.isInteger(a.keywords_count.ACTIVE),
	);
	assert.ok(a.keywords_last_updated_at === null || ISO_OFFSET.test(a.keywords_last_updated_at));
	assert.equal(a.tags_count, a.tags.length);
	for (const t of a.tags) {
		hasKeys(t, ['id', 'project_id', 'name', 'created_at', 'updated_at'], 'tag');
		assert.match(t.created_at, SQL_DATE);
		assert.equal('keywords_count' in t, opts.tagCounts);
	}
	assert.deepEqual(
		Object.entries(a.project_overview_settings).map(([k, v]: [string, any]) => [k, v.order]),
		[
			'project_metrics',
			'keywords_in_top',
			'sov',
			'visibility',
			'estimated_traffic',
			'top_pages',
			'organic_traffic_acquisition',
			'serp_feature_performance',
			'keywords_by_intent',
			'average_rank',
		].map((k, i) => [k, i]),
	);
}

function checkKeywordRecord(rec: any, mode: 'list' | 'single'): void {
	assert.equal(rec.type, 'keyword');
	assert.match(rec.id, /^\d+$/);
	const a = rec.attributes;
	hasKeys(
		a,
		LIST_KEYWORD_ATTRIBUTES.filter((k) => mode === 'list' || k !== 'features'),
		`keyword ${rec.id}`,
	);
	if (mode === 'single') hasKeys(a, SINGLE_ONLY, `single keyword ${rec.id}`);
	else for (const k of SINGLE_ONLY) assert.ok(!(k in a), `list record has ${k}`);
	assert.ok(['se', 'sem', 'maps'].includes(a.type));
	assert.ok(Number.isInteger(a.grank_int));
	if (a.grankhistory !== null) {
		assert.ok(Array.isArray(a.grankhistory));
		assert.equal(a.grankhistory[0], a.grank_int, 'grankhistory[0] is the current rank');
	}
	assert.equal(a.grank === null ? 0 : a.grank, a.grank_int);
	hasKeys(a.trends, ['day', 'week', 'month', 'life'], 'trends');
	assert.ok(a.crawled_at === null || Number.isInteger(a.crawled_at));
	assert.match(a.updated_at, ISO);
	for (const t of a.tags) assert.deepEqual(t.pivot, { keyword_id: Number(rec.id), tag_id: t.id });
	if (a.grank !== null) assert.ok(a.best !== null && a.best <= a.grank);
}

describe('fake API: every endpoint answers the documented shape', () => {
	let f: Fake;
	let acme: any;
	let kwId: string;
	let domainId: string;
	before(async () => {
		f = await startFake();
		domainId = f.api.state.aiDomains[0].id;
	});
	after(() => f.stop());

	it('#1 GET /groups/active: projects and groups with tag counts', async () => {
		const r = await f.get('/api/v2/groups/active');
		assert.equal(r.status, 200);
		const ids = r.json.data.map((g: any) => g.id);
		assert.deepEqual(ids, [
			'Acme Shoes',
			'Acme Shoes[sub]Blog',
			'Acme Shoes[sub]Shop & Deals',
			'Café Zürich',
		]);
		for (const g of r.json.data) checkGroupRecord(g, { tagCounts: true });
		acme = r.json.data[0];
		assert.ok(acme.attributes.keywords_count.ACTIVE > 5);
	});

	it('#2 GET /groups/{name}: tags without keywords_count', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Café Zürich')}`);
		assert.equal(r.status, 200);
		checkGroupRecord(r.json.data, { tagCounts: false });
		assert.equal(r.json.data.attributes.currency_code, 'CHF');
	});

	it('#13 GET /groups/{name}/keywords/: list records, meta and links', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/`);
		assert.equal(r.status, 200);
		for (const k of r.json.data) checkKeywordRecord(k, 'list');
		hasKeys(r.json.meta, ['domains', 'types', 'pagination'], 'meta');
		hasKeys(
			r.json.meta.pagination,
			['total', 'count', 'per_page', 'current_page', 'total_pages'],
			'pagination',
		);
		hasKeys(r.json.links, ['self', 'first', 'last'], 'links');
		assert.ok(r.json.links.self.startsWith(f.base + '/api/v2/groups/'));
		assert.equal(new URL(r.json.links.first).searchParams.get('api_token'), TOKEN);
		kwId = r.json.data[0].id;
	});

	it('#11 GET a keyword: single-retrieval attributes', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/${kwId}`);
		assert.equal(r.status, 200);
		checkKeywordRecord(r.json.data, 'single');
		hasKeys(
			r.json.data.attributes.serp_features,
			['knowledge_panel', 'reviews', 'site_links', 'ppl_also_ask', 'top_stories', 'ads'],
			'serp_features',
		);
		assert.equal(r.json.data.attributes.currency_symbol, '$');
	});

	it('#6 regions', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/regions`);
		assert.equal(r.status, 200);
		assert.ok(r.json.data.length >= 3);
		for (const x of r.json.data) hasKeys(x, ['region', 'lang', 'type', 'total'], 'region');
		const total = r.json.data.reduce((n: number, x: any) => n + x.total, 0);
		assert.equal(total, acme.attributes.keywords_count.ACTIVE);
	});

	it('#9 metrics: ranges, movements, chart, total', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/metrics?timeframe=monthly&tagId=`);
		assert.equal(r.status, 200);
		const d = r.json.data;
		assert.equal(d.type, 'metrics');
		hasKeys(d.attributes, ['ranges', 'movements', 'chart', 'total'], 'metrics');
		assert.equal(d.attributes.chart, null);
		assert.equal(d.attributes.total, acme.attributes.keywords_count.ACTIVE);
		for (const range of d.attributes.ranges) {
			hasKeys(range, [...PERIODS, 'count', 'title'], 'range');
			for (const p of PERIODS) hasKeys(range[p], ['count', 'change', 'status'], 'range period');
		}
		for (const p of PERIODS) hasKeys(d.attributes.movements[p], ['up', 'down', 'tie'], 'movement');
		// tagId narrows the keywords.
		const tag = acme.attributes.tags.find((t: any) => t.name === 'Running');
		const byTag = await f.get(
			`/api/v2/groups/${enc('Acme Shoes')}/metrics?timeframe=daily&tagId=${tag.id}`,
		);
		assert.equal(byTag.json.data.attributes.total, tag.keywords_count);
	});

	it('#14 chart: the A..E structure', async () => {
		const r = await f.call('POST', '/api/v2/keywords/chart?action=chart&limit=10', {
			keyword_ids: [Number(kwId)],
		});
		assert.equal(r.status, 200);
		const [entry] = r.json.data;
		assert.equal(entry.kwid, Number(kwId));
		const [A, B, C, D, E] = entry.data;
		assert.ok(Array.isArray(A) && A.length >= 1);
		hasKeys(
			A[0],
			['name', 'data', 'visible', 'pointInterval', 'showInLegend', 'zIndex', 'turboThreshold'],
			'series',
		);
		assert.equal(A[0].pointInterval, 86400000);
		assert.equal(A[0].data.length, 10);
		assert.match(A[0].data[0][0], /^Date\.UTC\(\d{4},\d{1,2},\d{1,2}\)$/);
		assert.deepEqual(B, []);
		assert.equal(C.split('|').length, 5);
		assert.match(D, new RegExp(`^${kwId}\\|[0-9a-f]+$`));
		assert.equal(E.days, 10);
		assert.equal(E.rankingurls.length, 10);
		const dates = E.rankingurls.map((x: any) => x.date);
		assert.deepEqual(dates, [...dates].sort().reverse(), 'rankingurls newest first');
		// The last series point (newest) is the current rank.
		const current = (await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/${kwId}`)).json.data
			.attributes.grank;
		assert.equal(A[0].data[9][1], current);
		assert.equal(E.rankingurls[0].rank, current);
	});

	it('#15 competitor history', async () => {
		const r = await f.get(
			`/api/v2/metrics/${enc('Acme Shoes')}/competitors/${kwId}/history?dateRange=2026-01-10.2026-01-15`,
		);
		assert.equal(r.status, 200);
		assert.ok(r.json.data.length >= 1 && r.json.data.length <= 6);
		for (const day of r.json.data) {
			assert.ok(Number.isInteger(day.rank));
			assert.match(day.date, /^[A-Z][a-z]{2} \d{2}, \d{4}$/);
			assert.equal(day.results.length, 100);
			hasKeys(day.results[0], ['resultType', 'url', 'title'], 'result');
		}
		assert.equal(r.json.data[0].date, 'Jan 15, 2026');
	});

	it('#18 share of voice latest: top 10', async () => {
		const r = await f.get(`/api/v2/metrics/${enc('Acme Shoes')}/mindshare/latest`);
		assert.equal(r.status, 200);
		assert.equal(r.json.data.length, 10);
		for (const e of r.json.data) {
			hasKeys(e, ['title', 'url', 'clicks', 'percentage', 'changes'], 'sov entry');
			assert.equal(typeof e.changes.month, 'number');
		}
	});

	it('#19 share of voice history: point counts per range', async () => {
		const expected: Record<string, number> = { 7: 7, 30: 5, 90: 7, 180: 6, 365: 7 };
		for (const [range, points] of Object.entries(expected)) {
			const r = await f.get(
				`/api/v2/projects/${acme.attributes.project_id}/mindshare/from-cache?daysrange=${range}`,
			);
			assert.equal(r.status, 200);
			assert.equal(r.json.data.length, points, `daysrange=${range}`);
			for (const p of r.json.data) {
				assert.match(p.date, /^\d{4}-\d{2}-\d{2}$/);
				assert.ok(Array.isArray(p.entries));
			}
			assert.equal(r.json.data[r.json.data.length - 1].date, '2026-01-15');
		}
	});

	it('#20 alerts', async () => {
		const r = await f.get('/api/v2/alerts');
		assert.equal(r.status, 200);
		for (const a of r.json.data) {
			assert.equal(a.type, 'alert');
			assert.match(a.id, /^\d+$/);
			hasKeys(
				a.attributes,
				[
					'category',
					'keyword_id',
					'url',
					'kw',
					'ms',
					'region',
					'language',
					'prevrank',
					'result',
					'time',
					'created_at',
					'read',
				],
				'alert',
			);
			assert.match(a.attributes.time, ISO_OFFSET);
		}
		hasKeys(r.json.links, ['self', 'first', 'next', 'last'], 'alert links');
		hasKeys(
			r.json.meta.pagination,
			['total', 'count', 'per_page', 'current_page', 'total_pages'],
			'pagination',
		);
	});

	it('#21 top pages', async () => {
		const r = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/ranking-urls`);
		assert.equal(r.status, 200);
		for (const p of r.json.data) {
			hasKeys(
				p,
				[
					'current_ranking_url',
					'total_keyword_count',
					'average_current_rank',
					'average_previous_rank',
					'total_search_volume',
					'average_cost_per_click',
				],
				'top page',
			);
		}
		hasKeys(r.json.links, ['first', 'last', 'prev', 'next'], 'links');
		assert.equal(r.json.links.prev, null);
		hasKeys(
			r.json.meta,
			['current_page', 'from', 'last_page', 'path', 'per_page', 'to', 'total'],
			'meta',
		);
	});

	it('#22 account with api_token, refreshes and daily_added', async () => {
		const r = await f.get('/api/v2/users/self&include_subscriptions');
		assert.equal(r.status, 200);
		assert.equal(r.json.data.type, 'user');
		hasKeys(r.json.data.attributes, ACCOUNT_ATTRIBUTES, 'account');
		assert.equal(r.json.data.attributes.api_token, TOKEN);
		hasKeys(r.json.data.attributes.refreshes, ['used', 'remaining', 'limit'], 'refreshes');
		assert.match(r.json.data.attributes.serp_and_ranking_history_limit_date, /^\d{4}-\d{2}-\d{2}$/);
		assert.equal(
			f.api.requests[f.api.requests.length - 1].rawPath,
			'/api/v2/users/self&include_subscriptions',
		);
		// The encoded form of the flag reaches the same endpoint.
		assert.equal((await f.get('/api/v2/users/self%26include_subscriptions')).status, 200);
	});

	it('#23 #24 #25 AI visibility domains and search terms', async () => {
		const list = await f.get('/api/v2/ai-visibility/domains');
		assert.equal(list.status, 200);
		assert.equal(list.json.data.length, 2);
		for (const d of list.json.data)
			hasKeys(
				d,
				['id', 'domain', 'brandName', 'competitors', 'searchTermsCount', 'createdAt'],
				'domain',
			);
		const one = await f.get(`/api/v2/ai-visibility/domains/${domainId}`);
		assert.equal(one.status, 200);
		assert.equal(one.json.data.id, domainId);
		const terms = await f.get(`/api/v2/ai-visibility/domains/${domainId}/search-terms`);
		assert.equal(terms.status, 200);
		assert.equal(terms.json.data.length, one.json.data.searchTermsCount);
		for (const t of terms.json.data) {
			hasKeys(
				t,
				[
					'id',
					'term',
					'aiSearchEngines',
					'status',
					'executionsAmount',
					'interval',
					'region',
					'websearch',
					'createdAt',
					'lastExecutionTime',
					'nextScheduledExecutionTime',
					'searchTermTopicRef',
					'tags',
				],
				'search term',
			);
			for (const e of t.aiSearchEngines) assert.match(e, /_(gui|ai_overview)$/);
			assert.match(t.createdAt, ISO);
		}
	});

	it('#26 AI metrics: ownBrandMetrics, competitorMetrics, competitorTimeSeriesData', async () => {
		const r = await f.get(
			`/api/v2/ai-visibility/domains/${domainId}/metrics?timeframe=7d&aggregation=daily`,
		);
		assert.equal(r.status, 200);
		const { ownBrandMetrics: own, competitorMetrics, competitorTimeSeriesData: ts } = r.json.data;
		hasKeys(
			own,
			[
				'visibilityScore',
				'sentiment',
				'mentions',
				'citations',
				'avgPosition',
				'detectionRate',
				'top3',
				'validMetricsCount',
				'trends',
				'historicalData',
				'topicMetricsData',
				'engineMetricsData',
				'preselectionWhitelist',
				'preselectionBlacklist',
				'manualWhitelist',
				'manualBlacklist',
			],
			'ownBrandMetrics',
		);
		hasKeys(
			own.trends,
			[
				'visibilityScore',
				'sentiment',
				'mentions',
				'citations',
				'avgPosition',
				'detectionRate',
				'top3',
			],
			'trends',
		);
		for (const agg of AGGS) hasKeys(own.historicalData[agg], SERIES_KEYS, `historicalData.${agg}`);
		assert.equal(own.historicalData.daily.timestamps.length, 7);
		assert.equal(own.historicalData.hourly.timestamps.length, 0);
		assert.ok(
			own.topicMetricsData.daily.some(
				(t: any) => t.topicId === '_orphaned' && t.topicName === 'Search Terms Without Topic',
			),
		);
		for (const t of own.topicMetricsData.daily)
			hasKeys(t, ['topicId', 'topicName', ...SERIES_KEYS], 'topic metrics');
		for (const e of own.engineMetricsData.daily)
			hasKeys(e, ['engineId', 'engineName', ...SERIES_KEYS], 'engine metrics');
		assert.ok(competitorMetrics.length >= 2);
		assert.equal(competitorMetrics.filter((c: any) => c.isOwnBrand).length, 1);
		for (const c of competitorMetrics) {
			hasKeys(
				c,
				[
					'name',
					'isOwnBrand',
					'latestValue',
					'trend',
					'variations',
					'visibilityScore',
					'latestRank',
					'avgRank',
					'avgSentiment',
					'appearances',
					'citationCount',
					'detectionRate',
					'top3',
					'validMetricsCount',
				],
				'competitor',
			);
		}
		for (const agg of AGGS)
			hasKeys(ts[agg], ['timestamps', 'competitors'], `competitorTimeSeriesData.${agg}`);
		assert.equal(ts.daily.competitors.length, competitorMetrics.length);
		hasKeys(ts.daily.competitors[0].metrics, SERIES_KEYS.slice(0, 7), 'competitor series');
	});

	it('#27 sentiment and #28 citations', async () => {
		const s = await f.get(`/api/v2/ai-visibility/domains/${domainId}/metrics/sentiment`);
		assert.equal(s.status, 200);
		hasKeys(
			s.json.data,
			['brandSentiment', 'companySentiment', 'keywordClouds', 'byEngine'],
			'sentiment',
		);
		const c = await f.get(`/api/v2/ai-visibility/domains/${domainId}/metrics/citations`);
		assert.equal(c.status, 200);
		hasKeys(
			c.json.data,
			['domains', 'urls', 'byEngine', 'byQuery', 'brand', 'competitors'],
			'citations',
		);
	});

	// Mutating endpoints last, on their own data.
	it('#7 create project and group, #10 add keywords, #12 delete one', async () => {
		const p = await f.call('POST', '/api/v2/groups', {
			data: { type: 'project', attributes: { category: 'Shape Test', currency_code: 'EUR' } },
		});
		assert.equal(p.status, 201);
		checkGroupRecord(p.json.data, { tagCounts: false });
		assert.deepEqual(p.json.data.attributes.keywords_count, []);
		assert.equal(p.json.data.attributes.tags_count, 0);
		assert.equal(p.json.data.attributes.crawled_at, null);
		assert.equal(p.json.data.attributes.url, null);
		assert.equal(p.json.data.attributes.currency_code, 'EUR');
		const g = await f.call('POST', '/api/v2/groups', {
			data: { type: 'project', attributes: { category: 'Shape Test[sub]G1' } },
		});
		assert.equal(g.status, 201);
		assert.equal(g.json.data.id, 'Shape Test[sub]G1');
		const add = await f.call('POST', `/api/v2/groups/${enc('Shape Test')}/keywords`, {
			data: [
				{
					type: 'keyword',
					attributes: {
						kw: 'alpha',
						url: 'shape.test',
						region: 'google.com',
						language: 'en',
						type: 'se',
						tags: ['T'],
					},
				},
				{
					type: 'keyword',
					attributes: { kw: 'beta', url: 'https://shape.test/beta/', type: 'sem' },
				},
				{
					type: 'keyword',
					attributes: {
						kw: 'alpha',
						url: 'shape.test',
						region: 'google.com',
						language: 'en',
						type: 'se',
					},
				},
			],
		});
		assert.equal(add.status, 201);
		assert.deepEqual(add.json.meta.counts, { added: 2, duplicates: 1 });
		assert.equal(add.json.meta.title, '2 keywords added');
		const [alpha, beta] = add.json.data;
		assert.equal(alpha.attributes.url_tracking_method, 'broad');
		assert.equal(beta.attributes.url_tracking_method, 'Exact');
		assert.equal(beta.attributes.exact, true);
		assert.equal(alpha.attributes.competition, 'Low');
		assert.ok(!('grank' in alpha.attributes), 'no tracking data on add');
		const del = await f.call('DELETE', `/api/v2/groups/${enc('Shape Test')}/keywords/${beta.id}`);
		assert.equal(del.status, 200);
		assert.equal(
			(await f.get(`/api/v2/groups/${enc('Shape Test')}/keywords/${beta.id}`)).status,
			404,
		);
	});

	it('#16 PATCH and #17 DELETE by project id', async () => {
		const list = await f.get(`/api/v2/groups/${enc('Café Zürich')}/keywords?per_page=3`);
		const pid = list.json.data[0].attributes.project_id;
		const ids = list.json.data.map((k: any) => k.id);
		const patch = await f.call('PATCH', `/api/v2/projects/${pid}/keywords`, {
			data: {
				ids: ids.slice(0, 2),
				type: 'keyword',
				attributes: {
					isfav: true,
					tags: ['Neu'],
					notes: 'checked',
					grankTooltip: 'x',
					fullKw: 'y',
				},
			},
		});
		assert.equal(patch.status, 200);
		assert.equal(patch.json.data.length, 2);
		for (const k of patch.json.data) {
			assert.equal(k.attributes.isfav, true);
			assert.equal(k.attributes.notes, 'checked');
			assert.deepEqual(
				k.attributes.tags.map((t: any) => t.name),
				['Neu'],
			);
		}
		const del = await f.call('DELETE', `/api/v2/projects/${pid}/keywords`, {
			data: { type: 'keyword', ids: ids.slice(0, 2) },
		});
		assert.equal(del.status, 200);
		assert.equal(del.json.deleted, 2);
		assert.equal(typeof del.json.message, 'string');
		assert.equal(
			(await f.get(`/api/v2/groups/${enc('Café Zürich')}/keywords/${ids[0]}`)).status,
			404,
		);
	});

	it('#5 refresh: message with the remaining count, decrements the account, re-crawls', async () => {
		const before = (await f.get('/api/v2/users/self&include_subscriptions')).json.data.attributes
			.refreshes;
		const kwBefore = (await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/${kwId}`)).json.data
			.attributes;
		const r = await f.call('POST', '/api/v2/keywords/refresh', {
			data: { include_sub_groups: true, project_ids: [acme.attributes.project_id] },
		});
		assert.equal(r.status, 200);
		assert.equal(
			r.json.message,
			`Refresh started. ${before.remaining - 1} on-demand refreshes remaining today.`,
		);
		const after = (await f.get('/api/v2/users/self&include_subscriptions')).json.data.attributes
			.refreshes;
		assert.equal(after.used, before.used + 1);
		const kwAfter = (await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/${kwId}`)).json.data
			.attributes;
		assert.ok(kwAfter.crawled_at > kwBefore.crawled_at);
		assert.equal(kwAfter.grankhistory.length, kwBefore.grankhistory.length + 1);
	});

	it('#3 archive, #8 restore, #4 delete', async () => {
		const name = enc('Shape Test');
		const put = await f.call('PUT', `/api/v2/groups/${name}`, {
			data: { type: 'group', attributes: { status: 2 } },
		});
		assert.equal(put.status, 200);
		let active = (await f.get('/api/v2/groups/active')).json.data.map((g: any) => g.id);
		assert.ok(
			!active.includes('Shape Test') && !active.includes('Shape Test[sub]G1'),
			'archived project and its groups leave groups/active',
		);
		assert.equal(
			(await f.get(`/api/v2/groups/${name}`)).status,
			200,
			'an archived project can still be read',
		);
		const undo = await f.get(`/api/v2/groups/${name}/undo/archive`);
		assert.equal(undo.status, 200);
		active = (await f.get('/api/v2/groups/active')).json.data.map((g: any) => g.id);
		assert.ok(active.includes('Shape Test') && active.includes('Shape Test[sub]G1'));
		assert.equal(
			(await f.get(`/api/v2/groups/${name}/undo/archive`)).status,
			422,
			'restoring a non-archived project',
		);
		const del = await f.call('DELETE', `/api/v2/groups/${name}`);
		assert.equal(del.status, 200);
		assert.equal((await f.get(`/api/v2/groups/${name}`)).status, 404);
		assert.equal(
			(await f.get(`/api/v2/groups/${enc('Shape Test[sub]G1')}`)).status,
			404,
			'groups go with their project',
		);
	});

	it('every endpoint an operation of the node calls has a shape check above', () => {
		const source = readFileSync(
			join(__dirname, '..', '..', '..', 'test', 'fake-api', 'endpoints.test.cts'),
			'utf8',
		);
		const checked = new Set<number>();
		for (const title of source.matchAll(/\bit\('([^']*)'/g))
			for (const number of title[1].matchAll(/#(\d+)/g)) checked.add(Number(number[1]));
		const called = new Set(OPERATIONS.flatMap((operation) => operation.endpoints));
		assert.ok(called.size > 0);
		const missing = [...called].filter((n) => !checked.has(n)).sort((a, b) => a - b);
		assert.deepEqual(missing, [], `endpoints without a shape check: ${missing.join(', ')}`);
	});
});
