/**
 * Every operation of the Keyword.com node, executed by a real n8n 2.x (the package installed from its packed tarball
 * as a community package) against the project's fake API over HTTP.
 *
 * The operations and their nodes come from the operation registry (test/operations/: the node's description and the
 * `e2e` nodes of each row of its fixtures). Three workflows (few start-ups): the read operations fanning out of one
 * Manual Trigger, the write operations as one chain on a project the chain creates (create → add → update → delete
 * one → delete many → refresh → archive → restore → delete, the order of the rows), and the error cases. Every node
 * must run and the fake must receive the request its operation routes to; the items and requests of each node are
 * checked in detail below.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/operations.e2e.test.cjs
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
	addDays,
	buildAndPackPackage,
	chartedDays,
	keywordComCredential,
	lastCrawlDays,
	nodeOutput,
	removeTarball,
	runError,
	utcDay,
	type ExecuteResult,
	type FakeRequest,
} from '../../e2e/lib/index.cjs';
import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';
import {
	ACME,
	E2E_NEW_PROJECT as NEW_PROJECT,
	OPERATIONS,
	byName,
	nodeOperations,
	nodeResources,
	type E2eSeed,
	type RegisteredOperation,
} from '../operations/index.cjs';

const READS = OPERATIONS.filter((operation) => !operation.mutates);
const WRITES = OPERATIONS.filter((operation) => operation.mutates);

const credentials = { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } };
const WRONG_CREDENTIAL_ID = 'kwcWrongTokenCr1';

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

/** The e2e nodes of the operations, as workflow cases. */
function casesOf(operations: readonly RegisteredOperation[], seed: E2eSeed): Case[] {
	return operations.flatMap((operation) =>
		operation.e2e.map((node) => ({
			name: node.node,
			typeVersion: node.typeVersion,
			parameters: node.parameters(seed),
		})),
	);
}

/** The paths the fake records (decoded) for an operation's routed URL template (`/api/v2/groups/{target}`). */
function routedPath(template: string): RegExp {
	const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(
		`^${template
			.split(/\{[^}]+\}/)
			.map(literal)
			.join('[^/]+')}$`,
	);
}

/** Every node of every operation ran, and the fake received the request each operation routes to. */
function assertEveryOperationRan(
	operations: readonly RegisteredOperation[],
	result: ExecuteResult,
	requests: FakeRequest[],
): void {
	for (const operation of operations) {
		for (const node of operation.e2e) items(result, node.node);
		oneRequest(requests, operation.method, routedPath(operation.path));
	}
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
			assert.equal(
				own(resources.options).length,
				nodeResources().length,
				'the resources of the description',
			);
			const operations = byType
				.get(KEYWORD_COM_NODE)
				.properties.filter((p: any) => p.name === 'operation')
				.reduce((n: number, p: any) => n + own(p.options).length, 0);
			assert.equal(operations, nodeOperations().length, 'the operations of the description');
		});

		test(`every read operation in one workflow (${READS.length} operations, ${casesOf(READS, { domainId: '' }).length} nodes)`, async () => {
			const cases = casesOf(READS, { domainId: acmeDomainId });
			const id = await n8n.importWorkflow(
				workflow('kwcE2eReads00001', 'E2E: every read operation', cases, 'fan'),
			);
			await fake.clearRequests();
			const startDay = utcDay();
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
			assertEveryOperationRan(READS, result, requests);

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
			assert.equal(keyword.keyword, 'running shoes');
			assert.equal(keyword.id, '100001');
			assert.ok(keyword.rank === null || typeof keyword.rank === 'number');
			oneRequest(requests, 'GET', '/api/v2/groups/Acme Shoes/keywords/100001');
			// #13 keywords, all and limited (a group, name with "&")
			const keywords = items(result, 'Keywords');
			assert.equal(keywords.length, 12);
			assert.ok(keywords.every((k) => k.project === ACME && k.group === null));
			const groupKeywords = items(result, 'Keywords of a group');
			assert.equal(groupKeywords.length, 3, 'Limit 3');
			assert.ok(groupKeywords.every((k) => k.project === ACME && k.group === 'Shop & Deals'));
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
			// #13 + #14 one row per keyword per day: the 3 Blog keywords tagged Guides × the last 7 days, each up
			// to its last crawl (today, but for the first minutes of a UTC day)
			const rows = items(result, 'Rank rows');
			const ranOn = addDays(rows[0].date, 6);
			assert.ok(
				[startDay, utcDay()].includes(ranOn),
				`the range ends on the day it ran (${ranOn})`,
			);
			const crawlDays = await lastCrawlDays(fake, 'Acme Shoes[sub]Blog');
			for (const keywordId of new Set(rows.map((r) => String(r.keyword_id)))) {
				assert.deepEqual(
					rows.filter((r) => String(r.keyword_id) === keywordId).map((r) => r.date),
					chartedDays(rows[0].date, ranOn, crawlDays.get(keywordId)!),
					`keyword ${keywordId}: one row a day up to its last crawl`,
				);
			}
			assert.deepEqual(
				[...new Set(rows.map((r) => r.keyword))],
				[
					'how to choose running shoes',
					'how often to replace running shoes',
					'heel drop explained',
				],
			);
			assert.ok(rows.every((r) => r.project === ACME && r.group === 'Blog'));
			assert.deepEqual(Object.keys(rows[0]), RECORD_CATALOGUE.rankingRow.simplified);
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
			assert.ok(
				Array.isArray(competitors[0].top_results) && competitors[0].top_results.length > 0,
				'a day of competitors with its top results (Output Simplified)',
			);
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
			const times = alerts.map((a) => Date.parse(a.created_at));
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
			// One item per day, Simplified: the brand's metrics and its top competitors.
			const [dashboard] = items(result, 'AI dashboard');
			assert.match(String(dashboard.date), /^\d{4}-\d{2}-\d{2}/);
			assert.equal(typeof dashboard.visibility_score, 'number');
			assert.equal(
				typeof dashboard.top_competitors,
				'string',
				'the top competitors, named in one line',
			);
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

		test(`every write operation (${WRITES.length}), chained on a project the chain creates`, async () => {
			const cases = casesOf(WRITES, { domainId: acmeDomainId });
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
			assertEveryOperationRan(WRITES, result, requests);

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
				addition.keywords.map((k: any) => k.keyword),
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
