/** Fault injection: each kind, matching, counting and recording. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { errorOf, startFake, type Fake } from './helpers.cjs';

describe('fake API: faults', () => {
	let f: Fake;
	before(async () => (f = await startFake()));
	after(() => f.stop());
	beforeEach(() => {
		f.api.clearFaults();
		f.api.clearRequests();
		f.api.setLatency(0);
	});
	const last = (): (typeof f.api.requests)[number] => f.api.requests[f.api.requests.length - 1];

	it("'status' answers the status, the error shape and Retry-After, for the next K matching requests", async () => {
		f.api.injectFault({ path: '/api/v2/alerts', times: 2, status: 429, retryAfter: '3' });
		for (let i = 0; i < 2; i++) {
			const r = await f.get('/api/v2/alerts');
			assert.equal(r.status, 429);
			assert.equal(r.headers.get('retry-after'), '3');
			assert.equal(errorOf(r.json).status, '429');
			assert.equal(last().status, 429);
		}
		assert.equal((await f.get('/api/v2/alerts')).status, 200);
		assert.equal(f.api.requests.length, 3);
	});

	it("'status' with a custom body; method and RegExp matching", async () => {
		f.api.injectFault({
			method: 'POST',
			path: /^\/api\/v2\/groups\/.+\/keywords$/,
			times: 1,
			status: 503,
			body: 'upstream down',
		});
		assert.equal(
			(await f.get('/api/v2/groups/Acme%20Shoes/keywords')).status,
			200,
			'GET does not match',
		);
		const r = await f.call('POST', '/api/v2/groups/Acme%20Shoes/keywords', {
			data: [{ attributes: { kw: 'x', url: 'y.com' } }],
		});
		assert.equal(r.status, 503);
		assert.equal(r.text, 'upstream down');
		assert.equal(
			f.api.state.findContainer('Acme Shoes')!.keywordIds.length,
			12,
			'the faulted request changed nothing',
		);
	});

	it("'non-json' answers 200 with HTML", async () => {
		f.api.injectFault({ times: 1, kind: 'non-json' });
		const r = await f.get('/api/v2/groups/active');
		assert.equal(r.status, 200);
		assert.match(r.headers.get('content-type') ?? '', /text\/html/);
		assert.match(r.text, /^<!DOCTYPE html>/);
		assert.throws(() => JSON.parse(r.text));
	});

	it("'empty' answers 200 with an empty body", async () => {
		f.api.injectFault({ times: 1, kind: 'empty' });
		const r = await f.get('/api/v2/groups/active');
		assert.equal(r.status, 200);
		assert.equal(r.text, '');
	});

	it("'truncated' answers 200 with cut JSON", async () => {
		f.api.injectFault({ times: 1, kind: 'truncated' });
		const r = await f.get('/api/v2/groups/active');
		assert.equal(r.status, 200);
		assert.ok(r.text.startsWith('{'));
		assert.throws(() => JSON.parse(r.text));
		f.api.injectFault({ times: 1, kind: 'truncated', body: '{"data":[1,2,3,4,5,6,7,8]}' });
		const r2 = await f.get('/api/v2/groups/active');
		assert.equal(r2.text, '{"data":[1,2,');
	});

	it("'stall' with stallMs answers normally after the wait", async () => {
		f.api.injectFault({ times: 1, kind: 'stall', stallMs: 250 });
		const t0 = Date.now();
		const r = await f.get('/api/v2/alerts');
		assert.ok(Date.now() - t0 >= 240);
		assert.equal(r.status, 200);
		assert.ok(Array.isArray(r.json.data));
		assert.equal(last().status, 200);
	});

	it("'stall' without stallMs never answers; the client times out; status stays 0", async () => {
		f.api.injectFault({ times: 1, kind: 'stall' });
		await assert.rejects(
			fetch(`${f.base}/api/v2/alerts`, {
				headers: { authorization: `Bearer ${f.api.token}` },
				signal: AbortSignal.timeout(200),
			}),
			(err: Error) => err.name === 'TimeoutError' || err.name === 'AbortError',
		);
		assert.equal(last().status, 0);
		assert.equal((await f.get('/api/v2/alerts')).status, 200, 'the server still works');
	});

	it("'drop' destroys the connection; the request is recorded with status 0", async () => {
		f.api.injectFault({ times: 1, kind: 'drop', path: '/api/v2/users/self&include_subscriptions' });
		await assert.rejects(f.get('/api/v2/users/self&include_subscriptions'));
		assert.equal(last().status, 0);
		assert.equal(last().path, '/api/v2/users/self&include_subscriptions');
		assert.equal((await f.get('/api/v2/users/self&include_subscriptions')).status, 200);
	});

	it('latency delays answers; clearFaults disarms', async () => {
		f.api.setLatency(120);
		const t0 = Date.now();
		await f.get('/api/v2/alerts');
		assert.ok(Date.now() - t0 >= 110);
		f.api.setLatency(0);
		f.api.injectFault({ times: 5, status: 500 });
		f.api.clearFaults();
		assert.equal((await f.get('/api/v2/alerts')).status, 200);
	});

	it('stop() ends a stalled request', async () => {
		const g = await startFake();
		g.api.injectFault({ times: 1, kind: 'stall' });
		const pending = fetch(`${g.base}/api/v2/alerts`, {
			headers: { authorization: `Bearer ${g.api.token}` },
		});
		await new Promise((r) => setTimeout(r, 50));
		const t0 = Date.now();
		await g.stop();
		assert.ok(Date.now() - t0 < 1000);
		await assert.rejects(pending);
	});
});
