/**
 * Bad input through the engine: every value the specification bounds is checked before any request. Each case must
 * fail with a NodeOperationError whose message names the field, and the fake must receive nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	PROJECT,
	assertInputError,
	keywordAddParameters as add,
	keywordIdsOf,
	rl,
	run,
	useFake,
} from './helpers.cjs';

const fake = useFake();

interface BadCase {
	name: string;
	parameters: () => INodeParameters;
	/** Text the error message must contain: the field's name as the user sees it. */
	field: string;
	/** Extra check of the message (what is wrong). */
	message?: RegExp;
	/** Expected in the error description (a hint). */
	description?: RegExp;
	items?: INodeExecutionData[];
}

const keywordId = () => keywordIdsOf(fake, PROJECT)[0];
const domainId = () => fake.api.state.aiDomains[0].id;

const dashboard = (filters: INodeParameters): INodeParameters => ({
	resource: 'aiMetric',
	operation: 'getDashboard',
	domainId: rl(domainId(), 'id'),
	filters,
});
const competitor = (extra: INodeParameters): INodeParameters => ({
	resource: 'competitor',
	operation: 'getHistory',
	project: rl(PROJECT),
	keywordId: keywordId(),
	startDate: '2026-01-10',
	endDate: '2026-01-12',
	...extra,
});

const CASES: BadCase[] = [
	// Keywords (#10)
	{
		name: 'keyword over 150 characters',
		parameters: () => add({ keywords: ['x'.repeat(151)] }),
		field: 'Keywords',
		message: /151 characters.*150/,
	},
	{
		name: 'keyword over 150 characters (non-ASCII letters count as one)',
		parameters: () => add({ keywords: ['ok', 'ü'.repeat(151)] }),
		field: 'Keywords',
		message: /151 characters/,
	},
	{
		name: 'keyword list empty',
		parameters: () => add({ keywords: [] }),
		field: 'Keywords',
		message: /at least one keyword/,
	},
	{
		name: 'keyword list of blanks only (expression text)',
		parameters: () => add({ keywords: '={{ " , , " }}' }),
		field: 'Keywords',
	},
	{
		name: 'keyword with a line break',
		parameters: () => add({ keywords: ['two\nlines'] }),
		field: 'Keywords',
		message: /control characters/,
	},
	{ name: 'add keywords without URL', parameters: () => add({ url: '={{ "" }}' }), field: 'URL' },
	{
		name: 'add keywords with Chunk Size 0',
		parameters: () => add({ options: { chunkSize: 0 } }),
		field: 'Chunk Size',
	},
	{
		name: 'add keywords with Source 7',
		parameters: () => add({ additionalFields: { source: 7 } }),
		field: 'Source',
	},
	// Names
	{
		name: 'empty project name (create)',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: '={{ "" }}',
			currencyCode: 'USD',
		}),
		field: 'Project Name',
		message: /must not be empty/,
	},
	{
		name: 'blank project name (create)',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: '   ',
			currencyCode: 'USD',
		}),
		field: 'Project Name',
	},
	{
		name: 'empty project (get)',
		parameters: () => ({ resource: 'project', operation: 'get', project: rl('={{ "" }}') }),
		field: 'Project',
		message: /must not be empty/,
	},
	{
		name: 'typed [sub] in a project name',
		parameters: () => ({
			resource: 'project',
			operation: 'get',
			project: rl(`${PROJECT}[sub]Blog`),
		}),
		field: 'Project',
		message: /\[sub\]/,
		description: /"Group"/i,
	},
	{
		name: 'typed [SUB] in a group name',
		parameters: () => ({
			resource: 'keyword',
			operation: 'getMany',
			project: rl(PROJECT),
			group: rl('[SUB]Blog'),
			limit: 5,
		}),
		field: 'Group',
		message: /\[sub\]/,
	},
	{
		name: 'typed [sub] in Project Name (create)',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: 'A[sub]B',
			currencyCode: 'USD',
		}),
		field: 'Project Name',
	},
	// Currency (#7)
	{
		name: 'currency EURO',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: 'Bad Currency',
			currencyCode: 'EURO',
		}),
		field: 'Currency Code',
		message: /EURO/,
	},
	{
		name: 'currency E1R',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: 'Bad Currency',
			currencyCode: 'E1R',
		}),
		field: 'Currency Code',
	},
	{
		name: 'currency empty',
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: 'Bad Currency',
			currencyCode: '={{ "" }}',
		}),
		field: 'Currency Code',
	},
	// Ranges
	{
		name: 'daysrange 60',
		parameters: () => ({
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(PROJECT),
			daysRange: 60,
		}),
		field: 'Range',
		message: /60/,
	},
	{
		name: 'daysrange 0 from an expression',
		parameters: () => ({
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(PROJECT),
			daysRange: '={{ 0 }}',
		}),
		field: 'Range',
	},
	{
		name: 'days (chart limit) 181',
		parameters: () => ({
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: keywordId(),
			days: 181,
		}),
		field: 'Days',
		message: /181/,
	},
	{
		name: 'days (chart limit) 0',
		parameters: () => ({
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: keywordId(),
			days: 0,
		}),
		field: 'Days',
	},
	{
		name: 'days (chart limit) 2.5',
		parameters: () => ({
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: keywordId(),
			days: 2.5,
		}),
		field: 'Days',
	},
	{
		name: 'period_offset -366',
		parameters: () => dashboard({ periodOffset: -366 }),
		field: 'Period Offset',
		message: /-366/,
	},
	{
		name: 'period_offset 1',
		parameters: () => dashboard({ periodOffset: 1 }),
		field: 'Period Offset',
	},
	{
		name: 'AI timeframe 2w',
		parameters: () => dashboard({ timeframe: '2w' }),
		field: 'Timeframe',
		message: /2w/,
	},
	{
		name: 'AI timeframe 366 days',
		parameters: () => dashboard({ timeframe: '366' }),
		field: 'Timeframe',
	},
	{
		name: 'AI timeframe 0 days',
		parameters: () => dashboard({ timeframe: '0' }),
		field: 'Timeframe',
	},
	{
		name: 'AI aggregation yearly',
		parameters: () => dashboard({ aggregation: '={{ "yearly" }}' }),
		field: 'Aggregation',
	},
	{
		name: 'AI topics with an empty entry',
		parameters: () => dashboard({ topics: ['Brand', ''] }),
		field: 'Topics',
	},
	{
		name: 'project metrics timeframe hourly',
		parameters: () => ({
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
			timeframe: 'hourly',
		}),
		field: 'Timeframe',
		message: /hourly/,
	},
	{
		name: 'project metrics tag id abc',
		parameters: () => ({
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
			options: { tagId: 'abc' },
		}),
		field: 'Tag',
	},
	{
		name: 'alerts last 0 days',
		parameters: () => ({ resource: 'alert', operation: 'getMany', limit: 5, options: { last: 0 } }),
		field: 'Last (Days)',
	},
	// Dates
	{
		name: 'date 2026-02-30 (keyword get)',
		parameters: () => ({
			resource: 'keyword',
			operation: 'get',
			project: rl(PROJECT),
			keywordId: keywordId(),
			options: { date: '2026-02-30' },
		}),
		field: 'Date',
		message: /2026-02-30/,
	},
	{
		name: 'date 15/01/2026 (keyword getMany)',
		parameters: () => ({
			resource: 'keyword',
			operation: 'getMany',
			project: rl(PROJECT),
			limit: 5,
			options: { date: '15/01/2026' },
		}),
		field: 'Date',
	},
	{
		name: 'date 2026-13-01 (keyword delete)',
		parameters: () => ({
			resource: 'keyword',
			operation: 'delete',
			project: rl(PROJECT),
			keywordId: keywordId(),
			options: { date: '2026-13-01' },
		}),
		field: 'Date',
	},
	{
		name: 'start date "yesterday" (competitor)',
		parameters: () => competitor({ startDate: 'yesterday' }),
		field: 'Start Date',
	},
	{
		name: 'end date 2026-1-5 (competitor)',
		parameters: () => competitor({ endDate: '2026-1-5' }),
		field: 'End Date',
	},
	{
		name: 'end date before start date (competitor)',
		parameters: () => competitor({ startDate: '2026-01-12', endDate: '2026-01-10' }),
		field: 'Start Date',
		message: /End Date/,
	},
	{
		name: 'missing end date (competitor)',
		parameters: () => competitor({ endDate: '={{ "" }}' }),
		field: 'End Date',
	},
	// Id lists (#14, #16, #17)
	{
		name: 'empty id list for bulk update',
		parameters: () => ({
			resource: 'keyword',
			operation: 'updateMany',
			project: rl(PROJECT),
			keywordIds: '={{ "" }}',
			updateFields: { notes: 'x' },
		}),
		field: 'Keywords',
		message: /at least one id/,
	},
	{
		name: 'empty id list for bulk delete',
		parameters: () => ({
			resource: 'keyword',
			operation: 'deleteMany',
			project: rl(PROJECT),
			keywordIds: ' , ',
		}),
		field: 'Keywords',
		message: /at least one id/,
	},
	{
		name: 'empty id list from an expression for bulk delete',
		parameters: () => ({
			resource: 'keyword',
			operation: 'deleteMany',
			project: rl(PROJECT),
			keywordIds: '={{ [] }}',
		}),
		field: 'Keywords',
	},
	{
		name: 'keyword ids 1,1',
		parameters: () => ({
			resource: 'keyword',
			operation: 'deleteMany',
			project: rl(PROJECT),
			keywordIds: '1,1',
		}),
		field: 'Keywords',
		message: /twice/,
	},
	{
		name: 'keyword ids with a word',
		parameters: () => ({
			resource: 'keyword',
			operation: 'updateMany',
			project: rl(PROJECT),
			keywordIds: '101, abc',
			updateFields: { notes: 'x' },
		}),
		field: 'Keywords',
		message: /abc/,
	},
	{
		name: 'empty id list for the chart',
		parameters: () => ({
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: '={{ "" }}',
		}),
		field: 'Keywords',
	},
	{
		name: 'bulk update without fields',
		parameters: () => ({
			resource: 'keyword',
			operation: 'updateMany',
			project: rl(PROJECT),
			keywordIds: keywordId(),
		}),
		field: 'Update Fields',
	},
	{
		name: 'bulk update with invalid JSON',
		parameters: () => ({
			resource: 'keyword',
			operation: 'updateMany',
			project: rl(PROJECT),
			keywordIds: keywordId(),
			updateFields: { json: '{notes: x' },
		}),
		field: 'Other Attributes (JSON)',
	},
	// Numeric ids
	{
		name: 'non-numeric keyword id (get)',
		parameters: () => ({
			resource: 'keyword',
			operation: 'get',
			project: rl(PROJECT),
			keywordId: 'abc',
		}),
		field: 'Keyword ID',
		message: /abc/,
	},
	{
		name: 'non-numeric keyword id (delete)',
		parameters: () => ({
			resource: 'keyword',
			operation: 'delete',
			project: rl(PROJECT),
			keywordId: '12 3',
		}),
		field: 'Keyword ID',
	},
	{
		name: 'keyword id with a path (competitor)',
		parameters: () => competitor({ keywordId: '1/../2' }),
		field: 'Keyword ID',
	},
	{
		name: 'domain id with a slash',
		parameters: () => ({ resource: 'aiDomain', operation: 'get', domainId: rl('a/b', 'id') }),
		field: 'Domain',
	},
	{
		name: 'empty domain id',
		parameters: () => ({
			resource: 'aiSearchTerm',
			operation: 'getMany',
			domainId: rl('={{ "" }}', 'id'),
		}),
		field: 'Domain',
	},
];

describe('bad input (engine): NodeOperationError naming the field, no request sent', () => {
	for (const badCase of CASES) {
		it(badCase.name, async () => {
			const outcome = await run(fake, badCase.parameters(), { items: badCase.items });
			assert.ok(
				outcome.error,
				`expected an error, got ${JSON.stringify(outcome.items).slice(0, 200)}`,
			);
			assert.equal(
				outcome.requests.length,
				0,
				`no request may be sent: ${outcome.requests.map((r) => `${r.method} ${r.rawPath}`).join(' | ')}`,
			);
			if (badCase.message) assert.match(outcome.error.message, badCase.message);
			if (badCase.description)
				assert.match(String(outcome.error.description ?? ''), badCase.description);
			assertInputError(outcome, badCase.field);
		});
	}

	// Literal empty required fields and a By ID value that fails the field's regex never reach the node: n8n refuses
	// the workflow before running it (WorkflowHasIssuesError naming the field), so nothing is sent either.
	const REFUSED_BY_N8N: Array<{ name: string; parameters: () => INodeParameters; issue: RegExp }> =
		[
			{
				name: 'empty project name (create)',
				parameters: () => ({
					resource: 'project',
					operation: 'create',
					projectName: '',
					currencyCode: 'USD',
				}),
				issue: /"Project Name" is required/,
			},
			{
				name: 'empty project (get)',
				parameters: () => ({ resource: 'project', operation: 'get', project: rl('') }),
				issue: /"Project" is required/,
			},
			{
				name: 'empty currency',
				parameters: () => ({
					resource: 'project',
					operation: 'create',
					projectName: 'X',
					currencyCode: '',
				}),
				issue: /"Currency Code" is required/,
			},
			{ name: 'empty URL (add)', parameters: () => add({ url: '' }), issue: /"URL" is required/ },
			{
				name: 'empty id list for bulk update',
				parameters: () => ({
					resource: 'keyword',
					operation: 'updateMany',
					project: rl(PROJECT),
					keywordIds: [],
					updateFields: { notes: 'x' },
				}),
				issue: /"Keyword Names or IDs" is required/,
			},
			{
				name: 'empty domain',
				parameters: () => ({
					resource: 'aiSearchTerm',
					operation: 'getMany',
					domainId: rl('', 'id'),
				}),
				issue: /"Domain" is required/,
			},
		];
	for (const refused of REFUSED_BY_N8N) {
		it(`refused by n8n before running: ${refused.name} (no request)`, async () => {
			fake.api.clearRequests();
			await assert.rejects(run(fake, refused.parameters()), (error: Error) => {
				assert.equal(error.name, 'WorkflowHasIssuesError');
				assert.match(error.message, refused.issue);
				return true;
			});
			assert.equal(fake.api.requests.length, 0);
		});
	}

	it('a bad value in one of many items stops the run at that item; earlier items were already sent', async () => {
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'get', project: rl(PROJECT), keywordId: '={{ $json.id }}' },
			{ items: [{ json: { id: keywordId() } }, { json: { id: 'not-a-number' } }] },
		);
		assert.ok(outcome.error);
		assert.match(outcome.error.message, /Keyword ID/);
		assert.equal(outcome.error.itemIndex, 1);
		assert.ok(
			outcome.requests.every((request) => !request.rawPath.includes('not-a-number')),
			'the bad item sent nothing',
		);
	});

	describe('continueOnFail', () => {
		it('#10 keyword add: 3 items, the middle one bad → 3 items, the middle an error item paired with item 1', async () => {
			const before = keywordIdsOf(fake, PROJECT).length;
			const outcome = await run(fake, add({ keywords: '={{ $json.kw }}' }), {
				continueOnFail: true,
				items: [
					{ json: { kw: 'continue one' } },
					{ json: { kw: 'y'.repeat(151) } },
					{ json: { kw: 'continue three' } },
				],
			});
			assert.equal(outcome.error, undefined);
			assert.equal(outcome.raw.length, 3);
			assert.deepEqual(
				outcome.raw.map((item) => (item.pairedItem as { item: number }).item),
				[0, 1, 2],
			);
			assert.equal(outcome.items[0].added, 1);
			assert.equal(
				(outcome.items[0].keywords as Array<{ keyword: string }>)[0].keyword,
				'continue one',
			);
			assert.equal(outcome.items[2].added, 1);
			assert.equal(
				(outcome.items[2].keywords as Array<{ keyword: string }>)[0].keyword,
				'continue three',
			);
			assert.match(String(outcome.items[1].error), /Keywords.*151 characters/);
			assert.equal(outcome.items[1].added, undefined);
			// Only the two good items reached the API.
			assert.equal(outcome.requests.length, 2);
			assert.deepEqual(
				outcome.requests.map(
					(request) =>
						(request.body as { data: Array<{ attributes: { kw: string } }> }).data[0].attributes.kw,
				),
				['continue one', 'continue three'],
			);
			assert.equal(keywordIdsOf(fake, PROJECT).length, before + 2);
		});

		it('#10 keyword add: a bad Chunk Size with continueOnFail is an error item worded like every input error', async () => {
			const outcome = await run(
				fake,
				add({ keywords: ['chunk check'], options: { chunkSize: 0 } }),
				{ continueOnFail: true },
			);
			assert.equal(outcome.requests.length, 0);
			assert.equal(outcome.raw.length, 1);
			assert.match(String(outcome.items[0].error), /Chunk Size/);
			assert.match(
				String(outcome.items[0].error),
				/^Invalid Chunk Size/,
				'worded like every other input error',
			);
			assert.ok(
				Object.keys(outcome.items[0]).every((key) => ['error', 'details'].includes(key)),
				'keys n8n routes as an error',
			);
		});

		it('#11 keyword get: 3 items, the middle id bad → two keywords and one error item', async () => {
			const ids = keywordIdsOf(fake, PROJECT);
			const outcome = await run(
				fake,
				{
					resource: 'keyword',
					operation: 'get',
					project: rl(PROJECT),
					keywordId: '={{ $json.id }}',
				},
				{
					continueOnFail: true,
					items: [{ json: { id: ids[0] } }, { json: { id: 'abc' } }, { json: { id: ids[1] } }],
				},
			);
			assert.equal(outcome.raw.length, 3);
			assert.equal(outcome.items[0].id, ids[0]);
			assert.equal(outcome.items[2].id, ids[1]);
			assert.match(String(outcome.items[1].error), /Keyword ID/);
			assert.equal((outcome.raw[1].pairedItem as { item: number }).item, 1);
			assert.equal(outcome.requests.length, 2);
		});
	});
});
