/** Authentication, routing errors, request recording and the control routes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, errorOf, startFake, TOKEN, type Fake } from './helpers.cjs';

describe('fake API: auth, routing, recording', () => {
	let f: Fake;
	before(async () => (f = await startFake()));
	after(() => f.stop());

	it('answers 401 with the error shape when the token is missing, wrong or not Bearer', async () => {
		for (const headers of [
			{ authorization: '' },
			{ authorization: 'Bearer nope' },
			{ authorization: `Token ${TOKEN}` },
		]) {
			const r = await f.call('GET', '/api/v2/groups/active', undefined, headers);
			assert.equal(r.status, 401);
			const e = errorOf(r.json);
			assert.equal(e.status, '401');
			assert.equal(e.title, 'Unauthenticated');
			assert.ok(e.detail.length > 0);
		}
		// Also on the AI visibility area.
		assert.equal(
			(
				await f.call('GET', '/api/v2/ai-visibility/domains', undefined, {
					authorization: 'Bearer x',
				})
			).status,
			401,
		);
	});

	it('accepts the token as api_token query parameter, as the returned links carry it', async () => {
		const res = await fetch(`${f.base}/api/v2/alerts?api_token=${TOKEN}`);
		assert.equal(res.status, 200);
		const last = f.api.requests[f.api.requests.length - 1];
		assert.equal(last.authorization, undefined);
		assert.equal(last.query.api_token, TOKEN);
	});

	it('answers 404 for unknown routes and 405 with Allow for a wrong method', async () => {
		const r404 = await f.get('/api/v2/nothing/here');
		assert.equal(r404.status, 404);
		assert.equal(errorOf(r404.json).title, 'Not Found');
		assert.equal((await f.get('/somewhere-else')).status, 404);
		const r405 = await f.call('POST', '/api/v2/alerts', {});
		assert.equal(r405.status, 405);
		assert.equal(r405.headers.get('allow'), 'GET');
		assert.equal(errorOf(r405.json).status, '405');
		const put = await f.call('PATCH', '/api/v2/groups/Acme%20Shoes', {});
		assert.equal(put.status, 405);
		assert.match(put.headers.get('allow') ?? '', /PUT/);
	});

	it('answers 404 with a readable detail for unknown project, keyword and domain', async () => {
		const p = await f.get('/api/v2/groups/Nope');
		assert.equal(p.status, 404);
		assert.match(errorOf(p.json).detail, /Nope/);
		assert.equal((await f.get('/api/v2/groups/Acme%20Shoes/keywords/999999')).status, 404);
		assert.equal((await f.get('/api/v2/groups/Acme%20Shoes/keywords/abc')).status, 404);
		assert.equal((await f.get('/api/v2/ai-visibility/domains/nope')).status, 404);
		assert.equal(
			(await f.get('/api/v2/projects/abc/mindshare/from-cache?daysrange=7')).status,
			404,
		);
		assert.equal(
			(await f.get('/api/v2/projects/424242/mindshare/from-cache?daysrange=7')).status,
			404,
		);
	});

	it('records requests: raw and decoded path, raw query, array query keys, headers, body, status', async () => {
		f.api.clearRequests();
		const raw = `/api/v2/groups/${enc('Acme Shoes[sub]Blog')}/keywords`;
		await f.call('GET', `${raw}?per_page=5&topics[]=a&topics[]=b%20c&x=1&x=2`, undefined, {
			'X-Custom': 'yes',
		});
		await f.call('POST', '/api/v2/keywords/chart?action=chart&limit=3', { keyword_ids: [100001] });
		const [a, b] = f.api.requests;
		assert.equal(f.api.requests.length, 2);
		assert.equal(a.method, 'GET');
		assert.equal(a.rawPath, raw);
		assert.equal(a.path, '/api/v2/groups/Acme Shoes[sub]Blog/keywords');
		assert.equal(a.rawQuery, 'per_page=5&topics[]=a&topics[]=b%20c&x=1&x=2');
		assert.deepEqual(a.query['topics[]'], ['a', 'b c']);
		assert.deepEqual(a.query.x, ['1', '2']);
		assert.equal(a.query.per_page, '5');
		assert.equal(a.headers['x-custom'], 'yes');
		assert.equal(a.authorization, `Bearer ${TOKEN}`);
		assert.equal(a.status, 200);
		assert.equal(a.bodyText, '');
		assert.equal(a.body, undefined);
		assert.deepEqual(b.body, { keyword_ids: [100001] });
		assert.equal(b.bodyText, JSON.stringify({ keyword_ids: [100001] }));
		// Control routes are not recorded.
		await fetch(`${f.base}/__control/state`);
		assert.equal(f.api.requests.length, 2);
		// A single topics[] value is still an array.
		await f.get('/api/v2/alerts?topics[]=only');
		assert.deepEqual(f.api.requests[2].query['topics[]'], ['only']);
		f.api.clearRequests();
		assert.equal(f.api.requests.length, 0);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const r = await f.call('POST', '/api/v2/groups', '{not json');
		assert.equal(r.status, 400);
		assert.equal(errorOf(r.json).status, '400');
	});
});

describe('fake API: control routes', () => {
	let f: Fake;
	before(async () => (f = await startFake()));
	after(() => f.stop());
	const control = async (
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: any }> => {
		const res = await fetch(`${f.base}/__control/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: res.status, json: await res.json() };
	};

	it('GET state summarises the data without auth', async () => {
		const s = await control('GET', 'state');
		assert.equal(s.status, 200);
		assert.equal(s.json.projects, 2);
		assert.equal(s.json.groups, 2);
		assert.ok(s.json.keywords >= 25 && s.json.keywords <= 40);
		assert.ok(s.json.alerts >= 10);
		assert.equal(s.json.aiDomains, 2);
	});

	it('GET/DELETE requests', async () => {
		await f.get('/api/v2/alerts');
		const r = await control('GET', 'requests');
		assert.equal(r.json.data.length, 1);
		assert.equal(r.json.data[0].path, '/api/v2/alerts');
		await control('DELETE', 'requests');
		assert.equal((await control('GET', 'requests')).json.data.length, 0);
	});

	it('POST alerts adds alerts with a shared createdAt that the API then lists', async () => {
		const r = await control('POST', 'alerts', {
			count: 3,
			createdAt: 1_900_000_000,
			category: 'Acme Shoes',
		});
		assert.equal(r.status, 201);
		assert.equal(r.json.data.length, 3);
		const list = await f.get('/api/v2/alerts?per_page=3');
		assert.deepEqual(
			list.json.data.map((a: any) => a.id),
			r.json.data.map((a: any) => a.id).reverse(),
		);
		assert.ok(
			list.json.data.every(
				(a: any) =>
					a.attributes.created_at === 1_900_000_000 && a.attributes.category === 'Acme Shoes',
			),
		);
	});

	it('POST keywords and POST rank-update', async () => {
		const added = await control('POST', 'keywords', { category: 'Acme Shoes[sub]Blog', count: 4 });
		assert.equal(added.status, 201);
		assert.equal(added.json.added, 4);
		const before = await f.get(
			`/api/v2/groups/${enc('Acme Shoes[sub]Blog')}/keywords/${added.json.ids[0]}`,
		);
		const up = await control('POST', 'rank-update', { keywordIds: [added.json.ids[0]] });
		assert.equal(up.json.updated, 1);
		const after = await f.get(
			`/api/v2/groups/${enc('Acme Shoes[sub]Blog')}/keywords/${added.json.ids[0]}`,
		);
		assert.ok(after.json.data.attributes.crawled_at > before.json.data.attributes.crawled_at);
		const all = await control('POST', 'rank-update', { category: 'Café Zürich' });
		assert.equal(all.json.updated, 8);
	});

	it('POST rank-update with chosen ranks and ranking URLs sets them; a bad rank is a 422 that updates nothing', async () => {
		const acme = await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/?per_page=3`);
		const [first, second] = acme.json.data.map((k: any) => String(k.id));
		const up = await control('POST', 'rank-update', {
			keywordIds: [first, second],
			ranks: { [first]: 8, [second]: 0 },
			rankingUrls: { [first]: 'https://acmeshoes.com/chosen/' },
		});
		assert.equal(up.status, 200);
		assert.deepEqual(
			up.json.keywords.map((k: any) => [k.id, k.grank]),
			[
				[first, 8],
				[second, null],
			],
		);
		const read = async (id: string) =>
			(await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords/${id}`)).json.data.attributes;
		const one = await read(first);
		assert.equal(one.grank_int, 8);
		assert.equal(one.rankingurl, 'https://acmeshoes.com/chosen/');
		assert.equal((await read(second)).grank_int, 0, 'outside the results');

		for (const ranks of [{ [first]: 101 }, { [first]: 2.5 }, { [first]: '3' }, [3]]) {
			const bad = await control('POST', 'rank-update', { keywordIds: [first], ranks });
			assert.equal(bad.status, 422, JSON.stringify(ranks));
		}
		const badUrl = await control('POST', 'rank-update', {
			keywordIds: [first],
			rankingUrls: { [first]: 7 },
		});
		assert.equal(badUrl.status, 422);
		const after = await read(first);
		assert.equal(after.crawled_at, one.crawled_at, 'a refused update re-crawls nothing');
		assert.equal(after.grank_int, 8);
	});

	it('POST/DELETE faults and POST latency', async () => {
		assert.equal(
			(await control('POST', 'faults', { path: '/api/v2/alerts', times: 1, status: 503 })).status,
			201,
		);
		assert.equal((await f.get('/api/v2/alerts')).status, 503);
		assert.equal((await f.get('/api/v2/alerts')).status, 200);
		await control('POST', 'faults', { pathRegex: '^/api/v2/groups', times: 5, status: 500 });
		await control('DELETE', 'faults');
		assert.equal((await f.get('/api/v2/groups/active')).status, 200);
		assert.equal((await control('POST', 'faults', { kind: 'bogus', times: 1 })).status, 422);
		await control('POST', 'latency', { ms: 150 });
		const t0 = Date.now();
		await f.get('/api/v2/alerts');
		assert.ok(Date.now() - t0 >= 140);
		await control('POST', 'latency', { ms: 0 });
	});

	it('POST reset reseeds, unknown control routes are 404', async () => {
		const r = await control('POST', 'reset', { seed: 'empty' });
		assert.equal(r.json.projects, 0);
		assert.equal((await f.get('/api/v2/groups/active')).json.data.length, 0);
		assert.equal((await control('GET', 'nope')).status, 404);
	});
});
