/**
 * Keyword.com Trigger in a real n8n 2.x (the package installed from its packed tarball as a community package, sqlite,
 * the in-memory scheduler) against the fake API as a process.
 *
 * 1. The published-trigger path: publish → start (activation poll: nothing emitted) → 3 new alerts → restart
 *    (activation poll again) → exactly one execution with exactly those 3 alerts → restart without new alerts → nothing
 *    more. The token never reaches the log.
 * 2. The exactly-once suite of test/trigger/modes.test.cts, in one n8n, in every mode of the fake for what the API
 *    document leaves open: the sort parameters honoured; ignored, newest first; ignored, oldest first; the rank history
 *    oldest first; lists changing between two page requests; slow pages; all of it at once. One fake process per mode,
 *    one credential per fake, two published workflows per mode (New Alert, Keyword Updated): 14 triggers in one n8n.
 *    n8n polls every trigger once at activation and once at every start of `n8n start`, so every restart drives one
 *    poll of each trigger (the poll times stay at every minute; a minute poll that falls inside the story is one more
 *    poll, counted). The story, all modes together: activation (nothing emitted); a burst of 600 alerts, a crawl of a
 *    1,200-keyword project and of a small one; restart; alerts over several seconds, keywords added and deleted, part
 *    of the big project crawled (a slice of it twice), another project crawled, more alerts; restart; churn off;
 *    restarts until two in a row bring no new execution. n8n keeps a trigger's cursor only from polls that emit (and
 *    from the activation), so every poll that emits nothing is forgotten by the next restart: the harshest case.
 *    Then, per mode, from every execution of its two workflows: every alert created after activation emitted exactly
 *    once, in time order within and across executions; no crawl emitted twice; every keyword's last crawl after
 *    activation emitted exactly once; each item's rank the rank of its crawl and its previous rank and change right
 *    or null. No 8-character piece of any token in any execution or in n8n's log.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/trigger.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
	FakeApiProcess,
	KEYWORD_COM_CREDENTIAL_TYPE,
	RealN8n,
	UNFINISHED_STATUSES,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	triggerWorkflow,
	waitUntil,
	type FakeApiBehaviour,
} from '../../e2e/lib/index.cjs';
import { DEFAULT_BEHAVIOUR } from '../../dev/fake-api/behaviour.cjs';
import { leakPieces } from '../leak-pieces.cjs';
import { crawlSeconds } from '../trigger/crawl-time.cjs';

const WORKFLOW_ID = 'kwcTriggerFlow01';
const NODE_NAME = 'Keyword.com Trigger';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** One build + pack for the whole file. */
let tarball: string | undefined;
function packedTarball(): string {
	tarball ??= buildAndPackPackage();
	return tarball;
}
after(() => removeTarball(tarball));

describe('Keyword.com Trigger in a real n8n', { timeout: 10 * 60_000 }, () => {
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	before(async () => {
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: packedTarball(), name: 'trigger' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		await n8n.importWorkflow(
			triggerWorkflow({
				id: WORKFLOW_ID,
				name: 'Keyword.com new alerts',
				nodeName: NODE_NAME,
				// Once a year: every poll of this test is an activation poll, so what it counts cannot race n8n's
				// schedule (every minute fires at a random second, which may fall right after an activation).
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 1 1 *' }] },
					event: 'newAlert',
				},
			}),
		);
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
	});

	test('activation records "now"; after a restart the 3 new alerts arrive exactly once', async () => {
		await n8n.publish(WORKFLOW_ID);
		await fake.clearRequests();
		await n8n.start();
		await n8n.setupOwnerAndLogin();

		// The activation poll ran (one request) and flooded nothing: a null poll makes no execution.
		await fake.waitForRequests('/api/v2/alerts', 1);
		await sleep(2_000);
		assert.deepEqual(
			await n8n.listExecutions(WORKFLOW_ID),
			[],
			'no execution for the activation poll',
		);
		const activationRequests = await fake.requests();
		assert.equal(
			activationRequests.length,
			1,
			JSON.stringify(activationRequests.map((r) => r.path)),
		);

		await n8n.waitForStaticData(WORKFLOW_ID); // the activation's "now" is saved before the restart
		const added = (await fake.control('POST', 'alerts', { count: 3 })) as {
			data: Array<{ id: string }>;
		};
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
		assert.equal(typeof emitted[0].keyword, 'string');
		assert.ok(!JSON.stringify(executions).includes(fake.token), 'no token in the execution');

		// Restart without new alerts: the activation poll finds nothing new.
		await fake.clearRequests();
		await n8n.restart();
		await fake.waitForRequests('/api/v2/alerts', 1);
		await sleep(3_000);
		const after = await n8n.listExecutions(WORKFLOW_ID);
		assert.equal(after.length, 1, 'no new execution');
		assert.ok(!n8n.logs().includes(fake.token), 'the token never reaches the n8n log');
	});
});

// ------------------------------------------------------------------------------------------- every mode of the fake

interface Mode {
	key: string;
	name: string;
	behaviour: FakeApiBehaviour;
}

const MODES: Mode[] = [
	{ key: 'asked', name: 'sort honoured', behaviour: {} },
	{ key: 'newest', name: 'sort ignored, newest first', behaviour: { alertOrder: 'newest-first' } },
	{ key: 'oldest', name: 'sort ignored, oldest first', behaviour: { alertOrder: 'oldest-first' } },
	{
		key: 'history',
		name: 'rank history oldest first',
		behaviour: { historyOrder: 'oldest-first' },
	},
	{
		key: 'churn',
		name: 'lists changing between pages',
		behaviour: { churn: { addKeywords: 3, deleteKeywords: 2, crawlKeywords: 5, addAlerts: 7 } },
	},
	{ key: 'slow', name: 'slow pages (300 ms)', behaviour: { pageLatencyMs: 300 } },
	{
		key: 'all',
		name: 'all at once (oldest first, history oldest first, lists changing, slow pages)',
		behaviour: {
			alertOrder: 'oldest-first',
			historyOrder: 'oldest-first',
			churn: { addKeywords: 2, deleteKeywords: 1, crawlKeywords: 4, addAlerts: 5 },
			pageLatencyMs: 300,
		},
	},
];

const BULK = 'Bulk Project';
const SMALL = 'Café Zürich';
const OTHER = 'Acme Shoes';
const ALERT_NODE = 'New alert';
const KEYWORD_NODE = 'Keyword updated';
const PAGE = 250;

/** A keyword as the API shows it: its last crawl and its rank history, newest first (0 = outside the top results). */
interface KeywordNow {
	category: string;
	crawledAt: number | null;
	history: number[];
}

/** One crawl of a keyword after activation: made by the story (its rank known from the answer) or by churn. */
interface Crawl {
	by: 'story' | 'churn';
	at?: number;
	rank?: number;
}

/** A crawl as far as it can be known: its rank and the rank of the crawl before (undefined: not known). */
interface CrawlTruth {
	rank?: number;
	previous?: number;
}

class Lane {
	readonly fake: FakeApiProcess;
	readonly credential: { id: string; name: string };
	readonly alertWorkflow: { id: string; name: string };
	readonly keywordWorkflow: { id: string; name: string };
	/** Alert ids that existed before activation. */
	readonly oldAlerts = new Set<string>();
	/** Every keyword before activation. */
	initial = new Map<string, KeywordNow>();
	/** Every keyword at the end. */
	final = new Map<string, KeywordNow>();
	/** Alert id → created_at, at the end. */
	finalAlerts = new Map<string, number>();
	/** Crawls after activation, per keyword, oldest first. */
	readonly crawls = new Map<string, Crawl[]>();
	readonly deleted = new Set<string>();
	bulkIds: string[] = [];
	bulkProjectId = '';
	/** Churn log entries already taken into `crawls`. */
	private churnSeen = 0;
	readonly churned = { entries: 0, crawled: 0, added: 0, deleted: 0, alerts: 0 };
	/** API requests n8n sent (counted while n8n runs; the story's own requests are made while it is stopped). */
	n8nRequests = 0;
	private requestMark = 0;
	alertExecutions: any[] = [];
	keywordExecutions: any[] = [];
	polls = 0;

	constructor(
		readonly mode: Mode,
		readonly index: number,
		fake: FakeApiProcess,
	) {
		this.fake = fake;
		this.credential = { id: `kwcModeCred0000${index}`, name: `Keyword.com ${mode.key}` };
		this.alertWorkflow = {
			id: `kwcM${index}Alerts00000`,
			name: `Modes ${index} ${mode.key}: new alerts`,
		};
		this.keywordWorkflow = {
			id: `kwcM${index}Keywords000`,
			name: `Modes ${index} ${mode.key}: keyword updates`,
		};
	}

	static async start(mode: Mode, index: number): Promise<Lane> {
		// No prefix shared between the tokens: any 8-character piece found anywhere is a leak.
		const token = randomBytes(24).toString('base64url');
		const fake = await FakeApiProcess.start({ seed: 'demo', token, behaviour: mode.behaviour });
		const lane = new Lane(mode, index, fake);
		const behaviour = await fake.behaviour();
		const churn = mode.behaviour.churn
			? {
					everyPages: 1,
					addKeywords: 0,
					deleteKeywords: 0,
					crawlKeywords: 0,
					addAlerts: 0,
					...mode.behaviour.churn,
				}
			: null;
		assert.deepEqual(
			behaviour,
			{
				...DEFAULT_BEHAVIOUR,
				...mode.behaviour,
				churn,
			},
			`${mode.name}: the flags took`,
		);
		await fake.control('POST', 'keywords', { category: BULK, count: 1_200 });
		await lane.quietly(async () => {
			lane.initial = await lane.readKeywords();
			for (const id of (await lane.readAlerts()).keys()) lane.oldAlerts.add(id);
			const groups = (await fake.api('GET', '/api/v2/groups/active')) as { data: any[] };
			lane.bulkProjectId = String(
				groups.data.find((g) => g.attributes.name === BULK).attributes.project_id,
			);
		});
		lane.bulkIds = [...lane.initial.entries()]
			.filter(([, k]) => k.category === BULK)
			.map(([id]) => id);
		assert.equal(lane.bulkIds.length, 1_200);
		return lane;
	}

	get oldestFirstHistory(): boolean {
		return this.mode.behaviour.historyOrder === 'oldest-first';
	}

	/** Runs `fn` with churn and slow pages off (the test's own reads change nothing), then puts the mode back. */
	async quietly<T>(fn: () => Promise<T>, restore = true): Promise<T> {
		await this.fake.setBehaviour({ churn: null, pageLatencyMs: 0 });
		try {
			return await fn();
		} finally {
			if (restore)
				await this.fake.setBehaviour({
					churn: this.mode.behaviour.churn ?? null,
					pageLatencyMs: this.mode.behaviour.pageLatencyMs ?? 0,
				});
		}
	}

	/** Every keyword of every project and group, read through the API. */
	async readKeywords(): Promise<Map<string, KeywordNow>> {
		const result = new Map<string, KeywordNow>();
		const groups = (await this.fake.api('GET', '/api/v2/groups/active')) as { data: any[] };
		for (const group of groups.data) {
			const name = String(group.attributes.name);
			for (let page = 1; ; page++) {
				const body = (await this.fake.api(
					'GET',
					`/api/v2/groups/${encodeURIComponent(name)}/keywords/?page=${page}&per_page=${PAGE}`,
				)) as { data: any[] };
				for (const record of body.data) {
					const history = ((record.attributes.grankhistory ?? []) as unknown[]).map(
						(rank) => Number(rank) || 0,
					);
					if (this.oldestFirstHistory) history.reverse();
					result.set(String(record.id), {
						category: name,
						crawledAt: record.attributes.crawled_at ?? null,
						history,
					});
				}
				if (body.data.length < PAGE) break;
			}
		}
		return result;
	}

	/** Every alert (id → created_at), read through the API. */
	async readAlerts(): Promise<Map<string, number>> {
		const result = new Map<string, number>();
		for (let page = 1; ; page++) {
			const body = (await this.fake.api('GET', `/api/v2/alerts?page=${page}&per_page=${PAGE}`)) as {
				data: any[];
			};
			for (const record of body.data)
				result.set(String(record.id), Number(record.attributes.created_at));
			if (body.data.length < PAGE) break;
		}
		return result;
	}

	/** A crawl by the story (POST /__control/rank-update); the answer gives each keyword's new rank and crawled_at. */
	async crawl(body: { category?: string; keywordIds?: string[] }): Promise<number> {
		const keywordIds = body.keywordIds?.filter((id) => !this.deleted.has(id));
		const answer = (await this.fake.control(
			'POST',
			'rank-update',
			keywordIds ? { keywordIds } : body,
		)) as {
			keywords: Array<{ id: string; grank: number | null; crawled_at: number }>;
		};
		for (const k of answer.keywords)
			this.crawlsOf(String(k.id)).push({ by: 'story', at: k.crawled_at, rank: k.grank ?? 0 });
		return answer.keywords.length;
	}

	async deleteKeywords(ids: string[]): Promise<void> {
		const alive = ids.filter((id) => !this.deleted.has(id));
		await this.fake.api('DELETE', `/api/v2/projects/${this.bulkProjectId}/keywords`, {
			data: { type: 'keyword', ids: alive.map(Number) },
		});
		for (const id of alive) this.deleted.add(id);
	}

	private crawlsOf(id: string): Crawl[] {
		let list = this.crawls.get(id);
		if (!list) this.crawls.set(id, (list = []));
		return list;
	}

	/** n8n is about to start: its requests count from here. */
	async running(): Promise<void> {
		this.requestMark = Number((await this.fake.state()).requests);
	}

	/**
	 * n8n has stopped: its requests are counted, and what churn changed while it ran is taken in, in order. Churn acts
	 * only while n8n reads (the story's own reads turn it off), and the story changes the data only while n8n is
	 * stopped, so the crawls of a keyword are known in the order they were made.
	 */
	async stopped(): Promise<void> {
		this.n8nRequests += Number((await this.fake.state()).requests) - this.requestMark;
		const log = await this.fake.churnLog();
		for (const entry of log.slice(this.churnSeen)) {
			if (entry.list === 'alerts') {
				this.churned.alerts += entry.alerts.length;
			} else {
				for (const id of entry.deleted) this.deleted.add(id);
				for (const id of entry.crawled) this.crawlsOf(id).push({ by: 'churn' });
				this.churned.crawled += entry.crawled.length;
				this.churned.added += entry.added.length;
				this.churned.deleted += entry.deleted.length;
			}
			this.churned.entries++;
		}
		this.churnSeen = log.length;
	}

	/**
	 * Every crawl of a keyword after activation as far as it can be known. The fake's history has one entry per crawl,
	 * newest first, so the history read at the end gives the rank of every crawl of a keyword that still exists,
	 * counted back from its last one (churn's crawls included); the story's crawls give their ranks from the control
	 * route's answer (also for keywords deleted later), and the history read before activation the rank before the first.
	 * Index 0 is the state before activation; `at` the crawled_at where known (the story's crawls, and the last one).
	 */
	sequence(id: string): { ranks: Array<number | undefined>; ats: Array<number | undefined> } {
		const crawls = this.crawls.get(id) ?? [];
		const m = crawls.length;
		const ranks: Array<number | undefined> = [
			this.initial.get(id)?.history[0],
			...crawls.map((c) => c.rank),
		];
		const ats: Array<number | undefined> = [
			this.initial.get(id)?.crawledAt ?? undefined,
			...crawls.map((c) => c.at),
		];
		const now = this.final.get(id);
		if (now) {
			for (let i = 0; i <= m && i < now.history.length; i++) {
				const j = m - i;
				if (ranks[j] === undefined) ranks[j] = now.history[i];
				// The test's own bookkeeping: a crawl it missed or counted twice would show here.
				else
					assert.equal(
						now.history[i],
						ranks[j],
						`${this.mode.name}: keyword ${id}: the fake's history agrees with the ${m} crawls seen`,
					);
			}
			if (m > 0) {
				if (ats[m] === undefined) ats[m] = now.crawledAt ?? undefined;
				else assert.equal(now.crawledAt, ats[m], `${this.mode.name}: keyword ${id}: last crawl`);
			}
		}
		return { ranks, ats };
	}

	/**
	 * The crawls after activation an item of `id` crawled at `at` can be: the one with that crawled_at, or else a
	 * churn crawl whose neighbours' times enclose it (more than one only when churn crawled the keyword several times
	 * between two known times).
	 */
	candidates(id: string, at: number): CrawlTruth[] {
		const { ranks, ats } = this.sequence(id);
		const exact = ats.findIndex((value, j) => j > 0 && value === at);
		const indexes: number[] = [];
		if (exact > 0) indexes.push(exact);
		else {
			for (let j = 1; j < ats.length; j++) {
				if (ats[j] !== undefined) continue;
				const before = ats.slice(0, j).filter((v): v is number => v !== undefined);
				const afterward = ats.slice(j + 1).filter((v): v is number => v !== undefined);
				if (before.length > 0 && at <= Math.max(...before)) continue;
				if (afterward.length > 0 && at >= Math.min(...afterward)) continue;
				indexes.push(j);
			}
		}
		return indexes.map((j) => ({ rank: ranks[j], previous: ranks[j - 1] }));
	}
}

/** Whether an item's rank fields fit a crawl; `undefined` parts of the truth are not judged. */
function fits(item: any, truth: CrawlTruth): boolean {
	if (truth.rank !== undefined && item.rank !== (truth.rank === 0 ? null : truth.rank))
		return false;
	if (item.change === null) return item.previous_rank === null;
	if (truth.previous === undefined || truth.rank === undefined) return true;
	const previous = truth.previous;
	return (
		item.previous_rank === (previous === 0 ? null : previous) &&
		item.change === (previous === 0 ? 101 : previous) - (truth.rank === 0 ? 101 : truth.rank)
	);
}

describe(
	'Keyword.com Trigger in a real n8n: exactly once in every mode of the fake API',
	{ timeout: 30 * 60_000 },
	() => {
		const lanes: Lane[] = [];
		let n8n: RealN8n;
		const started = Date.now();
		const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
		const everyLane = async (task: (lane: Lane) => Promise<unknown>) =>
			await Promise.all(lanes.map(task));
		const workflows = () => lanes.flatMap((lane) => [lane.alertWorkflow, lane.keywordWorkflow]);
		let restarts = 0;
		let drainRounds = 0;

		/** How many executions n8n has, once none is running and the number has held still for a few seconds. */
		async function settledExecutions(): Promise<number> {
			let last = -1;
			let still = 0;
			return await waitUntil(
				'the executions settling',
				async () => {
					const page = await n8n.rest('GET', '/rest/executions?limit=100');
					const results: any[] = Array.isArray(page?.results) ? page.results : [];
					const count = typeof page?.count === 'number' ? page.count : results.length;
					const busy = results.some((e) => UNFINISHED_STATUSES.has(e.status));
					still = !busy && count === last ? still + 1 : 0;
					last = count;
					return still >= 2 ? count : undefined; // 0 is an answer too
				},
				{ timeoutMs: 5 * 60_000, everyMs: 1_500, explain: () => `the last count: ${last}` },
			);
		}

		/** Starts n8n and waits until every trigger's start-up poll is done and its execution, if any, finished. */
		async function startAndSettle(): Promise<number> {
			await everyLane(async (lane) => await lane.running());
			const offset = n8n.logs().length;
			await n8n.start();
			restarts++;
			// The activation's poll returned (n8n logs it after); debug level here, as n8n 2.x logs it at debug.
			const activated = (): string[] =>
				n8n.activatedSince(
					offset,
					workflows().map((w) => w.id),
				);
			try {
				await waitUntil(
					'the start-up poll of every trigger',
					() => activated().length === workflows().length,
					{ timeoutMs: 5 * 60_000 },
				);
			} catch (error) {
				const log = n8n.logs().slice(offset);
				const missing = workflows().filter((w) => !activated().includes(w.id));
				fs.writeFileSync(path.join(os.tmpdir(), 'e2e-trigger-modes-n8n.log'), n8n.logs());
				const problems = log
					.split('\n')
					.filter(
						(line) => /\b(error|warn)\b|Issue on/i.test(line) && !/IsolatedVmBridge/.test(line),
					)
					.slice(-20);
				throw new Error(
					`${(error as Error).message}: not activated: ${missing.map((w) => w.name).join(', ')}; n8n said: ${problems.join(' | ')}`,
				);
			}
			return await settledExecutions();
		}

		async function stop(): Promise<void> {
			await n8n.stop();
			await everyLane(async (lane) => await lane.stopped());
		}

		/** Stop, change the data (n8n stopped), start: one more poll of every trigger. Returns the new executions. */
		async function restartWith(
			label: string,
			before: number,
			changes?: (lane: Lane) => Promise<unknown>,
		): Promise<number> {
			await stop();
			if (changes) await everyLane(changes);
			const count = await startAndSettle();
			console.log(`# ${elapsed()}: restart "${label}": ${count - before} new executions`);
			return count;
		}

		before(async () => {
			for (const [index, mode] of MODES.entries()) lanes.push(await Lane.start(mode, index + 1));
			n8n = await RealN8n.create({
				packageTarball: packedTarball(),
				name: 'trigger-modes',
				// Debug level: n8n then logs "Poll trigger initiated" for every poll (counted below), and the leak check
				// covers everything n8n can log.
				env: { N8N_LOG_LEVEL: 'debug' },
			});
			await n8n.importCredentials(
				lanes.map((lane) => ({
					id: lane.credential.id,
					name: lane.credential.name,
					type: KEYWORD_COM_CREDENTIAL_TYPE,
					data: { apiToken: lane.fake.token, baseUrl: lane.fake.baseUrl },
				})),
			);
			await n8n.importWorkflows(
				lanes.flatMap((lane) => [
					triggerWorkflow({
						...lane.alertWorkflow,
						nodeName: ALERT_NODE,
						credential: lane.credential,
						parameters: { event: 'newAlert' },
					}),
					triggerWorkflow({
						...lane.keywordWorkflow,
						nodeName: KEYWORD_NODE,
						credential: lane.credential,
						parameters: { event: 'keywordUpdated' },
					}),
				]),
			);
			console.log(`# ${elapsed()}: ${lanes.length} fakes, n8n set up`);

			// Activation: published the way the editor's Publish button does it, in the running n8n; n8n runs each
			// trigger's first poll before it answers. "Now" is recorded, nothing is emitted.
			await everyLane(async (lane) => await lane.running());
			await n8n.start();
			await n8n.setupOwnerAndLogin();
			const activationLogStart = n8n.logs().length;
			for (const workflow of workflows()) {
				const { versionId } = await n8n.rest('GET', `/rest/workflows/${workflow.id}`);
				await n8n.rest('POST', `/rest/workflows/${workflow.id}/activate`, { versionId });
			}
			let executions = await settledExecutions();
			// n8n also polls each trigger every minute, at a second it draws at random at activation (n8n-workflow's
			// toCronExpression), so a minute poll can come while the others are still being activated, and rightly emit
			// what churn made during the activation polls. So each workflow is judged by its own polls, counted in n8n's
			// log after its executions were read (n8n logs a poll before running it: every poll behind an execution is
			// counted): one polled once, at its activation, has no execution; one that a minute poll reached too has at
			// most one per minute poll, and what they emitted is checked with the rest below.
			let minutePolls = 0;
			for (const workflow of workflows()) {
				const emitted = (await n8n.listExecutionSummaries(workflow.id)).length;
				const polls =
					n8n
						.logs()
						.slice(activationLogStart)
						.split(`Poll trigger initiated for workflow "${workflow.name}"`).length - 1;
				assert.ok(polls >= 1, `${workflow.name}: its activation poll is in n8n's log`);
				assert.ok(
					emitted <= polls - 1,
					`${workflow.name}: the activation poll emits nothing (${emitted} executions, ${polls - 1} minute polls)`,
				);
				minutePolls += polls - 1;
			}
			console.log(`# ${elapsed()}: activated (${minutePolls} minute polls during the activations)`);

			// A burst of 600 alerts; a crawl of the 1,200-keyword project and of a small one.
			executions = await restartWith('burst', executions, async (lane) => {
				await lane.fake.control('POST', 'alerts', { count: 600 });
				await lane.crawl({ category: BULK });
				await lane.crawl({ category: SMALL });
			});
			// Alerts over several seconds, keywords added and deleted, part of the project crawled (a slice twice: one
			// item each, with the latest rank), another project crawled, more alerts.
			executions = await restartWith('changes', executions, async (lane) => {
				for (let second = 0; second < 3; second++) {
					await lane.fake.control('POST', 'alerts', { count: 90 });
					await sleep(1_000);
				}
				await lane.fake.control('POST', 'keywords', { category: BULK, count: 40 });
				await lane.deleteKeywords(lane.bulkIds.slice(10, 20));
				await lane.crawl({ keywordIds: lane.bulkIds.slice(100, 400) });
				await lane.crawl({ keywordIds: lane.bulkIds.slice(200, 250) });
				await lane.crawl({ category: OTHER });
				await lane.fake.control('POST', 'alerts', { count: 30 });
			});
			// Churn off, then restarts until two in a row bring no new execution.
			let quiet = 0;
			for (let round = 1; quiet < 2; round++) {
				assert.ok(round <= 10, 'the triggers still emit after 10 restarts');
				const next = await restartWith(
					round === 1 ? 'churn off' : `drain ${round}`,
					executions,
					round === 1 ? async (lane) => await lane.fake.setBehaviour({ churn: null }) : undefined,
				);
				quiet = next === executions ? quiet + 1 : 0;
				executions = next;
				drainRounds = round;
			}

			// What n8n did, read while it runs; then stopped, so that nothing more happens.
			for (const lane of lanes) {
				lane.alertExecutions = await n8n.listExecutions(lane.alertWorkflow.id);
				lane.keywordExecutions = await n8n.listExecutions(lane.keywordWorkflow.id);
			}
			await stop();
			const log = n8n.logs();
			for (const lane of lanes) {
				for (const workflow of [lane.alertWorkflow, lane.keywordWorkflow]) {
					lane.polls +=
						log.split(`Poll trigger initiated for workflow "${workflow.name}"`).length - 1;
				}
			}
			// The truth, read through the API with churn and slow pages off.
			await everyLane(
				async (lane) =>
					await lane.quietly(async () => {
						lane.final = await lane.readKeywords();
						lane.finalAlerts = await lane.readAlerts();
					}, false),
			);
			console.log(
				`# ${elapsed()}: story done: ${restarts} starts after activation (${drainRounds} to drain), ${executions} executions`,
			);
		});

		after(async () => {
			await n8n?.dispose();
			await Promise.all(lanes.map(async (lane) => await lane.fake.stop()));
		});

		for (const [index, mode] of MODES.entries()) {
			test(mode.name, () => {
				const lane = lanes[index];
				assert.ok(lane, 'the story ran');
				const executions = [...lane.alertExecutions, ...lane.keywordExecutions];
				for (const execution of executions) {
					assert.equal(
						execution.status,
						'success',
						`execution ${String(execution.id)} of ${String(execution.workflowId)}: ${String(execution.status)}`,
					);
					assert.equal(execution.mode, 'trigger');
				}
				const byId = (a: any, b: any) => Number(a.id) - Number(b.id);

				// Alerts: every alert created after activation, exactly once, in time order within and across executions.
				// Alerts churn added after a page of the activation poll count as new (the demo seed's alerts are one page,
				// so the activation reads one page only).
				const alertItems = lane.alertExecutions
					.sort(byId)
					.flatMap((execution) => nodeOutput(execution, ALERT_NODE) ?? []);
				const emittedAlerts = alertItems.map((item: any) => String(item.id));
				const expectedAlerts = [...lane.finalAlerts.keys()].filter((id) => !lane.oldAlerts.has(id));
				assert.equal(new Set(emittedAlerts).size, emittedAlerts.length, 'no alert twice');
				assert.deepEqual(
					[...emittedAlerts].sort(),
					expectedAlerts.sort(),
					`every alert once (${expectedAlerts.length} created after activation, ${emittedAlerts.length} emitted)`,
				);
				assert.ok(
					expectedAlerts.length >= 600 + 300,
					`${expectedAlerts.length} alerts after activation`,
				);
				for (const item of alertItems) {
					assert.equal(
						Date.parse(String(item.created_at)) / 1000,
						lane.finalAlerts.get(String(item.id)),
						`created_at of alert ${String(item.id)}`,
					);
				}
				for (let n = 1; n < alertItems.length; n++) {
					assert.ok(
						Date.parse(String(alertItems[n - 1].created_at)) <=
							Date.parse(String(alertItems[n].created_at)),
						`alerts in time order (item ${n})`,
					);
				}

				// Keyword updates: no crawl twice; every keyword's last crawl after activation exactly once. Keywords added
				// after activation (by the story or by churn) carry a crawl from before it: they count only once crawled.
				const keywordRuns = lane.keywordExecutions
					.sort(byId)
					.map((execution) => nodeOutput(execution, KEYWORD_NODE) ?? []);
				for (const [n, items] of keywordRuns.entries()) {
					for (let i = 1; i < items.length; i++) {
						assert.ok(
							crawlSeconds(items[i - 1]) <= crawlSeconds(items[i]),
							`keyword updates in time order within execution ${n + 1}`,
						);
					}
				}
				const keywordItems = keywordRuns.flat();
				const pairs = keywordItems.map((item: any) => `${String(item.id)}@${crawlSeconds(item)}`);
				assert.equal(new Set(pairs).size, pairs.length, 'no crawl emitted twice');
				const emittedPairs = new Set(pairs);
				let lastCrawls = 0;
				for (const [id, crawls] of lane.crawls) {
					const now = lane.final.get(id);
					if (crawls.length === 0 || !now) continue; // deleted since
					lastCrawls++;
					assert.ok(
						emittedPairs.has(`${id}@${String(now.crawledAt)}`),
						`keyword ${id}'s last crawl (${String(now.crawledAt)}) emitted`,
					);
				}
				assert.ok(lastCrawls > 1_000, `${lastCrawls} keywords crawled after activation`);

				// Ranks. The truth of every crawl comes from the story's crawls (the control route answers each keyword's new
				// rank and crawled_at) and, for churn's crawls, from the rank history read at the end (one entry per crawl):
				// see Lane.sequence. A churn crawl of a keyword deleted later, or one of several churn crawls between two known
				// times, may leave part of the truth unknown: that part is not judged (counted below).
				let previousGiven = 0;
				let unjudged = 0;
				let ambiguous = 0;
				for (const item of keywordItems) {
					const id = String(item.id);
					const candidates = lane.candidates(id, crawlSeconds(item));
					assert.ok(
						candidates.length > 0,
						`keyword ${id} crawled at ${String(item.crawled_at)}: a crawl made after activation`,
					);
					if (candidates.length > 1) ambiguous++;
					if (
						candidates.every(
							(c) => c.rank === undefined || (item.change !== null && c.previous === undefined),
						)
					)
						unjudged++;
					assert.ok(
						candidates.some((c) => fits(item, c)),
						`keyword ${id} crawled at ${String(item.crawled_at)}: rank ${String(item.rank)}, previous ${String(item.previous_rank)}, change ${String(item.change)}; the crawl: ${JSON.stringify(candidates)}`,
					);
					if (item.change !== null) previousGiven++;
				}
				assert.ok(
					previousGiven > keywordItems.length * 0.9,
					`previous rank given for ${previousGiven} of ${keywordItems.length}`,
				);

				console.log(
					`# ${mode.name}: ${emittedAlerts.length} alerts, ${keywordItems.length} keyword updates (previous rank given for ${previousGiven}; ` +
						`${unjudged} not judged, ${ambiguous} with more than one possible crawl), ${executions.length} executions ` +
						`(${lane.alertExecutions.length} New Alert, ${lane.keywordExecutions.length} Keyword Updated), ${lane.polls} polls, ` +
						`${lane.n8nRequests} requests` +
						(lane.churned.entries > 0
							? `; churn acted ${lane.churned.entries} times: ${lane.churned.alerts} alerts, ${lane.churned.crawled} crawls, ${lane.churned.added} keywords added, ${lane.churned.deleted} deleted`
							: ''),
				);
			});
		}

		test('no piece of any token in any execution or in the n8n log', () => {
			const everything = [
				n8n.logs(),
				...lanes.flatMap((lane) =>
					[...lane.alertExecutions, ...lane.keywordExecutions].map((e) => JSON.stringify(e)),
				),
			];
			for (const lane of lanes) {
				for (const [at, piece] of leakPieces(lane.fake.token).entries()) {
					// The message names where the piece starts in the token, never the piece.
					for (const text of everything)
						assert.ok(
							!text.includes(piece),
							`the ${lane.mode.key} token (piece ${at}) is in an execution or the log`,
						);
				}
			}
		});
	},
);
