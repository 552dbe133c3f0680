/**
 * AI Visibility Updated in a real n8n (the package installed from its tarball), against the fake API as a process:
 * publish → start (activation poll: "now", no execution) → the fake's clock moved a day forward (its day is over) →
 * restart (the activation poll of the start polls) → one execution with each domain's completed day, once, with the
 * values the API shows for it → restart → nothing again. No token in the executions or n8n's log.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/ai-visibility-trigger.e2e.test.cjs
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
import { leakPieces } from '../leak-pieces.cjs';

const WORKFLOW_ID = 'kwcAiVisTrigger1';
const NODE_NAME = 'On AI visibility day';
const DAY = 86_400_000;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('AI Visibility Updated in a real n8n', { timeout: 10 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	/** The fake's clock (its Date header) and its domains. */
	async function fakeNow(): Promise<{
		now: number;
		domains: Array<{ id: string; domain: string }>;
	}> {
		const response = await fetch(`${fake.baseUrl}/api/v2/ai-visibility/domains`, {
			headers: { Authorization: `Bearer ${fake.token}` },
		});
		const body = (await response.json()) as { data: Array<{ id: string; domain: string }> };
		return { now: Date.parse(String(response.headers.get('date'))), domains: body.data };
	}

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'ai-visibility-trigger' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		await n8n.importWorkflow(
			triggerWorkflow({
				id: WORKFLOW_ID,
				name: 'Keyword.com AI visibility days',
				nodeId: 'kwc-ai-trigger',
				nodeName: NODE_NAME,
				typeVersion: 1,
				parameters: { event: 'aiVisibilityUpdated', output: 'raw' },
			}),
		);
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	test('activation places "now"; a day later each domain’s completed day arrives once; a restart repeats nothing', async () => {
		const before = await fakeNow();
		await n8n.publish(WORKFLOW_ID);
		await fake.clearRequests();
		await n8n.start();
		await n8n.setupOwnerAndLogin();
		await fake.waitForRequests('/api/v2/ai-visibility/domains', 1);
		await sleep(2_000);
		assert.deepEqual(await n8n.listExecutions(WORKFLOW_ID), [], 'no execution for the activation');
		const activationDay = Math.floor(before.now / DAY);

		await n8n.waitForStaticData(WORKFLOW_ID); // the activation's "now" is saved before the restart
		await fake.control('POST', 'clock', { advanceMs: DAY });
		await fake.clearRequests();
		await n8n.restart();
		const executions = await n8n.waitForExecutions(WORKFLOW_ID, 1, { timeoutMs: 60_000 });
		assert.equal(executions.length, 1);
		const items = (nodeOutput(executions[0], NODE_NAME) ?? []) as Array<Record<string, unknown>>;
		const after = await fakeNow();
		const lastOver = Math.floor(after.now / DAY) - 1;
		// Each domain's days from the activation's day to the last one over, once each, oldest first (one day, unless
		// the real clock crossed midnight meanwhile).
		for (const domain of after.domains) {
			const days = items
				.filter((item) => item.domain_id === domain.id)
				.map((item) => Math.floor(Date.parse(`${String(item.date)}T00:00:00Z`) / DAY));
			const expected = Array.from(
				{ length: lastOver - activationDay + 1 },
				(_, i) => activationDay + i,
			);
			assert.deepEqual(days, expected, `${domain.domain}: the days over since activation`);
		}
		assert.equal(items.length, after.domains.length * (lastOver - activationDay + 1));
		for (const item of items) {
			assert.equal(typeof item.visibility_score, 'number');
			assert.ok('visibility_score_change' in item && 'competitors' in item);
		}

		await fake.clearRequests();
		await n8n.restart();
		await fake.waitForRequests('/api/v2/ai-visibility/domains', 1);
		await sleep(3_000);
		assert.equal((await n8n.listExecutions(WORKFLOW_ID)).length, 1, 'no new execution');
		const logs = n8n.logs();
		for (const piece of leakPieces(fake.token)) {
			assert.ok(
				!JSON.stringify(executions).includes(piece),
				'no piece of the token in the execution',
			);
			assert.ok(!logs.includes(piece), 'no piece of the token in the log');
		}
	});
});
