/**
 * The trigger on a living account, through n8n's engine (test/harness runPoll) with real HTTP to the fake: projects
 * deleted, renamed and archived while they are read, one project's list failing for a while, names that are object
 * keys, overlapping polls, lists the API orders or pages its own way, naive times, groups without an update time.
 * The fake runs on a clock of its own (its Date header follows it). Each case is one the trigger used to stall,
 * repeat or lose events on. What is checked: every event reaches the workflow exactly once and soon (within a poll or
 * two), a failure is said in n8n's log naming what fails, and no failure of one project holds back another's events.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi, type FakeBehaviour } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { BASELINE_KEY } from '../../nodes/KeywordComTrigger/state/activationBaseline';
import {
	clearCapturedLogs,
	getCapturedLogs,
	runPoll,
	type RunPollResult,
} from '../harness/index.cjs';
import { AFTER_CRAWL_MS } from './clock.cjs';

const nodeType = new KeywordComTrigger();
const KEYWORDS: INodeParameters = { event: 'keywordUpdated', output: 'raw' };
const ALERTS: INodeParameters = { event: 'newAlert', output: 'raw' };

const fakes: FakeKeywordApi[] = [];
after(async () => await Promise.all(fakes.map(async (fake) => await fake.stop())));

/**
 * One published trigger and its fake. `persistence` is how n8n keeps the node's state between polls: 'every-poll'
 * (in-memory scheduler, or durable poll cursors) or 'on-emit' (the durable scheduler without durable cursors: only a
 * poll that emits saves it; the activation's is kept).
 */
class Trigger {
	readonly fake: FakeKeywordApi;
	nodeData: IDataObject = {};
	globalData: IDataObject = {};
	readonly items: IDataObject[] = [];
	polls = 0;
	last?: RunPollResult;
	/** The fake's clock (its Date header follows it), a minute behind the real one. */
	clock = Date.now() - 60_000;

	constructor(
		behaviour: Partial<FakeBehaviour> = {},
		readonly options: {
			persistence?: 'every-poll' | 'on-emit';
			pollBudgetMs?: number;
			parameters?: INodeParameters;
		} = {},
	) {
		this.fake = new FakeKeywordApi({
			seed: 'empty',
			now: () => this.clock,
			dateFromClock: true,
			behaviour,
		});
		fakes.push(this.fake);
	}

	async start(): Promise<this> {
		await this.fake.start();
		return this;
	}

	/** The fake's clock a second on: crawls are stamped after what the last poll saw. */
	nextSecond(): void {
		this.clock += 1_000;
	}

	/** A poll after the first comes AFTER_CRAWL_MS after what came before it (./clock.ts). */
	later(): void {
		if (this.polls > 0) this.clock += AFTER_CRAWL_MS;
	}

	/** One poll; returns its items (raw records with the update's ranks). */
	async poll(workflowId?: string): Promise<IDataObject[]> {
		this.later();
		const result = await runPoll({
			nodeType,
			typeVersion: 1,
			parameters: this.options.parameters ?? KEYWORDS,
			credentials: { keywordComApi: { apiToken: this.fake.token, baseUrl: this.fake.baseUrl } },
			staticData: this.nodeData,
			globalStaticData: this.globalData,
			// n8n runs the activation poll as a test poll, with n8n-core's own budget; the scheduler's budget is for the
			// polls after it.
			pollBudgetMs: this.polls === 0 ? undefined : this.options.pollBudgetMs,
			workflowId,
		});
		assert.equal(result.error, undefined, result.error?.message);
		const items = (result.items?.[0] ?? []).map((item) => item.json);
		const keep = this.options.persistence !== 'on-emit' || this.polls === 0 || items.length > 0;
		this.nodeData = keep ? result.staticData : result.persistedStaticData;
		if (this.polls === 0 || items.length > 0) this.globalData = result.globalStaticData;
		this.items.push(...items);
		this.polls++;
		this.last = result;
		return items;
	}

	/** `<id>@<crawled_at>` of the keywords of `category` as they are now (a crawl's events). */
	crawl(category: string, keywordIds?: string[]): string[] {
		const updated = keywordIds
			? this.fake.simulateRankUpdate({ keywordIds })
			: this.fake.simulateRankUpdate({ category });
		return updated.map((k) => `${k.id}@${String((k.attributes as IDataObject).crawled_at)}`);
	}

	/** Every event emitted, as `<id>@<crawled_at>` (keywords) or the id (alerts). */
	emitted(): string[] {
		// Output Raw: a keyword's record has its crawled_at; an alert's has none.
		return this.items.map((item) => {
			const crawledAt = (item.attributes as IDataObject | undefined)?.crawled_at;
			return item.type === 'keyword' ? `${String(item.id)}@${String(crawledAt)}` : String(item.id);
		});
	}

	assertOnce(expected: string[], label: string): void {
		const got = this.emitted();
		assert.equal(new Set(got).size, got.length, `${label}: nothing twice`);
		const missing = expected.filter((event) => !got.includes(event));
		assert.deepEqual(missing.slice(0, 5), [], `${label}: ${missing.length} never emitted`);
		assert.equal(got.length, expected.length, `${label}: nothing else`);
	}
}

/** A keyword crawled twice between two polls is one event: its latest crawl. */
function latestPerKeyword(events: string[]): string[] {
	return [...new Map(events.map((event) => [event.split('@')[0], event])).values()];
}

/** The warnings n8n's log got since the last clearCapturedLogs(). */
const warnings = () =>
	getCapturedLogs()
		.filter((log) => log.level === 'warn')
		.map((log) => log.message);

describe('Keyword Updated on a living account', { concurrency: true }, () => {
	it('a project deleted between groups/active and its list: the others are emitted in that poll, it is dropped, later crawls flow', async () => {
		const t = await new Trigger().start();
		t.fake.addKeywords('Globex', 20);
		t.fake.addKeywords('Acme Store', 36);
		await t.poll();
		t.nextSecond();
		t.crawl('Globex');
		const acme = t.crawl('Acme Store');
		t.fake.afterNextAnswer({ path: '/api/v2/groups/active' }, { op: 'delete', name: 'Globex' });
		await t.poll();
		t.assertOnce(acme, 'the poll Globex vanished in');
		const later: string[] = [];
		for (let n = 0; n < 2; n++) {
			t.nextSecond();
			later.push(...t.crawl('Acme Store'));
			t.fake.clearRequests();
			await t.poll();
			assert.ok(
				!t.fake.requests.some((request) => request.path.includes('Globex')),
				'Globex is not asked for again',
			);
		}
		t.assertOnce([...acme, ...later], 'later crawls');
	});

	it("a fault confined to one project's paths: every other project's events on time, the failure in n8n's log each poll, its events once it answers again", async () => {
		const t = await new Trigger().start();
		for (const name of ['Globex', 'Acme Store', 'Initech']) t.fake.addKeywords(name, 12);
		await t.poll();
		const fault = t.fake.injectFault({
			path: /^\/api\/v2\/groups\/Globex(\[sub\].*)?\/keywords/,
			times: Infinity,
			status: 500,
		});
		const expected: string[] = [];
		const globex: string[] = [];
		for (let n = 0; n < 3; n++) {
			t.nextSecond();
			globex.push(...t.crawl('Globex'));
			const others = [...t.crawl('Acme Store'), ...t.crawl('Initech')];
			expected.push(...others);
			clearCapturedLogs();
			const items = await t.poll();
			assert.equal(items.length, others.length, `poll ${n}: the others' events, at once`);
			assert.ok(
				warnings().some((line) => /"Globex" could not be read \(HTTP 500\)/.test(line)),
				`poll ${n}: n8n's log names Globex and the status`,
			);
		}
		t.fake.removeFault(fault);
		await t.poll();
		// Crawled three times while it failed: the last crawl of each of its keywords, once.
		t.assertOnce([...expected, ...latestPerKeyword(globex)], 'after the fault cleared');
	});

	it('a project renamed between groups/active and its list, and one renamed while its read goes on over several polls: no event lost or repeated', async () => {
		const t = await new Trigger({ pageLatencyMs: 200 }, { pollBudgetMs: 1_000 }).start();
		t.fake.addKeywords('Big Co', 8_000);
		t.fake.addKeywords('Small Co', 30);
		await t.poll();
		t.nextSecond();
		const expected = [...t.crawl('Big Co'), ...t.crawl('Small Co')];
		t.fake.afterNextAnswer(
			{ path: '/api/v2/groups/active' },
			{ op: 'rename', name: 'Small Co', to: 'Small Co (EU)' },
		);
		await t.poll();
		assert.ok(t.items.length < expected.length, 'Big Co is read over several polls');
		t.fake.renameContainer('Big Co', 'Big Co Global');
		for (let n = 0; n < 40 && t.items.length < expected.length; n++) await t.poll();
		t.assertOnce(expected, 'renamed');
		await t.poll();
		assert.equal(t.items.length, expected.length, 'nothing more');
	});

	it('a project archived while its read goes on: the read is finished; restored later, its new crawls flow', async () => {
		const t = await new Trigger({ pageLatencyMs: 200 }, { pollBudgetMs: 1_000 }).start();
		t.fake.addKeywords('Seasonal', 8_000);
		await t.poll();
		t.nextSecond();
		const expected = t.crawl('Seasonal');
		await t.poll();
		assert.ok(t.items.length < expected.length, 'the read goes on over several polls');
		t.fake.archiveContainer('Seasonal');
		for (let n = 0; n < 30 && t.items.length < expected.length; n++) await t.poll();
		t.assertOnce(expected, 'archived mid-read');
		t.fake.restoreContainer('Seasonal');
		t.nextSecond();
		expected.push(...t.crawl('Seasonal'));
		for (let n = 0; n < 30 && t.items.length < expected.length; n++) await t.poll();
		t.assertOnce(expected, 'restored');
	});

	it('projects named __proto__, constructor, toString and hasOwnProperty are reported like any other', async () => {
		const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
		const t = await new Trigger().start();
		for (const name of names) t.fake.addKeywords(name, 3);
		t.fake.addKeywords('Acme', 3);
		await t.poll();
		const expected: string[] = [];
		// Each crawled in turn, then the others: each crawl once, never again when another project moves.
		for (const name of [...names, 'Acme']) {
			t.nextSecond();
			expected.push(...t.crawl(name));
			await t.poll();
		}
		t.assertOnce(expected, 'names that are object keys');
	});

	it('two Poll Times firing together (one workflow): one poll reads, the other does nothing; each event once', async () => {
		const t = await new Trigger({ pageLatencyMs: 100 }).start();
		t.fake.addKeywords('Acme', 600);
		await t.poll();
		t.nextSecond();
		const expected = t.crawl('Acme');
		const state = t.nodeData;
		t.later();
		const both = await Promise.all(
			[0, 1].map(
				async () =>
					await runPoll({
						nodeType,
						typeVersion: 1,
						parameters: KEYWORDS,
						credentials: { keywordComApi: { apiToken: t.fake.token, baseUrl: t.fake.baseUrl } },
						staticData: state,
						globalStaticData: t.globalData,
						workflowId: 'one-workflow',
					}),
			),
		);
		const emitted = both.flatMap((result) => (result.items?.[0] ?? []).map((item) => item.json));
		t.items.push(...emitted);
		assert.equal(
			both.filter((result) => result.items === null).length,
			1,
			'the second poll did nothing',
		);
		t.assertOnce(expected, 'overlapping polls');
	});

	it('a group whose keywords_last_updated_at is null, and times without an offset on an n8n host east of UTC', async () => {
		const zone = process.env.TZ;
		process.env.TZ = 'Asia/Tokyo';
		try {
			const t = await new Trigger({
				groupsLastUpdated: 'null',
				timestampOffsets: 'without-offset',
			}).start();
			t.fake.addProject('Acme');
			t.fake.addGroup('Acme', 'Blog');
			t.fake.addKeywords('Acme[sub]Blog', 8);
			t.fake.addKeywords('Acme', 5);
			await t.poll();
			t.nextSecond();
			// A crawl of the project crawls its group again: one item per keyword, its latest crawl.
			const expected = latestPerKeyword([...t.crawl('Acme[sub]Blog'), ...t.crawl('Acme')]);
			await t.poll();
			t.assertOnce(expected, 'null group time, naive times');
		} finally {
			if (zone === undefined) delete process.env.TZ;
			else process.env.TZ = zone;
		}
	});

	it('a list in keyword-text order on an API that caps pages at 100: every page is read', async () => {
		const t = await new Trigger({ keywordOrder: 'keyword-text', maxPerPage: 100 }).start();
		t.fake.addKeywords('Acme', 730);
		await t.poll();
		t.nextSecond();
		const expected = t.crawl('Acme');
		await t.poll();
		t.assertOnce(expected, 'capped pages');
	});

	it('the activation baseline is removed by the first poll that writes the node’s own state', async () => {
		const t = await new Trigger().start();
		t.fake.addKeywords('Acme', 5);
		await t.poll();
		assert.ok(
			BASELINE_KEY in t.globalData,
			'activation records "now" in the global static data too',
		);
		t.nextSecond();
		t.crawl('Acme');
		assert.equal((await t.poll()).length, 5);
		assert.ok(!(BASELINE_KEY in t.globalData), 'removed, and saved with the poll that emitted');
	});
});

describe('New Alert while its list fails', () => {
	it('failing for several polls: each poll fails visibly and keeps the cursor; every alert once when it answers again', async () => {
		const t = await new Trigger({}, { parameters: ALERTS }).start();
		t.fake.addAlerts(20);
		await t.poll();
		const expected = t.fake.addAlerts(1_200).map((alert) => String(alert.id));
		const fault = t.fake.injectFault({ path: '/api/v2/alerts', times: Infinity, status: 503 });
		for (let n = 0; n < 2; n++) {
			const failed = await runPoll({
				nodeType,
				typeVersion: 1,
				parameters: ALERTS,
				credentials: { keywordComApi: { apiToken: t.fake.token, baseUrl: t.fake.baseUrl } },
				staticData: t.nodeData,
				globalStaticData: t.globalData,
			});
			assert.ok(failed.error, 'the poll fails: n8n records a failed execution');
			assert.ok(!failed.error.message.includes(t.fake.token.slice(0, 8)));
			assert.deepEqual(failed.staticData, t.nodeData, 'the cursor stays');
		}
		t.fake.removeFault(fault);
		await t.poll();
		t.assertOnce(expected, 'after the failures');
	});
});

describe(
	'New Alert on a list whose alerts of one second come in no id order',
	{ concurrency: true },
	() => {
		it('activation on 20,000 such alerts takes a request or two, within the budget; bursts in one second later are each emitted once', async () => {
			const t = await new Trigger(
				{ alertTieOrder: 'mixed' },
				{ pollBudgetMs: 2_500, parameters: ALERTS },
			).start();
			const second = Math.floor(t.clock / 1000) - 600;
			for (let n = 0; n < 20; n++) t.fake.addAlerts(1_000, { createdAt: second - n });
			t.fake.setLatency(200);
			t.fake.clearRequests();
			const started = Date.now();
			await t.poll();
			assert.ok(t.fake.requests.length <= 2, `${t.fake.requests.length} requests at activation`);
			assert.ok(Date.now() - started < 2_500 + 400, 'within the budget');
			const expected: string[] = [];
			for (let n = 0; n < 3; n++) {
				t.nextSecond();
				expected.push(...t.fake.addAlerts(400).map((alert) => String(alert.id)));
				await t.poll();
			}
			for (let n = 0; n < 3; n++) await t.poll();
			t.assertOnce(expected, 'mixed tie order');
		});
	},
);

describe(
	'a short poll budget and n8n keeping only what a poll that emits saves',
	{ concurrency: true },
	() => {
		// A poll that reads all it needs in two rounds of requests (a first page, then the rest side by side) fits the
		// budget, with room for a busy machine.
		it('New Alert of one project behind 3,000 alerts of others (0.5 s a request, 2.5 s budget): emitted', async () => {
			const t = await new Trigger(
				{},
				{
					persistence: 'on-emit',
					pollBudgetMs: 2_500,
					parameters: { ...ALERTS, project: { __rl: true, mode: 'list', value: 'Initech' } },
				},
			).start();
			t.fake.addAlerts(50, { category: 'Acme' });
			await t.poll();
			t.fake.addAlerts(3_000, { category: 'Acme' });
			const [wanted] = t.fake.addAlerts(1, { category: 'Initech' });
			t.fake.setLatency(500);
			for (let n = 0; n < 4 && t.items.length === 0; n++) await t.poll();
			assert.deepEqual(t.emitted(), [String(wanted.id)]);
		});

		it('Keyword Updated on a 3,000-keyword project where only its last keyword was updated (0.5 s a request, 2.5 s budget): emitted', async () => {
			const t = await new Trigger({}, { persistence: 'on-emit', pollBudgetMs: 2_500 }).start();
			const ids = t.fake.addKeywords('Acme', 3_000);
			await t.poll();
			t.nextSecond();
			const expected = t.crawl('Acme', [String(ids[ids.length - 1])]);
			t.fake.setLatency(500);
			for (let n = 0; n < 4 && t.items.length === 0; n++) await t.poll();
			t.assertOnce(expected, 'the last keyword');
		});
	},
);
