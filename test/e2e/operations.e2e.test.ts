/**
 * Every operation of the Keyword.com node, executed by a real n8n 2.x (the package installed from its packed tarball
 * as a community package) against the project's fake API over HTTP.
 *
 * Three workflows (few start-ups): the 21 read operations (22 nodes) fanning out of one Manual Trigger, the 9 write operations as one
 * chain on a project the chain creates (create → add → update → delete one → delete many → refresh → archive →
 * restore → delete), and the error cases. Each node's items are checked, and so are the requests the fake recorded.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/operations.e2e.test.js
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, test } from 'node:test';

import {
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	KEYWORD_COM_NODE,
	KEYWORD_COM_TOOL_NODE,
	KEYWORD_COM_TRIGGER_NODE,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	runError,
	type ExecuteResult,
	type FakeRequest,
} from '../../e2e/lib';
import { RANKING_ROW_FIELDS } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordCom/resources/rankingHistory/rows';

const byName = (value: string): Record<string, unknown> => ({ __rl: true, mode: 'name', value });
const byId = (value: string | number): Record<string, unknown> => ({
	__rl: true,
	mode: 'id',
	value: String(value),
});
const credentials = { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } };
const WRONG_CREDENTIAL_ID = 'kwcWrongTokenCr1';

const NEW_PROJECT = 'E2E Café & Co';
const ACME = 'Acme Shoes';

interface Case {
	name: string;
	parameters: Record<string, unknown>;
	credentialId?: string;
	/** Node version; default 1. */
	typeVersion?: number;
}

/** Manual Trigger → every case (fan-out), or Manual Trigger → case 1 → case 2 → … (chain). */
function workflow(
	id: string,
	name: string,
	cases: Case[],
	shape: 'fan' | 'chain',
): Record<string, unknown> {
	const nodes: any[] = [
		{
			id: `${id}-start`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	const connections: Record<string, any> = {};
	cases.forEach((c, i) => {
		nodes.push({
			id: `${id}-${i}`,
			name: c.name,
			type: KEYWORD_COM_NODE,
			typeVersion: c.typeVersion ?? 1,
			position: shape === 'fan' ? [300, i * 120] : [300 + i * 220, 0],
			parameters: c.parameters,
			credentials: c.credentialId
				? { keywordComApi: { id: c.credentialId, name: 'Keyword.com (wrong token)' } }
				: credentials,
		});
	});
	if (shape === 'fan') {
		connections.Start = { main: [cases.map((c) => ({ node: c.name, type: 'main', index: 0 }))] };
	} else {
		const names = ['Start', ...cases.map((c) => c.name)];
		for (let i = 0; i + 1 < names.length; i++)
			connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' } };
}

function items(result: ExecuteResult, node: string): any[] {
	const out = nodeOutput(result.output, node);
	assert.ok(
		out,
		`node "${node}" ran (last node: ${result.output?.data?.resultData?.lastNodeExecuted}; error: ${JSON.stringify(runError(result.output)?.message ?? runError(result.output, node)?.message)})`,
	);
	return out;
}

function requestsTo(requests: FakeRequest[], method: string, path: string | RegExp): FakeRequest[] {
	return requests.filter(
		(r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
	);
}

function oneRequest(requests: FakeRequest[], method: string, path: string | RegExp): FakeRequest {
	const found = requestsTo(requests, method, path);
	assert.ok(
		found.length >= 1,
		`the fake received ${method} ${String(path)} (got: ${requests.map((r) => `${r.method} ${r.path}`).join(', ')})`,
	);
	return found[0];
}

describe(
	'Keyword.com node in a real n8n: every operation against the fake API',
	{ timeout: 15 * 60_000 },
	() => {
		let tarball: string | undefined;
		let fake: FakeApiProcess;
		let n8n: RealN8n;
		let acmeDomainId: string;
		const outputs: string[] = [];

		const execute = async (id: string): Promise<ExecuteResult> => {
			const result = await n8n.execute(id);
			outputs.push(result.stdout, result.stderr);
			return result;
		};

		before(async () => {
			tarball = buildAndPackPackage();
			fake = await FakeApiProcess.start({ seed: 'demo' });
			n8n = await RealN8n.create({ packageTarball: tarball, name: 'operations' });
			const domains = await fake.api('GET', '/api/v2/ai-visibility/domains');
			acmeDomainId = (domains.data as any[]).find((d) => d.domain === 'acmeshoes.com').id;
			await n8n.importCredentials([
				keywordComCredential(fake.baseUrl, fake.token),
				{
					id: WRONG_CREDENTIAL_ID,
					name: 'Keyword.com (wrong token)',
					type: 'keywordComApi',
					data: { apiToken: 'not-the-token', baseUrl: fake.baseUrl },
				},
			]);
		});

		after(async () => {
			await n8n?.dispose();
			await fake?.stop();
			removeTarball(tarball);
		});

		test('the package loads: the node, its generated Tool variant for AI agents, and the trigger', async () => {
			const nodes = await n8n.exportNodes();
			const byType = new Map<string, any>(nodes.map((node: any) => [node.name, node]));
			assert.ok(byType.has(KEYWORD_COM_NODE), `${KEYWORD_COM_NODE} is loaded`);
			assert.ok(
				byType.has(KEYWORD_COM_TOOL_NODE),
				`${KEYWORD_COM_TOOL_NODE} (usableAsTool) is generated`,
			);
			assert.deepEqual(
				byType.get(KEYWORD_COM_TOOL_NODE).outputs,
				['ai_tool'],
				'the Tool variant plugs into an AI agent',
			);
			assert.ok(byType.has(KEYWORD_COM_TRIGGER_NODE), `${KEYWORD_COM_TRIGGER_NODE} is loaded`);
			assert.equal(
				byType.get(KEYWORD_COM_TRIGGER_NODE).polling,
				true,
				'the trigger is a polling trigger',
			);
			// n8n adds a "Custom API Call" entry (__CUSTOM_API_CALL__) to nodes with credentials; ours are the others.
			const own = (options: any[]): any[] =>
				options.filter((o) => !String(o.value).startsWith('__'));
			const resources = byType
				.get(KEYWORD_COM_NODE)
				.properties.find((p: any) => p.name === 'resource');
			assert.equal(own(resources.options).length, 12, 'twelve resources');
			const operations = byType
				.get(KEYWORD_COM_NODE)
				.properties.filter((p: any) => p.name === 'operation')
				.reduce((n: number, p: any) => n + own(p.options).length, 0);
			assert.equal(operations, 30, '30 operations (28 endpoints + tags + rank rows)');
		});

		test('21 read operations in one workflow (22 nodes: Get Many keywords also of a group)', async () => {
			const today = "={{ $today.toFormat('yyyy-MM-dd') }}";
			const weekAgo = "={{ $today.minus({ days: 6 }).toFormat('yyyy-MM-dd') }}";
			const cases: Case[] = [
				{ name: 'Projects', parameters: { resource: 'project', operation: 'getMany' } },
				{
					name: 'Project',
					parameters: { resource: 'project', operation: 'get', project: byName(ACME) },
				},
				{
					name: 'Regions',
					parameters: { resource: 'project', operation: 'getRegions', project: byName(ACME) },
				},
				{
					name: 'Metrics',
					parameters: {
						resource: 'project',
						operation: 'getMetrics',
						project: byName(ACME),
						timeframe: 'weekly',
					},
				},
				{
					name: 'Keyword',
					parameters: {
						resource: 'keyword',
						operation: 'get',
						project: byName(ACME),
						keywordId: '100001',
					},
				},
				{
					name: 'Keywords',
					parameters: {
						resource: 'keyword',
						operation: 'getMany',
						project: byName(ACME),
						returnAll: true,
					},
				},
				{
					name: 'Keywords of a group',
					parameters: {
						resource: 'keyword',
						operation: 'getMany',
						project: byName(ACME),
						group: byName('Shop & Deals'),
						returnAll: false,
						limit: 3,
					},
				},
				{
					name: 'Chart',
					parameters: {
						resource: 'rankingHistory',
						operation: 'getChart',
						keywordIds: '100001, 100002',
						days: 14,
					},
				},
				{
					name: 'Rank rows',
					typeVersion: 2,
					parameters: {
						resource: 'rankingHistory',
						operation: 'getMany',
						project: byName(ACME),
						group: byName('Blog'),
						tags: ['Guides'],
						startDate: weekAgo,
						endDate: today,
						returnAll: true,
					},
				},
				{
					name: 'Competitors',
					parameters: {
						resource: 'competitor',
						operation: 'getHistory',
						project: byName(ACME),
						keywordId: '100001',
						startDate: weekAgo,
						endDate: today,
					},
				},
				{
					name: 'Share of voice',
					parameters: { resource: 'shareOfVoice', operation: 'getLatest', project: byName(ACME) },
				},
				{
					name: 'Share of voice history',
					parameters: {
						resource: 'shareOfVoice',
						operation: 'getHistory',
						projectId: byId(1001),
						daysRange: 30,
					},
				},
				{
					name: 'Alerts',
					parameters: {
						resource: 'alert',
						operation: 'getMany',
						returnAll: true,
						options: { sortDirection: 'asc' },
					},
				},
				{
					name: 'Top pages',
					parameters: {
						resource: 'topPage',
						operation: 'getMany',
						project: byName(ACME),
						returnAll: true,
					},
				},
				{ name: 'Account', parameters: { resource: 'account', operation: 'get' } },
				{
					name: 'Tags',
					parameters: { resource: 'tag', operation: 'getMany', project: byName(ACME) },
				},
				{ name: 'AI domains', parameters: { resource: 'aiDomain', operation: 'getMany' } },
				{
					name: 'AI domain',
					parameters: { resource: 'aiDomain', operation: 'get', domainId: byId(acmeDomainId) },
				},
				{
					name: 'AI search terms',
					parameters: {
						resource: 'aiSearchTerm',
						operation: 'getMany',
						domainId: byId(acmeDomainId),
					},
				},
				{
					name: 'AI dashboard',
					parameters: {
						resource: 'aiMetric',
						operation: 'getDashboard',
						domainId: byId(acmeDomainId),
						filters: { timeframe: '7d', aggregation: 'daily' },
					},
				},
				{
					name: 'AI sentiment',
					parameters: {
						resource: 'aiMetric',
						operation: 'getSentiment',
						domainId: byId(acmeDomainId),
						filters: { topics: ['Running shoes'] },
					},
				},
				{
					name: 'AI citations',
					parameters: {
						resource: 'aiMetric',
						operation: 'getCitations',
						domainId: byId(acmeDomainId),
					},
				},
			];
			const id = await n8n.importWorkflow(
				workflow('kwcE2eReads00001', 'E2E: every read operation', cases, 'fan'),
			);
			await fake.clearRequests();
			const result = await execute(id);
			assert.ok(
				result.ok,
				`the workflow succeeded: ${JSON.stringify(runError(result.output)?.message)}\n${n8n.logTail(40)}`,
			);
			const requests = await fake.requests();
			assert.ok(
				requests.every((r) => r.authorization === `Bearer ${fake.token}`),
				'every request carries the credential as a Bearer token',
			);
			assert.ok(
				requests.every((r) => r.status === 200),
				`every request succeeded: ${requests
					.filter((r) => r.status !== 200)
					.map((r) => `${r.method} ${r.path} ${r.status}`)
					.join(', ')}`,
			);

			// #1 project list
			const projects = items(result, 'Projects');
			assert.deepEqual(projects.map((p) => p.id).sort(), [
				'Acme Shoes',
				'Acme Shoes[sub]Blog',
				'Acme Shoes[sub]Shop & Deals',
				'Café Zürich',
			]);
			assert.equal(projects.find((p) => p.id === 'Acme Shoes[sub]Blog').is_group, true);
			oneRequest(requests, 'GET', '/api/v2/groups/active');
			// #2 project
			const [project] = items(result, 'Project');
			assert.equal(project.name, ACME);
			assert.equal(project.project_id, 1001);
			assert.ok(project.tags.includes('Running'));
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes');
			// #6 regions
			const regions = items(result, 'Regions');
			assert.ok(regions.length >= 3, `Acme tracks several regions (got ${regions.length})`);
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes/regions');
			// #9 metrics
			const [metrics] = items(result, 'Metrics');
			assert.ok(
				Array.isArray(metrics.attributes?.ranges ?? metrics.ranges),
				'the metrics have ranges',
			);
			assert.equal(
				oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes/metrics').query.timeframe,
				'weekly',
			);
			// #11 keyword
			const [keyword] = items(result, 'Keyword');
			assert.equal(keyword.kw, 'running shoes');
			assert.equal(keyword.id, '100001');
			assert.equal(typeof keyword.grank_int, 'number');
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes/keywords/100001');
			// #13 keywords, all and limited (a group, name with "&")
			const keywords = items(result, 'Keywords');
			assert.equal(keywords.length, 12);
			assert.ok(keywords.every((k) => k.category === ACME));
			const groupKeywords = items(result, 'Keywords of a group');
			assert.equal(groupKeywords.length, 3, 'Limit 3');
			assert.ok(groupKeywords.every((k) => k.category === 'Acme Shoes[sub]Shop & Deals'));
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes[sub]Shop & Deals/keywords/');
			// #14 chart
			const chart = items(result, 'Chart');
			assert.deepEqual(
				chart.map((c) => c.keyword),
				['running shoes', 'trail running shoes'],
			);
			assert.ok(chart.every((c) => c.history.length > 0 && c.history.length <= 14));
			const chartRequest = requestsTo(requests, 'POST', '/api/v2/keywords/chart').find(
				(r) => r.query.limit === '14',
			);
			assert.ok(chartRequest, 'the chart of two keywords was asked for');
			assert.equal(chartRequest.query.action, 'chart');
			assert.equal(chartRequest.query.limit, '14');
			assert.deepEqual(chartRequest.body.keyword_ids, [100001, 100002]);
			// #13 + #14 one row per keyword per day: the 3 Blog keywords tagged Guides × the last 7 days
			const rows = items(result, 'Rank rows');
			assert.equal(rows.length, 3 * 7);
			assert.deepEqual(
				[...new Set(rows.map((r) => r.keyword))],
				[
					'how to choose running shoes',
					'how often to replace running shoes',
					'heel drop explained',
				],
			);
			assert.ok(rows.every((r) => r.project === ACME && r.group === 'Blog'));
			assert.deepEqual(Object.keys(rows[0]), RANKING_ROW_FIELDS);
			assert.equal(rows[6].date, new Date().toISOString().slice(0, 10));
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes[sub]Blog/keywords/');
			const rowsChart = requestsTo(requests, 'POST', '/api/v2/keywords/chart').find(
				(r) => r.query.limit === '8',
			);
			assert.ok(rowsChart, 'one chart request, back to the day before the range');
			assert.deepEqual(rowsChart.body.keyword_ids, [
				...new Set(rows.map((r) => Number(r.keyword_id))),
			]);
			// #15 competitors
			const competitors = items(result, 'Competitors');
			assert.ok(
				competitors.length >= 1 && competitors.length <= 7,
				`one entry per day of the range (got ${competitors.length})`,
			);
			assert.ok(Array.isArray(competitors[0].results) && competitors[0].results.length > 0);
			assert.match(
				String(
					oneRequest(requests, 'GET', '/api/v2/metrics/Acme Shoes/competitors/100001/history').query
						.dateRange,
				),
				/^\d{4}-\d\d-\d\d\.\d{4}-\d\d-\d\d$/,
			);
			// #18, #19 share of voice
			const sov = items(result, 'Share of voice');
			assert.ok(sov.length >= 1 && sov.length <= 10);
			oneRequest(requests, 'GET', '/api/v2/metrics/Acme Shoes/mindshare/latest');
			assert.ok(items(result, 'Share of voice history').length >= 1);
			assert.equal(
				oneRequest(requests, 'GET', '/api/v2/projects/1001/mindshare/from-cache').query.daysrange,
				'30',
			);
			// #20 alerts, oldest first
			const alerts = items(result, 'Alerts');
			assert.equal(alerts.length, 12);
			const times = alerts.map((a) => a.created_at);
			assert.deepEqual(
				times,
				[...times].sort((a, b) => a - b),
				'oldest first',
			);
			assert.equal(oneRequest(requests, 'GET', '/api/v2/alerts').query.sort_direction, 'asc');
			// #21 top pages
			assert.ok(items(result, 'Top pages').length >= 1);
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes/keywords/ranking-urls');
			// #22 account, without its token
			const [account] = items(result, 'Account');
			assert.ok(account.plan, 'the account has a plan');
			assert.ok(
				!('api_token' in account) || account.api_token === '[redacted]',
				'the account token is left out',
			);
			oneRequest(requests, 'GET', '/api/v2/users/self&include_subscriptions');
			// tags (from #2)
			const tags = items(result, 'Tags');
			assert.equal(tags.length, 7);
			assert.ok(tags.some((t) => t.name === 'Running'));
			// #23–#28 AI visibility
			assert.deepEqual(
				items(result, 'AI domains').map((d) => d.domain),
				['acmeshoes.com', 'cafe-zuerich.ch'],
			);
			assert.equal(items(result, 'AI domain')[0].domain, 'acmeshoes.com');
			oneRequest(requests, 'GET', `/api/v2/ai-visibility/domains/${acmeDomainId}`);
			const terms = items(result, 'AI search terms');
			assert.equal(terms.length, 7);
			assert.ok(terms.every((t) => typeof t.term === 'string'));
			const [dashboard] = items(result, 'AI dashboard');
			assert.equal(typeof dashboard.ownBrandMetrics.visibilityScore, 'number');
			assert.ok(Array.isArray(dashboard.competitorMetrics));
			const dashRequest = oneRequest(
				requests,
				'GET',
				`/api/v2/ai-visibility/domains/${acmeDomainId}/metrics`,
			);
			assert.equal(dashRequest.query.timeframe, '7d');
			assert.equal(dashRequest.query.aggregation, 'daily');
			assert.equal(items(result, 'AI sentiment').length, 1);
			const sentimentRequest = oneRequest(
				requests,
				'GET',
				`/api/v2/ai-visibility/domains/${acmeDomainId}/metrics/sentiment`,
			);
			assert.deepEqual([sentimentRequest.query['topics[]']].flat(), ['Running shoes']);
			assert.equal(items(result, 'AI citations').length, 1);
			oneRequest(
				requests,
				'GET',
				`/api/v2/ai-visibility/domains/${acmeDomainId}/metrics/citations`,
			);
		});

		test('9 write operations, chained on a project the chain creates', async () => {
			const created = "={{ $('Create project').item.json.project_id }}";
			const added = "$('Add keywords').item.json.keywords";
			const cases: Case[] = [
				{
					name: 'Create project',
					parameters: {
						resource: 'project',
						operation: 'create',
						projectName: NEW_PROJECT,
						currencyCode: 'EUR',
					},
				},
				{
					name: 'Add keywords',
					parameters: {
						resource: 'keyword',
						operation: 'add',
						project: byName(NEW_PROJECT),
						keywords: ['e2e shoes one', 'e2e shoes two', 'e2e shoes three'],
						url: 'e2e-shoes.example.com',
						additionalFields: { tags: 'E2E' },
						options: { chunkSize: 2 },
					},
				},
				{
					name: 'Update keywords',
					parameters: {
						resource: 'keyword',
						operation: 'updateMany',
						projectId: byId(created),
						keywordIds: `={{ ${added}.map((k) => k.id).join(', ') }}`,
						updateFields: { notes: 'updated by the e2e test', isfav: true },
					},
				},
				{
					name: 'Delete one keyword',
					parameters: {
						resource: 'keyword',
						operation: 'delete',
						project: byName(NEW_PROJECT),
						keywordId: `={{ ${added}[0].id }}`,
					},
				},
				{
					name: 'Delete two keywords',
					parameters: {
						resource: 'keyword',
						operation: 'deleteMany',
						projectId: byId(created),
						keywordIds: `={{ ${added}.slice(1).map((k) => k.id).join(',') }}`,
					},
				},
				{
					name: 'Refresh ranks',
					parameters: {
						resource: 'project',
						operation: 'refresh',
						projectId: byId(1001),
						includeSubGroups: true,
					},
				},
				{
					name: 'Archive project',
					parameters: { resource: 'project', operation: 'archive', project: byName(NEW_PROJECT) },
				},
				{
					name: 'Restore project',
					parameters: { resource: 'project', operation: 'restore', project: byName(NEW_PROJECT) },
				},
				{
					name: 'Delete project',
					parameters: { resource: 'project', operation: 'delete', project: byName(NEW_PROJECT) },
				},
			];
			const id = await n8n.importWorkflow(
				workflow('kwcE2eWrites0001', 'E2E: every write operation', cases, 'chain'),
			);
			await fake.clearRequests();
			const result = await execute(id);
			assert.ok(
				result.ok,
				`the workflow succeeded: ${JSON.stringify(runError(result.output)?.message)}\n${n8n.logTail(40)}`,
			);
			const requests = await fake.requests();
			assert.ok(
				requests.every((r) => r.status >= 200 && r.status < 300),
				`every request succeeded: ${requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
			);

			// #7 create
			const [project] = items(result, 'Create project');
			assert.equal(project.name, NEW_PROJECT);
			assert.equal(project.currency_code, 'EUR');
			const projectId = project.project_id;
			assert.equal(typeof projectId, 'number');
			assert.deepEqual(oneRequest(requests, 'POST', '/api/v2/groups').body.data.attributes, {
				category: NEW_PROJECT,
				currency_code: 'EUR',
			});
			// #10 add, in two chunks
			const [addition] = items(result, 'Add keywords');
			assert.equal(addition.added, 3);
			assert.equal(addition.duplicates, 0);
			assert.deepEqual(
				addition.keywords.map((k: any) => k.kw),
				['e2e shoes one', 'e2e shoes two', 'e2e shoes three'],
			);
			const adds = requestsTo(requests, 'POST', `/api/v2/groups/${NEW_PROJECT}/keywords`);
			assert.deepEqual(
				adds.map((r) => r.body.data.length),
				[2, 1],
				'Chunk Size 2: two requests',
			);
			assert.deepEqual(adds[0].body.data[0].attributes.tags, ['E2E']);
			const ids: string[] = addition.keywords.map((k: any) => String(k.id));
			// #16 update
			const [update] = items(result, 'Update keywords');
			assert.equal(update.updated, true);
			const patch = oneRequest(requests, 'PATCH', `/api/v2/projects/${projectId}/keywords`);
			assert.deepEqual(patch.body.data.ids, ids);
			assert.deepEqual(patch.body.data.attributes, {
				notes: 'updated by the e2e test',
				isfav: true,
			});
			// #12 delete one
			assert.deepEqual(items(result, 'Delete one keyword')[0].deleted, true);
			oneRequest(requests, 'DELETE', `/api/v2/groups/${NEW_PROJECT}/keywords/${ids[0]}`);
			// #17 delete many
			const [deletedMany] = items(result, 'Delete two keywords');
			assert.equal(deletedMany.count, 2);
			assert.deepEqual(
				oneRequest(requests, 'DELETE', `/api/v2/projects/${projectId}/keywords`).body.data.ids,
				ids.slice(1),
			);
			// #5 refresh
			const [refresh] = items(result, 'Refresh ranks');
			assert.match(String(refresh.message), /refresh/i);
			assert.deepEqual(oneRequest(requests, 'POST', '/api/v2/keywords/refresh').body.data, {
				include_sub_groups: true,
				project_ids: [1001],
			});
			// #3 archive, #8 restore, #4 delete
			assert.equal(items(result, 'Archive project')[0].archived, true);
			assert.equal(
				oneRequest(requests, 'PUT', `/api/v2/groups/${NEW_PROJECT}`).body.data.attributes.status,
				2,
			);
			assert.equal(items(result, 'Restore project')[0].restored, true);
			oneRequest(requests, 'GET', `/api/v2/groups/${NEW_PROJECT}/undo/archive`);
			assert.equal(items(result, 'Delete project')[0].deleted, true);
			oneRequest(requests, 'DELETE', `/api/v2/groups/${NEW_PROJECT}`);

			const active = await fake.api('GET', '/api/v2/groups/active');
			assert.ok(!(active.data as any[]).some((g) => g.id === NEW_PROJECT), 'the project is gone');
		});

		test('an API error surfaces in n8n as the node error, with a clear message', async () => {
			const unknown = await n8n.importWorkflow(
				workflow(
					'kwcE2eErrors0001',
					'E2E: unknown project',
					[
						{
							name: 'Keywords of an unknown project',
							parameters: {
								resource: 'keyword',
								operation: 'getMany',
								project: byName('No Such Project'),
								returnAll: true,
							},
						},
					],
					'chain',
				),
			);
			const result = await execute(unknown);
			assert.equal(result.ok, false);
			assert.equal(result.exitCode, 1);
			const error =
				runError(result.output, 'Keywords of an unknown project') ?? runError(result.output);
			assert.match(String(error?.message), /^Not found \(HTTP 404\): .*No Such Project/);
			assert.match(String(error?.description), /project or group name/);
			assert.equal(
				result.output.data.resultData.lastNodeExecuted,
				'Keywords of an unknown project',
			);

			const wrongToken = await n8n.importWorkflow(
				workflow(
					'kwcE2eErrors0002',
					'E2E: wrong token',
					[
						{
							name: 'Account with a wrong token',
							parameters: { resource: 'account', operation: 'get' },
							credentialId: WRONG_CREDENTIAL_ID,
						},
					],
					'chain',
				),
			);
			const rejected = await execute(wrongToken);
			assert.equal(rejected.ok, false);
			const authError =
				runError(rejected.output, 'Account with a wrong token') ?? runError(rejected.output);
			assert.match(String(authError?.message), /^Authentication failed \(HTTP 401\)/);
			assert.match(String(authError?.description), /API token was rejected/);
		});

		test('the token appears in no output and no log', () => {
			const token = fake.token;
			assert.ok(outputs.length >= 6, 'the executions above printed their results');
			outputs.forEach((text, i) =>
				assert.ok(!text.includes(token), `execute output ${i} holds no token`),
			);
			assert.ok(!n8n.logs().includes(token), 'n8n printed no token');
			assert.ok(
				!fs.readFileSync(n8n.logFile, 'utf8').includes(token),
				"n8n's log file holds no token",
			);
		});
	},
);
