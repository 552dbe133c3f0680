/** 422 (and related) answers for invalid input. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, errorOf, startFake, type Fake } from './helpers.cjs';

describe('fake API: validation', () => {
	let f: Fake;
	let pid: number;
	let domainId: string;
	before(async () => {
		f = await startFake();
		pid = f.api.state.findContainer('Acme Shoes')!.projectId;
		domainId = f.api.state.aiDomains[0].id;
	});
	after(() => f.stop());
	const kwPath = `/api/v2/groups/${enc('Acme Shoes')}/keywords`;
	const add = (attributes: Record<string, unknown>): Promise<any> =>
		f.call('POST', kwPath, { data: [{ type: 'keyword', attributes }] });

	it('#10 refuses kw over 150 characters, empty kw, missing url, unknown type; nothing is added', async () => {
		const before = f.api.state.findContainer('Acme Shoes')!.keywordIds.length;
		const long = await add({ kw: 'k'.repeat(151), url: 'a.com' });
		assert.equal(long.status, 422);
		assert.deepEqual(errorOf(long.json).source, { pointer: '/data/0/attributes/kw' });
		assert.equal(
			(await add({ kw: 'k'.repeat(150), url: 'a.com' })).status,
			201,
			'150 characters is fine',
		);
		assert.equal((await add({ kw: '', url: 'a.com' })).status, 422);
		assert.equal((await add({ kw: '   ', url: 'a.com' })).status, 422);
		assert.equal((await add({ kw: 'no url' })).status, 422);
		assert.equal((await add({ kw: 'x', url: 'a.com', type: 'tablet' })).status, 422);
		const batch = await f.call('POST', kwPath, {
			data: [
				{ attributes: { kw: 'fine', url: 'a.com' } },
				{ attributes: { kw: '', url: 'a.com' } },
			],
		});
		assert.equal(batch.status, 422);
		assert.equal(errorOf(batch.json).source?.pointer, '/data/1/attributes/kw');
		assert.equal((await f.call('POST', kwPath, { data: [] })).status, 422);
		assert.equal((await f.call('POST', kwPath, {})).status, 422);
		assert.equal(f.api.state.findContainer('Acme Shoes')!.keywordIds.length, before + 1);
	});

	it('#7 refuses duplicates, bad currency, a group without parent, an empty name', async () => {
		const create = (attributes: Record<string, unknown>): Promise<any> =>
			f.call('POST', '/api/v2/groups', { data: { type: 'project', attributes } });
		assert.equal((await create({ category: 'Acme Shoes' })).status, 422);
		assert.equal((await create({ category: 'Acme Shoes[sub]Blog' })).status, 422);
		assert.equal((await create({ category: 'New', currency_code: 'EURO' })).status, 422);
		assert.equal((await create({ category: 'Ghost[sub]Group' })).status, 404);
		assert.equal((await create({ category: '' })).status, 422);
		assert.equal((await create({ category: 'Acme Shoes[sub]' })).status, 422);
		assert.equal((await create({})).status, 422);
	});

	it('#3 needs an integer status', async () => {
		const put = (body: unknown): Promise<any> =>
			f.call('PUT', `/api/v2/groups/${enc('Café Zürich')}`, body);
		assert.equal((await put({ data: { type: 'group', attributes: { status: '2' } } })).status, 422);
		assert.equal((await put({ data: { type: 'group', attributes: {} } })).status, 422);
		assert.equal((await put({})).status, 422);
	});

	it('#9 timeframe and tagId', async () => {
		const m = (q: string): Promise<any> => f.get(`/api/v2/groups/${enc('Acme Shoes')}/metrics${q}`);
		for (const t of ['daily', 'weekly', 'monthly', 'semester', 'yearly', 'life'])
			assert.equal((await m(`?timeframe=${t}`)).status, 200);
		assert.equal((await m('?timeframe=hourly')).status, 422);
		assert.equal(errorOf((await m('?timeframe=x')).json).source?.parameter, 'timeframe');
		assert.equal((await m('?timeframe=daily&tagId=abc')).status, 422);
		assert.equal((await m('?timeframe=daily&tagId=999999')).status, 404);
	});

	it('#5 refresh needs project ids that exist', async () => {
		const refresh = (data: unknown): Promise<any> =>
			f.call('POST', '/api/v2/keywords/refresh', { data });
		assert.equal((await refresh({ include_sub_groups: false, project_ids: [] })).status, 422);
		assert.equal((await refresh({ project_ids: ['x'] })).status, 422);
		assert.equal((await refresh({ project_ids: [999999] })).status, 404);
		assert.equal((await refresh({ project_ids: [pid], include_sub_groups: 'yes' })).status, 422);
	});

	it('#14 chart: action required, limit 1..180, keyword_ids required', async () => {
		const chart = (q: string, body: unknown = { keyword_ids: [100001] }): Promise<any> =>
			f.call('POST', `/api/v2/keywords/chart${q}`, body);
		assert.equal((await chart('?action=chart&limit=180')).status, 200);
		assert.equal((await chart('?action=chart&limit=181')).status, 422);
		assert.equal((await chart('?action=chart&limit=0')).status, 422);
		assert.equal((await chart('?limit=30')).status, 422);
		assert.equal((await chart('?action=chart&limit=30', { keyword_ids: [] })).status, 422);
		assert.equal((await chart('?action=chart&limit=30', {})).status, 422);
		assert.equal((await chart('?action=chart&limit=30', { keyword_ids: [1] })).status, 404);
	});

	it('#15 dateRange format', async () => {
		const h = (q: string): Promise<any> =>
			f.get(`/api/v2/metrics/${enc('Acme Shoes')}/competitors/100001/history${q}`);
		assert.equal((await h('?dateRange=2026-01-01.2026-01-15')).status, 200);
		assert.equal((await h('')).status, 200);
		for (const bad of [
			'2026-01-01',
			'2026-01-01..2026-01-15',
			'2026-01-15.2026-01-01',
			'2026-13-01.2026-13-02',
			'01/01/2026.01/15/2026',
		]) {
			assert.equal((await h(`?dateRange=${bad}`)).status, 422, bad);
		}
	});

	it('#16 #17: ids required and owned, project id an integer', async () => {
		const patch = (p: string | number, data: unknown): Promise<any> =>
			f.call('PATCH', `/api/v2/projects/${p}/keywords`, { data });
		assert.equal(
			(await patch(pid, { ids: [], type: 'keyword', attributes: { isfav: true } })).status,
			422,
		);
		assert.equal(
			(await patch(pid, { ids: ['100001'], type: 'keyword', attributes: { kw: '' } })).status,
			422,
		);
		const cafeKw = f.api.state.findContainer('Café Zürich')!.keywordIds[0];
		assert.equal(
			(await patch(pid, { ids: [String(cafeKw)], type: 'keyword', attributes: { isfav: true } }))
				.status,
			404,
		);
		assert.equal(
			(await patch('abc', { ids: ['100001'], type: 'keyword', attributes: {} })).status,
			404,
		);
		assert.equal(
			(await patch(999999, { ids: ['100001'], type: 'keyword', attributes: {} })).status,
			404,
		);
		const del = (p: string | number, data: unknown): Promise<any> =>
			f.call('DELETE', `/api/v2/projects/${p}/keywords`, { data });
		assert.equal((await del(pid, { type: 'keyword', ids: [] })).status, 422);
		assert.equal((await del(pid, { type: 'keyword', ids: [String(cafeKw)] })).status, 404);
		assert.equal((await del('1.5', { type: 'keyword', ids: ['100001'] })).status, 404);
		assert.ok(f.api.state.keywords.has(cafeKw), 'nothing deleted');
	});

	it('#19 daysrange must be 7, 30, 90, 180 or 365', async () => {
		for (const bad of ['', '14', 'week', '-7']) {
			assert.equal(
				(await f.get(`/api/v2/projects/${pid}/mindshare/from-cache?daysrange=${bad}`)).status,
				422,
				bad,
			);
		}
		assert.equal((await f.get(`/api/v2/projects/${pid}/mindshare/from-cache`)).status, 422);
	});

	it('#20 sort_direction and sort_field', async () => {
		assert.equal((await f.get('/api/v2/alerts?sort_direction=up')).status, 422);
		assert.equal((await f.get('/api/v2/alerts?sort_field=kw')).status, 422);
		for (const field of ['time', 'created_at', 'id'])
			assert.equal((await f.get(`/api/v2/alerts?sort_field=${field}`)).status, 200);
	});

	it('#26 timeframe, period_offset, aggregation', async () => {
		const m = (q: string): Promise<any> =>
			f.get(`/api/v2/ai-visibility/domains/${domainId}/metrics?${q}`);
		for (const ok of [
			'timeframe=24h',
			'timeframe=7d',
			'timeframe=30d',
			'timeframe=3m',
			'timeframe=1y',
			'timeframe=45',
			'period_offset=0',
			'period_offset=-1',
			'period_offset=-365',
			'aggregation=hourly&timeframe=24h',
			'aggregation=weekly',
			'aggregation=monthly',
		]) {
			assert.equal((await m(ok)).status, 200, ok);
		}
		for (const bad of [
			'timeframe=2w',
			'timeframe=0',
			'timeframe=366',
			'period_offset=1',
			'period_offset=-366',
			'period_offset=x',
			'aggregation=yearly',
		]) {
			const r = await m(bad);
			assert.equal(r.status, 422, bad);
			assert.equal(errorOf(r.json).source?.parameter, bad.split('=')[0]);
		}
	});
});
