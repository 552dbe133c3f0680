/**
 * The queue-mode driver's three scheduler modes, side by side: three clusters (each one main + two workers, its own
 * database, Redis database and key prefixes) on one Postgres and one Redis, each with the Keyword.com Trigger
 * published (every minute). The database shows each mode is really the one configured (QueueN8n.verifySchedulerMode):
 * - in-memory: no poll job in `scheduled_job`, no `poller_state` row;
 * - durable: the trigger's poll time is a `scheduled_job` row and its polls are `scheduled_task` rows; no `poller_state`;
 * - durable-cursors: the same, and the trigger's cursor is a `poller_state` row.
 * n8n logs no warning that a scheduler setting was ignored, and every poll of every mode reached the fake API.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e-queue/
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	PostgresServer,
	QueueN8n,
	RedisServer,
	SCHEDULER_MODES,
	buildAndPackPackage,
	keywordComCredential,
	removeTarball,
	triggerWorkflow,
	type SchedulerMode,
} from '../../e2e/lib';

const WORKFLOW_ID = 'kwcQueueTrigger1';
const TRIGGER_NODE_ID = 'kwc-queue-trigger';

describe('queue mode: three scheduler modes side by side', { timeout: 15 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let postgres: PostgresServer;
	let redis: RedisServer;
	const clusters = new Map<SchedulerMode, QueueN8n>();

	before(async () => {
		tarball = buildAndPackPackage();
		[fake, postgres, redis] = await Promise.all([FakeApiProcess.start({ seed: 'demo' }), PostgresServer.start({ name: 'modes' }), RedisServer.start({ name: 'modes' })]);
		for (const mode of SCHEDULER_MODES) {
			clusters.set(mode, await QueueN8n.create({ postgres, redis, packageTarball: tarball, name: mode, scheduler: mode }));
		}
		// Set-up in parallel: each cluster's CLI migrates its own database.
		await Promise.all(
			[...clusters.values()].map(async (cluster) => {
				await cluster.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
				await cluster.importWorkflow(triggerWorkflow({ id: WORKFLOW_ID, name: 'Queue mode: Keyword.com new alerts', nodeId: TRIGGER_NODE_ID }));
				await cluster.publish(WORKFLOW_ID);
			}),
		);
		const started = Date.now();
		// One cluster at a time: nine n8n processes starting together on two cores slow each other down past nothing.
		for (const cluster of clusters.values()) await cluster.start();
		console.log(`# three clusters (3 mains, 6 workers) started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	after(async () => {
		let total = 0;
		for (const cluster of clusters.values()) {
			for (const [name, m] of Object.entries(cluster.memory())) {
				total += m?.treeRssMb ?? 0;
				console.log(`# RSS ${cluster.name}/${name}: ${m?.rssMb} MB (with its task runner ${m?.treeRssMb} MB)`);
			}
		}
		console.log(`# RSS of the nine n8n processes with their task runners: ${(total / 1024).toFixed(2)} GB`);
		await Promise.all([...clusters.values()].map(async (cluster) => await cluster.dispose()));
		await Promise.all([postgres?.dispose(), redis?.dispose(), fake?.stop()]);
		removeTarball(tarball);
	});

	test('each cluster runs the scheduler mode it was given, as its database shows', async () => {
		const evidence = await Promise.all([...clusters.entries()].map(async ([mode, cluster]) => [mode, await cluster.verifySchedulerMode(WORKFLOW_ID, { timeoutMs: 150_000 })] as const));
		for (const [mode, e] of evidence) {
			console.log(`# ${mode}: ${e.pollJobs.length} poll job(s), poll tasks ${JSON.stringify(e.pollTasks)}, ${e.pollerStates.length} poller_state row(s)`);
			if (mode === 'in-memory') {
				assert.deepEqual(e.pollJobs, [], 'in-memory: no durable poll job');
			} else {
				assert.equal(e.pollJobs.length, 1, `${mode}: one poll time, one durable job`);
				assert.equal(e.pollJobs[0].ownerMemberId, TRIGGER_NODE_ID, 'the job is the trigger node\'s');
			}
			assert.equal(e.pollerStates.length, mode === 'durable-cursors' ? 1 : 0, `${mode}: poller_state rows`);
		}
		for (const [mode, cluster] of clusters) {
			assert.deepEqual(cluster.schedulerWarnings(), [], `${mode}: n8n ignored no scheduler setting`);
			assert.ok(!cluster.logs().includes(fake.token), `${mode}: no token in any log`);
		}
		const polls = (await fake.requests()).filter((r) => r.path === '/api/v2/alerts');
		assert.ok(polls.length >= 3, `the three triggers polled the fake (${polls.length} polls)`);
		assert.ok(polls.every((r) => r.authorization === `Bearer ${fake.token}`));
	});
});
