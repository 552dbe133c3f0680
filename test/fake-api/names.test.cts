/** Awkward project and group names, and the `&date=` suffix of single keyword paths. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, startFake, type Fake } from './helpers.cjs';

const AWKWARD = 'Ünïcode & Co / 50% [x] #1 +?';
const GROUP = 'Grüppe & Ideen / #2 +';

describe('fake API: names and path quirks', () => {
	let f: Fake;
	before(async () => (f = await startFake()));
	after(() => f.stop());

	it('round-trips a project and a group with awkward names', async () => {
		const p = await f.call('POST', '/api/v2/groups', {
			data: { type: 'project', attributes: { category: AWKWARD, currency_code: 'EUR' } },
		});
		assert.equal(p.status, 201);
		assert.equal(p.json.data.id, AWKWARD);
		const g = await f.call('POST', '/api/v2/groups', {
			data: { type: 'project', attributes: { category: `${AWKWARD}[sub]${GROUP}` } },
		});
		assert.equal(g.status, 201);
		const back = await f.get(`/api/v2/groups/${enc(AWKWARD)}`);
		assert.equal(back.status, 200);
		assert.equal(back.json.data.attributes.name, AWKWARD);
		// [sub] fully encoded, and raw between encoded parts.
		for (const path of [enc(`${AWKWARD}[sub]${GROUP}`), `${enc(AWKWARD)}[sub]${enc(GROUP)}`]) {
			const r = await f.get(`/api/v2/groups/${path}`);
			assert.equal(r.status, 200, path);
			assert.equal(r.json.data.id, `${AWKWARD}[sub]${GROUP}`);
		}
		const recorded = f.api.requests[f.api.requests.length - 1];
		assert.equal(recorded.path, `/api/v2/groups/${AWKWARD}[sub]${GROUP}`);
		assert.ok(recorded.rawPath.includes('%2F'));
		const active = await f.get('/api/v2/groups/active');
		const ids = active.json.data.map((x: any) => x.id);
		assert.ok(ids.includes(AWKWARD) && ids.includes(`${AWKWARD}[sub]${GROUP}`));
	});

	it('adds and lists keywords under the awkward group, and its links lead back to it', async () => {
		const path = `/api/v2/groups/${enc(`${AWKWARD}[sub]${GROUP}`)}/keywords`;
		const add = await f.call('POST', path, {
			data: [{ type: 'keyword', attributes: { kw: 'straße café', url: 'example.de' } }],
		});
		assert.equal(add.status, 201);
		assert.equal(add.json.data[0].attributes.category, `${AWKWARD}[sub]${GROUP}`);
		const list = await f.get(`${path}/?per_page=5`);
		assert.equal(list.json.meta.pagination.total, 1);
		const viaLink = await fetch(list.json.links.first);
		assert.equal(viaLink.status, 200);
		assert.equal(((await viaLink.json()) as any).data[0].attributes.kw, 'straße café');
	});

	it('treats an encoded slash as part of the name and a literal + as +', async () => {
		f.api.addProject('C++ / Rust');
		assert.equal((await f.get('/api/v2/groups/C++%20%2F%20Rust')).status, 200);
		assert.equal((await f.get('/api/v2/groups/C%2B%2B%20%2F%20Rust')).status, 200);
		assert.equal(
			(await f.get('/api/v2/groups/C++ / Rust'.replace(/ /g, '%20'))).status,
			404,
			'an unencoded slash splits the path',
		);
		assert.equal((await f.get('/api/v2/groups/C%20%20%2F%20Rust')).status, 404);
	});

	it('reads a keyword at a date given as &date= suffix, raw or encoded', async () => {
		const base = `/api/v2/groups/${enc('Acme Shoes')}/keywords`;
		const list = await f.get(`${base}?per_page=1`);
		const k = list.json.data[0];
		const history: number[] = k.attributes.grankhistory;
		const day = new Date(k.attributes.crawled_at * 1000 - 3 * 86400_000).toISOString().slice(0, 10);
		for (const suffix of [`&date=${day}`, `%26date%3D${day}`, `%26date=${day}`]) {
			const r = await f.get(`${base}/${k.id}${suffix}`);
			assert.equal(r.status, 200, suffix);
			assert.equal(r.json.data.attributes.grank_int, history[3], suffix);
			assert.deepEqual(r.json.data.attributes.grankhistory, history.slice(3));
		}
		for (const bad of ['&date=2026-02-30', '&date=yesterday', '&date=', '%26date%3D2026-1-5']) {
			const r = await f.get(`${base}/${k.id}${bad}`);
			assert.equal(r.status, 422, bad);
		}
		// The list takes a date query too.
		const dated = await f.get(`${base}?per_page=1&date=${day}`);
		assert.equal(dated.json.data[0].attributes.grank_int, history[3]);
		assert.equal(new URL(dated.json.links.self).searchParams.get('date'), day);
		assert.equal((await f.get(`${base}?date=15/01/2026`)).status, 422);
		// Delete takes the same suffix.
		const del = await f.call('DELETE', `${base}/${k.id}&date=${day}`);
		assert.equal(del.status, 200);
		assert.equal((await f.get(`${base}/${k.id}`)).status, 404);
	});

	it('accepts keywords/ with and without the trailing slash', async () => {
		const a = await f.get(`/api/v2/groups/${enc('Café Zürich')}/keywords/`);
		const b = await f.get(`/api/v2/groups/${enc('Café Zürich')}/keywords`);
		assert.equal(a.status, 200);
		assert.deepEqual(a.json.data, b.json.data);
	});
});
