/**
 * The Keyword.com node in n8n's queue mode, the way production runs it: one main, two workers, Postgres and Redis
 * (from Debian's packages, run by the test on loopback), the package installed from its packed tarball into every
 * process. A published workflow is triggered by its Webhook; the main only puts the execution on the queue, a worker
 * runs it — proven from the main's and the workers' logs and from the execution n8n stored — and the worker decrypts
 * the credential (every request reaches the fake API with the token). Among the operations: Keyword → Get Many with
 * Return All on a project of 20,012 keywords, every one of which arrives. The token is in no log of any process and
 * not in the execution data.
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
	UNFINISHED_STATUSES,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	retryUntil,
	waitUntil,
	webhookWorkflow,
} from '../../e2e/lib/index.cjs';

const WORKFLOW_ID = 'kwcQueueActions1';
const WEBHOOK_PATH = 'kwc-queue-actions';
const ACME = 'Acme Shoes';
const CAFE = 'Café Zürich';
const ADDED_KEYWORDS = 20_000;
const byName = (value: string): Record<string, unknown> => ({ __rl: true, mode: 'name', value });

/** The token and every 8-character piece of its random part, so a partly logged token is caught too. */
function secretPieces(token: string): string[] {
	const random = token.replace(/^kwc-e2e-/, '');
	const pieces = [token];
	for (let i = 0; i + 8 <= random.length; i++) pieces.push(random.slice(i, i + 8));
	return pieces;
}

describe('queue mode: Keyword.com actions run on a worker', { timeout: 20 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let postgres: PostgresServer;
	let redis: RedisServer;
	let cluster: QueueN8n;
	const timings: Record<string, number> = {};
	let expectedIds: string[] = [];

	const timed = async <T,>(label: string, fn: () => Promise<T>): Promise<T> => {
		const started = Date.now();
		try {
			return await fn();
		} finally {
			timings[label] = Date.now() - started;
		}
	};

	before(async () => {
		tarball = await timed('build and pack the package', async () => buildAndPackPackage());
		[fake, postgres, redis] = await Promise.all([
			FakeApiProcess.start({ seed: 'demo' }),
			timed(
				'start Postgres (initdb + postgres)',
				async () => await PostgresServer.start({ name: 'actions' }),
			),
			timed('start Redis', async () => await RedisServer.start({ name: 'actions' })),
		]);
		const page = await fake.api(
			'GET',
			`/api/v2/groups/${encodeURIComponent(ACME)}/keywords/?per_page=250&page=1`,
		);
		const seeded = (page.data as any[]).map((k) => String(k.id));
		assert.ok(
			seeded.length > 0 && seeded.length < 250,
			`the demo project has a few keywords (${seeded.length})`,
		);
		const added = (await fake.control('POST', 'keywords', {
			category: ACME,
			count: ADDED_KEYWORDS,
		})) as { added: number; ids: string[] };
		assert.equal(added.added, ADDED_KEYWORDS);
		expectedIds = [...seeded, ...added.ids.map(String)];

		cluster = await timed(
			'create the cluster (database, user folders, package installed)',
			async () =>
				await QueueN8n.create({
					postgres,
					redis,
					packageTarball: tarball,
					name: 'actions',
					workers: 2,
				}),
		);
		cluster.timeouts.restMs = 120_000;
		await timed(
			'import the credential (first CLI: migrates the database)',
			async () => await cluster.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]),
		);
		await cluster.importWorkflow(
			webhookWorkflow({
				id: WORKFLOW_ID,
				name: 'Queue mode: Keyword.com actions from a webhook',
				path: WEBHOOK_PATH,
				cases: [
					{ name: 'Projects', parameters: { resource: 'project', operation: 'getMany' } },
					{
						name: 'Keyword',
						parameters: {
							resource: 'keyword',
							operation: 'get',
							project: byName(ACME),
							keywordId: '100001',
						},
					},
					{
						name: 'Every keyword',
						parameters: {
							resource: 'keyword',
							operation: 'getMany',
							project: byName(ACME),
							returnAll: true,
						},
					},
					{ name: 'Account', parameters: { resource: 'account', operation: 'get' } },
					{
						name: 'Add keywords',
						parameters: {
							resource: 'keyword',
							operation: 'add',
							project: byName(CAFE),
							keywords: ['queue mode one', 'queue mode two'],
							url: 'cafe-zuerich.ch',
							additionalFields: {},
							options: {},
						},
					},
				],
			}),
		);
		await cluster.publish(WORKFLOW_ID);
		await timed('start main + 2 workers', async () => await cluster.start());
		await cluster.setupOwnerAndLogin();
	});

	after(async () => {
		if (cluster) {
			const memory = cluster.memory();
			for (const [name, m] of Object.entries(memory)) {
				console.log(`# RSS ${name}: ${m?.rssMb} MB (with its task runner ${m?.treeRssMb} MB)`);
			}
		}
		if (postgres)
			console.log(
				`# RSS postgres: ${postgres.memory()?.rssMb} MB (with its backends ${postgres.memory()?.treeRssMb} MB)`,
			);
		if (redis) console.log(`# RSS redis: ${redis.memory()?.rssMb} MB`);
		for (const [label, ms] of Object.entries(timings))
			console.log(`# ${label}: ${(ms / 1000).toFixed(1)} s`);
		await cluster?.dispose();
		await Promise.all([postgres?.dispose(), redis?.dispose(), fake?.stop()]);
		removeTarball(tarball);
	});

	test('a webhook call is queued by the main and run by a worker, which decrypts the credential; Return All brings all 20,012 keywords', async () => {
		await fake.clearRequests();
		const res = await fetch(`${cluster.baseUrl}/webhook/${WEBHOOK_PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ from: 'queue-mode e2e' }),
			signal: AbortSignal.timeout(30_000),
		});
		assert.equal(res.status, 200, `the production webhook answered: ${await res.text()}`);

		// Summaries only while waiting (the execution's data is large), then the execution once.
		const summary = await timed('webhook call → execution finished', async () => {
			let latest: any;
			return await waitUntil(
				'the execution finishing',
				async () => {
					[latest] = (await cluster.listExecutionSummaries(WORKFLOW_ID)).slice(-1);
					return latest && !UNFINISHED_STATUSES.has(latest.status) ? latest : undefined;
				},
				{
					timeoutMs: 5 * 60_000,
					explain: () => `latest: ${latest?.status ?? 'none'}\n${cluster.logTail(20)}`,
				},
			);
		});
		const execution = await timed(
			'read the execution over REST',
			async () => await cluster.getExecution(String(summary.id)),
		);
		const executionId = String(execution.id);
		assert.equal(
			execution.status,
			'success',
			`the execution succeeded: ${JSON.stringify(execution.data?.resultData?.error?.message)}\n${cluster.logTail(30)}`,
		);
		assert.equal(execution.mode, 'webhook', 'started by the production webhook');

		// Ran on a worker: the main enqueued it and did not run it; exactly one worker started and finished it.
		assert.ok(
			cluster.executionsEnqueued().includes(executionId),
			`the main put execution ${executionId} on the queue`,
		);
		const runners = cluster.processNames.filter(
			(name) => name !== 'main' && cluster.executionsRunBy(name).includes(executionId),
		);
		assert.equal(
			runners.length,
			1,
			`exactly one worker ran execution ${executionId} (${runners.join(', ') || 'none'})`,
		);
		const worker = runners[0];
		// The worker saves the status before it logs the end: wait for the line rather than read the log once.
		await retryUntil(
			`${worker}'s log saying it finished execution ${executionId}`,
			async () =>
				assert.match(
					cluster.logs(worker),
					new RegExp(`Worker finished execution ${executionId} \\(job`),
				),
			30_000,
		);
		assert.doesNotMatch(
			cluster.logs('main'),
			/Worker started execution/,
			'the main ran nothing itself',
		);
		console.log(`# execution ${executionId} ran on ${worker} (pid ${cluster.pid(worker)})`);

		// The worker decrypted the credential: every request carried the token and succeeded.
		const requests = await fake.requests();
		assert.ok(
			requests.length > ADDED_KEYWORDS / 250,
			`Return All read every page (${requests.length} requests)`,
		);
		assert.ok(
			requests.every((r) => r.authorization === `Bearer ${fake.token}`),
			'every request carries the decrypted token',
		);
		assert.deepEqual(
			requests
				.filter((r) => r.status !== 200 && r.status !== 201)
				.map((r) => `${r.method} ${r.path} ${r.status}`),
			[],
			'every request succeeded',
		);

		// Every operation's output.
		const projects = nodeOutput(execution, 'Projects') ?? [];
		assert.ok(
			projects.some((p) => p.id === ACME),
			'Projects lists Acme Shoes',
		);
		assert.equal((nodeOutput(execution, 'Keyword') ?? [])[0]?.id, '100001');
		const [account] = nodeOutput(execution, 'Account') ?? [];
		assert.ok(account?.plan, 'the account has a plan');
		const added = nodeOutput(execution, 'Add keywords') ?? [];
		assert.ok(added.length >= 1, 'Add keywords answered');
		const addRequest = requests.find(
			(r) => r.method === 'POST' && /\/keywords\/?$/.test(r.path) && r.path.includes('Caf'),
		);
		assert.ok(
			addRequest,
			`the add request reached the fake (${requests
				.filter((r) => r.method !== 'GET')
				.map((r) => `${r.method} ${r.path}`)
				.join(', ')})`,
		);

		// Return All: every keyword, once, in the API's order.
		const keywords = nodeOutput(execution, 'Every keyword') ?? [];
		const ids = keywords.map((k) => String(k.id));
		assert.equal(
			ids.length,
			expectedIds.length,
			`Return All brought ${ids.length} of ${expectedIds.length} keywords`,
		);
		assert.equal(new Set(ids).size, ids.length, 'no keyword twice');
		assert.deepEqual(ids, expectedIds, 'every keyword of the project, in ascending id order');
		assert.ok(keywords.every((k) => k.project === ACME && k.group === null));

		// The token: in no log of any process (main, both workers, CLI, Postgres, Redis), nor in the execution data.
		const pieces = secretPieces(fake.token);
		const logs: Record<string, string> = {
			postgres: postgres.logs(),
			redis: redis.logs(),
			cli: cluster.logs('cli'),
		};
		for (const name of cluster.processNames) logs[name] = cluster.logs(name);
		for (const [name, text] of Object.entries(logs)) {
			assert.ok(text.length > 0 || name === 'redis', `${name} has a log`);
			const leaked = pieces.filter((piece) => text.includes(piece));
			assert.deepEqual(leaked, [], `no piece of the token in the ${name} log`);
		}
		const stored = JSON.stringify(execution);
		assert.deepEqual(
			pieces.filter((piece) => stored.includes(piece)),
			[],
			'no piece of the token in the execution (REST)',
		);
		const inDatabase = await cluster.sql(
			`select count(*)::int as n from execution_data where data like '%${fake.token}%' or "workflowData"::text like '%${fake.token}%'`,
		);
		assert.equal(inDatabase[0].n, 0, 'no token in the stored execution data');
		const credentialRows = await cluster.sql(
			`select count(*)::int as n from credentials_entity where data like '%${fake.token}%'`,
		);
		assert.equal(credentialRows[0].n, 0, 'the credential is stored encrypted');
	});
});
