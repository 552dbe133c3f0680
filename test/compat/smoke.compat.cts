/**
 * Compatibility smoke: the package in another n8n version (`npm run compat -- <version>`, which installs that n8n
 * into the cache and points KEYWORD_COM_N8N_HOST_DIR at it). It checks what a user meets first: the nodes load (and
 * the AI tool variant is generated), a few operations run, and the trigger polls once.
 * Not part of `npm test` (CI runs the pinned n8n only); the README's Compatibility table holds the results.
 */
import assert from 'node:assert/strict';
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
	retryUntil,
	runError,
} from '../../e2e/lib/index.cjs';

const credentials = { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } };
const acme = { __rl: true, mode: 'name', value: 'Acme Shoes' };
// 16 characters: n8n 1.x saves no static data for a longer workflow id (2.x takes 21).
const ACTIONS_ID = 'kwcCompatAction1';
const TRIGGER_ID = 'kwcCompatTrigg01';

const actions: Array<{ name: string; typeVersion: number; parameters: Record<string, unknown> }> = [
	{
		name: 'Projects',
		typeVersion: 1,
		parameters: { resource: 'project', operation: 'getMany' },
	},
	{
		name: 'Keywords',
		typeVersion: 1,
		parameters: { resource: 'keyword', operation: 'getMany', project: acme, limit: 5 },
	},
	{
		name: 'Alerts',
		typeVersion: 1,
		parameters: { resource: 'alert', operation: 'getMany', limit: 3 },
	},
	{ name: 'Account', typeVersion: 1, parameters: { resource: 'account', operation: 'get' } },
];

describe('compatibility smoke', { timeout: 10 * 60_000 }, () => {
	let tarball: string;
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'compat' });
		console.log(`# n8n ${n8n.n8nVersion()}`);
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		const start = {
			id: 'compat-start',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		await n8n.importWorkflow({
			id: ACTIONS_ID,
			name: 'Compat: operations',
			nodes: [
				start,
				...actions.map((action, index) => ({
					id: `compat-${index}`,
					name: action.name,
					type: KEYWORD_COM_NODE,
					typeVersion: action.typeVersion,
					position: [300, index * 150],
					parameters: action.parameters,
					credentials,
				})),
			],
			connections: {
				Start: { main: [actions.map((action) => ({ node: action.name, type: 'main', index: 0 }))] },
			},
			settings: { executionOrder: 'v1' },
		});
		await n8n.importWorkflow({
			id: TRIGGER_ID,
			name: 'Compat: trigger',
			nodes: [
				{
					id: 'compat-trigger',
					name: 'New alert',
					type: KEYWORD_COM_TRIGGER_NODE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newAlert' },
					credentials,
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
	});

	/**
	 * The node types n8n loaded: `n8n export:nodes`, or, in an n8n that has no such command yet (1.x before about
	 * 1.90), the list a running n8n serves its editor (`/types/nodes.json`).
	 */
	async function loadedNodeTypes(): Promise<Array<{ name: string }>> {
		try {
			return await n8n.exportNodes();
		} catch (error) {
			if (!/command "?export:nodes"? not found/i.test(String((error as Error).message)))
				throw error;
		}
		await n8n.start();
		try {
			// n8n 1.x answers its health check before its routes are mounted: ask again for a few seconds.
			return await retryUntil(
				"the editor's node list",
				async () => {
					const response = await fetch(`${n8n.baseUrl}/types/nodes.json`);
					assert.equal(response.status, 200, "the editor's node list");
					return (await response.json()) as Array<{ name: string }>;
				},
				30_000,
			);
		} finally {
			await n8n.stop();
		}
	}

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	test('the nodes load, with the AI tool variant', async () => {
		const types = new Set((await loadedNodeTypes()).map((node: { name: string }) => node.name));
		for (const type of [KEYWORD_COM_NODE, KEYWORD_COM_TRIGGER_NODE, KEYWORD_COM_TOOL_NODE])
			assert.ok(types.has(type), type);
	});

	test('operations run', async () => {
		const result = await n8n.execute(ACTIONS_ID);
		assert.ok(result.ok, JSON.stringify(runError(result.output)?.message));
		const [projects, keywords, alerts, account] = actions.map(
			(action) => nodeOutput(result.output, action.name) ?? [],
		);
		assert.ok(projects.length > 2, 'projects');
		assert.equal(keywords.length, 5);
		assert.ok(
			keywords.every(
				(item: Record<string, unknown>) =>
					Object.keys(item).length <= 10 && item.project === 'Acme Shoes',
			),
		);
		assert.equal(alerts.length, 3);
		assert.equal(account.length, 1);
		assert.ok(!('api_token' in account[0]), 'no api_token key');
		assert.ok(!JSON.stringify(result.output).includes(fake.token), 'no token');
	});

	test('the trigger polls: activation marks "now", the next poll emits the new alerts once', async () => {
		await n8n.publish(TRIGGER_ID);
		await n8n.start();
		// n8n 1.x answers its health check before its REST routes are mounted: a call may 404 for a few seconds.
		await retryUntil('the owner setup', () => n8n.setupOwnerAndLogin(), 30_000);
		await fake.waitForRequests('/api/v2/alerts', 1, { timeoutMs: 60_000 }); // the activation poll
		const added = (await fake.control('POST', 'alerts', { count: 2 })) as {
			data: Array<{ id: string }>;
		};
		await n8n.restart(); // activation again: the stored cursor is older than the new alerts
		await retryUntil(
			'the REST API after the restart',
			() => n8n.listExecutions(TRIGGER_ID),
			30_000,
		);
		const [execution] = await n8n.waitForExecutions(TRIGGER_ID, 1, { timeoutMs: 120_000 });
		const emitted = (nodeOutput(execution, 'New alert') ?? []).map((item: { id: unknown }) =>
			String(item.id),
		);
		assert.deepEqual(
			emitted,
			added.data.map((alert) => String(alert.id)),
		);
		assert.ok(!n8n.logs().includes(fake.token), 'no token in the logs');
	});
});
