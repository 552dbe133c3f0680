/**
 * A token pasted into the wrong field never comes back, not even in part. Input errors quote the value the user typed;
 * the quote is redacted before it is clipped, and a value that holds the token or any 8-character piece of it is not
 * shown at all. Every field whose error quotes its value is run through n8n's engine with tokens of several lengths,
 * whole, wrapped, cut in half and URL-encoded; the error, the error object, the run data and every log line n8n wrote
 * are searched for any 8-character piece of the token (test/reliability/helpers.cts `findTokenLeak`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeParameters } from 'n8n-workflow';

import { describeFailure } from '../../nodes/shared/errors';
import { holdsTokenPiece, REDACTED, redactTokenPieces } from '../../nodes/shared/redact';
import {
	checkAiTimeframe,
	checkCurrency,
	checkDate,
	checkInteger,
	checkKeywordText,
	checkNumericId,
	checkOneOf,
	checkOpaqueId,
	checkTextList,
	checkUrl,
	InputError,
} from '../../nodes/shared/validation';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { assertOperationError } from '../engine/helpers.cjs';
import { INPUT_NODE_NAME, clearCapturedLogs, getCapturedLogs, runPoll } from '../harness/index.cjs';
import {
	PROJECT,
	assertNoTokenIn,
	findTokenLeak,
	keywordAddParameters,
	keywordIdsOf,
	rl,
	run,
	useFake,
} from './helpers.cjs';

/** Tokens of several lengths, with the characters real tokens and URL encoding make interesting. */
const TOKENS = [8, 13, 24, 40, 64, 100].map((length) => {
	const alphabet = 'aB3dE5gH7jK9mN1pQ+rS/tU=vW2xY4zC6';
	let token = '';
	for (let index = 0; index < length; index++)
		token += alphabet[(index * 7 + length) % alphabet.length];
	return token;
});

/** How a token ends up in a field: pasted whole, inside other text, its first half, URL-encoded. */
function pastedForms(token: string): Array<{ label: string; value: string }> {
	return [
		{ label: 'the token', value: token },
		{ label: 'the token inside text', value: `id ${token} copied` },
		{ label: 'its first half', value: token.slice(0, Math.ceil(token.length / 2)) },
		{ label: 'URL-encoded', value: encodeURIComponent(token) },
	];
}

function inputError(check: () => unknown): InputError {
	try {
		check();
	} catch (error) {
		if (error instanceof InputError) return error;
		throw error;
	}
	assert.fail('expected an InputError');
}

/** Every validator that quotes the value it refuses, with how to make a pasted value invalid for it. */
const QUOTING_CHECKS: Array<{ name: string; check: (value: string) => unknown }> = [
	{
		name: 'keyword with control characters',
		check: (value) => checkKeywordText('Keywords', `${value}\u0001`),
	},
	{
		name: 'keyword over 150 characters',
		check: (value) => checkKeywordText('Keywords', `${value} ${'x'.repeat(150)}`),
	},
	{ name: 'numeric id', check: (value) => checkNumericId('Keyword ID', `${value}x`) },
	{ name: 'opaque id', check: (value) => checkOpaqueId('Domain', `${value} x`) },
	{ name: 'currency', check: (value) => checkCurrency('Currency Code', value) },
	{ name: 'date', check: (value) => checkDate('Date', value) },
	{ name: 'whole number', check: (value) => checkInteger('Days', `${value}x`, 1, 180) },
	{ name: 'one of', check: (value) => checkOneOf('Range', value, [7, 30]) },
	{ name: 'AI timeframe', check: (value) => checkAiTimeframe('Timeframe', `${value}x`) },
	{ name: 'text list', check: (value) => checkTextList('Topics', [`${value}\u0001`]) },
	{ name: 'URL', check: (value) => checkUrl('URL', `${value} x`) },
];

describe('input errors never quote a token, whole or in part (pure)', () => {
	it('every quoting check, every token length, every way of pasting it', () => {
		let checked = 0;
		for (const token of TOKENS) {
			for (const { name, check } of QUOTING_CHECKS) {
				for (const { label, value } of pastedForms(token)) {
					const error = inputError(() => check(value));
					const rendered = error.render(token);
					assert.equal(
						findTokenLeak(rendered, token),
						undefined,
						`${name}, ${label}, ${token.length} characters: ${rendered}`,
					);
					assert.equal(findTokenLeak(error.message, token), undefined, `${name}: Error.message`);
					checked++;
				}
			}
		}
		assert.equal(checked, TOKENS.length * QUOTING_CHECKS.length * 4);
	});

	it('a value holding a piece of the token is not shown at all; any other value is shown, clipped', () => {
		const token = TOKENS[3];
		const pasted = inputError(() => checkNumericId('Keyword ID', `abc ${token.slice(5, 15)} def`));
		assert.equal(
			pasted.render(token),
			`Keyword ID: "${REDACTED}" is not a valid id (expected a positive whole number)`,
		);
		const ordinary = inputError(() => checkNumericId('Keyword ID', 'abc'));
		assert.equal(
			ordinary.render(token),
			'Keyword ID: "abc" is not a valid id (expected a positive whole number)',
		);
		const long = inputError(() => checkNumericId('Keyword ID', `${'y'.repeat(60)}`));
		assert.equal(
			long.render(token),
			`Keyword ID: "${'y'.repeat(40)}…" is not a valid id (expected a positive whole number)`,
		);
		// Without the token (nothing to check against) the message never shows the value.
		assert.equal(
			ordinary.message,
			'Keyword ID: "…" is not a valid id (expected a positive whole number)',
		);
	});

	it('clipping never cuts a token in half: the API message is redacted before it is cut', () => {
		for (const token of TOKENS) {
			// The token straddles the 300-character cut of the API's message.
			const body = { message: `${'m'.repeat(290)} ${token} after` };
			const failure = describeFailure({ status: 422, body }, token);
			assert.equal(findTokenLeak(failure, token), undefined, `${token.length}: ${failure.message}`);
			// The mark itself may be cut: what matters is that nothing of the token is left in front of it.
			assert.match(failure.message, /\[redacted/);
		}
	});

	it('a message echoing part of the token (a cut-off or mangled echo) loses that part', () => {
		const token = TOKENS[4];
		const echoed = `token ${token.slice(0, 20)}… is not valid; try ${token.slice(30, 45).toUpperCase()}`;
		const clean = redactTokenPieces(echoed, token);
		assert.equal(findTokenLeak(clean, token), undefined, clean);
		assert.equal(clean, `token ${REDACTED}… is not valid; try ${REDACTED}`);
		assert.equal(redactTokenPieces('nothing to see here', token), 'nothing to see here');
		assert.equal(holdsTokenPiece('short', token), false);
		assert.equal(holdsTokenPiece(encodeURIComponent(token.slice(10, 30)), token), true);
	});
});

const fake = useFake();

/** Every field of the node whose input error quotes the value, with where the pasted value goes. */
function quotingFields(): Array<{ field: string; parameters: (value: string) => INodeParameters }> {
	const keywordId = keywordIdsOf(fake, PROJECT)[0];
	const domain = fake.api.state.aiDomains[0].id;
	const dashboard = (filters: INodeParameters): INodeParameters => ({
		resource: 'aiMetric',
		operation: 'getDashboard',
		domainId: rl(domain, 'id'),
		filters,
	});
	const competitor = (extra: INodeParameters): INodeParameters => ({
		resource: 'competitor',
		operation: 'getHistory',
		project: rl(PROJECT),
		keywordId,
		startDate: '2026-01-10',
		endDate: '2026-01-12',
		...extra,
	});
	return [
		{
			field: 'Keywords (control characters)',
			parameters: (value) => keywordAddParameters({ keywords: [`${value}\u0001`] }),
		},
		{
			field: 'Keywords (too long)',
			parameters: (value) => keywordAddParameters({ keywords: [`${value} ${'k'.repeat(150)}`] }),
		},
		{ field: 'URL', parameters: (value) => keywordAddParameters({ url: `${value} x` }) },
		{
			field: 'Chunk Size',
			parameters: (value) => keywordAddParameters({ options: { chunkSize: `${value}x` } }),
		},
		{
			field: 'Currency Code',
			parameters: (value) => ({
				resource: 'project',
				operation: 'create',
				projectName: 'Never Created',
				currencyCode: value,
			}),
		},
		{
			field: 'Keyword ID (get)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				keywordId: `${value}x`,
			}),
		},
		{
			field: 'Keyword ID (delete)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'delete',
				project: rl(PROJECT),
				keywordId: `${value}x`,
			}),
		},
		{
			field: 'Keyword ID (competitor)',
			parameters: (value) => competitor({ keywordId: `${value}x` }),
		},
		{
			field: 'Keywords (update)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'updateMany',
				project: rl(PROJECT),
				keywordIds: `${keywordId}, ${value}x`,
				updateFields: { notes: 'n' },
			}),
		},
		{
			field: 'Keywords (delete many)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'deleteMany',
				project: rl(PROJECT),
				keywordIds: `${value}x`,
			}),
		},
		{
			field: 'Keywords (chart)',
			parameters: (value) => ({
				resource: 'rankingHistory',
				operation: 'getChart',
				keywordIds: `${value}x`,
			}),
		},
		{
			field: 'Tag',
			parameters: (value) => ({
				resource: 'project',
				operation: 'getMetrics',
				project: rl(PROJECT),
				options: { tagId: `${value}x` },
			}),
		},
		{
			field: 'Date (keyword get)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				keywordId,
				options: { date: value },
			}),
		},
		{
			field: 'Date (keyword list)',
			parameters: (value) => ({
				resource: 'keyword',
				operation: 'getMany',
				project: rl(PROJECT),
				limit: 5,
				options: { date: value },
			}),
		},
		{ field: 'Start Date', parameters: (value) => competitor({ startDate: value }) },
		{ field: 'End Date', parameters: (value) => competitor({ endDate: value }) },
		{
			field: 'Days (chart)',
			parameters: (value) => ({
				resource: 'rankingHistory',
				operation: 'getChart',
				keywordIds: keywordId,
				days: `${value}x`,
			}),
		},
		{
			field: 'Range',
			parameters: (value) => ({
				resource: 'shareOfVoice',
				operation: 'getHistory',
				project: rl(PROJECT),
				daysRange: value,
			}),
		},
		{
			field: 'Timeframe (project metrics)',
			parameters: (value) => ({
				resource: 'project',
				operation: 'getMetrics',
				project: rl(PROJECT),
				timeframe: value,
			}),
		},
		{ field: 'Timeframe (AI)', parameters: (value) => dashboard({ timeframe: `${value}x` }) },
		{ field: 'Period Offset', parameters: (value) => dashboard({ periodOffset: `${value}x` }) },
		{ field: 'Aggregation', parameters: (value) => dashboard({ aggregation: value }) },
		{ field: 'Topics', parameters: (value) => dashboard({ topics: [`${value}\u0001`] }) },
		{
			field: 'Domain',
			parameters: (value) => ({
				resource: 'aiDomain',
				operation: 'get',
				domainId: rl(`${value} x`, 'id'),
			}),
		},
		{
			field: 'Last (Days)',
			parameters: (value) => ({
				resource: 'alert',
				operation: 'getMany',
				limit: 5,
				options: { last: `${value}x` },
			}),
		},
	];
}

/** The workflow node n8n attaches to errors holds the parameters exactly as typed: the user's own input. */
const USER_INPUT = ['node', 'parameters'];

describe('input errors never quote a token, whole or in part (through n8n, logs included)', () => {
	it('every field whose error quotes its value, tokens of several lengths: no request, no 8-character piece anywhere', async () => {
		clearCapturedLogs();
		let runs = 0;
		for (const token of TOKENS) {
			for (const { field, parameters } of quotingFields()) {
				for (const { label, value } of pastedForms(token)) {
					const outcome = await run(fake, parameters(value), { apiToken: token });
					const where = `${field}, ${label}, ${token.length}-character token`;
					assert.ok(outcome.error, `${where}: fails`);
					assert.equal(outcome.requests.length, 0, `${where}: nothing sent`);
					assert.match(outcome.error.message, /^Invalid /, where);
					assertOperationError(outcome.error);
					assertNoTokenIn(outcome.error.message, `${where}: message`, token);
					assertNoTokenIn(outcome.error.description, `${where}: description`, token);
					assertNoTokenIn(outcome.error, `${where}: the error object`, token, USER_INPUT);
					assertNoTokenIn(
						outcome.result.run.data.resultData,
						`${where}: the run data`,
						token,
						USER_INPUT,
					);
					runs++;
				}
			}
			for (const entry of getCapturedLogs()) {
				assertNoTokenIn(
					{ message: entry.message, metadata: entry.metadata },
					`log line "${entry.message}"`,
					token,
					USER_INPUT,
				);
			}
		}
		assert.equal(runs, TOKENS.length * quotingFields().length * 4);
	});

	it('Continue On Fail: the error items carry no piece of the token either', async () => {
		const token = TOKENS[3];
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'get', project: rl(PROJECT), keywordId: '={{ $json.id }}' },
			{
				apiToken: token,
				continueOnFail: true,
				items: [{ json: { id: `${token}x` } }, { json: { id: token.slice(0, 20) } }],
			},
		);
		assert.equal(outcome.requests.length, 0);
		assert.equal(outcome.raw.length, 2);
		assert.ok(
			outcome.raw.every((item) => item.error || item.json.error),
			JSON.stringify(outcome.items),
		);
		assertNoTokenIn(outcome.raw, 'error items', token, USER_INPUT);
		// The input items are the user's own data (they hold the pasted token); what the node produced may not.
		assertNoTokenIn(outcome.result.run.data.resultData, 'run data', token, [
			...USER_INPUT,
			INPUT_NODE_NAME,
		]);
	});

	it('the trigger’s fields: an input error carries no piece of the token', async () => {
		const token = TOKENS[5];
		const result = await runPoll({
			nodeType: new KeywordComTrigger(),
			parameters: { event: 'newAlert', project: rl(`${token}[sub]x`) },
			credentials: { keywordComApi: { apiToken: token, baseUrl: `${fake.baseUrl}/` } },
		});
		assert.ok(result.error);
		assert.match(result.error.message, /\[sub\]/);
		assertNoTokenIn(
			{
				message: result.error.message,
				description: (result.error as { description?: string }).description,
			},
			'trigger input error',
			token,
		);
	});
});
