/**
 * Item 4 of the hardening issue: the API token never leaks. Every operation runs on its success path and on its
 * error paths — including answers that echo the token (plain, URL-encoded, in links, in HTML) and requests whose
 * path carries it — and neither the token nor its URL-encoded forms may appear in any output item, error message,
 * error description, the error object as n8n stores it, or any log line n8n wrote.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { clearCapturedLogs, getCapturedLogs, runListSearch } from '../harness/index.cjs';
import { REDACTED, redactText, stripTokenParameter } from '../../nodes/shared/redact';
import { OPERATIONS, registered } from '../operations/index.cjs';
import { parametersOf } from '../operations/engine.cjs';
import {
	TOKEN,
	assertNoTokenIn,
	findTokenLeak,
	rl,
	run,
	runOk,
	useFake,
	type Outcome,
} from './helpers.cjs';

const fake = useFake();
const ENC = encodeURIComponent(TOKEN);

/** Error bodies that repeat the token the way a server might. */
const ECHOING_BODIES: Array<{ shape: string; body: string }> = [
	{
		shape: 'JSON message + links',
		body: JSON.stringify({
			message: `Token ${TOKEN} is not allowed here`,
			links: { self: `http://127.0.0.1/api/v2/groups?api_token=${ENC}&page=2` },
		}),
	},
	{
		shape: 'JSON:API errors[] with the encoded token',
		body: JSON.stringify({
			errors: [
				{ status: '422', detail: `Bad request for api_token=${ENC}`, source: { parameter: ENC } },
			],
		}),
	},
	{
		shape: 'HTML',
		body: `<html><head><title>Denied ${TOKEN}</title></head><body>${ENC}</body></html>`,
	},
	{ shape: 'plain text, lower-case escapes', body: `nope ${ENC.toLowerCase()} and ${TOKEN}` },
];

/**
 * The workflow node n8n attaches to errors and run data holds the parameters as the user typed them: when the user
 * typed the token into a field, that is their own input, not a leak. Everything else is searched.
 */
const USER_INPUT = ['node', 'parameters'];

function checkOutcome(label: string, outcome: Outcome): void {
	assertNoTokenIn(outcome.items, `${label}: output items`);
	for (const item of outcome.raw) assertNoTokenIn(item.error, `${label}: error of an item`);
	if (outcome.error) {
		assertNoTokenIn(outcome.error.message, `${label}: error message`);
		assertNoTokenIn(outcome.error.description, `${label}: error description`);
		assertNoTokenIn(outcome.error.raw, `${label}: the error object`, TOKEN, USER_INPUT);
	}
	// What n8n keeps of the run (and would save in the execution data).
	assertNoTokenIn(outcome.result.run.data.resultData, `${label}: the run data`, TOKEN, USER_INPUT);
}

/** Every log line n8n wrote: its message and its metadata (errors included, their node's parameters excepted). */
function assertNoTokenInLogs(): void {
	const logs = getCapturedLogs();
	assert.ok(logs.length > 0, 'n8n logged something');
	for (const entry of logs) {
		assertNoTokenIn(
			{ level: entry.level, message: entry.message, metadata: entry.metadata },
			`log line "${entry.message}"`,
			TOKEN,
			USER_INPUT,
		);
	}
}

describe('redaction (pure)', () => {
	it('removes the token in every encoding, api_token assignments anywhere, and leaves ordinary text alone', () => {
		const twice = encodeURIComponent(ENC);
		const text = `a ${TOKEN} b ${ENC} c ${ENC.toLowerCase()} d ${twice} e see api_token=${'x'.repeat(8)} f`;
		const redacted = redactText(text, TOKEN);
		assert.equal(findTokenLeak(redacted), undefined, redacted);
		assert.equal(
			redacted,
			`a ${REDACTED} b ${REDACTED} c ${REDACTED} d ${REDACTED} e see api_token=${REDACTED} f`,
		);
		for (const ordinary of [
			'wo ist das beste café?',
			'a?b',
			'api_tokens are great',
			'100% + 50%',
			'?',
		]) {
			assert.equal(redactText(ordinary, TOKEN), ordinary);
		}
		assert.equal(stripTokenParameter(`https://x/a?page=2&api_token=${ENC}`), 'https://x/a?page=2');
		assert.equal(
			redactText('short', 'abc'),
			'short',
			'tokens under 4 characters are not searched (too many false hits)',
		);
	});
});

describe('the token never leaks', () => {
	it('on every operation’s success path (the API puts the token in links and in the account record)', async () => {
		clearCapturedLogs();
		for (const operation of OPERATIONS) {
			const outcome = await runOk(fake, parametersOf(operation, fake));
			checkOutcome(operation.label, outcome);
		}
		// The fake really does repeat the token (in the account record), so the test is not vacuous.
		const answer = await fetch(`${fake.baseUrl}/api/v2/users/self&include_subscriptions`, {
			headers: { authorization: `Bearer ${TOKEN}` },
		});
		assert.ok((await answer.text()).includes(TOKEN));
		assertNoTokenInLogs();
	});

	it('on every operation’s error paths: echoing bodies, dropped connections, wrong token, Continue On Fail', async () => {
		clearCapturedLogs();
		let runs = 0;
		// A read is retried after these (1 s, then 2 s… without Retry-After): two reads stand for all of them.
		const dropsToo = OPERATIONS.filter(
			(operation) =>
				operation.mutates || ['project get', 'keyword getMany'].includes(operation.label),
		);
		for (const operation of OPERATIONS) {
			const parameters = parametersOf(operation, fake);
			// A read (for the retry policy: a GET, or a POST that only reads) gets a 500, retried; a write a 422.
			const status = operation.method === 'GET' || !operation.mutates ? 500 : 422;
			for (const { shape, body } of ECHOING_BODIES) {
				fake.api.injectFault({ times: 5, status, body, retryAfter: '0' });
				const outcome = await run(fake, parameters);
				assert.ok(outcome.error, `${operation.label} ${shape}: fails`);
				assert.match(
					outcome.error.message,
					/\[redacted\]|HTTP \d{3}/,
					`${operation.label} ${shape}: ${outcome.error.message}`,
				);
				checkOutcome(`${operation.label} / ${status} ${shape}`, outcome);
				runs++;
			}
			if (dropsToo.includes(operation)) {
				fake.api.injectFault({ times: 1, kind: 'drop' });
				checkOutcome(`${operation.label} / drop`, await run(fake, parameters));
				fake.api.injectFault({
					times: 1,
					kind: 'non-json',
					body: `<html><title>${TOKEN}</title></html>`,
				});
				checkOutcome(`${operation.label} / non-JSON`, await run(fake, parameters));
				runs += 2;
			}
		}
		// A wrong token is a secret too.
		const wrong = 'wrong+Secret/Token=99';
		for (const operation of OPERATIONS.slice(0, 5)) {
			const outcome = await run(fake, parametersOf(operation, fake), { apiToken: wrong });
			assert.equal(outcome.error?.httpCode, '401');
			assertNoTokenIn(outcome.error, `${operation.label} / wrong token`, wrong);
			assertNoTokenIn(
				outcome.result.run.data.resultData,
				`${operation.label} / wrong token run data`,
				wrong,
				USER_INPUT,
			);
		}
		// Continue On Fail: the error items.
		fake.api.injectFault({
			times: 10,
			status: 500,
			retryAfter: '0',
			body: JSON.stringify({ message: `echo ${TOKEN}` }),
		});
		const cof = await run(fake, parametersOf(registered('project get'), fake), {
			continueOnFail: true,
			items: [{ json: {} }, { json: {} }],
		});
		assert.ok(
			cof.raw.some((item) => item.json.error !== undefined),
			'an error item',
		);
		checkOutcome('continue on fail', cof);
		assert.equal(runs, OPERATIONS.length * ECHOING_BODIES.length + 2 * dropsToo.length);
		assertNoTokenInLogs();
	});

	it('when the request path carries the token (a name or id typed as the token)', async () => {
		clearCapturedLogs();
		const cases = [
			{ resource: 'project', operation: 'get', project: rl(TOKEN) },
			{ resource: 'project', operation: 'delete', project: rl('Acme Shoes'), group: rl(TOKEN) },
			{ resource: 'keyword', operation: 'getMany', project: rl(`x ${TOKEN}`), returnAll: true },
			{ resource: 'aiDomain', operation: 'get', domainId: rl(ENC, 'id') },
			{ resource: 'project', operation: 'create', projectName: TOKEN, currencyCode: 'USD' },
		];
		for (const parameters of cases) {
			fake.api.injectFault({ times: 1, kind: 'drop' });
			checkOutcome(`${JSON.stringify(parameters)} / drop`, await run(fake, parameters));
			const outcome = await run(fake, parameters);
			checkOutcome(JSON.stringify(parameters), outcome);
		}
		// The project created under the token's name is listed with its name redacted.
		const list = await runOk(fake, { resource: 'project', operation: 'getMany' });
		checkOutcome('project list', list);
		assertNoTokenInLogs();
	});

	it('when an input error quotes a value that is the token', async () => {
		const outcome = await run(fake, {
			resource: 'keyword',
			operation: 'get',
			project: rl('Acme Shoes'),
			keywordId: TOKEN,
		});
		assert.equal(outcome.requests.length, 0);
		checkOutcome('input error', outcome);
	});

	it('in the keyword picker: its list, the AI tool’s lookup by text, answers echoing the token, a text that is it', async () => {
		clearCapturedLogs();
		const tool = { typeVersion: 1, asTool: true };
		const byText = (keywordId: string) => ({
			resource: 'keyword',
			operation: 'delete',
			project: rl('Acme Shoes'),
			keywordId,
		});
		const searchList = async (filter?: string) =>
			await runListSearch({
				nodeType: fake.node,
				method: 'searchKeywords',
				parameters: { resource: 'keyword', operation: 'get', project: rl('Acme Shoes') },
				credentials: { keywordComApi: { apiToken: TOKEN, baseUrl: fake.baseUrl } },
				filter,
			});
		assertNoTokenIn(await searchList(), 'the list');
		for (const { shape, body } of ECHOING_BODIES) {
			fake.api.injectFault({ times: 5, status: 500, body, retryAfter: '0' });
			const outcome = await run(fake, byText('acme shoes'), tool);
			assert.ok(outcome.error, `lookup ${shape}: fails`);
			assert.ok(!outcome.requests.some((request) => request.method === 'DELETE'));
			checkOutcome(`lookup / ${shape}`, outcome);
			fake.api.clearFaults();
			fake.api.injectFault({ times: 5, status: 500, body, retryAfter: '0' });
			await assert.rejects(searchList('shoes'), (error: Error) => {
				assertNoTokenIn(error, `list search / ${shape}`, TOKEN, USER_INPUT);
				return true;
			});
			fake.api.clearFaults();
		}
		for (const text of [TOKEN, `shoes ${TOKEN}`, ENC]) {
			const outcome = await run(fake, byText(text), tool);
			assert.ok(outcome.error, 'no keyword has that text');
			assert.ok(!outcome.requests.some((request) => request.method === 'DELETE'));
			checkOutcome(`lookup of the token as text`, outcome);
			assertNoTokenIn(await searchList(text), 'the list searched for the token');
		}
		assertNoTokenInLogs();
	});
});
