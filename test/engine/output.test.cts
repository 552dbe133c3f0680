/**
 * The Output choice on every operation that returns records, Limit on every list, the AI reports as sent, no
 * `api_token` key on the account, and the node as an AI tool (small default limit, never Return All, one answer
 * capped with a note).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_SIMPLIFIED_FIELDS } from '../../nodes/shared/output';
import { shapeAnswer } from '../../nodes/KeywordCom/operation/shape';
import type { OperationConfig } from '../../nodes/KeywordCom/operation/types';
import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';
import {
	TOOL_DEFAULT_LIMIT,
	TOOL_RESULT_MAX_CHARACTERS,
} from '../../nodes/KeywordCom/operation/tool';
import { OPERATIONS, registered } from '../operations/index.cjs';
import { parametersOf } from '../operations/engine.cjs';
import { assertNoTokenIn } from '../reliability/helpers.cjs';
import { PROJECT, rl, run, runOk, useFake } from './helpers.cjs';

const fake = useFake();

/** The read operations that return records (the reports and confirmations have no Output choice). */
const RECORD_OPERATIONS = OPERATIONS.filter(
	(operation) => operation.returns === 'records' && !operation.mutates,
).map((operation) => operation.label);

/** The AI Visibility reports whose shape the document does not show. */
const REPORTS = OPERATIONS.filter((operation) => operation.returns === 'report');

/** The operation's parameters from the registry (its Output left at the default). */
function recordCase(label: string): INodeParameters {
	const parameters = { ...parametersOf(registered(label), fake) };
	delete parameters.output;
	return parameters;
}

const hasKey = (value: unknown, key: string): boolean => JSON.stringify(value).includes(`"${key}"`);

describe('Output: Simplified (the default)', () => {
	for (const label of RECORD_OPERATIONS) {
		it(`${label}: at most ${MAX_SIMPLIFIED_FIELDS} fields a record, no token`, async () => {
			const { items } = await runOk(fake, recordCase(label));
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
		const { items } = await runOk(fake, recordCase('keyword getMany'));
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
		const raw = (await runOk(fake, { ...recordCase('keyword getMany'), output: 'raw' })).items;
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
		const { items } = await runOk(fake, {
			...recordCase('alert getMany'),
			returnAll: false,
			limit: 5,
		});
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
		const { items } = await runOk(fake, {
			...recordCase('project getMetrics'),
			timeframe: 'weekly',
		});
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
			const { items } = await runOk(fake, { resource: 'account', operation: 'get', output });
			assert.ok(!hasKey(items, 'api_token'), `${output}: no api_token key`);
		}
		const asked = await runOk(fake, {
			resource: 'account',
			operation: 'get',
			options: { includeApiToken: true },
		});
		assert.equal(asked.items[0].api_token, fake.api.token, 'asked for: the token');
		assert.ok(Object.keys(asked.items[0]).length <= MAX_SIMPLIFIED_FIELDS);
	});
});

describe('Output: Raw and Selected Fields', () => {
	it('Raw is the record as the API sent it, token removed', async () => {
		const raw = await runOk(fake, { ...recordCase('keyword getMany'), output: 'raw' });
		const first = raw.items[0];
		assert.equal(first.type, 'keyword');
		assert.equal(typeof (first.attributes as IDataObject).kw, 'string');
		assertNoTokenIn(raw.items, 'raw');
	});

	it('Selected Fields returns exactly the fields picked, in that order (absent ones as null)', async () => {
		const fields = ['keyword', 'rank', 'ranking_url', 'id', 'device'];
		const { items } = await runOk(fake, {
			...recordCase('keyword getMany'),
			output: 'selected',
			fields,
		});
		for (const item of items) assert.deepEqual(Object.keys(item), fields);
		const plain = await runOk(fake, {
			...recordCase('project getRegions'),
			output: 'selected',
			fields: 'region, keywords',
		});
		for (const item of plain.items) assert.deepEqual(Object.keys(item), ['region', 'keywords']);
	});

	it('Selected Fields refuses a name that is no field of the record, before any request', async () => {
		const outcome = await run(fake, {
			...recordCase('keyword getMany'),
			output: 'selected',
			fields: '={{ ["keyword", "kw"] }}',
		});
		assert.match(
			outcome.error?.message ?? '',
			/^Invalid Fields: "kw" is not a field of this record/,
		);
		assert.equal(outcome.requests.length, 0);
	});

	it('Selected Fields on Get Chart picks from the named entry (the raw one is positional): whole history', async () => {
		const fields = ['keyword', 'region', 'history'];
		const { items } = await runOk(fake, {
			...recordCase('rankingHistory getChart'),
			days: 14,
			output: 'selected',
			fields,
		});
		assert.ok(items.length > 0);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), fields);
			assert.equal(typeof item.keyword, 'string');
			assert.equal((item.history as unknown[]).length, 14, 'not cut like Simplified');
		}
		assertNoTokenIn(items, 'getChart selected');
	});

	it('Selected Fields offers the fields of the record kind, by the names Simplified uses', () => {
		const keywordFields = Object.keys(RECORD_CATALOGUE.keyword.fields);
		for (const name of RECORD_CATALOGUE.keyword.simplified)
			assert.ok(keywordFields.includes(name), name);
		for (const raw of ['kw', 'grank', 'rankingurl', 'ms'])
			assert.ok(!keywordFields.includes(raw), raw);
	});

	it('Selected Fields with nothing picked: a clear error, and nothing is sent', async () => {
		// An expression that gives nothing (an empty Fields is refused by n8n itself before the run).
		const outcome = await run(fake, {
			...recordCase('keyword getMany'),
			output: 'selected',
			fields: '={{ [] }}',
		});
		assert.match(outcome.error?.message ?? '', /^Invalid Fields: pick at least one field/);
		assert.equal(outcome.requests.length, 0);
	});
});

describe('Limit on every list', () => {
	it('lists answered whole (projects, tags, regions, search terms…) take Return All / Limit', async () => {
		const all = await runOk(fake, { resource: 'project', operation: 'getMany', returnAll: true });
		assert.ok(all.items.length > 2, `${all.items.length} projects`);
		const two = await runOk(fake, { resource: 'project', operation: 'getMany', limit: 2 });
		assert.deepEqual(two.items, all.items.slice(0, 2));
	});

	it('a limit out of range is said in plain words', async () => {
		const outcome = await run(fake, {
			...recordCase('keyword getMany'),
			returnAll: false,
			limit: 0,
		});
		assert.equal(
			outcome.error?.message,
			'Invalid Limit: "0" is out of range (it must be 1 or more)',
		);
		assert.equal(outcome.requests.length, 0);
	});
});

describe(`AI visibility reports ${REPORTS.map((report) => `#${report.endpoints.join(' + #')}`).join(', ')}: as sent`, () => {
	for (const { label } of REPORTS) {
		// The document does not show these bodies: nothing beside `data` is dropped (the fake sends `meta` with it).
		it(`${label}: the whole answer but its links, when more than data comes`, async () => {
			const { items, requests } = await runOk(fake, recordCase(label));
			assert.equal(items.length, 1);
			assert.equal(requests.length, 1);
			assert.deepEqual(Object.keys(items[0]).sort(), ['data', 'meta']);
		});
	}

	it('the content of data when nothing else comes beside it', () => {
		const config = { output: { type: 'report' } } as OperationConfig;
		const runtime = { input: { get: () => undefined } } as never;
		assert.deepEqual(shapeAnswer(config, { data: { score: 1 }, links: {} }, runtime), [
			{ score: 1 },
		]);
		assert.deepEqual(shapeAnswer(config, { data: { score: 1 }, meta: { n: 2 } }, runtime), [
			{ data: { score: 1 }, meta: { n: 2 } },
		]);
	});
});

describe('As an AI tool', () => {
	const asTool = { asTool: true };

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
