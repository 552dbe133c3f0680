/**
 * Node version 2 (what a node added today gets): the Output choice on every operation that returns records, Limit on
 * every list, one envelope for the AI reports, no `api_token` key on the account, and the node as an AI tool (small
 * default limit, never Return All, one answer capped with a note). Version 1 is what the other engine suites run:
 * saved workflows keep their items.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_SIMPLIFIED_FIELDS } from '../../nodes/shared/output';
import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';
import {
	TOOL_DEFAULT_LIMIT,
	TOOL_RESULT_MAX_CHARACTERS,
} from '../../nodes/KeywordCom/operation/tool';
import { OPERATIONS, registered } from '../operations';
import { parametersOf } from '../operations/engine';
import { assertNoTokenIn } from '../reliability/helpers';
import { PROJECT, rl, run, runOk, useFake } from './helpers';

const fake = useFake();
const v2 = { typeVersion: 2 };

/** The read operations that return records (the reports and confirmations have no Output choice). */
const RECORD_OPERATIONS = OPERATIONS.filter(
	(operation) => operation.returns === 'records' && !operation.mutates,
).map((operation) => operation.label);

/** The AI Visibility reports: one envelope in version 2. */
const REPORTS = OPERATIONS.filter((operation) => operation.returns === 'report');

/** The operation's parameters from the registry, version 2's defaults in place of Simplify. */
function recordCase(label: string): INodeParameters {
	const parameters = { ...parametersOf(registered(label), fake) };
	delete parameters.simplify;
	return parameters;
}

const hasKey = (value: unknown, key: string): boolean => JSON.stringify(value).includes(`"${key}"`);

describe('Output: Simplified (the default of version 2)', () => {
	for (const label of RECORD_OPERATIONS) {
		it(`${label}: at most ${MAX_SIMPLIFIED_FIELDS} fields a record, no token`, async () => {
			const { items } = await runOk(fake, recordCase(label), v2);
			assert.ok(items.length > 0, 'records came back');
			for (const item of items) {
				assert.ok(
					Object.keys(item).length <= MAX_SIMPLIFIED_FIELDS,
					`${Object.keys(item).length} fields: ${Object.keys(item).join(', ')}`,
				);
			}
			assertNoTokenIn(items, label);
			assert.ok(!hasKey(items, 'api_token'), 'no api_token key');
		});
	}

	it('keyword: the named fields, rank per the document (null outside the top results)', async () => {
		const { items } = await runOk(fake, recordCase('keyword getMany'), v2);
		assert.deepEqual(Object.keys(items[0]), [
			'id',
			'keyword',
			'project',
			'group',
			'region',
			'rank',
			'best_rank',
			'ranking_url',
			'search_volume',
			'crawled_at',
		]);
		const raw = (await runOk(fake, { ...recordCase('keyword getMany'), output: 'raw' }, v2)).items;
		for (const [index, item] of items.entries()) {
			const attributes = raw[index].attributes as IDataObject;
			const expected =
				attributes.grank_int === 0 || attributes.grank === null ? null : Number(attributes.grank);
			assert.equal(item.rank, expected, `keyword ${String(item.id)}`);
			assert.equal(item.project, PROJECT);
			assert.match(String(item.crawled_at), /^\d{4}-\d\d-\d\dT/);
		}
	});

	it('alert: the same item as the trigger emits (one output model), with the change in positions', async () => {
		const { items } = await runOk(
			fake,
			{ ...recordCase('alert getMany'), returnAll: false, limit: 5 },
			v2,
		);
		assert.equal(items.length, 5);
		assert.deepEqual(Object.keys(items[0]), [
			'id',
			'keyword',
			'project',
			'group',
			'region',
			'url',
			'previous_rank',
			'rank',
			'change',
			'created_at',
		]);
		for (const item of items) {
			if (
				typeof item.previous_rank === 'number' &&
				typeof item.rank === 'number' &&
				item.previous_rank > 0 &&
				item.rank > 0
			) {
				assert.equal(item.change, item.previous_rank - item.rank);
			}
		}
	});

	it('project metrics (#9): flat, for the chosen timeframe', async () => {
		const { items } = await runOk(
			fake,
			{ ...recordCase('project getMetrics'), timeframe: 'weekly' },
			v2,
		);
		assert.equal(items.length, 1);
		const [metrics] = items;
		assert.deepEqual(Object.keys(metrics), [
			'id',
			'timeframe',
			'total',
			'moved_up',
			'moved_down',
			'unchanged',
			'ranges',
		]);
		assert.equal(metrics.timeframe, 'weekly');
		assert.equal(typeof metrics.total, 'number');
		for (const range of metrics.ranges as IDataObject[])
			assert.deepEqual(Object.keys(range), ['title', 'count', 'change']);
	});

	it('account: no api_token key at all, unless the user asks for the token', async () => {
		for (const output of ['simplified', 'raw']) {
			const { items } = await runOk(fake, { resource: 'account', operation: 'get', output }, v2);
			assert.ok(!hasKey(items, 'api_token'), `${output}: no api_token key`);
		}
		const asked = await runOk(
			fake,
			{ resource: 'account', operation: 'get', options: { includeApiToken: true } },
			v2,
		);
		assert.equal(asked.items[0].api_token, fake.api.token, 'asked for: the token');
		assert.ok(Object.keys(asked.items[0]).length <= MAX_SIMPLIFIED_FIELDS);
	});
});

describe('Output: Raw and Selected Fields', () => {
	it('Raw is the record as the API sent it (version 1 with Simplify off gives the same, token removed)', async () => {
		for (const label of [
			'keyword getMany',
			'alert getMany',
			'project get',
			'aiSearchTerm getMany',
		]) {
			const raw = await runOk(fake, { ...recordCase(label), output: 'raw' }, v2);
			const legacy = await runOk(fake, { ...recordCase(label), simplify: false });
			assert.deepEqual(raw.items, legacy.items, label);
		}
	});

	it('Selected Fields returns exactly the fields picked, in that order (absent ones as null)', async () => {
		const fields = ['kw', 'grank', 'rankingurl', 'id'];
		const { items } = await runOk(
			fake,
			{ ...recordCase('keyword getMany'), output: 'selected', fields },
			v2,
		);
		for (const item of items) assert.deepEqual(Object.keys(item), fields);
		const plain = await runOk(
			fake,
			{ ...recordCase('project getRegions'), output: 'selected', fields: 'region, total' },
			v2,
		);
		for (const item of plain.items) assert.deepEqual(Object.keys(item), ['region', 'total']);
	});

	it('Selected Fields on Get Chart picks from the named entry (the raw one is positional): whole history', async () => {
		const fields = ['keyword', 'region', 'history'];
		const { items } = await runOk(
			fake,
			{ ...recordCase('rankingHistory getChart'), days: 14, output: 'selected', fields },
			v2,
		);
		assert.ok(items.length > 0);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), fields);
			assert.equal(typeof item.keyword, 'string');
			assert.equal((item.history as unknown[]).length, 14, 'not cut like Simplified');
		}
		assertNoTokenIn(items, 'getChart selected');
	});

	it('Selected Fields offers the fields of the record kind', () => {
		const keywordFields = RECORD_CATALOGUE.keyword.selectable;
		for (const name of ['kw', 'grank', 'rankingurl', 'ms', 'crawled_at'])
			assert.ok(keywordFields.includes(name), name);
	});

	it('Selected Fields with nothing picked: a clear error, and nothing is sent', async () => {
		// An expression that gives nothing (an empty Fields is refused by n8n itself before the run).
		const outcome = await run(
			fake,
			{ ...recordCase('keyword getMany'), output: 'selected', fields: '={{ [] }}' },
			v2,
		);
		assert.match(outcome.error?.message ?? '', /^Invalid Fields: pick at least one field/);
		assert.equal(outcome.requests.length, 0);
	});
});

describe('Limit on every list', () => {
	it('lists answered whole (projects, tags, regions, search terms…) take Return All / Limit', async () => {
		const all = await runOk(
			fake,
			{ resource: 'project', operation: 'getMany', returnAll: true },
			v2,
		);
		assert.ok(all.items.length > 2, `${all.items.length} projects`);
		const two = await runOk(fake, { resource: 'project', operation: 'getMany', limit: 2 }, v2);
		assert.deepEqual(two.items, all.items.slice(0, 2));
	});

	it('a limit out of range is said in plain words', async () => {
		const outcome = await run(
			fake,
			{ ...recordCase('keyword getMany'), returnAll: false, limit: 0 },
			v2,
		);
		assert.equal(
			outcome.error?.message,
			'Invalid Limit: "0" is out of range (it must be 1 or more)',
		);
		assert.equal(outcome.requests.length, 0);
	});

	it('version 1 lists answered whole still return everything (saved workflows)', async () => {
		const v1 = await runOk(fake, { resource: 'project', operation: 'getMany' });
		const all = await runOk(
			fake,
			{ resource: 'project', operation: 'getMany', returnAll: true, output: 'raw' },
			v2,
		);
		assert.equal(v1.items.length, all.items.length);
	});
});

describe(`AI visibility reports ${REPORTS.map((report) => `#${report.endpoints.join(' + #')}`).join(', ')}: one envelope`, () => {
	for (const { label } of REPORTS) {
		it(`${label}: the report itself (the content of data), no links`, async () => {
			const { items, requests } = await runOk(fake, recordCase(label), v2);
			assert.equal(items.length, 1);
			assert.equal(requests.length, 1);
			assert.ok(!('data' in items[0]) && !('links' in items[0]), Object.keys(items[0]).join(', '));
			assert.ok(Object.keys(items[0]).length > 0);
		});
	}

	it('version 1 keeps each report as it was', async () => {
		const sentiment = await runOk(fake, recordCase('aiMetric getSentiment'));
		assert.ok('data' in sentiment.items[0]);
		const dashboard = await runOk(fake, recordCase('aiMetric getDashboard'));
		assert.ok('ownBrandMetrics' in dashboard.items[0]);
	});
});

describe('As an AI tool', () => {
	const asTool = { ...v2, asTool: true };

	it(`lists default to ${TOOL_DEFAULT_LIMIT} records and never return all`, async () => {
		fake.api.addKeywords('Tool Bulk', 300);
		const byDefault = await runOk(
			fake,
			{ resource: 'keyword', operation: 'getMany', project: rl('Tool Bulk') },
			asTool,
		);
		assert.equal(byDefault.items.length, TOOL_DEFAULT_LIMIT);
		const all = await runOk(
			fake,
			{ resource: 'keyword', operation: 'getMany', project: rl('Tool Bulk'), returnAll: true },
			asTool,
		);
		assert.equal(
			all.items.length,
			TOOL_DEFAULT_LIMIT,
			'Return All saved on a tool is not honoured',
		);
		const projects = await runOk(
			fake,
			{ resource: 'project', operation: 'getMany', limit: 3 },
			asTool,
		);
		assert.equal(projects.items.length, 3);
	});

	it(`Ranking History → Get Many: ${TOOL_DEFAULT_LIMIT} rows by default, charting only the keywords they need; Return All saved is not honoured`, async () => {
		const rows = { resource: 'rankingHistory', operation: 'getMany', project: rl(PROJECT) };
		for (const parameters of [rows, { ...rows, returnAll: true }]) {
			const { items, requests } = await runOk(fake, parameters, asTool);
			assert.equal(items.length, TOOL_DEFAULT_LIMIT);
			assert.deepEqual(Object.keys(items[0]), [
				'date',
				'keyword_id',
				'keyword',
				'project',
				'group',
				'region',
				'rank',
				'previous_rank',
				'change',
				'ranking_url',
			]);
			// 20 rows of 30 days: the first keyword's chart is enough.
			const charts = requests.filter((request) => request.method === 'POST');
			assert.deepEqual(
				charts.map((chart) => (chart.body as { keyword_ids: unknown[] }).keyword_ids.length),
				[1],
			);
		}
	});

	it('one answer is capped in size, and a note says so and how to ask for less', async () => {
		const { items } = await runOk(
			fake,
			{
				resource: 'keyword',
				operation: 'getMany',
				project: rl('Tool Bulk'),
				limit: 300,
				output: 'raw',
			},
			asTool,
		);
		assert.ok(
			JSON.stringify(items).length <= TOOL_RESULT_MAX_CHARACTERS,
			`${JSON.stringify(items).length} characters`,
		);
		const note = items[items.length - 1];
		assert.match(String(note.note), /^Result cut to \d+ of 300 records to fit one tool answer/);
		assert.match(String(note.note), /smaller limit/);
		assert.ok(items.length > 2);
	});

	it('a report too big for one answer keeps its plain values and names what it left out', async () => {
		const raw = { ...recordCase('aiMetric getDashboard'), output: 'raw' };
		const { items } = await runOk(fake, raw, asTool);
		assert.ok(JSON.stringify(items).length <= TOOL_RESULT_MAX_CHARACTERS);
		assert.match(String(items[items.length - 1].note), /left out/);
		// Simplified, the default, is one row a day: the whole month fits one answer.
		const rows = (await runOk(fake, recordCase('aiMetric getDashboard'), asTool)).items;
		assert.ok(rows.length >= 28 && rows.every((row) => row.note === undefined));
	});

	it('what fits is returned as it is, with no note', async () => {
		const { items } = await runOk(
			fake,
			{ resource: 'keyword', operation: 'getMany', project: rl(PROJECT), limit: 5 },
			asTool,
		);
		assert.equal(items.length, 5);
		assert.ok(items.every((item) => item.note === undefined));
	});

	it('no token in any tool answer', async () => {
		for (const operation of OPERATIONS.filter((entry) => !entry.mutates)) {
			const { items } = await run(fake, parametersOf(operation, fake), asTool);
			assertNoTokenIn(items, operation.label);
		}
	});
});
