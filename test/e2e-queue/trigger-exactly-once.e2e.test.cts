/**
 * The Keyword.com Trigger where teams run n8n at scale: queue mode (one main, two workers, Postgres and Redis), in the
 * three ways n8n schedules polls — the in-memory scheduler, the durable scheduler, the durable scheduler with durable
 * poll cursors — side by side, each cluster with its own fake API and its own database. The durable clusters run with
 * N8N_SCHEDULER_POLL_TIMEOUT=5 (a 2.5 s poll budget). Every cluster has three published workflows: New Alert, Keyword
 * Updated and AI Visibility Updated, each trigger → Wait 8 s (so a worker can be killed while it runs one), polled at
 * second 0 of every minute. The fake's clock is moved a day forward three times (after activation, in b and in c), so
 * that each AI-visibility domain's days since activation are over by the API's clock.
 *
 * One story, the same minute by minute in every cluster:
 *  0. activation, then alerts and keyword updates at once (the durable scheduler drops the activation poll's state);
 *  a. the main process SIGKILLed while a poll's request is in flight (slow API), then started again;
 *  b. a burst of 3,000 alerts and an update of 3,000 keywords while the API takes 1 s a request: more than one poll
 *     can read in its budget, so polls end early and the next goes on;
 *  c. Postgres restarted between two polls;
 *  d. the worker that runs a triggered workflow SIGKILLed while it runs it, then started again;
 *  e. measured, not promised by n8n in every mode: the main SIGKILLed ~30 ms after a poll's last answer (after the
 *     poll emitted, before or while n8n stores the execution and the cursor).
 * Then: every alert created after activation, every keyword update made after it and every AI-visibility day of each
 * domain from the activation's day to the last day over is in exactly one execution's
 * trigger output (0–d in every mode; e in the durable-cursors mode), no poll was abandoned by n8n for running past its
 * timeout, and no 8-character piece of the token is in any log of any process or in any execution.
 *
 * What the trigger emitted is read without a race: before the clusters start, each cluster's database gets a trigger
 * on n8n's `execution_data` that copies every row n8n inserts into a side table, in n8n's own transaction
 * (QueueN8n.recordExecutionCreations). n8n inserts that row once, when it creates the execution, with the trigger's
 * items on the start stack; whatever happens later (a worker killed mid-run, n8n's crash recovery replacing the data
 * with artificial items, the main marking a stalled job failed) only updates it. So each execution's items are known
 * from the moment it exists, and d can kill a worker at any instant.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e-queue/trigger-exactly-once.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
	sleep,
	triggerWorkflow,
	untilSecond,
	waitUntil,
	type FakeRequest,
	type SchedulerMode,
	type TriggerEmission,
} from '../../e2e/lib/index.cjs';
import { leakPieces } from '../leak-pieces.cjs';
import { crawlSeconds } from '../trigger/crawl-time.cjs';

const POLL_TIMEOUT_SECONDS = 5;
const ALERT_WORKFLOW = 'kwcQueueAlerts01';
const KEYWORD_WORKFLOW = 'kwcQueueKeywords1';
const ALERT_NODE = 'New alert';
const KEYWORD_NODE = 'Keyword updated';
const AI_WORKFLOW = 'kwcQueueAiVis01';
const AI_NODE = 'AI visibility day';
const DAY = 86_400_000;
const BULK = 'Bulk Project';
const BURST = 3_000;
/** Polls at second 0 of every minute (a fixed second, so the story knows when polls run). */
const POLL_TIMES = { item: [{ mode: 'custom', cronExpression: '0 * * * * *' }] };

function uuidFrom(text: string): string {
	const h = createHash('sha256').update(text).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function workflow(
	id: string,
	nodeName: string,
	event: 'newAlert' | 'keywordUpdated' | 'aiVisibilityUpdated',
): Record<string, any> {
	return triggerWorkflow({
		id,
		name: `Queue mode: ${nodeName}`,
		nodeId: `${id}-trigger`,
		nodeName,
		parameters: { pollTimes: POLL_TIMES, event },
		then: [
			{
				id: `${id}-hold`,
				name: 'Hold',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				webhookId: uuidFrom(`${id}/hold`),
				parameters: { resume: 'timeInterval', amount: 8, unit: 'seconds' },
			},
		],
	});
}

type Scenario = 'activation' | 'a' | 'b' | 'c' | 'd' | 'e';

interface Lane {
	mode: SchedulerMode;
	fake: FakeApiProcess;
	cluster: QueueN8n;
	/** Alert id → the scenario that created it (after activation). */
	alerts: Map<string, Scenario>;
	/** `<keyword id>@<crawled_at>` → the scenario whose rank update made it. */
	crawls: Map<string, Scenario>;
	/** What happened, for the report. */
	notes: string[];
	/** Executions killed with their worker in d. */
	killedExecutions: string[];
	/** When the worker was killed in d (ms since the epoch). */
	killedAt?: number;
	/** What became of the killed executions, as n8n changed them (status, seconds after the kill). */
	afterKill: Map<string, string[]>;
	/** The UTC day (number) of the fake's clock when the AI trigger was activated. */
	aiActivationDay?: number;
}

/** The fake's clock (its Date header) and its AI-visibility domains. */
async function fakeNow(lane: Lane): Promise<{ now: number; domains: string[] }> {
	const response = await fetch(`${lane.fake.baseUrl}/api/v2/ai-visibility/domains`, {
		headers: { Authorization: `Bearer ${lane.fake.token}` },
	});
	const body = (await response.json()) as { data: Array<{ id: string }> };
	return {
		now: Date.parse(String(response.headers.get('date'))),
		domains: body.data.map((domain) => String(domain.id)),
	};
}

/** Moves the fake's clock a day forward: each AI-visibility domain's day is over. */
async function nextDay(lane: Lane, scenario: Scenario): Promise<void> {
	await lane.fake.control('POST', 'clock', { advanceMs: DAY });
	lane.notes.push(`${scenario}: the fake's clock moved a day forward`);
}

async function addAlerts(lane: Lane, count: number, scenario: Scenario): Promise<void> {
	const added = (await lane.fake.control('POST', 'alerts', { count })) as {
		data: Array<{ id: string }>;
	};
	for (const alert of added.data) lane.alerts.set(String(alert.id), scenario);
}

async function crawl(lane: Lane, category: string, scenario: Scenario): Promise<number> {
	const result = (await lane.fake.control('POST', 'rank-update', { category })) as {
		keywords: Array<{ id: string | number; crawled_at: number }>;
	};
	for (const k of result.keywords) lane.crawls.set(`${k.id}@${k.crawled_at}`, scenario);
	return result.keywords.length;
}

/** Waits until `predicate` holds on the fake's requests (polled every 20 ms); returns the request that matched. */
async function watchRequests(
	lane: Lane,
	predicate: (r: FakeRequest) => boolean,
	timeoutMs: number,
): Promise<FakeRequest> {
	return await waitUntil(
		`${lane.mode}: a matching request to the fake`,
		async () => (await lane.fake.requests()).find(predicate),
		{ timeoutMs, everyMs: 20 },
	);
}

const isListPage = (r: FakeRequest) => r.path === '/api/v2/alerts' || /\/keywords\/?$/.test(r.path);

/** Restarts whatever process of the cluster is not running (a production supervisor would); notes it. */
async function reviveAll(lane: Lane, when: string): Promise<void> {
	for (const name of lane.cluster.processNames) {
		if (lane.cluster.isRunning(name)) continue;
		lane.notes.push(
			`${when}: ${name} had exited (${JSON.stringify(lane.cluster.lastExit(name))}); started again`,
		);
		if (name === 'main') await lane.cluster.startMain();
		else await lane.cluster.startWorker(Number(name.slice('worker-'.length)));
	}
}

/**
 * Measured, for the report: what n8n makes of the executions killed with their worker in d — their status and what
 * their data holds, each change with the seconds since the kill — until `go()` is false.
 */
async function followKilled(lane: Lane, go: () => boolean): Promise<void> {
	while (go()) {
		for (const id of lane.killedExecutions) {
			const now = await lane.cluster.executionNow(id).catch(() => undefined);
			const state = now
				? `${now.status} (${Object.entries(now.nodes)
						.map(([node, what]) => `${node}: ${what}`)
						.join(', ')}${now.error ? `; error "${now.error.slice(0, 100)}"` : ''})`
				: 'unreadable';
			const history = lane.afterKill.get(id) ?? [];
			if (history.at(-1)?.split(' at +')[0] !== state)
				history.push(`${state} at +${Math.round((Date.now() - (lane.killedAt ?? 0)) / 1000)} s`);
			lane.afterKill.set(id, history);
		}
		await sleep(1_000);
	}
}

interface Count {
	emitted: number;
	once: number;
	missing: string[];
	repeated: string[];
}

function countEmissions(
	expected: Map<string, Scenario>,
	seen: Map<string, number>,
	only: (scenario: Scenario) => boolean,
): Count {
	const result: Count = { emitted: 0, once: 0, missing: [], repeated: [] };
	for (const [key, scenario] of expected) {
		if (!only(scenario)) continue;
		const n = seen.get(key) ?? 0;
		result.emitted += n;
		if (n === 1) result.once++;
		else if (n === 0) result.missing.push(key);
		else result.repeated.push(key);
	}
	return result;
}

function tally(executions: TriggerEmission[], keyOf: (item: any) => string): Map<string, number> {
	const seen = new Map<string, number>();
	for (const execution of executions)
		for (const item of execution.items) seen.set(keyOf(item), (seen.get(keyOf(item)) ?? 0) + 1);
	return seen;
}

describe(
	'queue mode: the trigger emits every event exactly once, in every scheduler mode',
	{ timeout: 40 * 60_000 },
	() => {
		let tarball: string | undefined;
		let postgres: PostgresServer;
		let redis: RedisServer;
		const lanes: Lane[] = [];
		const everyLane = async (task: (lane: Lane) => Promise<void>) =>
			await Promise.all(lanes.map(task));
		/** Following what n8n makes of the executions killed in d (until the verdict). */
		let following = true;
		const followers: Array<Promise<void>> = [];
		const started = Date.now();
		const elapsed = () => `${((Date.now() - started) / 60_000).toFixed(1)} min`;

		before(async () => {
			tarball = buildAndPackPackage();
			[postgres, redis] = await Promise.all([
				PostgresServer.start({ name: 'trigger' }),
				RedisServer.start({ name: 'trigger' }),
			]);
			for (const mode of SCHEDULER_MODES) {
				const fake = await FakeApiProcess.start({ seed: 'demo' });
				await fake.control('POST', 'keywords', { category: BULK, count: BURST });
				const cluster = await QueueN8n.create({
					postgres,
					redis,
					packageTarball: tarball,
					name: `trg-${mode}`,
					scheduler: mode,
					pollTimeoutSeconds: mode === 'in-memory' ? undefined : POLL_TIMEOUT_SECONDS,
				});
				lanes.push({
					mode,
					fake,
					cluster,
					alerts: new Map(),
					crawls: new Map(),
					notes: [],
					killedExecutions: [],
					afterKill: new Map(),
				});
			}
			await everyLane(async (lane) => {
				await lane.cluster.importCredentials([
					keywordComCredential(lane.fake.baseUrl, lane.fake.token),
				]);
				await lane.cluster.importWorkflows([
					workflow(ALERT_WORKFLOW, ALERT_NODE, 'newAlert'),
					workflow(KEYWORD_WORKFLOW, KEYWORD_NODE, 'keywordUpdated'),
					workflow(AI_WORKFLOW, AI_NODE, 'aiVisibilityUpdated'),
				]);
				await lane.cluster.publish(ALERT_WORKFLOW);
				await lane.cluster.publish(KEYWORD_WORKFLOW);
				await lane.cluster.publish(AI_WORKFLOW);
				// The imports ran n8n's migrations: from here on the database records every execution as n8n creates it.
				await lane.cluster.recordExecutionCreations();
			});
			// One cluster at a time: nine n8n processes starting together on two cores slow each other down.
			for (const lane of lanes) {
				await lane.fake.clearRequests();
				await lane.cluster.start();
			}
			console.log(`# three clusters (3 mains, 6 workers) started: ${elapsed()}`);
		});

		after(async () => {
			following = false;
			await Promise.all(followers);
			for (const lane of lanes) {
				for (const note of lane.notes) console.log(`# ${lane.mode}: ${note}`);
			}
			await Promise.all(lanes.map(async (lane) => await lane.cluster.dispose()));
			await Promise.all([
				postgres?.dispose(),
				redis?.dispose(),
				...lanes.map(async (lane) => await lane.fake.stop()),
			]);
			removeTarball(tarball);
		});

		test('activation, main killed mid-poll, a burst at 1 s a request, Postgres restarted, a worker killed mid-run: each event once', async () => {
			// 0. Activation: each trigger polled once when its workflow was activated. Events right after it.
			await everyLane(async (lane) => {
				await watchRequests(lane, (r) => r.path === '/api/v2/alerts', 120_000);
				await watchRequests(lane, (r) => r.path === '/api/v2/groups/active', 120_000);
				await watchRequests(lane, (r) => r.path === '/api/v2/ai-visibility/domains', 120_000);
				lane.aiActivationDay = Math.floor((await fakeNow(lane)).now / DAY);
				await addAlerts(lane, 31, 'activation');
				await crawl(lane, 'Café Zürich', 'activation');
				await nextDay(lane, 'activation');
			});
			console.log(`# 0. events added right after activation: ${elapsed()}`);
			// The first scheduled poll reads them.
			await untilSecond(0);
			await untilSecond(25);

			// a. SIGKILL of the main while a poll's request is in flight.
			await everyLane(async (lane) => {
				await addAlerts(lane, 20, 'a');
				await crawl(lane, 'Acme Shoes', 'a');
				await lane.fake.control('POST', 'behaviour', { pageLatencyMs: 4_000 });
				await lane.fake.clearRequests();
			});
			await untilSecond(58);
			await everyLane(async (lane) => {
				const inFlight = await watchRequests(lane, (r) => isListPage(r) && r.status === 0, 50_000);
				lane.cluster.kill('main', 'SIGKILL');
				await lane.cluster.waitForExit('main');
				lane.notes.push(
					`a: main SIGKILLed while ${inFlight.path} page ${String(inFlight.query.page ?? 1)} was in flight`,
				);
				await lane.fake.control('POST', 'behaviour', { pageLatencyMs: 0 });
				await lane.cluster.startMain();
			});
			console.log(`# a. mains killed mid-poll and started again: ${elapsed()}`);
			await untilSecond(25);

			// b. A burst larger than one poll can read, at 1 s a request.
			await everyLane(async (lane) => {
				await addAlerts(lane, BURST, 'b');
				await crawl(lane, BULK, 'b');
				await nextDay(lane, 'b');
				await lane.fake.control('POST', 'latency', { ms: 1_000 });
			});
			const burstDone = async (lane: Lane): Promise<boolean> => {
				const alerts = tally(
					await lane.cluster.triggerEmissions(ALERT_WORKFLOW, ALERT_NODE),
					(item) => String(item.id),
				);
				const crawls = tally(
					await lane.cluster.triggerEmissions(KEYWORD_WORKFLOW, KEYWORD_NODE),
					(item) => `${item.id}@${crawlSeconds(item)}`,
				);
				const a = countEmissions(lane.alerts, alerts, (s) => s === 'b');
				const k = countEmissions(lane.crawls, crawls, (s) => s === 'b');
				lane.notes.push(
					`b: ${elapsed()}: burst alerts emitted ${a.emitted}/${BURST}, keyword updates ${k.emitted}/${BURST}`,
				);
				return a.missing.length === 0 && k.missing.length === 0;
			};
			for (let minute = 0; minute < 8; minute++) {
				await untilSecond(30);
				const done = await Promise.all(lanes.map(burstDone));
				if (done.every(Boolean)) break;
			}
			await everyLane(async (lane) => void (await lane.fake.control('POST', 'latency', { ms: 0 })));
			console.log(`# b. burst read: ${elapsed()}`);

			// c. Postgres restarted between two polls.
			await untilSecond(30);
			const down = await postgres.restart({ mode: 'fast', downMs: 3_000 });
			console.log(
				`# c. Postgres restarted (unreachable ${(down / 1000).toFixed(1)} s): ${elapsed()}`,
			);
			await sleep(5_000);
			await everyLane(async (lane) => {
				await reviveAll(lane, 'c');
				await addAlerts(lane, 25, 'c');
				await crawl(lane, 'Café Zürich', 'c');
				await nextDay(lane, 'c');
			});
			await untilSecond(25);

			// d. The worker running a triggered workflow SIGKILLed while it runs it.
			await everyLane(async (lane) => {
				await addAlerts(lane, 15, 'd');
				await crawl(lane, 'Acme Shoes', 'd');
			});
			const before = new Map<SchedulerMode, Set<string>>();
			for (const lane of lanes)
				before.set(
					lane.mode,
					new Set(lane.cluster.processNames.flatMap((n) => lane.cluster.executionsRunBy(n))),
				);
			await untilSecond(0);
			await everyLane(async (lane) => {
				// 50 s: the poll, the queue and a worker's start share 2 cores with eight other n8n processes.
				const victim = await waitUntil(
					`${lane.mode}: a worker starting the triggered workflow`,
					() => {
						for (const name of lane.cluster.processNames.filter((n) => n !== 'main')) {
							const fresh = lane.cluster
								.executionsRunBy(name)
								.filter((id) => !before.get(lane.mode)?.has(id));
							if (fresh.length > 0) return { worker: name, execution: fresh[0] };
						}
						return undefined;
					},
					{ timeoutMs: 50_000, everyMs: 50 },
				);
				await sleep(1_000); // inside the 8 s Wait
				lane.cluster.kill(victim.worker, 'SIGKILL');
				lane.killedAt = Date.now();
				await lane.cluster.waitForExit(victim.worker);
				lane.killedExecutions.push(
					...lane.cluster
						.executionsRunBy(victim.worker)
						.filter((id) => !before.get(lane.mode)?.has(id)),
				);
				lane.notes.push(
					`d: ${victim.worker} SIGKILLed while it ran execution(s) ${lane.killedExecutions.join(', ')}`,
				);
				followers.push(followKilled(lane, () => following));
				await sleep(2_000);
				await lane.cluster.startWorker(Number(victim.worker.slice('worker-'.length)));
			});
			console.log(`# d. workers killed mid-run and started again: ${elapsed()}`);
			await untilSecond(30);

			// e. Measured: the main SIGKILLed ~30 ms after a poll's last answer.
			await everyLane(async (lane) => {
				await addAlerts(lane, 10, 'e');
				await lane.fake.clearRequests();
			});
			await untilSecond(58);
			await everyLane(async (lane) => {
				const answered = await watchRequests(
					lane,
					(r) => r.path === '/api/v2/alerts' && r.status !== 0,
					50_000,
				);
				await sleep(30);
				lane.cluster.kill('main', 'SIGKILL');
				await lane.cluster.waitForExit('main');
				lane.notes.push(
					`e: main SIGKILLed about 30 ms after the poll's answer (${answered.status})`,
				);
				await lane.cluster.startMain();
			});
			console.log(`# e. mains killed right after a poll answered: ${elapsed()}`);
			// Two more polls with nothing new: anything left is read, nothing is repeated.
			await untilSecond(0);
			await untilSecond(0);
			await untilSecond(30);
			await everyLane(async (lane) => await reviveAll(lane, 'end'));
			following = false;
			await Promise.all(followers);

			// The verdict.
			const failures: string[] = [];
			for (const lane of lanes) {
				// Every execution with what its trigger emitted into it, as n8n inserted it when it created the execution
				// (recorded by the database itself: whatever became of the execution afterwards, crashed ones included).
				const alertRuns = await lane.cluster.triggerEmissions(ALERT_WORKFLOW, ALERT_NODE);
				const keywordRuns = await lane.cluster.triggerEmissions(KEYWORD_WORKFLOW, KEYWORD_NODE);
				const aiRuns = await lane.cluster.triggerEmissions(AI_WORKFLOW, AI_NODE);
				const days = tally(aiRuns, (item) => `${String(item.domain_id)}@${String(item.date)}`);
				const clock = await fakeNow(lane);
				const lastOver = Math.floor(clock.now / DAY) - 1;
				const expectedDays = new Map<string, Scenario>();
				for (const domain of clock.domains)
					for (let day = lane.aiActivationDay ?? lastOver + 1; day <= lastOver; day++)
						expectedDays.set(
							`${domain}@${new Date(day * DAY).toISOString().slice(0, 10)}`,
							'activation',
						);
				const d = countEmissions(expectedDays, days, () => true);
				const strayDays = [...days.keys()].filter((key) => !expectedDays.has(key));
				if (expectedDays.size < 2 * 3)
					failures.push(`${lane.mode}: only ${expectedDays.size} AI-visibility days owed`);
				if (d.missing.length > 0 || d.repeated.length > 0 || strayDays.length > 0)
					failures.push(
						`${lane.mode}: AI-visibility days: ${d.missing.length} never emitted (${d.missing.slice(0, 4).join(', ')}), ${d.repeated.length} more than once (${d.repeated.slice(0, 4).join(', ')}), ${strayDays.length} not owed (${strayDays.slice(0, 4).join(', ')})`,
					);
				const alerts = tally(alertRuns, (item) => String(item.id));
				const crawls = tally(keywordRuns, (item) => `${item.id}@${crawlSeconds(item)}`);
				const promised = (s: Scenario) => s !== 'e' || lane.mode === 'durable-cursors';
				const a = countEmissions(lane.alerts, alerts, promised);
				const k = countEmissions(lane.crawls, crawls, promised);
				const strayAlerts = [...alerts.keys()].filter((id) => !lane.alerts.has(id));
				const strayCrawls = [...crawls.keys()].filter((key) => !lane.crawls.has(key));
				const measured = countEmissions(lane.alerts, alerts, (s) => s === 'e');
				const statuses: Record<string, number> = {};
				for (const run of [...alertRuns, ...keywordRuns, ...aiRuns])
					statuses[run.status] = (statuses[run.status] ?? 0) + 1;
				const killed = [...alertRuns, ...keywordRuns, ...aiRuns]
					.filter((run) => lane.killedExecutions.includes(run.id))
					.map((run) => `${run.id}: ${run.status} (${run.items.length} items at creation)`);
				for (const [id, history] of lane.afterKill)
					lane.notes.push(`d: execution ${id} after the kill: ${history.join(' → ')}`);
				console.log(
					`# ${lane.mode}: alerts ${a.once}/${[...lane.alerts.values()].filter(promised).length} once, keyword updates ${k.once}/${[...lane.crawls.values()].filter(promised).length} once, AI-visibility days ${d.once}/${expectedDays.size} once; ` +
						`executions ${JSON.stringify(statuses)}; killed in d: ${killed.join(', ') || 'none'}; ` +
						`e (main killed after a poll's answer): ${measured.once} of 10 alerts once, ${measured.missing.length} lost, ${measured.repeated.length} twice`,
				);
				for (const [label, count] of [
					['alerts', a],
					['keyword updates', k],
				] as const) {
					if (count.missing.length > 0)
						failures.push(
							`${lane.mode}: ${count.missing.length} ${label} never emitted, e.g. ${count.missing.slice(0, 5).join(', ')} (${count.missing
								.map((key) => (label === 'alerts' ? lane.alerts : lane.crawls).get(key))
								.slice(0, 5)
								.join(', ')})`,
						);
					if (count.repeated.length > 0)
						failures.push(
							`${lane.mode}: ${count.repeated.length} ${label} emitted more than once, e.g. ${count.repeated.slice(0, 5).join(', ')}`,
						);
				}
				if (strayAlerts.length > 0)
					failures.push(
						`${lane.mode}: alerts from before activation emitted: ${strayAlerts.slice(0, 5).join(', ')}`,
					);
				if (strayCrawls.length > 0)
					failures.push(
						`${lane.mode}: keyword updates nobody made emitted: ${strayCrawls.slice(0, 5).join(', ')}`,
					);
				// Each cluster ran the scheduler it was given, as its database shows.
				const evidence = await lane.cluster.schedulerEvidence();
				const durable = lane.mode !== 'in-memory';
				if (lane.cluster.schedulerStarted() !== durable)
					failures.push(
						`${lane.mode}: the durable scheduler ${durable ? 'did not start' : 'started'}`,
					);
				if (evidence.pollJobs.length !== (durable ? 3 : 0))
					failures.push(`${lane.mode}: ${evidence.pollJobs.length} durable poll jobs`);
				if (evidence.pollerStates.length > 0 !== (lane.mode === 'durable-cursors'))
					failures.push(`${lane.mode}: ${evidence.pollerStates.length} poller_state rows`);
				if (lane.cluster.schedulerWarnings().length > 0)
					failures.push(
						`${lane.mode}: n8n ignored a scheduler setting: ${lane.cluster.schedulerWarnings().join(' | ')}`,
					);
				lane.notes.push(
					`scheduler: ${evidence.pollJobs.length} poll jobs, poll tasks ${JSON.stringify(evidence.pollTasks)}, ${evidence.pollerStates.length} poller_state rows`,
				);
				const mainLog = lane.cluster.timedLogLines('main');
				const abandoned = mainLog.flatMap(({ at, line }, i) =>
					line.includes('Poll exceeded its timeout')
						? [{ at, before: mainLog.slice(Math.max(0, i - 6), i) }]
						: [],
				);
				if (abandoned.length > 0)
					failures.push(
						`${lane.mode}: n8n abandoned ${abandoned.length} poll(s) for running past the timeout`,
					);
				// When and after what, to tell which poll and why (n8n's text log has neither time nor workflow).
				for (const { at, before } of abandoned)
					lane.notes.push(
						`abandoned poll at ${((at - started) / 60_000).toFixed(2)} min, after: ${before.map((l) => `[${((l.at - started) / 1000).toFixed(1)} s] ${l.line.slice(0, 160)}`).join(' | ')}`,
					);
				const everything = `${lane.cluster.logs()}\n${JSON.stringify([alertRuns, keywordRuns, aiRuns])}`;
				const leaked = leakPieces(lane.fake.token).filter((piece) => everything.includes(piece));
				if (leaked.length > 0)
					failures.push(`${lane.mode}: a piece of the token is in a log or an execution`);
			}
			assert.deepEqual(failures, []);
		});
	},
);
