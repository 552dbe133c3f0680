/** Account resource: #22 GET /api/v2/users/self&include_subscriptions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	TOKEN,
	assertNoTokenIn,
	assertPaired,
	assertSingleRequest,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

const ACCOUNT_PATH = '/api/v2/users/self&include_subscriptions';

describe('account (engine)', () => {
	it('#22 account get reads /users/self&include_subscriptions (flag on the path); simplified, no token', async () => {
		const { items, raw, requests } = await runOk(fake, { resource: 'account', operation: 'get' });
		assertSingleRequest(requests, { method: 'GET', rawPath: ACCOUNT_PATH, query: {}, body: null });
		assert.equal(requests[0].rawQuery, '');
		assert.equal(items.length, 1);
		assertPaired(raw, 0);
		const account = items[0];
		assert.equal(account.id, '4242');
		assert.equal(account.name, 'Demo User');
		assert.equal(account.plan, 'Business 5000 (Daily)');
		assert.equal(typeof account.keywords_used, 'number');
		assert.deepEqual(Object.keys(account.refreshes as IDataObject).sort(), [
			'limit',
			'remaining',
			'used',
		]);
		assert.equal('api_token' in account, false);
		assertNoTokenIn(items);
	});

	it('#22 account get raw returns the user record without its api_token', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			output: 'raw',
		});
		assertSingleRequest(requests, { method: 'GET', rawPath: ACCOUNT_PATH, query: {} });
		assert.equal(items[0].type, 'user');
		const attributes = items[0].attributes as IDataObject;
		assert.equal(attributes.user_id, 4242);
		assert.deepEqual(attributes.package_info, { title: 'Business 5000 (Daily)' });
		assert.equal('api_token' in attributes, false);
		assertNoTokenIn(items);
	});

	it('#22 account get with Include API Token reveals the token (simplified and raw)', async () => {
		const simplified = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			options: { includeApiToken: true },
		});
		assertSingleRequest(simplified.requests, { method: 'GET', rawPath: ACCOUNT_PATH, query: {} });
		assert.equal(simplified.items[0].api_token, TOKEN);
		const raw = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			output: 'raw',
			options: { includeApiToken: true },
		});
		assert.equal((raw.items[0].attributes as IDataObject).api_token, TOKEN);
	});

	it('#22 account get reflects usage: adding a keyword moves used and daily_added', async () => {
		const before = (await runOk(fake, { resource: 'account', operation: 'get' })).items[0];
		await runOk(fake, {
			resource: 'keyword',
			operation: 'add',
			project: { __rl: true, mode: 'name', value: 'Acme Shoes' },
			keywords: ['account usage keyword'],
			url: 'acmeshoes.com',
		});
		const afterAdd = (await runOk(fake, { resource: 'account', operation: 'get' })).items[0];
		assert.equal(afterAdd.keywords_used, (before.keywords_used as number) + 1);
		assert.equal(
			(afterAdd.daily_added as IDataObject).used,
			((before.daily_added as IDataObject).used as number) + 1,
		);
	});
});
