/**
 * The Keyword.com Tool in n8n's AI Agent, in a real n8n 2.x: Manual Trigger → AI Agent, with the "OpenAI Chat Model"
 * node on the scripted fake model (dev/fake-model) and two Keyword.com tools ("Get many keywords", "Get a keyword")
 * whose inputs come from `$fromAI`. The script calls the list tool for 'Acme Shoes', then the get tool for one of its
 * keywords, then answers. Checked: what the fake API received, what reached the model (the tools it was offered, the
 * tool results and their size), the agent's answer, and that the Keyword.com token reaches neither the model nor the
 * logs.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json --outDir build-agent && node --test build-agent/test/e2e/agent.e2e.test.cjs
 * KEYWORD_COM_E2E_TARBALL=<path.tgz> installs that tarball instead of building and packing the package (useful while
 * the package sources are mid-edit).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	runError,
	type ExecuteResult,
	type FakeRequest,
} from '../../e2e/lib/index.cjs';
import {
	AGENT_NODE,
	AGENT_NODE_VERSION,
	FakeModel,
	fakeModelCredential,
	openAiChatModelNode,
	type ChatRequest,
} from '../../e2e/lib/fake-model.cjs';
import {
	TOOL_NODE_VERSION,
	assertKeywordRecords,
	keywordTools,
	recordsOf,
} from './tool-records.cjs';

const ACME = 'Acme Shoes';
const LIMIT = 5;
const FINAL_ANSWER = 'Acme Shoes tracks "running shoes" among its keywords; its details are above.';
/** A tool result the model gets must stay small: a whole project's keywords would flood its context. */
const MAX_TOOL_RESULT_BYTES = 20_000;

function agentWorkflow(): Record<string, unknown> {
	const nodes = [
		{
			id: 'kwc-agent-start',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'kwc-agent-agent',
			name: 'AI Agent',
			type: AGENT_NODE,
			typeVersion: AGENT_NODE_VERSION,
			position: [300, 0],
			parameters: {
				promptType: 'define',
				text: `Which keywords does the project "${ACME}" track? Show me the details of the first one.`,
				options: { maxIterations: 6 },
			},
		},
		openAiChatModelNode({ position: [200, 300] }),
		...keywordTools({ idPrefix: 'kwc-agent', at: (x) => [400 + x, 300], getX: 200, limit: LIMIT }),
	];
	const connections = {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
		'Get many keywords': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		'Get a keyword': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	};
	return {
		id: 'kwcAgentFlow0001',
		name: 'E2E: AI Agent with Keyword.com tools',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

describe(
	'Keyword.com tools in an AI Agent (real n8n, scripted fake model)',
	{ timeout: 5 * 60_000 },
	() => {
		const prebuilt = process.env.KEYWORD_COM_E2E_TARBALL;
		let tarball: string | undefined;
		let fake: FakeApiProcess;
		let model: FakeModel;
		let n8n: RealN8n;
		let keywordId: string;
		let result: ExecuteResult;
		let apiRequests: FakeRequest[];
		let chats: ChatRequest[];

		before(async () => {
			tarball = prebuilt ?? buildAndPackPackage();
			fake = await FakeApiProcess.start({ seed: 'demo' });
			// The keyword the script asks about: the first one the list answers (what a model would pick from the list).
			const listed = await fake.api(
				'GET',
				`/api/v2/groups/${encodeURIComponent(ACME)}/keywords/?page=1&per_page=${LIMIT}`,
			);
			keywordId = String(listed.data[0].id);
			model = await FakeModel.start({
				script: [
					{ tool: 'Get many keywords', arguments: { project: ACME } },
					{ tool: 'Get a keyword', arguments: { project: ACME, keywordId } },
					{ text: FINAL_ANSWER },
				],
			});
			n8n = await RealN8n.create({ packageTarball: tarball, name: 'agent' });
			await n8n.importCredentials([
				keywordComCredential(fake.baseUrl, fake.token),
				fakeModelCredential(model.baseUrl, model.apiKey),
			]);
			const id = await n8n.importWorkflow(agentWorkflow());
			await fake.clearRequests();
			result = await n8n.execute(id, { timeoutMs: 120_000 });
			apiRequests = await fake.requests();
			chats = model.chatRequests();
		});

		after(async () => {
			await n8n?.dispose();
			await fake?.stop();
			await model?.stop();
			if (!prebuilt) removeTarball(tarball);
		});

		test('the agent runs the script to its end and answers with the scripted text', () => {
			const error = runError(result.output) ?? runError(result.output, 'AI Agent');
			assert.ok(
				result.ok,
				`the workflow succeeded: ${JSON.stringify(error?.message)} (model errors: ${JSON.stringify(model.errors())})\n${n8n.logTail(40)}`,
			);
			assert.deepEqual(model.errors(), [], 'the fake model answered every request from its script');
			const output = nodeOutput(result.output, 'AI Agent');
			assert.equal(output?.length, 1, 'one item out of the agent');
			assert.equal(output?.[0].output, FINAL_ANSWER);
			assert.deepEqual(
				chats.map((c) => c.step),
				[0, 1, 2],
				'three model calls: list, get, answer',
			);
		});

		test('the model is offered both tools, each with a description and the $fromAI parameters', () => {
			const offered = chats[0].body.tools as any[];
			const byName = new Map(offered.map((t) => [t.function.name, t.function]));
			assert.deepEqual([...byName.keys()].sort(), ['Get_a_keyword', 'Get_many_keywords']);
			for (const fn of byName.values())
				assert.ok(
					typeof fn.description === 'string' && fn.description.trim().length > 0,
					`${fn.name} has a description`,
				);
			assert.ok(
				'project' in (byName.get('Get_many_keywords').parameters?.properties ?? {}),
				'the list tool takes a project',
			);
			assert.deepEqual(
				Object.keys(byName.get('Get_a_keyword').parameters?.properties ?? {}).sort(),
				['keywordId', 'project'],
			);
		});

		test('the fake API received exactly the list (at most the limit per page) and the one keyword', () => {
			const summary = apiRequests.map((r) => `${r.method} ${r.path}?${r.rawQuery}`).join(', ');
			assert.ok(
				apiRequests.every((r) => r.method === 'GET' && r.status === 200),
				`only successful GETs: ${summary}`,
			);
			const list = apiRequests.filter((r) => r.path === `/api/v2/groups/${ACME}/keywords/`);
			const one = apiRequests.filter(
				(r) => r.path === `/api/v2/groups/${ACME}/keywords/${keywordId}`,
			);
			assert.equal(
				list.length,
				1,
				`one page of the keyword list (${LIMIT} of 12 fit in one): ${summary}`,
			);
			assert.ok(
				Number(list[0].query.per_page) >= 1 && Number(list[0].query.per_page) <= LIMIT,
				`per_page ≤ ${LIMIT}: ${summary}`,
			);
			assert.equal(one.length, 1, `the keyword the model asked for: ${summary}`);
			assert.equal(apiRequests.length, 2, `nothing else: ${summary}`);
			assert.deepEqual(
				apiRequests.map((r) => r.path),
				[list[0].path, one[0].path],
				'list first, then the keyword',
			);
		});

		test('the tool results reach the model, bounded in size; the list holds at most the limit', () => {
			const final = chats[2];
			assert.equal(final.toolResults.length, 2, 'the last model call sees both tool results');
			const [listResult, oneResult] = final.toolResults;
			assert.equal(listResult.name, 'Get_many_keywords');
			assert.equal(oneResult.name, 'Get_a_keyword');
			for (const r of final.toolResults)
				assert.ok(
					r.bytes > 0 && r.bytes < MAX_TOOL_RESULT_BYTES,
					`${r.name}: ${r.bytes} bytes < ${MAX_TOOL_RESULT_BYTES}`,
				);
			const records = recordsOf(listResult.content);
			assertKeywordRecords(records, {
				limit: LIMIT,
				project: ACME,
				nodeVersion: TOOL_NODE_VERSION,
			});
			assert.ok(
				records.some((r) => String(r.id) === keywordId),
				`the list holds keyword ${keywordId}`,
			);
			assert.ok(
				oneResult.content.includes(keywordId),
				'the get result is about the keyword asked for',
			);
			// The same results were what the second call saw of the first tool.
			assert.equal(chats[1].toolResults.length, 1);
			assert.equal(chats[1].toolResults[0].content, listResult.content);
		});

		test('the Keyword.com token reaches neither the model nor the logs', () => {
			const seen = model
				.requests()
				.map((r) => `${JSON.stringify(r.headers)}\n${r.bodyText}`)
				.join('\n');
			assert.ok(!seen.includes(fake.token), 'no token in what the model received');
			assert.ok(
				model.requests().every((r) => r.headers.authorization === `Bearer ${model.apiKey}`),
				'the model got its own key',
			);
			assert.ok(!n8n.logs().includes(fake.token), 'no token in n8n logs');
			assert.ok(
				!result.stdout.includes(fake.token) && !result.stderr.includes(fake.token),
				'no token in the execute output',
			);
		});
	},
);
