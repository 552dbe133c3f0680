/**
 * n8n's durable scheduler without durable poll cursors keeps a poll trigger's state only when a poll emits. The
 * Keyword.com Trigger goes on from what a poll that emitted nothing would have kept (in the main's memory,
 * nodes/KeywordComTrigger/state/unsavedProgress.ts). In a real n8n in queue mode (one main, one worker, Postgres,
 * Redis) with that scheduler: a Keyword Updated trigger with Moved By At Least 1 emits an update that moved, then
 * reads an update that moved nothing (filtered out, so nothing is stored); the polls after that each send 1 request
 * (`groups/active`), where they would read that project's list again at every poll (measured before: 6 requests a
 * poll, 1,200 keywords).
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e-queue/unsaved-progress.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	PostgresServer,
	QueueN8n,
	RedisServer,
	buildAndPackPackage,
	keywordComCredential,
	removeTarball,
	sleep,
	triggerWorkflow,
	untilSecond,
	waitUntil,
	type FakeRequest,
} from '../../e2e/lib/index.cjs';

const WORKFLOW = 'kwcQueueUnsaved1';
const NODE = 'Moved keywords';
/** Polls at second 0 of every minute. */
const POLL_TIMES = { item: [{ mode: 'custom', cronExpression: '0 * * * * *' }] };

describe(
	'the durable scheduler without durable cursors: polls go on from one that emitted nothing',
	{
		timeout: 15 * 60_000,
	},
	() => {
		let tarball: string | undefined;
		let postgres: PostgresServer;
		let redis: RedisServer;
		let fake: FakeApiProcess;
		let cluster: QueueN8n;
		let seen = 0;

		/** The requests since the last call. */
		const newRequests = async (): Promise<FakeRequest[]> => {
			const all = await fake.requests();
			const fresh = all.slice(seen);
			seen = all.length;
			return fresh;
		};
		/**
		 * Waits until `count` requests matching `match` came (polls run once a minute); returns those since the last
		 * call. A poll's pages come one after another: waiting for the first and counting then would race the rest.
		 */
		const until = async (
			match: (r: FakeRequest) => boolean,
			what: string,
			count = 1,
		): Promise<FakeRequest[]> => {
			const got: FakeRequest[] = [];
			return await waitUntil(
				`${count} ${what}`,
				async () => {
					got.push(...(await newRequests()));
					return got.filter(match).length >= count && got;
				},
				{
					timeoutMs: 150_000,
					everyMs: 2_000,
					explain: () => `${got.filter(match).length} came: ${got.map((r) => r.path).join(', ')}`,
				},
			);
		};
		const isList = (project: string) => (r: FakeRequest) =>
			r.path === `/api/v2/groups/${project}/keywords/`;

		before(async () => {
			tarball = buildAndPackPackage();
			[postgres, redis] = await Promise.all([
				PostgresServer.start({ name: 'unsaved' }),
				RedisServer.start({ name: 'unsaved' }),
			]);
			fake = await FakeApiProcess.start({ seed: 'empty' });
			await fake.control('POST', 'keywords', { category: 'Watched', count: 300 });
			await fake.control('POST', 'keywords', { category: 'Other', count: 1_200 });
			cluster = await QueueN8n.create({
				postgres,
				redis,
				packageTarball: tarball,
				name: 'unsaved',
				scheduler: 'durable',
				workers: 1,
			});
			await cluster.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
			const workflow = triggerWorkflow({
				id: WORKFLOW,
				name: 'Durable scheduler: moved keywords',
				nodeId: `${WORKFLOW}-trigger`,
				nodeName: NODE,
				parameters: { pollTimes: POLL_TIMES, event: 'keywordUpdated', filters: { movedBy: 1 } },
			});
			await cluster.importWorkflows([workflow]);
			await cluster.publish(WORKFLOW);
			await cluster.recordExecutionCreations();
			await cluster.start();
		});

		after(async () => {
			await cluster?.dispose();
			await Promise.all([postgres?.dispose(), redis?.dispose(), fake?.stop()]);
			removeTarball(tarball);
		});

		test('after an update the filters leave out, each poll sends 1 request', async () => {
			// The activation poll (the durable scheduler drops its node state; its baseline stays).
			await until((r) => r.path === '/api/v2/groups/active', 'activation poll');
			// Updates at second 20, polls at second 0: none lies in the last seconds a poll leaves to the next.
			await untilSecond(20);
			await newRequests();
			await fake.control('POST', 'rank-update', { category: 'Watched' });
			await waitUntil(
				'the moved update emitted',
				async () => (await cluster.triggerEmissions(WORKFLOW, NODE)).length > 0,
				{ timeoutMs: 150_000, everyMs: 2_000 },
			);
			// Ranks unchanged: Moved By At Least 1 leaves every keyword out; the poll emits nothing and n8n keeps nothing.
			await untilSecond(20);
			await newRequests();
			await fake.control('POST', 'rank-update', { category: 'Other', changeRanks: false });
			// Its 1,200 keywords are 5 pages (fails here if the poll read fewer).
			const read = await until(isList('Other'), 'pages of the unmoved update', 5);
			console.log(`# the poll of the unmoved update: ${read.map((r) => r.path).join(', ')}`);
			// That poll ends; then three minutes: three polls.
			await untilSecond(20);
			await newRequests();
			await sleep(180_000);
			const idle = await newRequests();
			const paths = idle.map((r) => r.path);
			console.log(`# the three minutes after it: ${paths.join(', ')}`);
			assert.ok(
				paths.length >= 2 && paths.every((path) => path === '/api/v2/groups/active'),
				`the polls after it read only groups/active: ${paths.join(', ')}`,
			);
			const emissions = await cluster.triggerEmissions(WORKFLOW, NODE);
			assert.deepEqual(
				emissions.map((emission) => emission.items.length),
				[300],
				'one execution, with the moved update',
			);
		});
	},
);
