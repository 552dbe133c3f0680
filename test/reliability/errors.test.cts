/**
 * Every HTTP failure becomes an error a user can act on — the status, the API's own message whatever the shape of its
 * body, and what to check — exactly as n8n's engine hands it to the user; and "Continue On Fail" pairs one error item
 * with each failed input item while the others go on. Input refused before any request (and its Continue On Fail
 * items): test/engine/bad-input.test.cts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeExecutionData } from 'n8n-workflow';

import { PROJECT, describeRequests, rl, run, useFake } from './helpers.cjs';

const fake = useFake();

const PROJECT_GET = { resource: 'project', operation: 'get', project: rl(PROJECT) };

/** What the description must tell the user to check, by status. */
const ADVICE: Record<number, RegExp> = {
	400: /Check the values of the fields/,
	401: /API token was rejected.*Settings → Account/,
	403: /plan limits/,
	404: /Check the project or group name/,
	405: /Base URL/,
	422: /refused one of the values/,
	429: /plan/,
	500: /Try again later/,
	502: /Try again later/,
	503: /Try again later/,
	504: /Try again later/,
};

const API_MESSAGE = 'The widget frobnicated badly';

/** Body shapes an error may come in, and the API message the user must see (undefined: none to show). */
const BODIES: Array<{ shape: string; body?: string; expected?: RegExp }> = [
	{
		shape: 'the fake’s JSON:API errors[]',
		body: undefined,
		expected: /Injected fault: HTTP \d+\./,
	},
	{
		shape: 'JSON:API errors[] with a pointer',
		body: JSON.stringify({
			errors: [
				{
					status: '422',
					title: 'Unprocessable',
					detail: API_MESSAGE,
					source: { pointer: '/data/0/attributes/kw' },
				},
			],
		}),
		expected: new RegExp(`${API_MESSAGE} \\(/data/0/attributes/kw\\)`),
	},
	{
		shape: '{message}',
		body: JSON.stringify({ message: API_MESSAGE }),
		expected: new RegExp(API_MESSAGE),
	},
	{
		shape: '{error: {message}}',
		body: JSON.stringify({ error: { message: API_MESSAGE, code: 17 } }),
		expected: new RegExp(API_MESSAGE),
	},
	{
		shape: 'Laravel {errors: {field: [..]}}',
		body: JSON.stringify({ message: '', errors: { kw: [API_MESSAGE] } }),
		expected: new RegExp(`kw: ${API_MESSAGE}`),
	},
	{ shape: 'plain text', body: API_MESSAGE, expected: new RegExp(API_MESSAGE) },
	{
		shape: 'HTML page',
		body: `<!DOCTYPE html><html><head><title>${API_MESSAGE}</title></head><body><h1>Oops</h1><script>x()</script></body></html>`,
		expected: new RegExp(API_MESSAGE),
	},
	{ shape: 'empty', body: '', expected: undefined },
	{ shape: 'JSON without a message', body: JSON.stringify({ foo: 1 }), expected: undefined },
];

describe('every failing status becomes a plain-language error, whatever the body', () => {
	for (const status of [400, 401, 403, 404, 405, 422, 429, 500, 502, 503, 504]) {
		it(`HTTP ${status}`, async () => {
			for (const { shape, body, expected } of BODIES) {
				// Retry-After 0: 429 and 5xx on a read are retried (5 attempts) without waiting.
				fake.api.injectFault({
					path: `/api/v2/groups/${PROJECT}`,
					times: 5,
					status,
					body,
					retryAfter: '0',
				});
				const outcome = await run(fake, PROJECT_GET);
				const { error } = outcome;
				assert.ok(error, `${status} ${shape}: the node must fail`);
				assert.equal(
					error.name,
					'KeywordComApiError',
					`${status} ${shape}: a NodeApiError subclass`,
				);
				assert.equal(error.httpCode, String(status), `${status} ${shape}: httpCode`);
				assert.match(
					error.message,
					new RegExp(`\\(HTTP ${status}\\)`),
					`${status} ${shape}: status in "${error.message}"`,
				);
				if (expected)
					assert.match(
						error.message,
						expected,
						`${status} ${shape}: API message in "${error.message}"`,
					);
				else
					assert.match(
						error.message,
						new RegExp(`\\(HTTP ${status}\\)$`),
						`${status} ${shape}: nothing invented`,
					);
				assert.doesNotMatch(
					error.message,
					/<|script|\{|\}/,
					`${status} ${shape}: no markup or raw JSON in "${error.message}"`,
				);
				assert.match(
					error.description ?? '',
					ADVICE[status],
					`${status} ${shape}: advice in "${error.description}"`,
				);
				assert.match(
					error.description ?? '',
					/GET \/api\/v2\/groups\/Acme%20Shoes/,
					'which request failed',
				);
				// n8n's generic status texts must not replace ours.
				assert.doesNotMatch(
					error.message,
					/please check|The resource you are requesting|The service/,
				);
				const retried = status === 429 || status >= 500;
				assert.equal(
					outcome.requests.length,
					retried ? 5 : 1,
					`${status} ${shape}: ${describeRequests(outcome.requests)}`,
				);
				if (retried) assert.match(error.description ?? '', /after 5 attempts/);
			}
		});
	}

	it('real 401 (wrong token), 404 (unknown project) and 422 (restore of an active project) from the fake', async () => {
		const wrongToken = await run(fake, PROJECT_GET, { apiToken: 'not-the-token' });
		assert.match(
			wrongToken.error?.message ?? '',
			/^Authentication failed \(HTTP 401\): The API token is invalid\.$/,
		);
		assert.match(
			wrongToken.error?.description ?? '',
			/Copy it again from Keyword\.com → Settings → Account/,
		);

		const unknown = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('No Such Project'),
		});
		assert.equal(
			unknown.error?.message,
			'Not found (HTTP 404): Project "No Such Project" was not found.',
		);
		assert.match(unknown.error?.description ?? '', /case and spaces matter/);

		const notArchived = await run(fake, {
			resource: 'project',
			operation: 'restore',
			project: rl(PROJECT),
		});
		assert.match(notArchived.error?.message ?? '', /^Invalid value \(HTTP 422\): .+/);
		assert.equal(notArchived.requests.length, 1);
	});

	it('n8n never swaps our message for its generic text (network codes, code-like words in names)', async () => {
		// "KEEPERMAN" contains "EPERM": NodeApiError would replace the whole message with "Operation not permitted…".
		const keeper = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('Keeperman Econnreset'),
		});
		assert.equal(
			keeper.error?.message,
			'Not found (HTTP 404): Project "Keeperman Econnreset" was not found.',
		);

		fake.api.injectFault({ method: 'POST', times: 1, kind: 'drop' });
		const dropped = await run(fake, {
			resource: 'project',
			operation: 'create',
			projectName: 'Dropped',
			currencyCode: 'USD',
		});
		assert.equal(
			dropped.error?.message,
			'The connection to Keyword.com was closed before an answer arrived.',
		);
		assert.doesNotMatch(dropped.error?.description ?? '', /retry the request immediately/);
		assert.match(
			dropped.error?.description ?? '',
			/may have been carried out.*did not send it again/,
		);
		assert.equal(dropped.error?.httpCode, null, 'no HTTP answer, no HTTP code');
	});

	it('an unreadable success answer (non-JSON, empty, cut off) on a create is reported, not retried', async () => {
		for (const kind of ['non-json', 'empty', 'truncated'] as const) {
			fake.api.injectFault({ method: 'POST', path: '/api/v2/groups', times: 1, kind });
			const outcome = await run(fake, {
				resource: 'project',
				operation: 'create',
				projectName: `Unreadable ${kind}`,
				currencyCode: 'USD',
			});
			assert.match(
				outcome.error?.message ?? '',
				/answered HTTP 200 with a body that could not be read/,
				kind,
			);
			assert.match(
				outcome.error?.description ?? '',
				/empty, cut off or not JSON.*may have been carried out/,
				kind,
			);
			assert.equal(outcome.requests.length, 1, `${kind}: ${describeRequests(outcome.requests)}`);
		}
	});
});

function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

describe('Continue On Fail', () => {
	it('gives one error item per failed input item, paired with it, and the other items go on', async () => {
		const names = [PROJECT, 'No Such Project', '   ', 'Café Zürich', 'Bad [sub] Name', 'Boom'];
		fake.api.injectFault({
			path: '/api/v2/groups/Boom',
			times: 1,
			status: 403,
			body: JSON.stringify({ message: 'Plan limit reached' }),
		});
		const outcome = await run(
			fake,
			{ resource: 'project', operation: 'get', project: rl('={{ $json.name }}') },
			{ continueOnFail: true, items: names.map((name) => ({ json: { name } })) },
		);
		assert.equal(outcome.error, undefined, 'the node itself does not fail');
		assert.equal(outcome.raw.length, names.length, 'one output item per input item');
		outcome.raw.forEach((item, index) =>
			assert.equal(pairedIndex(item), index, `item ${index} is paired with its input`),
		);

		const [acme, missing, blank, cafe, sub, boom] = outcome.raw;
		assert.equal(acme.json.name, PROJECT);
		assert.equal(cafe.json.name, 'Café Zürich');
		assert.match(
			String(missing.json.error),
			/^Not found \(HTTP 404\): Project "No Such Project" was not found\.$/,
		);
		assert.match(String(blank.json.error), /Project: must not be empty/);
		assert.match(String(sub.json.error), /Project: must not contain "\[sub\]"/);
		assert.match(String(boom.json.error), /^Forbidden \(HTTP 403\): Plan limit reached$/);
		// The hint rides along with the message (n8n's own error item keeps the message only), under `details`: an
		// item of only error/message/details is what n8n sends down the error output.
		for (const item of [missing, boom])
			assert.ok(typeof item.json.details === 'string', 'the hint rides along');
		assert.match(String(boom.json.details), /plan limits/);
		// Only the valid items reached the API.
		assert.deepEqual(
			outcome.requests.map((request) => request.path),
			[
				'/api/v2/groups/Acme Shoes',
				'/api/v2/groups/No Such Project',
				'/api/v2/groups/Café Zürich',
				'/api/v2/groups/Boom',
			],
		);
	});
});
