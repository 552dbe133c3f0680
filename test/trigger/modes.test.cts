/**
 * The trigger's exactly-once suite in every mode of the fake for what the API document leaves open (dev/fake-api,
 * "Switches"): the sort parameters honoured or ignored, alerts newest first or oldest first, alerts of one second in no
 * id order, the rank history in either order, keyword lists in another order than by id, capped page sizes, times
 * without an offset, groups without an update time, project lists holding their groups' keywords, lists changing
 * between two pages (keywords added, deleted and crawled, alerts arriving), slow pages, and all of it at once. Each mode runs the same story through n8n's engine (test/harness runPoll) with real HTTP to
 * its own fake: activation, a burst of alerts and a crawl of a 1,200-keyword project, more alerts over several
 * seconds and more crawls, keywords added and deleted, polls until nothing is left. Between polls the state goes the
 * way n8n stores it when it is restarted before every poll (only a poll that emits saves it), the harshest case.
 *
 * Checked in every mode: every alert created after activation emitted exactly once, in time order; every keyword's
 * last crawl after activation emitted exactly once, no crawl twice; each item's rank is the rank of its crawl (null
 * outside the top results) and its previous rank the one before, or null where the data cannot tell — never a wrong
 * number; no piece of the token in anything emitted.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi, type FakeBehaviour } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll } from '../harness/index.cjs';
import { leakPieces } from '../leak-pieces.cjs';
import { crawlSeconds } from './crawl-time.cjs';

const MODES: Array<{ name: string; behaviour: Partial<FakeBehaviour> }> = [
	{ name: 'sort parameters honoured (newest first)', behaviour: {} },
	{ name: 'sort parameters ignored, newest first', behaviour: { alertOrder: 'newest-first' } },
	{ name: 'sort parameters ignored, oldest first', behaviour: { alertOrder: 'oldest-first' } },
	{ name: 'rank history oldest first', behaviour: { historyOrder: 'oldest-first' } },
	{
		name: 'lists change between pages',
		behaviour: { churn: { addKeywords: 3, deleteKeywords: 2, crawlKeywords: 5, addAlerts: 7 } },
	},
	{ name: 'slow pages (300 ms)', behaviour: { pageLatencyMs: 300 } },
	{
		name: 'keyword lists in keyword-text order (not by id), pages capped at 100',
		behaviour: { keywordOrder: 'keyword-text', maxPerPage: 100 },
	},
	{ name: 'keyword lists ordered by id descending', behaviour: { keywordOrder: 'id-descending' } },
	{ name: 'keyword lists ordered by rank', behaviour: { keywordOrder: 'rank' } },
	{ name: 'alerts of one second in mixed id order', behaviour: { alertTieOrder: 'mixed' } },
	{
		name: 'times without an offset, groups without keywords_last_updated_at',
		behaviour: { timestampOffsets: 'without-offset', groupsLastUpdated: 'null' },
	},
	{
		name: "a project's list holds its groups' keywords",
		behaviour: { projectListIncludesGroups: true },
	},
	{
		name: 'all at once: oldest first, history oldest first, lists changing, slow pages',
		behaviour: {
			alertOrder: 'oldest-first',
			historyOrder: 'oldest-first',
			churn: { addKeywords: 2, deleteKeywords: 1, crawlKeywords: 4, addAlerts: 5 },
			pageLatencyMs: 150,
		},
	},
	{
		name: 'all the open list behaviours at once: mixed ties oldest first, pages capped at 120, lists changing, naive times, groups without stamps, project lists with their groups',
		behaviour: {
			alertOrder: 'oldest-first',
			alertTieOrder: 'mixed',
			maxPerPage: 120,
			churn: { addKeywords: 2, deleteKeywords: 1, crawlKeywords: 4, addAlerts: 5 },
			timestampOffsets: 'without-offset',
			groupsLastUpdated: 'null',
			projectListIncludesGroups: true,
		},
	},
];

const BULK = 'Bulk Project';
const nodeType = new KeywordComTrigger();
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** What a keyword's crawl showed: its rank then and the rank of the crawl before (0 = outside the top results). */
interface CrawlTruth {
	rank: number;
	previous: number | undefined;
}

class Story {
	readonly fake: FakeKeywordApi;
	private nodeData: Record<'newAlert' | 'keywordUpdated', IDataObject> = {
		newAlert: {},
		keywordUpdated: {},
	};
	private globalData: IDataObject = {};
	readonly alertItems: IDataObject[] = [];
	/** Each New Alert poll: the second it started and how many alert items there were after it. */
	readonly alertPolls: Array<{ startedAt: number; itemsAfter: number }> = [];
	readonly keywordItems: IDataObject[] = [];
	/** `<id>@<crawled_at>` → the ranks of that crawl, for every crawl the fake made (churn ones included). */
	readonly crawls = new Map<string, CrawlTruth>();
	activatedAt = 0;
	polls = 0;

	constructor(readonly behaviour: Partial<FakeBehaviour>) {
		// The fake's clock is the real one, as its Date header is: a project updated this very second is held back
		// by the trigger exactly as against the real API.
		this.fake = new FakeKeywordApi({
			seed: 'demo',
			token: `kwc-modes-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
		});
		this.fake.addKeywords(BULK, 1_200);
	}

	/** Records the ranks of every keyword as they are now (call after each crawl). */
	snapshot(): void {
		for (const k of this.fake.state.keywords.values()) {
			if (k.crawledAt === null || k.history.length === 0) continue;
			this.crawls.set(`${k.id}@${k.crawledAt}`, {
				rank: k.history[0],
				previous: k.history.length > 1 ? k.history[1] : undefined,
			});
		}
	}

	async poll(event: 'newAlert' | 'keywordUpdated'): Promise<IDataObject[]> {
		const startedAt = Math.floor(Date.now() / 1000);
		const result = await runPoll({
			nodeType,
			typeVersion: 1,
			parameters: { event } as INodeParameters,
			credentials: { keywordComApi: { apiToken: this.fake.token, baseUrl: this.fake.baseUrl } },
			staticData: this.nodeData[event],
			globalStaticData: this.globalData,
		});
		assert.equal(result.error, undefined, result.error?.message);
		const items = (result.items?.[0] ?? []).map((item) => item.json);
		const activation = Object.keys(this.nodeData[event]).length === 0;
		// Restarted before every poll: only what a poll that emits saves is there next time (the activation's too).
		this.nodeData[event] = activation ? result.staticData : result.persistedStaticData;
		if (activation || items.length > 0) this.globalData = result.globalStaticData;
		(event === 'newAlert' ? this.alertItems : this.keywordItems).push(...items);
		if (event === 'newAlert')
			this.alertPolls.push({ startedAt, itemsAfter: this.alertItems.length });
		this.polls++;
		// Churn crawled keywords during the poll: their ranks are known now.
		this.snapshot();
		return items;
	}

	async pollBoth(): Promise<number> {
		const [alerts, keywords] = [await this.poll('newAlert'), await this.poll('keywordUpdated')];
		return alerts.length + keywords.length;
	}

	/**
	 * Polls until two rounds in a row emit nothing. The seconds the API's clock does not show settled yet (the last
	 * two) are read by a poll once they are: the quiet round waits for that.
	 */
	async drain(maxRounds = 40): Promise<void> {
		let quiet = 0;
		for (let round = 0; quiet < 2; round++) {
			assert.ok(round < maxRounds, `not drained after ${maxRounds} rounds`);
			quiet = (await this.pollBoth()) === 0 ? quiet + 1 : 0;
			if (quiet === 1) await sleep(2_100);
		}
	}

	crawl(options: { category?: string; keywordIds?: string[] }): void {
		// Churn may have deleted some of the keywords meanwhile.
		const keywordIds = options.keywordIds?.filter((id) => this.fake.state.keywords.has(Number(id)));
		this.fake.simulateRankUpdate(keywordIds ? { keywordIds } : options);
		this.snapshot();
	}
}

const stories: Story[] = [];
after(async () => await Promise.all(stories.map(async (story) => await story.fake.stop())));

describe(
	'Keyword.com Trigger: exactly once in every mode of the fake API',
	{ timeout: 10 * 60_000, concurrency: true },
	() => {
		for (const mode of MODES) {
			it(mode.name, async () => {
				const story = new Story(mode.behaviour);
				stories.push(story);
				await story.fake.start();
				story.snapshot();
				// Activation: "now" is recorded, nothing emitted. The switches are on from the start.
				story.fake.setBehaviour(mode.behaviour);
				// Alerts that churn adds after the activation poll's page are new: they count from here.
				const firstAlert = story.fake.state.alerts.length;
				assert.equal(await story.pollBoth(), 0, 'activation emits nothing');
				story.activatedAt = Math.floor(Date.now() / 1000);
				await sleep(1_100);

				// A burst of 600 alerts in one second and a crawl of the 1,200-keyword project and of a small one.
				story.fake.addAlerts(600);
				story.crawl({ category: BULK });
				story.crawl({ category: 'Café Zürich' });
				await story.pollBoth();
				await sleep(1_100);
				// Alerts over several seconds, keywords added and deleted, another crawl of part of the project.
				for (let second = 0; second < 3; second++) {
					story.fake.addAlerts(90);
					await sleep(400);
				}
				const bulkIds = story.fake.state.getContainer(BULK).keywordIds.map(String);
				story.fake.addKeywords(BULK, 40);
				story.fake.state.deleteKeywords(bulkIds.slice(10, 20).map(Number));
				story.crawl({ keywordIds: bulkIds.slice(100, 400) });
				story.crawl({ category: 'Acme Shoes' });
				await story.pollBoth();
				await sleep(1_100);
				story.crawl({ keywordIds: bulkIds.slice(200, 250) }); // crawled again: one more item each
				story.fake.addAlerts(30);
				await story.pollBoth();
				// No more changes: read to the end.
				story.fake.setBehaviour({ churn: null });
				await story.drain();

				// Alerts: every alert created after activation, once, in time order.
				const expectedAlerts = story.fake.state.alerts.slice(firstAlert);
				const emittedAlerts = story.alertItems.map((item) => String(item.id));
				assert.equal(new Set(emittedAlerts).size, emittedAlerts.length, 'no alert twice');
				assert.deepEqual(
					[...emittedAlerts].sort(),
					expectedAlerts.map((alert) => String(alert.id)).sort(),
					`every alert once (${expectedAlerts.length} created after activation)`,
				);
				// In time order within each poll. A later poll may emit an alert older than one an earlier poll emitted
				// only when it appeared while that earlier poll read (churn adds alerts behind the read): its second is
				// then not before that poll started. Each poll's start is taken before it runs, so this cannot race.
				const time = (item: IDataObject) => Date.parse(String(item.created_at));
				let from = 0;
				const polls = story.alertPolls.map(({ startedAt, itemsAfter }) => {
					const items = story.alertItems.slice(from, itemsAfter);
					from = itemsAfter;
					return { startedAt, times: items.map(time) };
				});
				for (const [k, poll] of polls.entries()) {
					for (let n = 1; n < poll.times.length; n++)
						assert.ok(
							poll.times[n - 1] <= poll.times[n],
							`poll ${k}: alerts emitted in time order`,
						);
					if (poll.times.length === 0) continue;
					const oldest = poll.times[0];
					for (const [j, earlier] of polls.slice(0, k).entries())
						if (earlier.times.some((t) => t > oldest))
							assert.ok(
								oldest >= earlier.startedAt,
								`poll ${k} emits an alert of ${oldest}, older than one poll ${j} emitted: it must have appeared while poll ${j} read (from ${earlier.startedAt})`,
							);
				}

				// Keywords: no crawl twice; each keyword's last crawl after activation exactly once; ranks of that crawl.
				const pairs = story.keywordItems.map((item) => `${String(item.id)}@${crawlSeconds(item)}`);
				assert.equal(new Set(pairs).size, pairs.length, 'no crawl emitted twice');
				const emittedPairs = new Set(pairs);
				let lastCrawls = 0;
				for (const k of story.fake.state.keywords.values()) {
					if (k.crawledAt === null || k.crawledAt <= story.activatedAt) continue;
					lastCrawls++;
					assert.ok(
						emittedPairs.has(`${k.id}@${k.crawledAt}`),
						`keyword ${k.id}'s last crawl (${k.crawledAt}) emitted`,
					);
				}
				assert.ok(lastCrawls > 1_000, `${lastCrawls} keywords crawled after activation`);
				let previousKnown = 0;
				for (const item of story.keywordItems) {
					const truth = story.crawls.get(`${String(item.id)}@${crawlSeconds(item)}`);
					assert.ok(truth, `the fake made crawl ${String(item.id)}@${crawlSeconds(item)}`);
					assert.equal(
						item.rank,
						truth.rank === 0 ? null : truth.rank,
						`rank of ${String(item.id)}`,
					);
					if (item.previous_rank !== null || item.change !== null) {
						assert.notEqual(
							truth.previous,
							undefined,
							`no previous rank of ${String(item.id)} exists`,
						);
						const previous = truth.previous as number;
						assert.equal(
							item.previous_rank,
							previous === 0 ? null : previous,
							`previous rank of ${String(item.id)}`,
						);
						assert.equal(
							item.change,
							(previous === 0 ? 101 : previous) - (truth.rank === 0 ? 101 : truth.rank),
							`change of ${String(item.id)}`,
						);
						previousKnown++;
					}
				}
				assert.ok(
					previousKnown > story.keywordItems.length * 0.9,
					`previous rank known for ${previousKnown} of ${story.keywordItems.length}`,
				);

				const emitted = JSON.stringify([story.alertItems, story.keywordItems]);
				for (const piece of leakPieces(story.fake.token))
					assert.ok(!emitted.includes(piece), 'no piece of the token emitted');
				console.log(
					`# ${mode.name}: ${emittedAlerts.length} alerts, ${story.keywordItems.length} keyword updates in ${story.polls} polls, ${story.fake.requests.length} requests, ${story.fake.churnLog.length} churns`,
				);
			});
		}
	},
);
