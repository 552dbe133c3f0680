/** A living account: persistent faults on one project's paths, removed by id. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { enc, errorOf, startFake, type Fake } from './helpers';

const GLOBEX = 'Globex';
const GLOBEX_PATHS = /^\/api\/v2\/groups\/Globex/;

/** A control route call; the answer's status and parsed JSON. */
async function control(
	f: Fake,
	method: string,
	route: string,
	body?: unknown,
): Promise<{ status: number; json: any }> {
	const res = await fetch(`${f.base}/__control/${route}`, {
		method,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const group = (f: Fake, name: string): Promise<{ status: number; json: any }> =>
	f.get(`/api/v2/groups/${enc(name)}`);
const keywordList = (f: Fake, name: string): Promise<{ status: number; json: any }> =>
	f.get(`/api/v2/groups/${enc(name)}/keywords?per_page=250`);

/** A fake with the demo data plus Globex (3 keywords) and its group Globex[sub]Labs (2 keywords). */
async function livingFake(): Promise<Fake> {
	const f = await startFake();
	f.api.addProject(GLOBEX);
	f.api.addGroup(GLOBEX, 'Labs');
	f.api.addKeywords(GLOBEX, 3);
	f.api.addKeywords(`${GLOBEX}[sub]Labs`, 2);
	return f;
}

describe('fake API: a living account', () => {
	describe('persistent faults', () => {
		let f: Fake;
		before(async () => (f = await livingFake()));
		after(() => f.stop());
		beforeEach(() => f.api.clearFaults());

		it('times: Infinity faults every matching request until removed by id; other paths are served', async () => {
			const id = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity, status: 500 });
			assert.ok(typeof id === 'number' || typeof id === 'string');
			for (let i = 0; i < 5; i++) {
				for (const path of [`/api/v2/groups/${GLOBEX}`, `/api/v2/groups/${GLOBEX}/keywords`]) {
					const r = await f.get(path);
					assert.equal(r.status, 500, path);
					assert.equal(errorOf(r.json).status, '500');
				}
				assert.equal((await group(f, `${GLOBEX}[sub]Labs`)).status, 500);
			}
			assert.equal((await keywordList(f, 'Acme Shoes')).status, 200);
			assert.equal((await f.get('/api/v2/groups/active')).status, 200);
			assert.equal(f.api.pendingFaults(), Infinity);
			assert.equal(f.api.removeFault(id), true);
			assert.equal(f.api.pendingFaults(), 0);
			assert.equal((await keywordList(f, GLOBEX)).status, 200);
			assert.equal(f.api.removeFault(id), false, 'gone');
		});

		it('ids tell faults apart: removing one leaves the others armed; a used-up fault is gone', async () => {
			const a = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity, status: 403 });
			const b = f.api.injectFault({ path: '/api/v2/alerts', times: 2, status: 503 });
			assert.notEqual(a, b);
			assert.equal(f.api.pendingFaults(), Infinity);
			assert.equal(f.api.removeFault(a), true);
			assert.equal(f.api.pendingFaults(), 2);
			assert.equal((await group(f, GLOBEX)).status, 200);
			assert.equal((await f.get('/api/v2/alerts')).status, 503);
			assert.equal((await f.get('/api/v2/alerts')).status, 503);
			assert.equal((await f.get('/api/v2/alerts')).status, 200);
			assert.equal(f.api.removeFault(b), false, 'used up');
			const c = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity });
			assert.ok(c !== a && c !== b, 'ids are not reused');
		});

		it('survives reset() (as every fault does) and ends with clearFaults()', async () => {
			f.api.injectFault({
				method: 'GET',
				path: /^\/api\/v2\/alerts/,
				times: Infinity,
				status: 500,
			});
			f.api.reset();
			assert.equal((await f.get('/api/v2/alerts')).status, 500);
			assert.equal((await f.get('/api/v2/alerts')).status, 500);
			f.api.clearFaults();
			assert.equal((await f.get('/api/v2/alerts')).status, 200);
			// reset() brought the demo data back; Globex is gone until added again.
			f.api.addProject(GLOBEX);
			f.api.addGroup(GLOBEX, 'Labs');
			f.api.addKeywords(GLOBEX, 3);
			f.api.addKeywords(`${GLOBEX}[sub]Labs`, 2);
		});

		it('refuses times that are not a positive integer or Infinity', () => {
			for (const times of [0, -1, 1.5, NaN, -Infinity])
				assert.throws(() => f.api.injectFault({ times }), Error, String(times));
			assert.equal(f.api.pendingFaults(), 0);
		});

		it('over HTTP: "times": "forever", DELETE /__control/faults/<id>, GET /__control/faults, state stays valid JSON', async () => {
			const armed = await control(f, 'POST', 'faults', {
				pathRegex: '^/api/v2/groups/Globex',
				times: 'forever',
				status: 403,
			});
			assert.equal(armed.status, 201);
			assert.equal(armed.json.pending, 'forever');
			const id = armed.json.id;
			const counted = await control(f, 'POST', 'faults', { path: '/api/v2/alerts', times: 2 });
			assert.equal(counted.json.pending, 'forever');
			for (let i = 0; i < 4; i++) assert.equal((await keywordList(f, GLOBEX)).status, 403);
			const listed = await control(f, 'GET', 'faults');
			assert.deepEqual(listed.json.data, [
				{
					id,
					kind: 'status',
					status: 403,
					pathRegex: '^\\/api\\/v2\\/groups\\/Globex',
					pathRegexFlags: '',
					times: 'forever',
					remaining: 'forever',
				},
				{ id: counted.json.id, kind: 'status', path: '/api/v2/alerts', times: 2, remaining: 2 },
			]);
			assert.equal(listed.json.pending, 'forever');
			const res = await fetch(`${f.base}/__control/state`);
			const state = JSON.parse(await res.text());
			assert.equal(state.pendingFaults, 'forever');
			const removed = await control(f, 'DELETE', `faults/${id}`);
			assert.equal(removed.status, 200);
			assert.deepEqual(removed.json, { removed: true, pending: 2 });
			assert.equal((await keywordList(f, GLOBEX)).status, 200);
			const again = await control(f, 'DELETE', `faults/${id}`);
			assert.equal(again.status, 404);
			errorOf(again.json);
			assert.equal((await control(f, 'DELETE', 'faults/nonsense')).status, 404);
			assert.equal((await control(f, 'GET', 'state')).json.pendingFaults, 2);
			for (const times of [0, 'sometimes', 2.5, -3]) {
				const bad = await control(f, 'POST', 'faults', { times });
				assert.equal(bad.status, 422, String(times));
			}
			assert.equal((await control(f, 'POST', 'faults', { pathRegex: '(', times: 1 })).status, 422);
			assert.equal((await control(f, 'DELETE', 'faults')).json.pending, 0);
		});
	});
});
