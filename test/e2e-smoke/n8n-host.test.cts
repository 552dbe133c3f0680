/**
 * Smoke test of the end-to-end driver (e2e/lib) against the real, pinned n8n — without this project's package:
 * a throw-away community package ("n8n-nodes-e2e-probe", written below) stands in for it.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e-smoke/
 * The first run installs n8n into the cache (a few minutes); later runs take about a minute.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { RealN8n, nodeOutput, packPackage, runError } from '../../e2e/lib/index.cjs';

const PROBE_PACKAGE = 'n8n-nodes-e2e-probe';
const SECRET = `e2e-secret-${Math.random().toString(36).slice(2)}-never-logged`;
const CREDENTIAL_ID = 'e2eHeaderCred001';

/** A minimal community package: one plain-JS node with usableAsTool (so n8n generates a Tool variant). */
function writeProbePackage(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-probe-'));
	fs.mkdirSync(path.join(dir, 'dist', 'nodes', 'Probe'), { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: PROBE_PACKAGE,
			version: '0.0.1',
			license: 'MIT',
			keywords: ['n8n-community-node-package'],
			files: ['dist'],
			n8n: {
				n8nNodesApiVersion: 1,
				credentials: [],
				nodes: ['dist/nodes/Probe/Probe.node.js', 'dist/nodes/ProbeTrigger/ProbeTrigger.node.js'],
			},
			peerDependencies: { 'n8n-workflow': '*' },
		}),
	);
	fs.writeFileSync(
		path.join(dir, 'dist', 'nodes', 'Probe', 'Probe.node.js'),
		`'use strict';
class Probe {
	constructor() {
		this.description = {
			displayName: 'E2E Probe', name: 'e2eProbe', group: ['transform'], version: 1,
			description: 'Adds a greeting to each item', defaults: { name: 'E2E Probe' },
			inputs: ['main'], outputs: ['main'], usableAsTool: true,
			properties: [{ displayName: 'Greeting', name: 'greeting', type: 'string', default: 'hello' }],
		};
	}
	async execute() {
		const items = this.getInputData();
		return [items.map((item, i) => ({ json: { ...item.json, greeting: this.getNodeParameter('greeting', i) }, pairedItem: { item: i } }))];
	}
}
module.exports = { Probe };
`,
	);
	// A polling trigger that counts its polls in the workflow's static data.
	fs.mkdirSync(path.join(dir, 'dist', 'nodes', 'ProbeTrigger'), { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'dist', 'nodes', 'ProbeTrigger', 'ProbeTrigger.node.js'),
		`'use strict';
class ProbeTrigger {
	constructor() {
		this.description = {
			displayName: 'E2E Probe Trigger', name: 'e2eProbeTrigger', group: ['trigger'], version: 1, polling: true,
			description: 'Emits a poll counter', defaults: { name: 'E2E Probe Trigger' },
			inputs: [], outputs: ['main'], properties: [],
		};
	}
	async poll() {
		const state = this.getWorkflowStaticData('node');
		state.count = (state.count || 0) + 1;
		return [[{ json: { count: state.count, mode: this.getMode() } }]];
	}
}
module.exports = { ProbeTrigger };
`,
	);
	return dir;
}

const manualTrigger = {
	id: 'n-trigger',
	name: 'Manual',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function chain(names: string[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

describe('real n8n host (e2e driver smoke test)', { timeout: 15 * 60_000 }, () => {
	let n8n: RealN8n;
	let probeDir: string;
	let tarball: string;
	let server: http.Server;
	let serverPort = 0;
	let headerSeen: string | undefined;

	before(async () => {
		server = http.createServer((req, res) => {
			headerSeen = req.headers['x-e2e-key'] as string | undefined;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ path: req.url, authorized: headerSeen === SECRET }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		serverPort = (server.address() as { port: number }).port;

		probeDir = writeProbePackage();
		tarball = packPackage(probeDir);
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'smoke' });
	});

	after(async () => {
		await n8n?.dispose();
		server?.close();
		if (probeDir) fs.rmSync(probeDir, { recursive: true, force: true });
		if (tarball) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	});

	test('the community package is installed the way users do it', () => {
		const installed = path.join(
			n8n.userFolder,
			'.n8n',
			'nodes',
			'node_modules',
			PROBE_PACKAGE,
			'package.json',
		);
		assert.ok(fs.existsSync(installed), `${installed} exists`);
		assert.ok(
			!fs.existsSync(path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-workflow')),
			'the peer dependency is not installed',
		);
	});

	test('imports a credential (plain data, fixed id) of type httpHeaderAuth', async () => {
		const ids = await n8n.importCredentials([
			{
				id: CREDENTIAL_ID,
				name: 'E2E header',
				type: 'httpHeaderAuth',
				data: { name: 'X-E2E-Key', value: SECRET },
			},
		]);
		assert.deepEqual(ids, [CREDENTIAL_ID]);
	});

	test('executes Manual Trigger → Set → Code → community node → HTTP Request (with the credential) headlessly', async () => {
		const id = await n8n.importWorkflow({
			id: 'e2eSmokeFlow0001',
			name: 'E2E smoke',
			nodes: [
				manualTrigger,
				{
					id: 'n-set',
					name: 'Set',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [200, 0],
					parameters: {
						assignments: {
							assignments: [
								{ id: 'a1', name: 'word', value: 'hello', type: 'string' },
								{ id: 'a2', name: 'n', value: '={{ 20 + 22 }}', type: 'number' },
							],
						},
						options: {},
					},
				},
				{
					id: 'n-code',
					name: 'Code',
					type: 'n8n-nodes-base.code',
					typeVersion: 1,
					position: [400, 0],
					parameters: {
						jsCode:
							'return $input.all().map((item) => ({ json: { ...item.json, doubled: item.json.n * 2 } }));',
					},
				},
				{
					id: 'n-probe',
					name: 'Probe',
					type: `${PROBE_PACKAGE}.e2eProbe`,
					typeVersion: 1,
					position: [600, 0],
					parameters: { greeting: 'hi from the probe' },
				},
				{
					id: 'n-http',
					name: 'HTTP',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [800, 0],
					parameters: {
						url: `http://127.0.0.1:${serverPort}/echo`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						options: {},
					},
					credentials: { httpHeaderAuth: { id: CREDENTIAL_ID, name: 'E2E header' } },
				},
			],
			connections: chain(['Manual', 'Set', 'Code', 'Probe', 'HTTP']),
		});
		assert.equal(id, 'e2eSmokeFlow0001');

		const result = await n8n.execute(id);
		assert.ok(
			result.ok,
			`execution succeeded; stderr tail:\n${result.stderr.slice(-2000)}\n${n8n.logTail()}`,
		);
		assert.equal(result.exitCode, 0);
		assert.deepEqual(nodeOutput(result.output, 'Set'), [{ word: 'hello', n: 42 }]);
		assert.deepEqual(nodeOutput(result.output, 'Code'), [{ word: 'hello', n: 42, doubled: 84 }]);
		assert.deepEqual(nodeOutput(result.output, 'Probe'), [
			{ word: 'hello', n: 42, doubled: 84, greeting: 'hi from the probe' },
		]);
		assert.deepEqual(nodeOutput(result.output, 'HTTP'), [{ path: '/echo', authorized: true }]);
		assert.equal(headerSeen, SECRET, 'n8n decrypted the imported credential and sent its header');
	});

	test('a failing workflow reports ok: false with the node error', async () => {
		const id = await n8n.importWorkflow({
			name: 'E2E failing',
			nodes: [
				manualTrigger,
				{
					id: 'n-code',
					name: 'Boom',
					type: 'n8n-nodes-base.code',
					typeVersion: 1,
					position: [200, 0],
					parameters: { jsCode: "throw new Error('boom from e2e');" },
				},
			],
			connections: chain(['Manual', 'Boom']),
		});
		assert.match(id, /^[0-9a-f]{16}$/, 'a fixed id derived from the name');
		const result = await n8n.execute(id);
		assert.equal(result.ok, false);
		assert.equal(result.exitCode, 1);
		assert.match(
			String(runError(result.output, 'Boom')?.message ?? runError(result.output)?.message),
			/boom from e2e/,
		);
	});

	test('exportNodes lists the built-in and the community nodes, with the generated Tool variant', async () => {
		const nodes = await n8n.exportNodes();
		const names = new Set(nodes.map((node: { name: string }) => node.name));
		assert.ok(names.has('n8n-nodes-base.set'), 'n8n-nodes-base.set is listed');
		assert.ok(names.has(`${PROBE_PACKAGE}.e2eProbe`), `${PROBE_PACKAGE}.e2eProbe is listed`);
		assert.ok(
			names.has(`${PROBE_PACKAGE}.e2eProbeTool`),
			`${PROBE_PACKAGE}.e2eProbeTool is listed`,
		);
	});

	test('publish a polling trigger → start → owner set-up → login → list executions (with data) → restart → stop', async () => {
		const triggerId = await n8n.importWorkflow({
			id: 'e2ePollingFlow01',
			name: 'E2E polling',
			nodes: [
				{
					id: 'n-poll',
					name: 'Poll',
					type: `${PROBE_PACKAGE}.e2eProbeTrigger`,
					typeVersion: 1,
					position: [0, 0],
					parameters: { pollTimes: { item: [{ mode: 'everyHour' }] } },
				},
			],
			connections: {},
		});
		await n8n.publish(triggerId);
		await n8n.start();
		assert.ok(n8n.running);
		const owner = await n8n.setupOwnerAndLogin();
		assert.match(owner.cookie, /^n8n-auth=/);

		const credentials = await n8n.rest('GET', '/rest/credentials');
		assert.ok(
			credentials.some(
				(c: { id: string; type: string }) => c.id === CREDENTIAL_ID && c.type === 'httpHeaderAuth',
			),
			'the imported credential is listed',
		);

		// A headless execution while the server runs (separate runners broker port).
		const during = await n8n.execute('e2eSmokeFlow0001');
		assert.ok(during.ok, 'execute works while n8n start runs');

		const executions = await n8n.listExecutions('e2eSmokeFlow0001');
		assert.ok(
			executions.length >= 2,
			`two executions of the smoke workflow are listed (got ${executions.length})`,
		);
		const last = executions[executions.length - 1];
		assert.equal(last.workflowId, 'e2eSmokeFlow0001');
		assert.equal(last.status, 'success');
		assert.deepEqual(nodeOutput(last, 'Probe'), [
			{ word: 'hello', n: 42, doubled: 84, greeting: 'hi from the probe' },
		]);

		// The published polling trigger polled once at activation (start-up)...
		const polls = await n8n.waitForExecutions(triggerId, 1, { timeoutMs: 30_000 });
		assert.equal(polls[0].mode, 'trigger');
		assert.deepEqual(nodeOutput(polls[0], 'Poll'), [{ count: 1, mode: 'trigger' }]);
		// ...and its static data survives a restart (the second activation poll sees count 1).
		await n8n.restart();
		const again = await n8n.waitForExecutions(triggerId, 2, { timeoutMs: 30_000 });
		assert.deepEqual(nodeOutput(again[again.length - 1], 'Poll'), [{ count: 2, mode: 'trigger' }]);

		await n8n.stop();
		assert.equal(n8n.running, false);
		await assert.rejects(fetch(`${n8n.baseUrl}/healthz`), 'nothing listens after stop');
	});

	test('no secret appears in anything n8n printed', () => {
		const logs = n8n.logs();
		assert.ok(logs.length > 1000, 'the log holds the output of every command');
		assert.ok(
			fs.readFileSync(n8n.logFile, 'utf8').length >= logs.length,
			'the log file holds it too',
		);
		assert.ok(!logs.includes(SECRET), 'the credential value is not in the logs');
	});
});
