/**
 * The trigger against a slow API, through n8n's engine (test/harness runPoll) with real HTTP to the fake: every
 * request takes 1 s, and the poll gets the budget n8n's durable scheduler gives it at its default 45 s timeout (36 s)
 * and at a 5 s timeout (2.5 s). Each poll's requests end by its budget and the poll ends by its hard deadline (the
 * items read are shaped past the budget, see budget.ts), well inside n8n's timeout: a busy machine's slower shaping
 * fits there, a poll that went on requesting past its budget does not. Across polls a 10,000-alert burst and a
 * 50,000-keyword update are emitted exactly once, oldest first, whichever way n8n keeps the state between polls:
 * - 'every-poll': durable cursors (committed after every poll) and the in-memory scheduler (the live object);
 * - 'on-emit': the durable scheduler without durable cursors, where a poll that emits nothing keeps nothing (each
 *   poll starts from the state saved with the last poll that emitted; n8n's activation saves the activation poll's).
 * The four combinations of each event run side by side, each against its own fake, which runs as a process of its
 * own (as the real API is elsewhere): its work of building pages does not take this process's time, which the polls'
 * budgets are measured in.
 * Last, n8n slow to read the credential (its database busy): the budget runs from n8n's call of poll(), as n8n's
 * timeout does, so the read counts against it.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeApiProcess } from '../../e2e/lib/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import {
	hardDeadlineMs,
	pollBudgetMs,
	timeoutBehind,
} from '../../nodes/KeywordComTrigger/polling/budget';
import { runPoll } from '../harness/index.cjs';
import { crawlSeconds } from '../trigger/crawl-time.cjs';

type Persistence = 'every-poll' | 'on-emit';
const LATENCY_MS = 1_000;
/** n8n's getPollBudgetMs() at N8N_SCHEDULER_POLL_TIMEOUT 45 (the default) and 5. */
const BUDGETS = [36_000, 2_500];
const PERSISTENCE: Persistence[] = ['every-poll', 'on-emit'];
/** What n8n adds to a poll besides the node's own time (the harness's context, credential decryption): generous. */
const OVERHEAD_MS = 400;

const nodeType = new KeywordComTrigger();
const fakes: FakeApiProcess[] = [];
after(async () => await Promise.all(fakes.map(async (fake) => await fake.stop())));

interface Lane {
	fake: FakeApiProcess;
	budgetMs: number;
	persistence: Persistence;
	nodeData: IDataObject;
	globalData: IDataObject;
	items: IDataObject[];
	polls: number;
	slowest: number;
	/** Polls that went on shaping past the budget (within the hard deadline). */
	pastBudget: number;
	/** How long n8n takes to read the credential before the node's own work (0: at once). */
	credentialReadMs: number;
}

async function lane(
	budgetMs: number,
	persistence: Persistence,
	setUp: (fake: FakeApiProcess) => Promise<void>,
	credentialReadMs = 0,
): Promise<Lane> {
	// The fake's clock a few minutes behind: nothing looks "updated this very second" (covered by the unit tests).
	const fake = await FakeApiProcess.start({ seed: 'empty', clockBehindMs: 5 * 60_000 });
	fakes.push(fake);
	await setUp(fake);
	return {
		fake,
		budgetMs,
		persistence,
		nodeData: {},
		globalData: {},
		items: [],
		polls: 0,
		slowest: 0,
		pastBudget: 0,
		credentialReadMs,
	};
}

/** One poll the way n8n runs it; the state carried on the way `persistence` says. */
async function poll(run: Lane, parameters: INodeParameters): Promise<IDataObject[]> {
	const started = Date.now();
	const result = await runPoll({
		nodeType,
		typeVersion: 1,
		parameters,
		credentials: { keywordComApi: { apiToken: run.fake.token, baseUrl: run.fake.baseUrl } },
		staticData: run.nodeData,
		globalStaticData: run.globalData,
		pollBudgetMs: run.budgetMs,
		credentialReadMs: run.credentialReadMs,
	});
	const took = Date.now() - started;
	run.slowest = Math.max(run.slowest, took);
	assert.equal(result.error, undefined, result.error?.message);
	const hardMs = hardDeadlineMs(run.budgetMs, pollBudgetMs(run.budgetMs));
	assert.ok(
		took <= hardMs + OVERHEAD_MS,
		`a poll took ${took} ms: budget ${run.budgetMs} ms, hard deadline ${hardMs} ms, n8n's timeout ${timeoutBehind(run.budgetMs)} ms`,
	);
	if (took > run.budgetMs) run.pastBudget++;
	const items = (result.items?.[0] ?? []).map((item) => item.json);
	const activation = run.polls === 0;
	run.nodeData =
		run.persistence === 'every-poll' || activation ? result.staticData : result.persistedStaticData;
	// n8n saves the global static data with the activation and with every poll that emits.
	if (activation || items.length > 0) run.globalData = result.globalStaticData;
	run.items.push(...items);
	run.polls++;
	return items;
}

async function drain(
	run: Lane,
	parameters: INodeParameters,
	expected: number,
	maxPolls: number,
): Promise<void> {
	while (run.items.length < expected) {
		assert.ok(run.polls < maxPolls, `${run.items.length} of ${expected} after ${run.polls} polls`);
		await poll(run, parameters);
	}
	// One more: nothing left, nothing repeated.
	assert.deepEqual(await poll(run, parameters), []);
}

const label = (budgetMs: number, persistence: Persistence) =>
	`${budgetMs / 1000} s budget, state kept ${persistence === 'on-emit' ? 'only by polls that emit' : 'after every poll'}`;

describe(
	'Keyword.com Trigger against an API that takes 1 s a request',
	{ timeout: 20 * 60_000 },
	() => {
		it('New Alert: a 10,000-alert burst is emitted once, oldest first, each poll within its budget', async () => {
			const ALERT = { event: 'newAlert' };
			const lanes = await Promise.all(
				BUDGETS.flatMap((budgetMs) =>
					PERSISTENCE.map(
						async (persistence) =>
							await lane(
								budgetMs,
								persistence,
								async (fake) =>
									void (await fake.control('POST', 'alerts', {
										count: 300,
										createdAt: Math.floor(Date.now() / 1000) - 3 * 86_400,
									})),
							),
					),
				),
			);
			await Promise.all(
				lanes.map(async (run) => {
					assert.deepEqual(await poll(run, ALERT), [], 'activation emits nothing');
					const added = (await run.fake.control('POST', 'alerts', { count: 10_000 })) as {
						data: Array<{ id: string }>;
					};
					const burst = added.data.map((alert) => String(alert.id));
					await run.fake.control('POST', 'latency', { ms: LATENCY_MS });
					await drain(run, ALERT, burst.length, 60);
					const ids = run.items.map((item) => String(item.id));
					assert.deepEqual(
						ids,
						burst,
						`${label(run.budgetMs, run.persistence)}: every alert once, oldest first`,
					);
					console.log(
						`# New Alert, ${label(run.budgetMs, run.persistence)}: ${run.polls} polls, slowest ${run.slowest} ms (${run.pastBudget} past the budget), ${(await run.fake.requests()).length} requests`,
					);
					if (run.budgetMs < 5_000)
						assert.ok(run.polls >= 4, 'the burst took several polls: each made progress');
					// Where n8n keeps only what a poll emits, a poll that cannot fit its second round of 1 s requests (the
					// first page says where the new alerts end) emits nothing and keeps nothing: measured 5 polls, 9 when
					// requests had to end 250 ms before the budget.
					if (run.budgetMs < 5_000 && run.persistence === 'on-emit')
						assert.ok(run.polls <= 7, `${run.polls} polls: some of them kept nothing`);
				}),
			);
		});

		it('Keyword Updated: a 50,000-keyword update is emitted once, each poll within its budget', async () => {
			const KEYWORDS = { event: 'keywordUpdated' };
			const lanes = await Promise.all(
				BUDGETS.flatMap((budgetMs) =>
					PERSISTENCE.map(
						async (persistence) =>
							await lane(
								budgetMs,
								persistence,
								async (fake) =>
									void (await fake.control('POST', 'keywords', {
										category: 'Big Project',
										count: 50_000,
									})),
							),
					),
				),
			);
			await Promise.all(
				lanes.map(async (run) => {
					assert.deepEqual(await poll(run, KEYWORDS), [], 'activation emits nothing');
					// A second later by the fake's clock: the crawl is stamped after the activation's "now".
					await new Promise((resolve) => setTimeout(resolve, 1_100));
					const { keywords: crawled } = (await run.fake.control('POST', 'rank-update', {
						category: 'Big Project',
					})) as { keywords: Array<{ id: string; crawled_at: number }> };
					await run.fake.control('POST', 'latency', { ms: LATENCY_MS });
					await drain(run, KEYWORDS, crawled.length, 120);
					const emitted = run.items.map((item) => `${String(item.id)}@${crawlSeconds(item)}`);
					const expected = crawled.map((k) => `${k.id}@${k.crawled_at}`);
					assert.equal(new Set(emitted).size, emitted.length, 'no keyword twice');
					assert.deepEqual(
						[...emitted].sort(),
						[...expected].sort(),
						`${label(run.budgetMs, run.persistence)}: every keyword once`,
					);
					console.log(
						`# Keyword Updated, ${label(run.budgetMs, run.persistence)}: ${run.polls} polls, slowest ${run.slowest} ms (${run.pastBudget} past the budget), ${(await run.fake.requests()).length} requests`,
					);
					if (run.budgetMs < 5_000)
						assert.ok(run.polls >= 4, 'the update took several polls: each made progress');
				}),
			);
		});
	},
);

describe(
	'Keyword.com Trigger when n8n is slow to read the credential',
	{ timeout: 10 * 60_000 },
	() => {
		// n8n's poll timeout runs from its call of poll(), and the credential is read (from n8n's database) inside it:
		// a poll that counted its budget from after that read would run past n8n's timeout by as long as the read took.
		it("New Alert: with a 1.2 s credential read, each poll ends within its budget counted from n8n's call", async () => {
			const ALERT = { event: 'newAlert' };
			const lanes = await Promise.all(
				PERSISTENCE.map(
					async (persistence) => await lane(2_500, persistence, async () => {}, 1_200),
				),
			);
			await Promise.all(
				lanes.map(async (run) => {
					assert.deepEqual(await poll(run, ALERT), [], 'activation emits nothing');
					const added = (await run.fake.control('POST', 'alerts', { count: 10_000 })) as {
						data: Array<{ id: string }>;
					};
					await run.fake.control('POST', 'latency', { ms: 300 });
					await drain(run, ALERT, added.data.length, 60);
					assert.deepEqual(
						run.items.map((item) => String(item.id)),
						added.data.map((alert) => String(alert.id)),
						`${label(run.budgetMs, run.persistence)}: every alert once, oldest first`,
					);
					console.log(
						`# New Alert, slow credential read, ${label(run.budgetMs, run.persistence)}: ${run.polls} polls, slowest ${run.slowest} ms`,
					);
				}),
			);
		});
	},
);
