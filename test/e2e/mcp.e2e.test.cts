/**
 * The Keyword.com Tool behind n8n's MCP Server Trigger, in a real n8n 2.x: the workflow (trigger + two Keyword.com
 * tools) is published, `n8n start` serves it at `/mcp/<path>`, and the official MCP TypeScript SDK connects as a
 * client (Streamable HTTP, and the legacy SSE transport), lists the tools and calls one. Checked: the tool names and
 * descriptions, the records a call returns and their size, what the fake API received, and that the Keyword.com
 * token appears in no MCP answer and no log.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json --outDir build-agent && node --test build-agent/test/e2e/mcp.e2e.test.cjs
 * KEYWORD_COM_E2E_TARBALL=<path.tgz> installs that tarball instead of building and packing the package.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {
	FakeApiProcess,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	removeTarball,
	retryUntil,
} from '../../e2e/lib/index.cjs';
import { MCP_TRIGGER_NODE, MCP_TRIGGER_NODE_VERSION } from '../../e2e/lib/fake-model.cjs';
import {
	TOOL_NODE_VERSION,
	assertKeywordRecords,
	keywordTools,
	recordsOf,
} from './tool-records.cjs';

const ACME = 'Acme Shoes';
const LIMIT = 3;
const MCP_PATH = 'keyword-com-e2e';
/** What one tool call may hand an MCP client (and so a model's context). */
const MAX_RESULT_BYTES = 20_000;
const TOOL_NAMES = ['Get_a_keyword', 'Get_many_keywords'];

function mcpWorkflow(): Record<string, unknown> {
	return {
		id: 'kwcMcpFlow000001',
		name: 'E2E: MCP server with Keyword.com tools',
		nodes: [
			{
				id: 'kwc-mcp-trigger',
				name: 'MCP Server Trigger',
				type: MCP_TRIGGER_NODE,
				typeVersion: MCP_TRIGGER_NODE_VERSION,
				position: [0, 0],
				webhookId: '0b6f6a53-3f43-4c8e-9a55-4a4d1c2b7e01',
				parameters: { authentication: 'none', path: MCP_PATH },
			},
			...keywordTools({ idPrefix: 'kwc-mcp', at: (x) => [x, 300], getX: 250, limit: LIMIT }),
		],
		connections: {
			'Get many keywords': {
				ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
			},
			'Get a keyword': { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The text parts of a tool call result, joined. */
function textOf(result: any): string {
	return (result.content as any[])
		.filter((c) => c.type === 'text')
		.map((c) => c.text)
		.join('\n');
}

describe(
	'Keyword.com tools behind the MCP Server Trigger (real n8n, MCP SDK client)',
	{ timeout: 5 * 60_000 },
	() => {
		const prebuilt = process.env.KEYWORD_COM_E2E_TARBALL;
		let tarball: string | undefined;
		let fake: FakeApiProcess;
		let n8n: RealN8n;
		let url: URL;
		/** Everything the MCP server answered, for the token check. */
		const answers: unknown[] = [];
		const clients: Client[] = [];

		const connect = async (transport: 'streamable-http' | 'sse'): Promise<Client> => {
			const client = new Client({ name: 'keyword-com-e2e', version: '1.0.0' });
			await client.connect(
				transport === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url),
			);
			clients.push(client);
			return client;
		};

		before(async () => {
			tarball = prebuilt ?? buildAndPackPackage();
			fake = await FakeApiProcess.start({ seed: 'demo' });
			n8n = await RealN8n.create({ packageTarball: tarball, name: 'mcp' });
			await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
			const id = await n8n.importWorkflow(mcpWorkflow());
			await n8n.publish(id);
			await n8n.start();
			// This version of the MCP trigger serves both transports on one path: GET opens SSE, POST speaks Streamable HTTP.
			url = new URL(`${n8n.baseUrl}/mcp/${MCP_PATH}`);
		});

		after(async () => {
			for (const client of clients) await client.close().catch(() => undefined);
			await n8n?.dispose();
			await fake?.stop();
			if (!prebuilt) removeTarball(tarball);
		});

		test('Streamable HTTP: lists the two tools, each with a description and an input schema', async () => {
			const client = await retryUntil('connecting to the MCP server', () =>
				connect('streamable-http'),
			);
			const { tools } = await client.listTools();
			answers.push(tools);
			assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
			for (const t of tools) {
				assert.ok(
					typeof t.description === 'string' && t.description.trim().length > 0,
					`${t.name} has a description`,
				);
				assert.ok(
					'project' in ((t.inputSchema.properties as Record<string, unknown>) ?? {}),
					`${t.name} takes a project`,
				);
			}
			const get = tools.find((t) => t.name === 'Get_a_keyword');
			assert.ok(
				'keywordId' in ((get?.inputSchema.properties as Record<string, unknown>) ?? {}),
				'Get_a_keyword takes a keyword ID',
			);
		});

		test('Streamable HTTP: a call returns at most the limit of records, bounded in size, from one API request', async () => {
			const client = await retryUntil('connecting to the MCP server', () =>
				connect('streamable-http'),
			);
			await fake.clearRequests();
			const result: any = await client.callTool({
				name: 'Get_many_keywords',
				arguments: { project: ACME },
			});
			answers.push(result);
			assert.notEqual(
				result.isError,
				true,
				`the call succeeded: ${JSON.stringify(result).slice(0, 500)}`,
			);
			const text = textOf(result);
			const bytes = Buffer.byteLength(JSON.stringify(result));
			assert.ok(bytes < MAX_RESULT_BYTES, `the result is ${bytes} bytes < ${MAX_RESULT_BYTES}`);
			const records = recordsOf(text);
			assertKeywordRecords(records, {
				limit: LIMIT,
				project: ACME,
				nodeVersion: TOOL_NODE_VERSION,
			});

			const requests = await fake.requests();
			const summary = requests.map((r) => `${r.method} ${r.path}?${r.rawQuery}`).join(', ');
			assert.equal(requests.length, 1, `one API request: ${summary}`);
			assert.equal(requests[0].method, 'GET');
			assert.equal(requests[0].path, `/api/v2/groups/${ACME}/keywords/`);
			assert.ok(
				Number(requests[0].query.per_page) >= 1 && Number(requests[0].query.per_page) <= LIMIT,
				`per_page ≤ ${LIMIT}: ${summary}`,
			);
			assert.equal(requests[0].status, 200);
		});

		test('Streamable HTTP: an unknown project comes back as a tool error the client can read', async () => {
			const client = await retryUntil('connecting to the MCP server', () =>
				connect('streamable-http'),
			);
			await fake.clearRequests();
			const result: any = await client.callTool({
				name: 'Get_many_keywords',
				arguments: { project: 'No such project' },
			});
			answers.push(result);
			assert.equal(
				result.isError,
				true,
				`an error result: ${JSON.stringify(result).slice(0, 500)}`,
			);
			assert.match(textOf(result), /No such project/, 'the error names the project');
			const requests = await fake.requests();
			assert.deepEqual(
				requests.map((r) => `${r.method} ${r.path} ${r.status}`),
				['GET /api/v2/groups/No such project/keywords/ 404'],
				'one request, no retry of a 404',
			);
		});

		test('SSE transport: the same server answers a keyword lookup', async () => {
			const client = await retryUntil('connecting over SSE', () => connect('sse'));
			const { tools } = await client.listTools();
			answers.push(tools);
			assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
			await fake.clearRequests();
			const result: any = await client.callTool({
				name: 'Get_a_keyword',
				arguments: { project: ACME, keywordId: '100001' },
			});
			answers.push(result);
			assert.notEqual(
				result.isError,
				true,
				`the call succeeded: ${JSON.stringify(result).slice(0, 500)}`,
			);
			const [record] = recordsOf(textOf(result));
			assert.equal(String(record?.id), '100001');
			assert.ok(Buffer.byteLength(JSON.stringify(result)) < MAX_RESULT_BYTES);
			const requests = await fake.requests();
			assert.deepEqual(
				requests.map((r) => `${r.method} ${r.path} ${r.status}`),
				[`GET /api/v2/groups/${ACME}/keywords/100001 200`],
			);
		});

		test('the Keyword.com token appears in no MCP answer and no n8n log', () => {
			assert.ok(answers.length >= 5, 'the answers were collected');
			assert.ok(!JSON.stringify(answers).includes(fake.token), 'no token in MCP answers');
			assert.ok(!n8n.logs().includes(fake.token), 'no token in n8n logs');
		});
	},
);
