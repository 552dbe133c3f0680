/**
 * Item 3 of the hardening issue: hostile input. Every bad value is stopped before any request, with an error that
 * names the field; and any project, group or keyword name reaches the API exactly as the user typed it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import {
	PROJECT,
	describeRequests,
	keywordAddParameters as add,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

const KW = '100001';
const DOMAIN = rl('bcf127466b148fef0c6888dc', 'id');

const create = (extra: INodeParameters): INodeParameters => ({
	resource: 'project',
	operation: 'create',
	projectName: 'Fine',
	currencyCode: 'USD',
	...extra,
});
const keywordGet = (extra: INodeParameters): INodeParameters => ({
	resource: 'keyword',
	operation: 'get',
	project: rl(PROJECT),
	keywordId: KW,
	...extra,
});
const keywordDelete = (extra: INodeParameters): INodeParameters => ({
	resource: 'keyword',
	operation: 'delete',
	project: rl(PROJECT),
	keywordId: KW,
	...extra,
});
const deleteMany = (extra: INodeParameters): INodeParameters => ({
	resource: 'keyword',
	operation: 'deleteMany',
	project: rl(PROJECT),
	keywordIds: KW,
	...extra,
});
const updateMany = (extra: INodeParameters): INodeParameters => ({
	resource: 'keyword',
	operation: 'updateMany',
	project: rl(PROJECT),
	keywordIds: KW,
	updateFields: { notes: 'n' },
	...extra,
});
const chart = (extra: INodeParameters): INodeParameters => ({
	resource: 'rankingHistory',
	operation: 'getChart',
	keywordIds: KW,
	days: 5,
	...extra,
});
const competitor = (extra: INodeParameters): INodeParameters => ({
	resource: 'competitor',
	operation: 'getHistory',
	project: rl(PROJECT),
	keywordId: KW,
	startDate: '2026-01-10',
	endDate: '2026-01-11',
	...extra,
});
const dashboard = (filters: INodeParameters): INodeParameters => ({
	resource: 'aiMetric',
	operation: 'getDashboard',
	domainId: DOMAIN,
	filters,
});
const get = (project: unknown, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'project',
	operation: 'get',
	project: rl(project as string),
	...extra,
});

interface Case {
	label: string;
	parameters: INodeParameters;
	/** The field's display name, which the message must contain. */
	field: string;
}

const CASES: Case[] = [
	// Keyword → Add
	{
		label: 'keyword of 151 characters',
		parameters: add({ keywords: ['k'.repeat(151)] }),
		field: 'Keywords',
	},
	{
		label: 'keyword of 151 emoji (code points, not UTF-16 units)',
		parameters: add({ keywords: ['🔥'.repeat(151)] }),
		field: 'Keywords',
	},
	{
		label: 'one over-long keyword among fine ones',
		parameters: add({ keywords: ['ok one', 'x'.repeat(500), 'ok two'] }),
		field: 'Keywords',
	},
	{
		label: 'empty keyword list from an expression',
		parameters: add({ keywords: '={{ [] }}' }),
		field: 'Keywords',
	},
	{ label: 'whitespace-only keyword', parameters: add({ keywords: ['   '] }), field: 'Keywords' },
	{
		label: 'keyword with a tab',
		parameters: add({ keywords: ['running\tshoes'] }),
		field: 'Keywords',
	},
	{
		label: 'keyword with a NUL byte',
		parameters: add({ keywords: ['running\u0000shoes'] }),
		field: 'Keywords',
	},
	{
		label: 'keyword list of objects from an expression',
		parameters: add({ keywords: '={{ [{ "kw": "shoes" }] }}' }),
		field: 'Keywords',
	},
	{
		label: 'keyword given as an object from an expression',
		parameters: add({ keywords: '={{ { "kw": "shoes" } }}' }),
		field: 'Keywords',
	},
	{ label: 'URL with a space', parameters: add({ url: 'acme shoes.com' }), field: 'URL' },
	{ label: 'URL that is whitespace', parameters: add({ url: '   ' }), field: 'URL' },
	{
		label: 'region with a line break',
		parameters: add({ region: 'google.com\nx' }),
		field: 'Region',
	},
	{
		label: 'empty tag among tags',
		parameters: add({ additionalFields: { tags: '={{ ["ok", ""] }}' } }),
		field: 'Tags',
	},
	{
		label: 'source out of range',
		parameters: add({ additionalFields: { source: 7 } }),
		field: 'Source',
	},
	{ label: 'chunk size 0', parameters: add({ options: { chunkSize: 0 } }), field: 'Chunk Size' },
	{
		label: 'chunk size 1.5',
		parameters: add({ options: { chunkSize: 1.5 } }),
		field: 'Chunk Size',
	},
	{
		label: 'project name with a typed [sub]',
		parameters: add({ project: rl('Acme Shoes[sub]Blog') }),
		field: 'Project',
	},
	{
		label: 'group name with a typed [SUB] (any case)',
		parameters: add({ group: rl('Blog[SUB]Deep') }),
		field: 'Group',
	},
	// Projects and groups by name
	{
		label: 'empty project name from an expression',
		parameters: get('={{ "" }}'),
		field: 'Project',
	},
	{ label: 'whitespace project name', parameters: get('   '), field: 'Project' },
	{ label: 'project name with a tab', parameters: get('Acme\tShoes'), field: 'Project' },
	{ label: 'project name with DEL (0x7f)', parameters: get('Acme\u007fShoes'), field: 'Project' },
	{
		label: 'project name with a C1 control (0x85)',
		parameters: get('Acme\u0085Shoes'),
		field: 'Project',
	},
	{
		label: 'project given as an object from an expression',
		parameters: get('={{ { "name": "Acme Shoes" } }}'),
		field: 'Project',
	},
	{
		label: 'project given as a list from an expression',
		parameters: get('={{ ["Acme Shoes"] }}'),
		field: 'Project',
	},
	{
		label: 'group with a typed [sub] on Get',
		parameters: get(PROJECT, { group: rl('Blog[sub]x') }),
		field: 'Group',
	},
	{
		label: 'group with a line break on Delete',
		parameters: {
			resource: 'project',
			operation: 'delete',
			project: rl(PROJECT),
			group: rl('Bl\nog'),
		},
		field: 'Group',
	},
	{
		label: 'project with a typed [sub] on Archive',
		parameters: { resource: 'project', operation: 'archive', project: rl('A[sub]B') },
		field: 'Project',
	},
	{
		label: 'project name ".." (URL parsing would climb to /api/v2)',
		parameters: { resource: 'project', operation: 'delete', project: rl('..') },
		field: 'Project',
	},
	{
		label: 'project name with a lone surrogate',
		parameters: get('={{ "Acme \\uD800 Shoes" }}'),
		field: 'Project',
	},
	// Project → Create
	{
		label: 'create: whitespace project name',
		parameters: create({ projectName: ' \t ' }),
		field: 'Project Name',
	},
	{
		label: 'create: project name with [sub]',
		parameters: create({ projectName: 'New[sub]Group' }),
		field: 'Project Name',
	},
	{
		label: 'create: group name with a control character',
		parameters: create({ groupName: 'Blog\u0007' }),
		field: 'Group Name',
	},
	{
		label: 'create: currency of 4 letters',
		parameters: create({ currencyCode: 'EURO' }),
		field: 'Currency Code',
	},
	{
		label: 'create: currency symbol',
		parameters: create({ currencyCode: '€€€' }),
		field: 'Currency Code',
	},
	{
		label: 'create: currency as an object',
		parameters: create({ currencyCode: '={{ { "code": "USD" } }}' }),
		field: 'Currency Code',
	},
	// Keyword → Get / Delete
	{
		label: 'keyword id that is a word',
		parameters: keywordGet({ keywordId: 'abc' }),
		field: 'Keyword ID',
	},
	{
		label: 'keyword id given as an object',
		parameters: keywordGet({ keywordId: '={{ { "id": 100001 } }}' }),
		field: 'Keyword ID',
	},
	{
		label: 'keyword id negative',
		parameters: keywordGet({ keywordId: '-5' }),
		field: 'Keyword ID',
	},
	{ label: 'keyword id 0', parameters: keywordGet({ keywordId: '0' }), field: 'Keyword ID' },
	{
		label: 'keyword id with a fraction',
		parameters: keywordGet({ keywordId: '={{ 1.5 }}' }),
		field: 'Keyword ID',
	},
	{
		label: 'keyword id with a path',
		parameters: keywordDelete({ keywordId: '100001/../100002' }),
		field: 'Keyword ID',
	},
	{
		label: 'keyword id too large',
		parameters: keywordDelete({ keywordId: '9'.repeat(40) }),
		field: 'Keyword ID',
	},
	{
		label: 'date 30 February',
		parameters: keywordGet({ options: { date: '2026-02-30' } }),
		field: 'Date',
	},
	{
		label: 'date in words',
		parameters: keywordDelete({ options: { date: 'yesterday' } }),
		field: 'Date',
	},
	// Id lists
	{
		label: 'empty id list from an expression',
		parameters: deleteMany({ keywordIds: '={{ [] }}' }),
		field: 'Keywords',
	},
	{
		label: 'duplicate ids',
		parameters: deleteMany({ keywordIds: '100001, 100002, 100001' }),
		field: 'Keywords',
	},
	{
		label: 'id list with a word',
		parameters: deleteMany({ keywordIds: '100001,abc' }),
		field: 'Keywords',
	},
	{
		label: 'id list of objects',
		parameters: updateMany({ keywordIds: '={{ [{ "id": 1 }] }}' }),
		field: 'Keywords',
	},
	{
		label: 'huge id list (10,001 ids)',
		parameters: updateMany({ keywordIds: '={{ Array.from({ length: 10001 }, (_, i) => i + 1) }}' }),
		field: 'Keywords',
	},
	{
		label: 'no field to update',
		parameters: updateMany({ updateFields: {} }),
		field: 'Update Fields',
	},
	{
		label: 'update JSON that is not an object',
		parameters: updateMany({ updateFields: { json: '[1, 2' } }),
		field: 'Other Attributes (JSON)',
	},
	// Ranking history, competitors, share of voice, metrics, alerts
	{ label: 'chart days 0', parameters: chart({ days: 0 }), field: 'Days' },
	{ label: 'chart days 181', parameters: chart({ days: 181 }), field: 'Days' },
	{ label: 'chart days NaN', parameters: chart({ days: '={{ NaN }}' }), field: 'Days' },
	{
		label: 'chart ids duplicated',
		parameters: chart({ keywordIds: '100001,100001' }),
		field: 'Keywords',
	},
	{
		label: 'competitor: month 13',
		parameters: competitor({ startDate: '2026-13-01' }),
		field: 'Start Date',
	},
	{
		label: 'competitor: day-first date',
		parameters: competitor({ endDate: '15/01/2026' }),
		field: 'End Date',
	},
	{
		label: 'competitor: start after end',
		parameters: competitor({ startDate: '2026-01-12', endDate: '2026-01-11' }),
		field: 'Start Date',
	},
	{
		label: 'share of voice range 14',
		parameters: {
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(PROJECT),
			daysRange: 14,
		},
		field: 'Range',
	},
	{
		label: 'metrics tag id that is a word',
		parameters: {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
			options: { tagId: 'abc' },
		},
		field: 'Tag',
	},
	{
		label: 'alerts: last 0 days',
		parameters: { resource: 'alert', operation: 'getMany', options: { last: 0 } },
		field: 'Last (Days)',
	},
	// AI visibility
	{
		label: 'domain id with a slash',
		parameters: { resource: 'aiDomain', operation: 'get', domainId: rl('abc/def', 'id') },
		field: 'Domain',
	},
	{
		label: 'domain id empty from an expression',
		parameters: { resource: 'aiSearchTerm', operation: 'getMany', domainId: rl('={{ "" }}', 'id') },
		field: 'Domain',
	},
	{ label: 'timeframe 2w', parameters: dashboard({ timeframe: '2w' }), field: 'Timeframe' },
	{ label: 'timeframe 400 days', parameters: dashboard({ timeframe: '400' }), field: 'Timeframe' },
	{ label: 'period offset +1', parameters: dashboard({ periodOffset: 1 }), field: 'Period Offset' },
	{
		label: 'period offset -366',
		parameters: dashboard({ periodOffset: -366 }),
		field: 'Period Offset',
	},
	{
		label: 'aggregation yearly',
		parameters: dashboard({ aggregation: '={{ "yearly" }}' }),
		field: 'Aggregation',
	},
	{
		label: 'topic with a control character',
		parameters: dashboard({ topics: ['ok', 'bad\u0001'] }),
		field: 'Topics',
	},
];

describe('hostile input is stopped before any request, with an error naming the field', () => {
	it(`covers at least 40 cases across the operations (${CASES.length})`, () => {
		assert.ok(CASES.length >= 40);
		const operations = new Set(
			CASES.map((entry) => `${entry.parameters.resource}.${entry.parameters.operation}`),
		);
		assert.ok(operations.size >= 14, [...operations].join(', '));
	});

	for (const entry of CASES) {
		it(entry.label, async () => {
			const outcome = await run(fake, entry.parameters);
			assert.equal(
				outcome.requests.length,
				0,
				`no request may be sent: ${describeRequests(outcome.requests)}`,
			);
			assert.ok(
				outcome.error,
				`expected an error, got ${JSON.stringify(outcome.items).slice(0, 200)}`,
			);
			assert.ok(
				outcome.error.message.includes(entry.field),
				`"${outcome.error.message}" should name the field ${entry.field}`,
			);
			assert.ok(
				['NodeApiError', 'NodeOperationError'].includes(outcome.error.name),
				outcome.error.name,
			);
			assert.ok(outcome.error.message.length < 400, 'a short message');
		});
	}

	it('a project or id named "." or ".." is never sent (URL parsing would resolve it to another endpoint)', async () => {
		for (const parameters of [
			{ resource: 'project', operation: 'delete', project: rl('..') },
			{ resource: 'keyword', operation: 'getMany', project: rl('.'), returnAll: true },
			{ resource: 'aiDomain', operation: 'get', domainId: rl('..', 'id') },
		]) {
			const outcome = await run(fake, parameters);
			assert.equal(outcome.requests.length, 0, describeRequests(outcome.requests));
			assert.match(outcome.error?.message ?? '', /^Invalid (Project|Domain): cannot be "\.{1,2}"$/);
		}
	});

	it('with Continue On Fail, each bad item is an error item naming its field and sends nothing', async () => {
		const outcome = await run(
			fake,
			{
				resource: 'keyword',
				operation: 'get',
				project: rl('={{ $json.p }}'),
				keywordId: '={{ $json.k }}',
			},
			{
				continueOnFail: true,
				items: [
					{ json: { p: PROJECT, k: KW } },
					{ json: { p: PROJECT, k: { id: 1 } } },
					{ json: { p: 'A[sub]B', k: KW } },
					{ json: { p: PROJECT, k: '100002' } },
				],
			},
		);
		assert.equal(outcome.raw.length, 4);
		assert.equal(outcome.raw[0].json.keyword, 'running shoes');
		assert.match(String(outcome.raw[1].json.error), /Keyword ID/);
		assert.match(String(outcome.raw[2].json.error), /Project/);
		assert.equal(outcome.raw[3].json.id, '100002');
		assert.equal(outcome.requests.length, 2);
	});
});

/** Names a user may type: any text but what the node refuses (empty, control characters, [sub], ill-formed UTF-16). */
const nameArbitrary = (maxLength: number) =>
	fc
		.oneof(
			fc.string({ unit: 'grapheme', minLength: 1, maxLength }),
			fc.string({
				unit: fc.constantFrom(
					...' &/#?%+[]{}()<>"\'\\=.,;:~!@$^*|`éüß中文🔥é\u0301%2F%20..'.split(''),
				),
				minLength: 1,
				maxLength,
			}),
			fc.constantFrom(
				'a/b',
				'../x',
				'%2F',
				'%',
				'a%20b',
				'x+y',
				'a#b?c=d&e',
				'[sub',
				'sub]',
				'[su b]',
				'Café Zürich',
				'..',
				'.',
				'1001',
				'  ok  ',
				'two  spaces',
				'.  \\',
			),
		)
		.map((name) => name.trim())
		.filter(
			(name) =>
				name !== '' &&
				[...name].length <= maxLength &&
				!/[\u0000-\u001f\u007f-\u009f]/.test(name) &&
				!name.toLowerCase().includes('[sub]') &&
				// "." and ".." cannot be a path segment (refused, see above).
				name !== '.' &&
				name !== '..' &&
				// A leading "=" makes n8n read a parameter as an expression, whatever the node does.
				!name.startsWith('=') &&
				(() => {
					try {
						encodeURIComponent(name);
						return true;
					} catch {
						return false;
					}
				})(),
		);

describe('names round-trip: the fake receives exactly what the user typed', () => {
	const runs = { numRuns: 60 };

	it('project names (Get): the decoded path segment is the name', async () => {
		await fc.assert(
			fc.asyncProperty(nameArbitrary(120), async (name) => {
				const outcome = await run(fake, get(name));
				assert.equal(outcome.requests.length, 1);
				const [request] = outcome.requests;
				assert.equal(request.path, `/api/v2/groups/${name}`);
				assert.equal(
					request.rawPath.split('/').length,
					5,
					`the name stays one path segment: ${request.rawPath}`,
				);
				if (outcome.error)
					assert.equal(
						outcome.error.message,
						`Not found (HTTP 404): Project "${name}" was not found.`,
					);
				else assert.equal(outcome.items[0].name, name);
			}),
			runs,
		);
	});

	it('project and group names (Create, then Get of the group): category and path are exact', async () => {
		await fc.assert(
			fc.asyncProperty(nameArbitrary(60), nameArbitrary(60), async (project, group) => {
				fake.api.reset('empty');
				const created = await runOk(fake, create({ projectName: project }));
				assert.deepEqual(created.requests[0].body, {
					data: { type: 'project', attributes: { category: project, currency_code: 'USD' } },
				});
				assert.equal(created.items[0].name, project, 'and the output shows it as typed');
				await runOk(fake, create({ projectName: project, groupName: group }));
				const read = await runOk(fake, get(project, { group: rl(group) }));
				assert.equal(read.requests[0].path, `/api/v2/groups/${project}[sub]${group}`);
				assert.equal(read.items[0].name, `${project}[sub]${group}`);
			}),
			{ numRuns: 40 },
		);
		fake.api.reset('demo');
	});

	it('keywords (Add): the body carries each keyword exactly', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(
					nameArbitrary(150).filter((kw) => !/[,\n\r]/.test(kw)),
					{ minLength: 1, maxLength: 5, selector: (kw) => kw.toLowerCase() },
				),
				async (keywords) => {
					const outcome = await run(fake, add({ keywords }));
					assert.equal(outcome.requests.length, 1, outcome.error?.message);
					const sent = (
						outcome.requests[0].body as { data: Array<{ attributes: { kw: string } }> }
					).data.map((entry) => entry.attributes.kw);
					assert.deepEqual(sent, keywords);
				},
			),
			runs,
		);
	});
});
