/**
 * The Keyword.com Trigger deactivated and activated again in a real n8n 2.x the way the editor does it (the REST calls
 * of its buttons), with and without renaming its node meanwhile. Without: the alerts made while it was inactive come
 * with the activation poll. Renamed: n8n keeps a poll trigger's node state under the node's name (`node:<name>` in the
 * workflow's static data; the old key stays, the new one begins empty), so the renamed trigger starts at "now" like a
 * new one: the alerts made meanwhile are not emitted, nothing is emitted twice, and it goes on from there. The limit is
 * stated in docs/exactly-once.md; this holds it to what n8n does.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/trigger-rename.e2e.test.cjs
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
	triggerWorkflow,
} from '../../e2e/lib/index.cjs';

const WORKFLOW_ID = 'kwcRenameFlow001';
const OLD_NAME = 'Keyword.com Trigger';
const NEW_NAME = 'Rank alerts';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

let tarball: string | undefined;
after(() => removeTarball(tarball));

describe('Keyword.com Trigger renamed in a real n8n', { timeout: 10 * 60_000 }, () => {
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'trigger-rename' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		await n8n.importWorkflow(
			triggerWorkflow({
				id: WORKFLOW_ID,
				name: 'Keyword.com alerts, renamed',
				nodeId: 'kwc-trigger-renamed',
				nodeName: OLD_NAME,
				// Once a year: every poll here is an activation poll, so nothing races n8n's schedule.
				parameters: { pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 1 1 *' }] } },
			}),
		);
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
	});

	async function addAlerts(count: number): Promise<string[]> {
		const added = (await fake.control('POST', 'alerts', { count })) as {
			data: Array<{ id: string }>;
		};
		return added.data.map((a) => String(a.id));
	}

	/**
	 * The editor's way: deactivate, `meanwhile` (alerts come), rename and save if asked, activate the saved version;
	 * waits for the activation poll.
	 */
	async function reactivate<T>(
		meanwhile: () => Promise<T>,
		rename?: { from: string; to: string },
	): Promise<T> {
		await n8n.rest('POST', `/rest/workflows/${WORKFLOW_ID}/deactivate`);
		const made = await meanwhile();
		let workflow = await n8n.rest('GET', `/rest/workflows/${WORKFLOW_ID}`);
		if (rename) {
			const nodes = workflow.nodes.map((n: any) =>
				n.name === rename.from ? { ...n, name: rename.to } : n,
			);
			workflow = await n8n.rest('PATCH', `/rest/workflows/${WORKFLOW_ID}`, {
				nodes,
				connections: workflow.connections,
				versionId: workflow.versionId,
			});
		}
		await fake.clearRequests();
		await n8n.rest('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, {
			versionId: workflow.versionId,
		});
		await fake.waitForRequests('/api/v2/alerts', 1);
		return made;
	}

	/** The ids each execution emitted, in order, under the node name it ran with. */
	async function emittedByExecution(count: number): Promise<string[][]> {
		const executions = await n8n.waitForExecutions(WORKFLOW_ID, count, { timeoutMs: 60_000 });
		return executions.map((e: any) =>
			(nodeOutput(e, OLD_NAME) ?? nodeOutput(e, NEW_NAME) ?? []).map((i: any) => String(i.id)),
		);
	}

	test('deactivated and activated, it goes on; renamed, it starts afresh and repeats nothing', async () => {
		await n8n.publish(WORKFLOW_ID);
		await n8n.start();
		await n8n.setupOwnerAndLogin();
		await fake.waitForRequests('/api/v2/alerts', 1);
		await n8n.waitForStaticData(WORKFLOW_ID); // the activation's "now" is saved before the restart
		const first = await addAlerts(3);
		await n8n.restart();
		assert.deepEqual(await emittedByExecution(1), [first]);

		// Deactivated, alerts come, activated again from the editor: its activation poll goes on from where it stood.
		const whileInactive = await reactivate(async () => await addAlerts(2));
		assert.deepEqual(await emittedByExecution(2), [first, whileInactive]);

		// Deactivated, alerts come, the node renamed and the workflow activated again: n8n 2.41.1 keeps a poll trigger's
		// state under its node's name, so the renamed trigger has none and starts at "now" (docs/exactly-once.md).
		await reactivate(async () => await addAlerts(2), { from: OLD_NAME, to: NEW_NAME });
		await sleep(3_000);
		const keys = Object.keys((await n8n.rest('GET', `/rest/workflows/${WORKFLOW_ID}`)).staticData);
		assert.ok(keys.includes(`node:${OLD_NAME}`), `the old name's state stays: ${keys.join(', ')}`);
		assert.ok(keys.includes(`node:${NEW_NAME}`), `the new name's state begins: ${keys.join(', ')}`);
		assert.equal(
			(await n8n.listExecutions(WORKFLOW_ID)).length,
			2,
			'nothing emitted at the rename',
		);

		// From there it goes on under the new name: the next alerts once, nothing from before again.
		const afterRename = await addAlerts(2);
		await n8n.restart();
		assert.deepEqual(await emittedByExecution(3), [first, whileInactive, afterRename]);
		assert.ok(!n8n.logs().includes(fake.token), 'the token never reaches the n8n log');
	});
});
