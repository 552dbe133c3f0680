/** Paging of the keyword list (#13), alerts (#20) and top pages (#21). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, FIXED_NOW, startFake, TOKEN, type Fake } from './helpers.cjs';

describe('fake API: pagination', () => {
	let f: Fake;
	before(async () => {
		f = await startFake({ seed: 'empty' });
		f.api.addProject('Page Test');
		f.api.addKeywords('Page Test', 55);
	});
	after(() => f.stop());
	const list = (query: string): Promise<any> =>
		f.get(`/api/v2/groups/${enc('Page Test')}/keywords${query}`);

	it('#13 defaults to 20 per page, counts pages, keeps ascending ids without overlap', async () => {
		const pages = [await list(''), await list('/?page=2'), await list('?page=3')];
		assert.deepEqual(
			pages.map((p) => p.json.meta.pagination),
			[
				{ total: 55, count: 20, per_page: 20, current_page: 1, total_pages: 3 },
				{ total: 55, count: 20, per_page: 20, current_page: 2, total_pages: 3 },
				{ total: 55, count: 15, per_page: 20, current_page: 3, total_pages: 3 },
			],
		);
		const ids = pages.flatMap((p) => p.json.data.map((k: any) => Number(k.id)));
		assert.equal(new Set(ids).size, 55);
		assert.deepEqual(
			ids,
			[...ids].sort((a, b) => a - b),
		);
		const beyond = await list('?page=9');
		assert.equal(beyond.status, 200);
		assert.equal(beyond.json.data.length, 0);
	});

	it('#13 clamps per_page to 250 and refuses junk', async () => {
		const big = await list('?per_page=1000');
		assert.equal(big.json.meta.pagination.per_page, 250);
		assert.equal(big.json.data.length, 55);
		assert.equal((await list('?per_page=0')).status, 422);
		assert.equal((await list('?per_page=abc')).status, 422);
		assert.equal((await list('?page=0')).status, 422);
	});

	it('#13 links are absolute, carry api_token, and can be followed without the header', async () => {
		const r = await list('?per_page=10&page=2');
		for (const key of ['self', 'first', 'last']) {
			const u = new URL(r.json.links[key]);
			assert.equal(u.origin, f.base);
			assert.equal(u.searchParams.get('api_token'), TOKEN);
			assert.equal(u.searchParams.get('per_page'), '10');
		}
		assert.equal(new URL(r.json.links.self).searchParams.get('page'), '2');
		assert.equal(new URL(r.json.links.last).searchParams.get('page'), '6');
		const last = await fetch(r.json.links.last);
		assert.equal(last.status, 200);
		const body: any = await last.json();
		assert.equal(body.meta.pagination.current_page, 6);
		assert.equal(body.data.length, 5);
	});

	it('#20 alerts: 25 per page, newest first, created_at then id, next null on the last page', async () => {
		const base = Math.floor(FIXED_NOW / 1000);
		f.api.addAlerts(20, { createdAt: base - 3600 });
		f.api.addAlerts(20, { createdAt: base - 7200 });
		f.api.addAlerts(20, { createdAt: base - 60 });
		const p1 = await f.get('/api/v2/alerts');
		assert.deepEqual(p1.json.meta.pagination, {
			total: 60,
			count: 25,
			per_page: 25,
			current_page: 1,
			total_pages: 3,
		});
		const all: any[] = [];
		let next: string | null = p1.json.links.self;
		while (next) {
			const res = await fetch(next);
			const body: any = await res.json();
			all.push(...body.data);
			next = body.links.next;
			assert.equal(new URL(body.links.first).searchParams.get('api_token'), TOKEN);
		}
		assert.equal(all.length, 60);
		const keys = all.map((a) => [a.attributes.created_at, Number(a.id)]);
		const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
		assert.deepEqual(keys, sorted);
		const asc = await f.get('/api/v2/alerts?sort_direction=asc&per_page=250');
		const ascKeys = asc.json.data.map((a: any) => [a.attributes.created_at, Number(a.id)]);
		assert.deepEqual(ascKeys, [...keys].reverse());
		const byId = await f.get('/api/v2/alerts?sort_field=id&sort_direction=asc&per_page=5');
		assert.deepEqual(
			byId.json.data.map((a: any) => Number(a.id)),
			[...ascKeys.map((k: number[]) => k[1])].sort((a, b) => a - b).slice(0, 5),
		);
		const clamped = await f.get('/api/v2/alerts?per_page=999');
		assert.equal(clamped.json.meta.pagination.per_page, 250);
		const lastPage = await f.get('/api/v2/alerts?page=3');
		assert.equal(lastPage.json.links.next, null);
		assert.equal(lastPage.json.data.length, 10);
		assert.equal((await f.get('/api/v2/alerts?view_type=all&last=abc')).status, 200);
	});

	it('#20 last=N keeps the alerts of the last N days', async () => {
		const base = Math.floor(FIXED_NOW / 1000);
		f.api.addAlerts(2, { createdAt: base - 10 * 86400 });
		assert.equal((await f.get('/api/v2/alerts?last=1')).json.meta.pagination.total, 60);
		assert.equal((await f.get('/api/v2/alerts')).json.meta.pagination.total, 62);
	});

	it('#21 top pages: 25 per page Laravel-style, prev/next links, from/to', async () => {
		f.api.addProject('Pages');
		f.api.addKeywords(
			'Pages',
			Array.from({ length: 60 }, (_, i) => ({
				kw: `page kw ${i}`,
				url: `https://pages.test/p${i}/`,
				grank: (i % 90) + 1,
			})),
		);
		const path = `/api/v2/groups/${enc('Pages')}/keywords/ranking-urls`;
		const p1 = await f.get(path);
		assert.equal(p1.json.data.length, 25);
		assert.deepEqual(
			{ ...p1.json.meta, path: undefined },
			{ current_page: 1, from: 1, last_page: 3, path: undefined, per_page: 25, to: 25, total: 60 },
		);
		assert.equal(p1.json.meta.path, f.base + path);
		assert.equal(p1.json.links.prev, null);
		assert.equal(new URL(p1.json.links.next).searchParams.get('page'), '2');
		const p3 = await fetch(p1.json.links.last).then((r) => r.json() as Promise<any>);
		assert.equal(p3.meta.current_page, 3);
		assert.equal(p3.meta.from, 51);
		assert.equal(p3.meta.to, 60);
		assert.equal(p3.links.next, null);
		assert.equal(new URL(p3.links.prev).searchParams.get('page'), '2');
		const big = await f.get(`${path}?per_page=500`);
		assert.equal(big.json.meta.per_page, 250);
		assert.equal(big.json.data.length, 60);
	});
});
