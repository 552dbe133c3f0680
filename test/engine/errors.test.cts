/**
 * API failures through the engine: the message a user reads, the retry policy (reads are retried, writes are not,
 * 429 is retried for every method after Retry-After), and that a failed write changed nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { CAFE, PROJECT, assertRequest, keywordIdsOf, rl, run, runOk, useFake } from './helpers.cjs';

const fake = useFake();

describe('errors (engine)', () => {
	it('#22 401 with a wrong token credential: message mentions authentication, description says where the token is', async () => {
		const outcome = await run(
			fake,
			{ resource: 'account', operation: 'get' },
			{ apiToken: 'not-the-right-token' },
		);
		assert.ok(outcome.error);
		assert.match(
			outcome.error.name,
			/ApiError$/,
			'an API failure is a NodeApiError (KeywordComApiError)',
		);
		assert.equal(outcome.error.httpCode, '401');
		assert.match(outcome.error.message, /authenticat/i);
		assert.match(outcome.error.message, /401/);
		assert.match(outcome.error.message, /The API token is invalid/, 'the API detail is kept');
		assert.match(String(outcome.error.description), /Settings\s*→\s*Account/);
		assert.match(String(outcome.error.description), /credential/i);
		assert.equal(outcome.requests.length, 1, 'a 401 is not retried');
		assertRequest(outcome.requests[0], {
			method: 'GET',
			rawPath: '/api/v2/users/self&include_subscriptions',
			token: 'not-the-right-token',
		});
		assert.equal(outcome.requests[0].status, 401);
	});

	it('#13 401 on a paged list stops after the first page request', async () => {
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'getMany', project: rl(PROJECT), returnAll: true },
			{ apiToken: 'nope-nope' },
		);
		assert.equal(outcome.error?.httpCode, '401');
		assert.equal(outcome.requests.length, 1);
	});

	it('#2 404 for an unknown project: the message carries the API detail', async () => {
		const outcome = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('No Such Project'),
		});
		assert.ok(outcome.error);
		assert.equal(outcome.error.httpCode, '404');
		assert.match(outcome.error.message, /Not found \(HTTP 404\)/);
		assert.match(outcome.error.message, /Project "No Such Project" was not found\./);
		assert.match(String(outcome.error.description), /project or group name/);
		assert.equal(outcome.requests.length, 1, 'a 404 on a read is not retried');
		assertRequest(outcome.requests[0], {
			method: 'GET',
			rawPath: '/api/v2/groups/No%20Such%20Project',
		});
	});

	it('#13 404 for an unknown group names the group in the message', async () => {
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(PROJECT),
			group: rl('Nope'),
			limit: 5,
		});
		assert.equal(outcome.error?.httpCode, '404');
		assert.match(outcome.error?.message ?? '', /Group "Acme Shoes\[sub\]Nope" was not found/);
	});

	it('#10 422 from the API (bad language code): the message carries the detail and the pointer; nothing added', async () => {
		const before = keywordIdsOf(fake, PROJECT).length;
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(PROJECT),
			keywords: ['valid keyword 422'],
			url: 'acmeshoes.com',
			language: 'english!',
		});
		assert.ok(outcome.error);
		assert.equal(outcome.error.httpCode, '422');
		assert.match(outcome.error.message, /Invalid value \(HTTP 422\)/);
		assert.match(outcome.error.message, /language must be a language code/);
		assert.match(outcome.error.message, /\/data\/0\/attributes\/language/);
		assert.match(String(outcome.error.description), /refused one of the values/);
		assert.equal(outcome.requests.length, 1, 'a 422 is not retried');
		assert.equal(keywordIdsOf(fake, PROJECT).length, before);
	});

	it('#8 422 from the API (restore a project that is not archived)', async () => {
		const outcome = await run(fake, {
			resource: 'project',
			operation: 'restore',
			project: rl(CAFE),
		});
		assert.equal(outcome.error?.httpCode, '422');
		assert.match(outcome.error?.message ?? '', /is not archived/);
		assert.equal(outcome.requests.length, 1);
	});

	it('#1 a 500 on a GET is retried and then succeeds: 2 requests recorded', async () => {
		fake.api.injectFault({ method: 'GET', path: '/api/v2/groups/active', times: 1, status: 500 });
		const { items, requests } = await runOk(fake, { resource: 'project', operation: 'getMany' });
		assert.equal(requests.length, 2);
		assert.deepEqual(
			requests.map((request) => request.status),
			[500, 200],
		);
		for (const request of requests)
			assertRequest(request, { method: 'GET', rawPath: '/api/v2/groups/active', query: {} });
		assert.equal(items.length, 4);
	});

	it('#12 a 500 on a DELETE is NOT retried: 1 request, the error is reported, the keyword still exists', async () => {
		const id = keywordIdsOf(fake, PROJECT)[2];
		fake.api.injectFault({
			method: 'DELETE',
			path: `/api/v2/groups/${PROJECT}/keywords/${id}`,
			times: 1,
			status: 500,
		});
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'delete',
			project: rl(PROJECT),
			keywordId: id,
		});
		assert.ok(outcome.error);
		assert.equal(outcome.error.httpCode, '500');
		assert.match(outcome.error.message, /server error \(HTTP 500\)/i);
		assert.equal(outcome.requests.length, 1);
		assertRequest(outcome.requests[0], {
			method: 'DELETE',
			rawPath: `/api/v2/groups/Acme%20Shoes/keywords/${id}`,
		});
		assert.ok(keywordIdsOf(fake, PROJECT).includes(id), 'the faulted delete changed nothing');
	});

	it('#17 a 500 on a bulk DELETE is NOT retried', async () => {
		fake.api.injectFault({ method: 'DELETE', path: /\/keywords$/, times: 1, status: 503 });
		const ids = keywordIdsOf(fake, PROJECT).slice(0, 2);
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'deleteMany',
			project: rl(PROJECT),
			keywordIds: ids,
		});
		assert.equal(outcome.error?.httpCode, '503');
		// The project's record (its ID), then the DELETE, once.
		assert.deepEqual(
			outcome.requests.map((request) => request.method),
			['GET', 'DELETE'],
		);
		assert.ok(ids.every((id) => keywordIdsOf(fake, PROJECT).includes(id)));
	});

	it('#10 a 500 on a POST add is NOT retried: 1 request, nothing added', async () => {
		const before = keywordIdsOf(fake, PROJECT).length;
		fake.api.injectFault({
			method: 'POST',
			path: `/api/v2/groups/${PROJECT}/keywords`,
			times: 1,
			status: 500,
		});
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(PROJECT),
			keywords: ['never added'],
			url: 'acmeshoes.com',
		});
		assert.equal(outcome.error?.httpCode, '500');
		assert.equal(outcome.requests.length, 1);
		assert.equal(keywordIdsOf(fake, PROJECT).length, before);
	});

	it('#10 a 429 with Retry-After: 0 on a POST add is retried; the keyword is added once', async () => {
		const before = keywordIdsOf(fake, PROJECT).length;
		fake.api.injectFault({
			method: 'POST',
			path: `/api/v2/groups/${PROJECT}/keywords`,
			times: 1,
			status: 429,
			retryAfter: '0',
		});
		const started = Date.now();
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(PROJECT),
			keywords: ['after rate limit'],
			url: 'acmeshoes.com',
		});
		assert.ok(Date.now() - started < 900, 'Retry-After: 0 is honoured (no default back-off)');
		assert.equal(requests.length, 2);
		assert.deepEqual(
			requests.map((request) => request.status),
			[429, 201],
		);
		assert.deepEqual(requests[0].body, requests[1].body, 'the same request is repeated');
		assert.equal(items[0].added, 1);
		assert.equal(keywordIdsOf(fake, PROJECT).length, before + 1);
	});

	it('#13 a 429 on a page of Return All is retried and the list is complete', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: /\/keywords\/?$/,
			times: 2,
			status: 429,
			retryAfter: '0',
		});
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(PROJECT),
			returnAll: true,
		});
		assert.equal(requests.length, 3);
		assert.deepEqual(
			requests.map((request) => request.status),
			[429, 429, 200],
		);
		assert.deepEqual(
			items.map((item) => item.id),
			keywordIdsOf(fake, PROJECT),
		);
	});

	it('#22 a non-JSON 200 answer on a GET is retried, then succeeds', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: '/api/v2/users/self&include_subscriptions',
			times: 1,
			kind: 'non-json',
		});
		const { items, requests } = await runOk(fake, { resource: 'account', operation: 'get' });
		assert.equal(requests.length, 2);
		assert.equal(items[0].id, '4242');
	});

	it('#7 a non-JSON 200 answer on a POST is not retried and is reported as unreadable', async () => {
		fake.api.injectFault({ method: 'POST', path: '/api/v2/groups', times: 1, kind: 'non-json' });
		const outcome = await run(fake, {
			resource: 'project',
			operation: 'create',
			projectName: 'Never Created',
			currencyCode: 'USD',
		});
		assert.ok(outcome.error);
		assert.match(outcome.error.message, /could not be read/);
		assert.match(outcome.error.message, /Down for maintenance/);
		assert.equal(outcome.requests.length, 1);
		assert.equal(
			fake.api.state.findContainer('Never Created'),
			undefined,
			'the faulted request changed nothing',
		);
	});

	it('#2 continueOnFail turns an API error into an error item paired with its input item', async () => {
		const outcome = await run(
			fake,
			{ resource: 'project', operation: 'get', project: rl('={{ $json.name }}') },
			{
				continueOnFail: true,
				items: [
					{ json: { name: PROJECT } },
					{ json: { name: 'Missing One' } },
					{ json: { name: CAFE } },
				],
			},
		);
		assert.equal(outcome.error, undefined);
		assert.equal(outcome.raw.length, 3);
		assert.equal(outcome.items[0].id, PROJECT);
		assert.equal(outcome.items[2].id, CAFE);
		assert.match(String(outcome.items[1].error), /Project "Missing One" was not found/);
		assert.equal((outcome.raw[1].pairedItem as { item: number }).item, 1);
		assert.equal(outcome.requests.length, 3);
	});
});
