/**
 * The example workflows of examples/ in a real n8n 2.x: each imports as shipped (only node types and versions this n8n
 * has), and its Keyword.com part runs against the fake API. Test copies (e2e/lib/examples.cts: prepareForTest) stub the
 * nodes that would reach a third party (Google Sheets, Slack, SMTP) and start from a Manual Trigger; the example files
 * stay untouched. The AI Agent example's copy starts from a stand-in for its Chat Trigger, and its OpenAI Chat Model
 * talks to the scripted fake model (dev/fake-model), which calls two Keyword.com tools and answers from what they
 * returned. The MCP server example is published as shipped and called by the official MCP SDK with its bearer token.
 * The alert → Slack example also runs through the published-trigger path: the Keyword.com Trigger is kept, the
 * workflow is published, n8n started, new alerts added to the fake, n8n restarted. So does the top 10 → Slack example
 * (a trigger with Filters feeding a Switch): four known rank moves in the fake between two starts, of which only the
 * two crossings of the top 10 reach Slack, each through its own branch of the Switch. Its copy run by `n8n execute`
 * starts from fixture items (TOP10_UPDATES), since no action-node call gives a filtered trigger's `matched`.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/examples.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, test } from 'node:test';

import {
	BULK_SHEET_ROWS,
	EXAMPLES,
	addDays,
	chartedDays,
	lastCrawlDays,
	utcDay,
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	KEYWORD_COM_NODE,
	KEYWORD_COM_TOOL_NODE,
	KEYWORD_COM_TRIGGER_NODE,
	RealN8n,
	buildAndPackPackage,
	examplesDir,
	importAndRunExamples,
	keywordComCredential,
	loadExample,
	nodeOutput,
	removeTarball,
	testCopyOf,
	type ExampleRun,
} from '../../e2e/lib/index.cjs';
import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';
import {
	AGENT_EXAMPLE_QUESTION,
	CHAT_TRIGGER_NODE,
	EXAMPLE_MCP_CREDENTIAL_ID,
	EXAMPLE_MCP_CREDENTIAL_NAME,
	EXAMPLE_OPENAI_CREDENTIAL_ID,
	EXAMPLE_OPENAI_CREDENTIAL_NAME,
	exampleMcpCredential,
	exampleModelCredential,
	startExampleModel,
	TOP10_LEFT,
	TOP10_UPDATES,
	AI_DROP_DAYS,
	nodeOutputAllRuns,
	toolCallsOf,
	toolRecords,
} from '../../e2e/lib/examples.cjs';
import type { FakeModel } from '../../e2e/lib/fake-model.cjs';

function runOf(
	runs: ExampleRun[],
	file: string,
): ExampleRun & { result: NonNullable<ExampleRun['result']> } {
	const run = runs.find((r) => r.spec.file === file);
	assert.ok(run, `${file} ran`);
	assert.ok(run.ok && run.result?.ok, `${file}: ${run.summary}`);
	return run as ExampleRun & { result: NonNullable<ExampleRun['result']> };
}

const MCP_TOKEN = `mcp-e2e-${Date.now().toString(36)}-token`;
const AGENT_TOOLS = ['Get many projects', 'Get many keywords', 'Get many alerts'];

describe('example workflows in a real n8n, against the fake API', { timeout: 15 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let model: FakeModel;
	let n8n: RealN8n;
	let runs: ExampleRun[] = [];
	/** The UTC day before and after the examples ran (two days when they ran over midnight). */
	const runDays: string[] = [];

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		model = await startExampleModel();
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'examples' });
		await n8n.importCredentials([
			keywordComCredential(fake.baseUrl, fake.token),
			exampleModelCredential(model.baseUrl, model.apiKey),
			exampleMcpCredential(MCP_TOKEN),
		]);
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		await model?.stop();
		removeTarball(tarball);
	});

	test(`examples/ holds the ${EXAMPLES.length} examples; each is n8n 2.x workflow JSON with node types and versions of this n8n`, async () => {
		const files = fs
			.readdirSync(examplesDir())
			.filter((f) => f.endsWith('.json'))
			.sort();
		assert.deepEqual(files, EXAMPLES.map((e) => e.file).sort());
		const known = new Map<string, number[]>();
		/** The version n8n gives a node added from the panel, by node type. */
		const defaultVersions = new Map<string, number>();
		for (const node of await n8n.exportNodes()) {
			const versions = [node.version].flat() as number[];
			known.set(node.name, [...(known.get(node.name) ?? []), ...versions]);
			defaultVersions.set(
				node.name,
				typeof node.defaultVersion === 'number' ? node.defaultVersion : Math.max(...versions),
			);
		}
		for (const type of [KEYWORD_COM_NODE, KEYWORD_COM_TRIGGER_NODE, KEYWORD_COM_TOOL_NODE])
			assert.deepEqual(known.get(type), [1], `${type}: one version, 1`);
		for (const spec of EXAMPLES) {
			const workflow = loadExample(spec.file);
			assert.equal(typeof workflow.id, 'string', `${spec.file}: has an id`);
			assert.equal(typeof workflow.name, 'string');
			assert.equal(
				workflow.settings?.executionOrder,
				'v1',
				`${spec.file}: n8n 1.x/2.x execution order`,
			);
			const names = new Set<string>();
			for (const node of workflow.nodes) {
				assert.match(node.id, /^[0-9a-f-]{36}$/, `${spec.file}: "${node.name}" has a node id`);
				assert.ok(!names.has(node.name), `${spec.file}: node names are unique`);
				names.add(node.name);
				assert.ok(
					Array.isArray(node.position) && node.position.length === 2,
					`${spec.file}: "${node.name}" has a position`,
				);
				assert.ok(known.has(node.type), `${spec.file}: node type ${node.type} exists in this n8n`);
				assert.ok(
					known.get(node.type)!.includes(node.typeVersion),
					`${spec.file}: ${node.type} v${node.typeVersion} exists (has ${known.get(node.type)!.join(', ')})`,
				);
				if (
					node.type === KEYWORD_COM_NODE ||
					node.type === KEYWORD_COM_TRIGGER_NODE ||
					node.type === KEYWORD_COM_TOOL_NODE
				) {
					assert.deepEqual(
						node.credentials,
						{ keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } },
						`${spec.file}: "${node.name}" uses the "Keyword.com account" credential`,
					);
				}
				if (defaultVersions.has(node.type) && node.type.startsWith('n8n-nodes-keyword-com.'))
					assert.equal(
						node.typeVersion,
						defaultVersions.get(node.type),
						`${spec.file}: "${node.name}" is at the version a node added today gets`,
					);
				if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') {
					assert.deepEqual(
						node.credentials,
						{
							openAiApi: { id: EXAMPLE_OPENAI_CREDENTIAL_ID, name: EXAMPLE_OPENAI_CREDENTIAL_NAME },
						},
						`${spec.file}: "${node.name}" uses the "OpenAI account" credential`,
					);
					assert.equal(
						node.parameters.responsesApiEnabled,
						false,
						`${spec.file}: Chat Completions, so any OpenAI-compatible endpoint works`,
					);
				}
				if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger') {
					assert.equal(
						node.parameters.authentication,
						'bearerAuth',
						`${spec.file}: the MCP server asks for a bearer token`,
					);
					assert.deepEqual(node.credentials, {
						httpBearerAuth: { id: EXAMPLE_MCP_CREDENTIAL_ID, name: EXAMPLE_MCP_CREDENTIAL_NAME },
					});
				}
			}
			for (const [from, outputs] of Object.entries<any>(workflow.connections)) {
				assert.ok(names.has(from), `${spec.file}: connection from a node that exists (${from})`);
				for (const [type, branches] of Object.entries<any>(outputs)) {
					for (const c of branches.flat()) {
						assert.ok(
							names.has(c.node),
							`${spec.file}: connection to a node that exists (${c.node})`,
						);
						assert.equal(c.type, type, `${spec.file}: ${from} → ${c.node} is a ${type} connection`);
					}
				}
			}
		}
	});

	test('each example imports as shipped, and its test copy runs against the fake', async () => {
		const before = JSON.stringify(EXAMPLES.map((spec) => loadExample(spec.file)));
		runDays.push(utcDay());
		runs = await importAndRunExamples(n8n, { mcpToken: MCP_TOKEN });
		runDays.push(utcDay());
		assert.equal(
			JSON.stringify(EXAMPLES.map((spec) => loadExample(spec.file))),
			before,
			'the example files are untouched',
		);
		assert.deepEqual(
			runs.map((run) => run.spec.file),
			EXAMPLES.map((spec) => spec.file),
			'every example ran, in order',
		);
		for (const run of runs) {
			assert.ok(
				run.ok,
				`${run.spec.file}: ${run.summary}\n(fake model errors: ${JSON.stringify(model.errors())})\n${n8n.logTail(30)}`,
			);
			process.stdout.write(`# ${run.spec.title}: ${run.summary}\n`);
		}
		const listed = await n8n.cli(['list:workflow']);
		for (const run of runs.filter((r) => r.copyId))
			assert.match(listed.stdout, new RegExp(`${run.copyId}\\|`), `${run.copyId} is in n8n`);
		for (const run of runs)
			assert.match(listed.stdout, new RegExp(`${run.exampleId}\\|`), `${run.exampleId} is in n8n`);
	});

	test('daily ranks → Google Sheet: one row per keyword of the project', () => {
		const { result } = runOf(runs, 'daily-ranks-to-google-sheet.json');
		const rows = nodeOutput(result.output, 'Append to Google Sheet')!;
		assert.equal(rows.length, 12);
		assert.deepEqual(
			Object.keys(rows[0]).sort(),
			[
				'best_rank',
				'crawled_at',
				'date',
				'group',
				'keyword',
				'project',
				'rank',
				'ranking_url',
				'region',
				'search_volume',
			].sort(),
		);
		// The node's version-2 Simplified items, one row each, mapped field by field.
		const ranks = nodeOutput(result.output, 'Get keyword ranks')!;
		assert.equal(rows.length, ranks.length);
		assert.equal(rows[0].keyword, 'running shoes');
		rows.forEach((row, i) => {
			const keyword = ranks[i];
			assert.equal(row.keyword, keyword.keyword);
			assert.equal(row.project, keyword.project);
			assert.equal(row.group, keyword.group ?? '');
			assert.equal(
				String(row.rank),
				keyword.rank === null ? 'not in top 100' : String(keyword.rank),
			);
			assert.equal(row.best_rank, keyword.best_rank);
			assert.equal(row.ranking_url, keyword.ranking_url);
			assert.equal(row.search_volume, keyword.search_volume);
			assert.equal(row.crawled_at, keyword.crawled_at);
		});
		assert.ok(rows.every((r) => r.project === 'Acme Shoes' && /^\d{4}-\d\d-\d\d$/.test(r.date)));
		assert.ok(rows.every((r) => typeof r.keyword === 'string' && r.keyword !== ''));
		assert.ok(
			rows.some((r) => /^\d+$/.test(String(r.rank))),
			'some keywords rank',
		);
		assert.ok(
			rows.every((r) => /^\d{4}-\d\d-\d\dT/.test(r.crawled_at)),
			'crawl times in ISO',
		);
	});

	test('30 days of ranks → Google Sheet: one row per keyword per day, up to today, at the node’s default version', async () => {
		const example = loadExample('ranks-last-30-days-to-google-sheet.json');
		const node = example.nodes.find((n: any) => n.type === KEYWORD_COM_NODE);
		assert.equal(node.typeVersion, 1, 'the node’s one version');
		const { result } = runOf(runs, 'ranks-last-30-days-to-google-sheet.json');
		const rows = nodeOutput(result.output, 'Append to Google Sheet')!;
		// The demo data: 12 keywords in Acme Shoes, each charted up to the day of its last crawl (today, but for
		// the first minutes of a UTC day) and asked for the 30 days up to the day the workflow ran ($today, UTC).
		assert.deepEqual(Object.keys(rows[0]), RECORD_CATALOGUE.rankingRow.simplified);
		const crawlDays = await lastCrawlDays(fake, 'Acme Shoes');
		const byKeyword = new Map<string, any[]>();
		for (const row of rows)
			byKeyword.set(row.keyword_id, [...(byKeyword.get(row.keyword_id) ?? []), row]);
		assert.equal(byKeyword.size, 12);
		const ranOn = addDays(rows[0].date, 29);
		assert.ok(runDays.includes(ranOn), `the range ends on the day it ran (${ranOn} in ${runDays})`);
		for (const [keywordId, days] of byKeyword) {
			const crawled = crawlDays.get(String(keywordId));
			assert.ok(crawled, `keyword ${keywordId} was crawled`);
			const expected = chartedDays(rows[0].date, ranOn, crawled);
			assert.deepEqual(
				days.map((row) => row.date),
				expected,
				'one row a day, oldest first, up to the last crawl',
			);
			for (const [index, row] of days.entries()) {
				if (index > 0 && typeof row.previous_rank === 'number' && typeof row.rank === 'number')
					assert.equal(row.change, row.previous_rank - row.rank);
				assert.ok(row.rank === null || (Number.isInteger(row.rank) && row.rank > 0));
				assert.ok(
					row.ranking_url === null || /^https?:\/\//.test(row.ranking_url),
					row.ranking_url,
				);
			}
		}
		assert.ok(rows.every((r) => r.project === 'Acme Shoes'));
	});

	test('new alert → Slack: one message per alert', () => {
		const { result } = runOf(runs, 'new-alert-to-slack.json');
		const alerts = nodeOutput(result.output, 'On new rank alert')!;
		const messages = nodeOutput(result.output, 'Post to Slack')!;
		assert.ok(alerts.length >= 1, 'the demo data has alerts of the last day');
		assert.equal(messages.length, alerts.length);
		messages.forEach((m, i) => {
			const alert = alerts[i];
			const place = [alert.project, alert.group].filter(Boolean).join(' › ');
			assert.equal(
				m.text,
				`${alert.change > 0 ? ':arrow_up:' : ':arrow_down:'} *${alert.keyword}* (${place}, ${alert.region}) ` +
					`moved from ${alert.previous_rank || '>100'} to ${alert.rank || '>100'}`,
			);
			assert.equal(m.alert_id, alert.id);
			assert.equal(m.change, alert.change);
		});
	});

	test('top 10 → Slack (test copy, from fixture items): the Switch sends each crossing to its branch, one message each', () => {
		const { result } = runOf(runs, 'keyword-top10-to-slack.json');
		const [entered, left] = TOP10_UPDATES;
		assert.deepEqual(nodeOutput(result.output, 'On top 10 change'), TOP10_UPDATES);
		assert.deepEqual(nodeOutput(result.output, 'Entered or left?', 0), [entered], 'entered branch');
		assert.deepEqual(nodeOutput(result.output, 'Entered or left?', 1), [left], 'left branch');
		assert.deepEqual(nodeOutput(result.output, "Compose 'entered' message"), [
			{
				text: ':tada: *trail running shoes* entered the top 10 (12 → 8) · Acme Shoes, google.com',
				keyword_id: entered.id,
			},
		]);
		assert.deepEqual(nodeOutput(result.output, "Compose 'left' message"), [
			{
				text: ':warning: *acme shoes discount code* left the top 10 (9 → 11) · Acme Shoes, google.com',
				keyword_id: left.id,
			},
		]);
		assert.deepEqual(
			nodeOutputAllRuns(result.output, 'Post to Slack').map((m) => m.keyword_id),
			[entered.id, left.id],
			'Slack got both messages, once each',
		);
	});

	test('rank sheet updated in place: one row per keyword, matched on keyword_id by Append or Update', () => {
		const example = loadExample('rank-sheet-updated-in-place.json');
		const sheet = example.nodes.find((n: any) => n.name === 'Update the rank sheet');
		assert.equal(sheet.parameters.operation, 'appendOrUpdate');
		assert.deepEqual(sheet.parameters.columns.matchingColumns, ['keyword_id']);
		const { result } = runOf(runs, 'rank-sheet-updated-in-place.json');
		const ranks = nodeOutput(result.output, 'Get keyword ranks')!;
		const rows = nodeOutput(result.output, 'Update the rank sheet')!;
		assert.ok(rows.length >= 12, `${rows.length} keywords`);
		assert.equal(rows.length, ranks.length);
		assert.equal(new Set(rows.map((r) => r.keyword_id)).size, rows.length, 'one row per keyword');
		rows.forEach((row, i) => {
			assert.equal(row.keyword_id, ranks[i].id);
			assert.equal(row.keyword, ranks[i].keyword);
			assert.equal(row.updated, ranks[i].crawled_at);
		});
	});

	test('top 10 left → HubSpot task (test copy, from fixture items): one task per keyword that left, naming it', () => {
		const { result } = runOf(runs, 'keyword-left-top10-to-hubspot-task.json');
		assert.deepEqual(nodeOutput(result.output, 'On leaving the top 10'), TOP10_LEFT);
		const tasks = nodeOutput(result.output, 'Create a HubSpot task')!;
		assert.equal(tasks.length, TOP10_LEFT.length);
		const [left] = TOP10_LEFT;
		assert.equal(tasks[0].subject, `SEO: "${left.keyword}" left the top 10 (9 → 11)`);
		assert.match(tasks[0].body, /Ranking page: https:\/\/acmeshoes\.com\//);
		const dueInDays = (Date.parse(tasks[0].due) - Date.now()) / 86_400_000;
		assert.ok(dueInDays > 2.9 && dueInDays < 3.1, `due in ${dueInDays} days`);
		const hubspot = loadExample('keyword-left-top10-to-hubspot-task.json').nodes.find(
			(n: any) => n.name === 'Create a HubSpot task',
		);
		assert.deepEqual(
			[hubspot.parameters.resource, hubspot.parameters.type, hubspot.parameters.metadata.subject],
			['engagement', 'task', '={{ $json.subject }}'],
		);
	});

	test('weekly AI-visibility summary: one e-mail with a line per brand, no Code node', () => {
		const { result } = runOf(runs, 'weekly-ai-visibility-summary.json');
		const workflow = loadExample('weekly-ai-visibility-summary.json');
		assert.ok(
			workflow.nodes.every((node: any) => node.type !== 'n8n-nodes-base.code'),
			'built from standard nodes only',
		);
		const [mail, ...more] = nodeOutput(result.output, 'Compose the e-mail')!;
		assert.equal(more.length, 0);
		assert.deepEqual(
			mail.brands.map((b: any) => b.domain),
			['acmeshoes.com', 'cafe-zuerich.ch'],
		);
		// Last week's row of each brand: the Monday a week before the run, by n8n's clock (UTC).
		const monday = new Date();
		monday.setUTCDate(monday.getUTCDate() - 7 - ((monday.getUTCDay() + 6) % 7));
		for (const brand of mail.brands) assert.equal(brand.week, monday.toISOString().slice(0, 10));
		assert.match(mail.subject, /2 brands/);
		assert.match(
			mail.text,
			/Acme Shoes: visibility \d+\.\d \([+-]\d+\.\d vs the week before\), \d+ mentions, \d+ citations; top competitors: \w+/,
		);
		assert.match(mail.html, /<li>Café Zürich: visibility/);
		assert.deepEqual(nodeOutput(result.output, 'Email the summary'), [mail]);
	});

	test('AI visibility dropped → Slack: one message per day that dropped, naming the competitor above', () => {
		const { result } = runOf(runs, 'ai-visibility-dropped-to-slack.json');
		assert.deepEqual(nodeOutput(result.output, 'On AI visibility drop'), AI_DROP_DAYS);
		assert.deepEqual(
			nodeOutput(result.output, 'Post to Slack')!.map((message) => message.text),
			[
				':chart_with_downwards_trend: AI visibility of *acmeshoes.com* dropped 8.6 points to 21.4 on 2026-01-14 · now below Hoka',
				':chart_with_downwards_trend: AI visibility of *cafe-zuerich.ch* dropped 12.5 points to 0 on 2026-01-14 · now below Babu’s Bakery · named in no AI answer that day',
			],
		);
	});

	test('keywords from a sheet in bulk: grouped per project, duplicates counted', async () => {
		const { result } = runOf(runs, 'bulk-add-keywords-from-sheet.json');
		const added = nodeOutput(result.output, 'Add keywords')!;
		assert.equal(added.length, 2, 'one addition per project and URL');
		assert.deepEqual(
			added.map((a) => [a.requested, a.added, a.duplicates]),
			[
				[3, 2, 1],
				[2, 2, 0],
			],
		);
		const cafe = await fake.api(
			'GET',
			`/api/v2/groups/${encodeURIComponent('Café Zürich')}/keywords/?per_page=250`,
		);
		const imported = (cafe.data as any[]).filter((k) =>
			k.attributes.tags?.some((t: any) => t.name === 'Imported'),
		);
		assert.deepEqual(
			imported.map((k) => k.attributes.kw).sort(),
			BULK_SHEET_ROWS.filter((r) => r.project === 'Café Zürich')
				.map((r) => r.keyword)
				.sort(),
		);
	});

	/** Keywords of Acme Shoes now: the 12 of the demo data and the 2 the bulk example added before the agent ran. */
	const acmeKeywordCount = async (): Promise<number> => {
		const listed = await fake.api(
			'GET',
			`/api/v2/groups/${encodeURIComponent('Acme Shoes')}/keywords/?per_page=250`,
		);
		assert.equal(
			listed.data.length,
			14,
			'12 keywords of the demo data + 2 added by the bulk example',
		);
		return listed.data.length;
	};

	test('AI Agent with Keyword.com tools: the copy asks from a Chat Trigger stand-in; the model calls two tools and answers from them', async () => {
		const example = loadExample('ai-agent-keyword-com-tools.json');
		assert.ok(
			example.nodes.some((n: any) => n.type === CHAT_TRIGGER_NODE),
			'the example starts from a Chat Trigger',
		);
		assert.deepEqual(
			example.nodes.filter((n: any) => n.type === KEYWORD_COM_TOOL_NODE).map((n: any) => n.name),
			AGENT_TOOLS,
		);
		const { result } = runOf(runs, 'ai-agent-keyword-com-tools.json');
		assert.deepEqual(model.errors(), [], 'the fake model answered every request from its script');
		assert.deepEqual(
			toolCallsOf(result.output),
			['Get many projects', 'Get many keywords'],
			'the tools the script calls, in order',
		);

		const chats = model.chatRequests();
		assert.deepEqual(
			chats.map((c) => c.step),
			[0, 1, 2],
			'three model calls: projects, keywords, answer',
		);
		const messages: any[] = chats[0].body.messages;
		assert.equal(messages[0].role, 'system');
		assert.match(
			messages[0].content,
			/project.*name/i,
			'the system message asks for project names',
		);
		assert.equal(messages.at(-1).role, 'user');
		assert.equal(
			messages.at(-1).content,
			AGENT_EXAMPLE_QUESTION,
			'the question comes through the Chat Trigger stand-in',
		);
		assert.deepEqual(
			[...chats[0].tools].sort(),
			['Get_many_alerts', 'Get_many_keywords', 'Get_many_projects'],
			'the three tools are offered',
		);

		const [projectsResult, keywordsResult] = chats[2].toolResults;
		const projects = toolRecords(projectsResult.content);
		const keywords = toolRecords(keywordsResult.content);
		assert.deepEqual(
			projects.map((p) => p.name),
			['Acme Shoes', 'Café Zürich'],
			'projects only, no groups',
		);
		const count = await acmeKeywordCount();
		assert.equal(
			keywords.length,
			count,
			`the ${count} keywords of Acme Shoes (under the tool default of 20)`,
		);
		assert.ok(
			keywords.every((k) => k.project === 'Acme Shoes' && Object.keys(k).length <= 10),
			'simplified keyword records of the project',
		);
		for (const r of chats[2].toolResults)
			assert.ok(r.bytes < 16_000, `${r.name}: ${r.bytes} bytes, under the 16,000-character cap`);

		const answer = nodeOutput(result.output, 'AI Agent')?.[0]?.output;
		const best = keywords
			.filter((k) => typeof k.rank === 'number')
			.sort((a, b) => a.rank - b.rank)[0];
		assert.ok(
			answer.startsWith(
				`You track 2 projects: Acme Shoes and Café Zürich. Acme Shoes has ${count} keywords; the best placed: `,
			),
			answer,
		);
		assert.ok(
			answer.includes(`'${best.keyword}' (rank ${best.rank})`),
			`the answer names the best-placed keyword: ${answer}`,
		);
		const seen = model
			.requests()
			.map((r) => `${JSON.stringify(r.headers)}\n${r.bodyText}`)
			.join('\n');
		assert.ok(!seen.includes(fake.token), 'the Keyword.com token never reaches the model');
	});

	test('Keyword.com as an MCP server: published as shipped, it lists its tools to an MCP client with the token and answers a call; no token, no access', async () => {
		const run = runs.find((r) => r.spec.file === 'keyword-com-mcp-server.json');
		assert.ok(run?.ok && run.mcp, `the MCP example ran: ${run?.summary}`);
		const { mcp } = run;
		assert.match(mcp.url, /\/mcp\/keyword-com$/);
		assert.deepEqual(mcp.tools.map((t) => t.name).sort(), [
			'Get_many_alerts',
			'Get_many_keywords',
			'Get_many_projects',
		]);
		for (const t of mcp.tools)
			assert.ok(
				typeof t.description === 'string' && t.description.trim().length > 0,
				`${t.name} has a description`,
			);
		assert.ok(
			'project' in
				(mcp.tools.find((t) => t.name === 'Get_many_keywords')?.inputSchema?.properties ?? {}),
			'Get_many_keywords takes a project',
		);
		assert.equal(mcp.call.isError, false, mcp.call.text.slice(0, 300));
		const count = await acmeKeywordCount();
		assert.equal(mcp.call.records.length, count, `the ${count} keywords of Acme Shoes`);
		assert.ok(mcp.call.records.every((k) => k.project === 'Acme Shoes'));
		assert.equal(
			mcp.withoutTokenStatus,
			403,
			'a client without the bearer token is refused (n8n answers 403)',
		);
		const logs = n8n.logs();
		assert.ok(
			!logs.includes(fake.token) && !logs.includes(MCP_TOKEN),
			'neither token is in the logs',
		);
		assert.ok(!mcp.call.text.includes(fake.token), 'no Keyword.com token in the MCP answer');
	});

	test('new alert → Slack through the published trigger: new alerts after a restart are posted, each once', async () => {
		const copy = testCopyOf(EXAMPLES.find((e) => e.file === 'new-alert-to-slack.json')!, {
			trigger: 'keep',
			id: 'kwcExAlertSlackPub',
			name: 'Keyword.com: new rank alert → Slack (published test copy)',
		});
		assert.ok(
			copy.nodes.some((n: any) => n.type === KEYWORD_COM_TRIGGER_NODE),
			'the trigger is kept',
		);
		const id = await n8n.importWorkflow(copy);
		const waitForPoll = async (count: number): Promise<void> =>
			await fake.waitForRequests('/api/v2/alerts', count, {
				status: 200,
				explain: () => n8n.logTail(40),
			});
		await fake.clearRequests();
		await n8n.publish(id);
		await n8n.start();
		await n8n.setupOwnerAndLogin();
		await waitForPoll(1); // activation: the trigger learns where "now" is
		await n8n.waitForStaticData(id); // and n8n saved it: a restart before that would learn "now" again
		const first = await n8n.listExecutionSummaries(id);

		const created = (await fake.control('POST', 'alerts', { count: 2, category: 'Acme Shoes' }))
			.data as any[];
		await n8n.restart(); // activation poll again: the two new alerts
		await waitForPoll(2);
		const executions = await n8n.waitForExecutions(id, first.length + 1, { timeoutMs: 60_000 });
		const last = executions[executions.length - 1];
		assert.equal(last.mode, 'trigger');
		assert.equal(last.status, 'success');
		const posted = nodeOutput(last, 'Post to Slack')!;
		const fromTrigger = nodeOutput(last, 'On new rank alert')!;
		assert.deepEqual(
			fromTrigger.map((a) => String(a.id)).sort(),
			created.map((a) => String(a.id)).sort(),
			'exactly the new alerts',
		);
		assert.equal(posted.length, 2);
		assert.ok(
			fromTrigger.every((a) => a.project === 'Acme Shoes' && typeof a.keyword === 'string'),
			'version-2 alert items',
		);
		assert.ok(posted.every((m, i) => m.text.includes(`*${fromTrigger[i].keyword}* (Acme Shoes, `)));

		await n8n.restart(); // nothing new: no further execution
		await waitForPoll(3);
		await new Promise((r) => setTimeout(r, 1_500));
		const again = await n8n.listExecutionSummaries(id);
		assert.equal(again.length, executions.length, 'the alerts were posted once');
		await n8n.stop();
		assert.ok(!n8n.logs().includes(fake.token), 'no token in the logs');
	});
	test('top 10 → Slack through the published trigger: of four known rank moves, the two crossings reach their Switch branches, once', async () => {
		const spec = EXAMPLES.find((e) => e.file === 'keyword-top10-to-slack.json')!;
		const copy = testCopyOf(spec, {
			trigger: 'keep',
			id: 'kwcExTop10SlackPub',
			name: 'Keyword.com: keyword entered or left the top 10 → Slack (published test copy)',
		});
		const trigger = copy.nodes.find((n: any) => n.type === KEYWORD_COM_TRIGGER_NODE);
		assert.ok(trigger, 'the trigger is kept');
		assert.deepEqual(trigger.parameters.filters, { crossedTop: 10, crossing: 'either' });
		const id = await n8n.importWorkflow(copy);

		// Four keywords of Acme Shoes at known ranks before the activation, moved after it: 12 → 8 (entered the top 10),
		// 9 → 11 (left it), 30 → 25 and 5 → 4 (moves that cross nothing).
		const listed = await fake.api(
			'GET',
			`/api/v2/groups/${encodeURIComponent('Acme Shoes')}/keywords/?per_page=250`,
		);
		const [enteredId, leftId, belowId, insideId] = (listed.data as any[])
			.slice(0, 4)
			.map((k) => String(k.id));
		const moves: Record<string, [number, number]> = {
			[enteredId]: [12, 8],
			[leftId]: [9, 11],
			[belowId]: [30, 25],
			[insideId]: [5, 4],
		};
		const rankUpdate = async (step: 0 | 1) => {
			const ranks = Object.fromEntries(Object.entries(moves).map(([k, pair]) => [k, pair[step]]));
			const answer = await fake.control('POST', 'rank-update', {
				keywordIds: Object.keys(moves),
				ranks,
			});
			assert.deepEqual(
				Object.fromEntries(answer.keywords.map((k: any) => [k.id, k.grank])),
				ranks,
				'the fake took the chosen ranks',
			);
		};
		await rankUpdate(0);

		const waitForPoll = async (count: number): Promise<void> =>
			await fake.waitForRequests('/api/v2/groups/active', count, {
				status: 200,
				explain: () => n8n.logTail(40),
			});
		await fake.clearRequests();
		await n8n.publish(id);
		await n8n.start();
		await n8n.setupOwnerAndLogin();
		await waitForPoll(1); // activation: the trigger learns where "now" is, emits nothing
		await n8n.waitForStaticData(id); // and n8n saved it: a restart before that would learn "now" again
		const first = await n8n.listExecutionSummaries(id);
		assert.equal(first.length, 0, 'the activation emitted nothing');

		await rankUpdate(1);
		await n8n.restart(); // the activation poll after the restart reads the four updates
		await waitForPoll(2);
		const executions = await n8n.waitForExecutions(id, 1, { timeoutMs: 60_000 });
		assert.equal(executions.length, 1, 'one execution');
		const [run] = executions;
		assert.equal(run.mode, 'trigger');
		assert.equal(run.status, 'success');

		const emitted = nodeOutput(run, 'On top 10 change')!;
		assert.deepEqual(
			emitted.map((k) => [k.id, k.previous_rank, k.rank, k.matched]).sort(),
			[
				[enteredId, 12, 8, ['top10_entered']],
				[leftId, 9, 11, ['top10_left']],
			].sort(),
			'exactly the two crossings, with why; 30 → 25 and 5 → 4 were not emitted',
		);
		assert.deepEqual(
			Object.keys(emitted[0]).sort(),
			Object.keys(TOP10_UPDATES[0]).sort(),
			"the execute path's fixture items have the real trigger's fields",
		);
		const byId = (wanted: string) => emitted.find((k) => k.id === wanted)!;
		const [entered, left] = [byId(enteredId), byId(leftId)];
		const place = (k: any) => `${[k.project, k.group].filter(Boolean).join(' › ')}, ${k.region}`;
		assert.deepEqual(nodeOutput(run, 'Entered or left?', 0), [entered], 'the "entered" branch');
		assert.deepEqual(nodeOutput(run, 'Entered or left?', 1), [left], 'the "left" branch');
		assert.deepEqual(nodeOutput(run, "Compose 'entered' message"), [
			{
				text: `:tada: *${entered.keyword}* entered the top 10 (12 → 8) · ${place(entered)}`,
				keyword_id: enteredId,
			},
		]);
		assert.deepEqual(nodeOutput(run, "Compose 'left' message"), [
			{
				text: `:warning: *${left.keyword}* left the top 10 (9 → 11) · ${place(left)}`,
				keyword_id: leftId,
			},
		]);
		assert.deepEqual(
			nodeOutputAllRuns(run, 'Post to Slack')
				.map((m) => m.keyword_id)
				.sort(),
			[enteredId, leftId].sort(),
			'Slack got one message per crossing',
		);

		await n8n.restart(); // nothing new: no further execution
		await waitForPoll(3);
		await new Promise((r) => setTimeout(r, 1_500));
		const again = await n8n.listExecutionSummaries(id);
		assert.equal(again.length, 1, 'the crossings were posted once');
		await n8n.stop();
		assert.ok(!n8n.logs().includes(fake.token), 'no token in the logs');
	});
});
