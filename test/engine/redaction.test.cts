/**
 * The API token never reaches an output item, an error, or the execution data n8n stores: the API echoes it in list
 * links (`api_token=<token>`) and in the account record. The account token is shown only when the user opts in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { OPERATIONS, showsParameter } from '../operations/index.cjs';
import { parametersOf } from '../operations/engine.cjs';
import {
	CAFE,
	PROJECT,
	TOKEN,
	assertNoTokenIn,
	keywordIdsOf,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

/** The output items, the error, and everything n8n keeps of the run. */
function assertRunHasNoToken(outcome: Awaited<ReturnType<typeof run>>) {
	assertNoTokenIn(outcome.items);
	assertNoTokenIn(outcome.raw);
	if (outcome.error)
		assertNoTokenIn({ message: outcome.error.message, description: outcome.error.description });
	assertNoTokenIn(outcome.result.run.data);
}

describe('redaction (engine)', () => {
	it('the fake really echoes the token in list links (so the checks below mean something)', async () => {
		const response = await fetch(
			`${fake.baseUrl}/api/v2/groups/Acme%20Shoes/keywords/?per_page=2`,
			{
				headers: { authorization: `Bearer ${TOKEN}` },
			},
		);
		const text = await response.text();
		assert.ok(
			text.includes(`api_token=${encodeURIComponent(TOKEN)}`),
			'links carry the encoded token',
		);
		const account = await (
			await fetch(`${fake.baseUrl}/api/v2/users/self`, {
				headers: { authorization: `Bearer ${TOKEN}` },
			})
		).text();
		assert.ok(account.includes(JSON.stringify(TOKEN)), 'the account record carries the token');
	});

	// Every operation, reads first; the writes work on throw-away records (test/operations/fixtures.cts). A read with
	// the Output choice runs simplified and raw; a write runs once.
	for (const operation of OPERATIONS) {
		const endpoint = operation.endpoints.map((number) => `#${number}`).join(' + ');
		const both = showsParameter(operation, 'output', 1) && !operation.mutates;
		it(`${endpoint} ${operation.label}: no token in any output item or run data${both ? ' (simplified and raw)' : ''}`, async () => {
			const parameters = parametersOf(operation, fake);
			const outcome = await runOk(
				fake,
				both ? { ...parameters, output: 'simplified' } : parameters,
			);
			assert.ok(outcome.requests.length >= 1);
			assertRunHasNoToken(outcome);
			if (both) {
				const raw = await runOk(fake, { ...parameters, output: 'raw' });
				assertRunHasNoToken(raw);
			}
		});
	}

	it('#13 a token inside record text (notes, URLs) is removed; the rest of the text is kept', async () => {
		const id = keywordIdsOf(fake, CAFE)[0];
		await runOk(fake, {
			resource: 'keyword',
			operation: 'updateMany',
			project: rl(CAFE),
			keywordIds: id,
			updateFields: {
				notes: `see https://example.ch/r?api_token=${encodeURIComponent(TOKEN)}&page=2 and token ${TOKEN} end`,
			},
		});
		const listed = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(CAFE),
			returnAll: true,
			output: 'raw',
		});
		assertRunHasNoToken(listed);
		const record = listed.items.find((item) => item.id === id)!;
		const notes = String((record.attributes as IDataObject).notes);
		assert.ok(notes.startsWith('see https://example.ch/r?page=2 and token '), notes);
		assert.ok(notes.endsWith(' end'), notes);
	});

	it('#1 a forged answer with the token in links, URLs and a nested api_token is cleaned everywhere', async () => {
		const forged = {
			data: [
				{
					type: 'group',
					id: 'Forged',
					attributes: {
						name: 'Forged',
						url: `https://forged.example/x?api_token=${TOKEN}&keep=1`,
						company_desc: `Bearer ${TOKEN}`,
						nested: { api_token: 'other-secret', list: [`${encodeURIComponent(TOKEN)}`] },
						tags: [],
					},
				},
			],
			links: {
				self: `https://forged.example/api/v2/groups/active?api_token=${encodeURIComponent(TOKEN)}`,
			},
		};
		fake.api.injectFault({
			method: 'GET',
			path: '/api/v2/groups/active',
			times: 2,
			status: 200,
			body: JSON.stringify(forged),
		});
		const raw = await runOk(fake, { resource: 'project', operation: 'getMany', output: 'raw' });
		assertRunHasNoToken(raw);
		const attributes = raw.items[0].attributes as IDataObject;
		assert.equal(attributes.url, 'https://forged.example/x?keep=1');
		assert.equal((attributes.nested as IDataObject).api_token, '[redacted]');
		const simplified = await runOk(fake, { resource: 'project', operation: 'getMany' });
		assertRunHasNoToken(simplified);
		assert.equal(simplified.items[0].url, 'https://forged.example/x?keep=1');
	});

	it('#5 a body answer (refresh) whose message contains the token and links is cleaned', async () => {
		fake.api.injectFault({
			method: 'POST',
			path: '/api/v2/keywords/refresh',
			times: 1,
			status: 200,
			body: JSON.stringify({
				message: `Refresh started for token ${TOKEN}.`,
				links: { self: `https://x/?api_token=${TOKEN}` },
			}),
		});
		const outcome = await runOk(fake, {
			resource: 'project',
			operation: 'refresh',
			project: rl(PROJECT),
		});
		assertRunHasNoToken(outcome);
		assert.equal(outcome.items[0].links, undefined);
		assert.equal(outcome.items[0].message, 'Refresh started for token [redacted].');
	});

	it('#10 redaction leaves ordinary text alone: a keyword or name ending in "?" keeps its "?"', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(CAFE),
			keywords: ['wo ist das beste café?'],
			url: 'cafe-zuerich.ch',
		});
		assert.equal(
			(requests[0].body as { data: Array<{ attributes: IDataObject }> }).data[0].attributes.kw,
			'wo ist das beste café?',
		);
		assert.equal(
			fake.api.state.keywords.get(Number((items[0].keywords as IDataObject[])[0].id))?.kw,
			'wo ist das beste café?',
		);
		assert.equal(
			(items[0].keywords as IDataObject[])[0].keyword,
			'wo ist das beste café?',
			'the output keeps the keyword as stored',
		);
		const listed = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(CAFE),
			returnAll: true,
		});
		assert.ok(
			listed.items.some((item) => item.keyword === 'wo ist das beste café?'),
			'the list shows the keyword with its "?"',
		);
	});

	it('#22 the account api_token is left out by default, in simplified and raw output', async () => {
		const simplified = await runOk(fake, { resource: 'account', operation: 'get' });
		assert.equal('api_token' in simplified.items[0], false);
		const raw = await runOk(fake, { resource: 'account', operation: 'get', output: 'raw' });
		assert.equal('api_token' in (raw.items[0].attributes as IDataObject), false);
		assertRunHasNoToken(raw);
	});

	it('#22 the account api_token is shown only with Include API Token', async () => {
		const shown = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			options: { includeApiToken: true },
		});
		assert.equal(shown.items[0].api_token, TOKEN);
		const rawShown = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			output: 'raw',
			options: { includeApiToken: true },
		});
		assert.equal((rawShown.items[0].attributes as IDataObject).api_token, TOKEN);
		const off = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			options: { includeApiToken: false },
		});
		assert.equal('api_token' in off.items[0], false);
	});

	it('#2 an API error whose JSON body contains the token yields a message and description without it', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: `/api/v2/groups/${PROJECT}`,
			times: 1,
			status: 422,
			body: JSON.stringify({
				errors: [
					{
						status: '422',
						title: 'Unprocessable Entity',
						detail: `Token ${TOKEN} may not read this (see ?api_token=${encodeURIComponent(TOKEN)})`,
					},
				],
			}),
		});
		const outcome = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(PROJECT),
		});
		assert.ok(outcome.error);
		assert.equal(outcome.error.httpCode, '422');
		assert.equal(outcome.requests.length, 1);
		assert.match(outcome.error.message, /may not read this/);
		assertRunHasNoToken(outcome);
		assertNoTokenIn(
			JSON.stringify(outcome.error.raw, Object.getOwnPropertyNames(outcome.error.raw)),
		);
	});

	it('#10 a 500 plain-text error body with the token (POST, not retried) is cleaned', async () => {
		fake.api.injectFault({
			method: 'POST',
			path: `/api/v2/groups/${PROJECT}/keywords`,
			times: 1,
			status: 500,
			body: `Fatal error: Authorization Bearer ${TOKEN} rejected at /api/v2?api_token=${TOKEN}`,
		});
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(PROJECT),
			keywords: ['redaction 500'],
			url: 'acmeshoes.com',
		});
		assert.ok(outcome.error);
		assert.equal(outcome.error.httpCode, '500');
		assert.equal(outcome.requests.length, 1);
		assert.match(outcome.error.message, /Fatal error/);
		assertRunHasNoToken(outcome);
	});

	it('#2 the same error with continueOnFail: the error item carries no token', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: `/api/v2/groups/${PROJECT}`,
			times: 1,
			status: 404,
			body: JSON.stringify({ errors: [{ detail: `Nothing here for ${TOKEN}` }] }),
		});
		const outcome = await run(
			fake,
			{ resource: 'project', operation: 'get', project: rl(PROJECT) },
			{ continueOnFail: true },
		);
		assert.equal(outcome.raw.length, 1);
		assert.match(String(outcome.items[0].error), /Nothing here for/);
		assertRunHasNoToken(outcome);
	});

	it('#22 a wrong token credential: the 401 error does not echo the token that was sent', async () => {
		const wrong = 'wrong-secret-token-555';
		const outcome = await run(fake, { resource: 'account', operation: 'get' }, { apiToken: wrong });
		assert.equal(outcome.error?.httpCode, '401');
		assertNoTokenIn(
			{ message: outcome.error?.message, description: outcome.error?.description },
			wrong,
		);
		assertNoTokenIn(outcome.result.run.data, wrong);
	});
});
