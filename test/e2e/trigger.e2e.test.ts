/**
 * Keyword.com Trigger in a real n8n 2.x (the package installed from its packed tarball) against the fake API process:
 * publish → start (activation poll: nothing emitted) → 3 new alerts → restart (activation poll again) → exactly one
 * execution with exactly those 3 alerts → restart without new alerts → nothing more. The token never reaches the log.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/trigger.e2e.test.js
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	KEYWORD_COM_TRIGGER_NODE,
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
} from '../../e2e/lib';

/* eslint-disable @typescript-eslint/no-explicit-any */

const WORKFLOW_ID = 'kwcTriggerFlow01';
const NODE_NAME = 'Keyword.com Trigger';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the fake has received `count` alert-list requests since the last clearRequests(). */
async function waitForAlertPolls(fake: FakeApiProcess, count: number, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const polls = (await fake.requests()).filter((r) => r.path === '/api/v2/alerts');
		if (polls.length >= count) return;
		await sleep(250);
	}
	throw new Error('e2e: the trigger did not poll the alert list');
}

describe('Keyword.com Trigger in a real n8n', { timeout: 10 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'trigger' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		await n8n.importWorkflow({
			id: WORKFLOW_ID,
			name: 'Keyword.com new alerts',
			nodes: [
				{
					id: 'kwc-trigger',
					name: NODE_NAME,
					type: KEYWORD_COM_TRIGGER_NODE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newAlert' },
					credentials: { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	test('activation records "now"; after a restart the 3 new alerts arrive exactly once', async () => {
		await n8n.publish(WORKFLOW_ID);
		await fake.clearRequests();
		await n8n.start();
		await n8n.setupOwnerAndLogin();

		// The activation poll ran (one request) and flooded nothing: a null poll makes no execution.
		await waitForAlertPolls(fake, 1);
		await sleep(2_000);
		assert.deepEqual(await n8n.listExecutions(WORKFLOW_ID), [], 'no execution for the activation poll');
		const activationRequests = await fake.requests();
		assert.equal(activationRequests.length, 1, JSON.stringify(activationRequests.map((r) => r.path)));

		const added = (await fake.control('POST', 'alerts', { count: 3 })) as { data: Array<{ id: string }> };
		const addedIds = added.data.map((a) => String(a.id));

		await fake.clearRequests();
		await n8n.restart();
		const executions = await n8n.waitForExecutions(WORKFLOW_ID, 1, { timeoutMs: 60_000 });
		assert.equal(executions.length, 1);
		const emitted = nodeOutput(executions[0], NODE_NAME) ?? [];
		assert.deepEqual(
			emitted.map((item: any) => String(item.id)),
			addedIds,
			'exactly the 3 new alerts, oldest first',
		);
		assert.equal(typeof emitted[0].kw, 'string');
		assert.ok(!JSON.stringify(executions).includes(fake.token), 'no token in the execution');

		// Restart without new alerts: the activation poll finds nothing new.
		await fake.clearRequests();
		await n8n.restart();
		await waitForAlertPolls(fake, 1);
		await sleep(3_000);
		const after = await n8n.listExecutions(WORKFLOW_ID);
		assert.equal(after.length, 1, 'no new execution');
		assert.ok(!n8n.logs().includes(fake.token), 'the token never reaches the n8n log');
	});
});
