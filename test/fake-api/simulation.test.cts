/** Seeds, determinism, the seeding/simulation methods, and AI-visibility filters. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, FIXED_NOW, startFake, type Fake } from './helpers.cjs';

describe('fake API: seeds and simulation', () => {
	it('seed "empty" holds no data at all', async () => {
		const f = await startFake({ seed: 'empty' });
		try {
			assert.deepEqual((await f.get('/api/v2/groups/active')).json.data, []);
			assert.deepEqual((await f.get('/api/v2/alerts')).json.data, []);
			assert.deepEqual((await f.get('/api/v2/ai-visibility/domains')).json.data, []);
		} finally {
			await f.stop();
		}
	});

	it('seed "demo" is deterministic for a given clock, including ranks and ids', async () => {
		const a = await startFake();
		const b = await startFake();
		try {
			for (const path of [
				'/api/v2/groups/active',
				`/api/v2/groups/${enc('Acme Shoes')}/keywords?per_page=250`,
				'/api/v2/alerts?per_page=250',
				'/api/v2/ai-visibility/domains',
			]) {
				const [ra, rb] = [await a.get(path), await b.get(path)];
				assert.deepEqual(ra.json.data, rb.json.data, path);
			}
			const groups = (await a.get('/api/v2/groups/active')).json.data;
			assert.deepEqual(
				groups.map((g: any) => g.id),
				['Acme Shoes', 'Acme Shoes[sub]Blog', 'Acme Shoes[sub]Shop & Deals', 'Café Zürich'],
			);
			const total = groups.reduce(
				(n: number, g: any) => n + (g.attributes.keywords_count.ACTIVE ?? 0),
				0,
			);
			assert.ok(total >= 25 && total <= 35, `~30 keywords, got ${total}`);
			const alerts = (await a.get('/api/v2/alerts?per_page=250')).json.data;
			assert.ok(alerts.length >= 10 && alerts.length <= 15);
			assert.ok(alerts.every((x: any) => x.attributes.created_at <= FIXED_NOW / 1000));
		} finally {
			await a.stop();
			await b.stop();
		}
	});

	describe('simulateRankUpdate', () => {
		let f: Fake;
		let clock = FIXED_NOW;
		before(async () => (f = await startFake({ now: () => clock })));
		after(() => f.stop());
		const group = 'Acme Shoes[sub]Blog';
		const listOf = async (name: string): Promise<any[]> =>
			(await f.get(`/api/v2/groups/${enc(name)}/keywords?per_page=250`)).json.data;

		it('re-crawls a group: crawled_at strictly later, history grows, ranks move, timestamps set', async () => {
			const before = await listOf(group);
			const cafeBefore = await listOf('Café Zürich');
			const updated = f.api.simulateRankUpdate({ category: group });
			assert.equal(updated.length, before.length);
			const after = await listOf(group);
			for (let i = 0; i < before.length; i++) {
				const [b, a] = [before[i].attributes, after[i].attributes];
				assert.ok(a.crawled_at > b.crawled_at);
				assert.equal(a.grankhistory.length, b.grankhistory.length + 1);
				assert.equal(a.grankhistory[0], a.grank_int);
				assert.deepEqual(a.grankhistory.slice(1), b.grankhistory);
				assert.notEqual(a.grank_int, b.grank_int, 'changeRanks (default) moves every rank');
				assert.equal(a.trends.day, (b.grank_int || 101) - (a.grank_int || 101));
				if (a.grank !== null) assert.ok(a.best <= a.grank);
			}
			assert.deepEqual(await listOf('Café Zürich'), cafeBefore, 'other projects untouched');
			const g = (await f.get(`/api/v2/groups/${enc(group)}`)).json.data.attributes;
			const p = (await f.get(`/api/v2/groups/${enc('Acme Shoes')}`)).json.data.attributes;
			assert.ok(Date.parse(g.keywords_last_updated_at) >= FIXED_NOW - 1000);
			assert.ok(
				Date.parse(p.keywords_last_updated_at) >= Date.parse(g.keywords_last_updated_at) - 1000,
			);
		});

		it('stays strictly increasing with a frozen clock, and follows the clock when it moves', async () => {
			const [k] = await listOf(group);
			f.api.simulateRankUpdate({ keywordIds: [k.id], changeRanks: false });
			const a = (await listOf(group))[0].attributes;
			assert.ok(a.crawled_at > k.attributes.crawled_at);
			assert.equal(a.grank_int, k.attributes.grank_int, 'changeRanks false keeps the rank');
			clock += 86_400_000;
			f.api.simulateRankUpdate({ keywordIds: [k.id] });
			const b = (await listOf(group))[0].attributes;
			assert.ok(b.crawled_at >= Math.floor(clock / 1000));
		});

		it('createAlerts records alerts for moved keywords', async () => {
			const before = (await f.get('/api/v2/alerts')).json.meta.pagination.total;
			const moved = f.api.simulateRankUpdate({ category: 'Café Zürich', createAlerts: true });
			const after = (await f.get('/api/v2/alerts?per_page=250')).json;
			assert.equal(after.meta.pagination.total, before + moved.length);
			assert.equal(after.data[0].attributes.category, 'Café Zürich');
		});

		it('addKeywords with partial records, addGroup, addAlerts with a shared createdAt', async () => {
			f.api.addProject('Partial');
			f.api.addGroup('Partial', 'Sub');
			const ids = f.api.addKeywords('Partial[sub]Sub', [
				{ kw: 'one', url: 'p.test', tags: ['A'] },
				{ kw: 'two', url: 'https://p.test/two/', type: 'sem', grank: 4 },
				{ kw: 'one', url: 'p.test' },
			]);
			assert.equal(ids.length, 2, 'the duplicate is skipped');
			const list = await listOf('Partial[sub]Sub');
			assert.deepEqual(
				list.map((k) => k.attributes.kw),
				['one', 'two'],
			);
			assert.equal(list[1].attributes.grank, 4);
			assert.equal(list[1].attributes.exact, true);
			const untracked = f.api.addKeywords('Partial', [{ kw: 'fresh', url: 'p.test' }], {
				tracked: false,
			});
			const fresh = (await f.get(`/api/v2/groups/Partial/keywords/${untracked[0]}`)).json.data
				.attributes;
			assert.equal(fresh.grank, null);
			assert.equal(fresh.grankhistory, null);
			assert.equal(fresh.crawled_at, null);
			const stamp = Math.floor(clock / 1000) + 5;
			const alerts = f.api.addAlerts(4, { createdAt: stamp, category: 'Partial[sub]Sub' });
			assert.equal(alerts.length, 4);
			const ids4 = alerts.map((a: any) => Number(a.id));
			assert.deepEqual(
				ids4,
				[...ids4].sort((a, b) => a - b),
				'ids increase with creation',
			);
			const top = (await f.get('/api/v2/alerts?per_page=4')).json.data;
			assert.deepEqual(
				top.map((a: any) => Number(a.id)),
				[...ids4].reverse(),
			);
			assert.ok(top.every((a: any) => a.attributes.created_at === stamp));
		});

		it('a keyword added over HTTP is untracked until a rank update', async () => {
			const add = await f.call('POST', `/api/v2/groups/Partial/keywords`, {
				data: [{ type: 'keyword', attributes: { kw: 'later', url: 'p.test' } }],
			});
			const id = add.json.data[0].id;
			assert.equal(
				(await f.get(`/api/v2/groups/Partial/keywords/${id}`)).json.data.attributes.grank_int,
				0,
			);
			f.api.simulateRankUpdate({ keywordIds: [id] });
			const k = (await f.get(`/api/v2/groups/Partial/keywords/${id}`)).json.data.attributes;
			assert.equal(k.grankhistory.length, 1);
			assert.equal(k.start, k.grank_int);
			assert.ok(Number.isInteger(k.crawled_at));
		});
	});
});

describe('fake API: AI-visibility filters narrow the answers', () => {
	let f: Fake;
	let id: string;
	before(async () => {
		f = await startFake();
		id = f.api.state.aiDomains[0].id;
	});
	after(() => f.stop());

	it('#26 topics[], search_terms[] and engine[] narrow topics, engines and sample counts', async () => {
		const all = (await f.get(`/api/v2/ai-visibility/domains/${id}/metrics`)).json.data
			.ownBrandMetrics;
		const brand = (await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?topics[]=Brand`)).json
			.data.ownBrandMetrics;
		assert.deepEqual(
			brand.topicMetricsData.daily.map((t: any) => t.topicName),
			['Brand'],
		);
		assert.ok(all.topicMetricsData.daily.length >= 3);
		assert.ok(brand.validMetricsCount < all.validMetricsCount);
		const two = (
			await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?topics[]=Brand&topics[]=Hiking`)
		).json.data.ownBrandMetrics;
		assert.equal(two.topicMetricsData.daily.length, 2);
		const term = f.api.state.aiDomains[0].searchTerms[0].term;
		const one = (
			await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?search_terms[]=${enc(term)}`)
		).json.data;
		assert.equal(one.ownBrandMetrics.topicMetricsData.daily.length, 1);
		// 30 daily slots (default timeframe) per engine of that one term; today's holds the share measured so far.
		const engines = f.api.state.aiDomains[0].searchTerms[0].engines.length;
		const todayShare = (FIXED_NOW % 86_400_000) / 86_400_000;
		assert.equal(
			one.ownBrandMetrics.validMetricsCount,
			29 * engines + Math.floor(engines * todayShare),
		);
		const engine = (
			await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?engine[]=google_ai_overview`)
		).json.data.ownBrandMetrics;
		assert.deepEqual(
			engine.engineMetricsData.daily.map((e: any) => e.engineId),
			['google_ai_overview'],
		);
		const none = (await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?topics[]=Nothing`)).json
			.data.ownBrandMetrics;
		assert.equal(none.validMetricsCount, 0);
		assert.ok(none.historicalData.daily.brandNotFound.every((x: boolean) => x));
	});

	it('#26 timeframe, period_offset and aggregation shape the series', async () => {
		const m = async (q: string): Promise<any> =>
			(await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?${q}`)).json.data;
		assert.equal(
			(await m('timeframe=24h&aggregation=hourly')).ownBrandMetrics.historicalData.hourly.timestamps
				.length,
			24,
		);
		assert.equal(
			(await m('timeframe=30')).ownBrandMetrics.historicalData.daily.timestamps.length,
			30,
		);
		const weekly = await m('timeframe=3m&aggregation=weekly');
		assert.ok(weekly.ownBrandMetrics.historicalData.weekly.timestamps.length >= 13);
		assert.equal(weekly.ownBrandMetrics.historicalData.daily.timestamps.length, 0);
		assert.equal(weekly.competitorTimeSeriesData.daily.competitors.length, 0);
		const now = await m('timeframe=7d');
		const prev = await m('timeframe=7d&period_offset=-1');
		assert.equal(
			Date.parse(prev.ownBrandMetrics.historicalData.daily.timestamps[6]),
			Date.parse(now.ownBrandMetrics.historicalData.daily.timestamps[0]) - 86_400_000,
		);
	});

	it('#27 and #28 reflect topics[] and search_terms[]', async () => {
		const s = async (q: string): Promise<any> =>
			(await f.get(`/api/v2/ai-visibility/domains/${id}/metrics/sentiment${q}`)).json;
		const sAll = await s('');
		const sBrand = await s('?topics[]=Brand');
		assert.ok(sBrand.data.brandSentiment.total < sAll.data.brandSentiment.total);
		assert.deepEqual(
			sBrand.data.byTopic.map((t: any) => t.topicName),
			['Brand'],
		);
		const c = async (q: string): Promise<any> =>
			(await f.get(`/api/v2/ai-visibility/domains/${id}/metrics/citations${q}`)).json;
		const cAll = await c('');
		const term = f.api.state.aiDomains[0].searchTerms[1].term;
		const cOne = await c(`?search_terms[]=${enc(term)}`);
		assert.equal(cOne.data.byQuery.length, 1);
		assert.equal(cOne.data.byQuery[0].term, term);
		assert.ok(cOne.data.totalCitations < cAll.data.totalCitations);
	});
});
