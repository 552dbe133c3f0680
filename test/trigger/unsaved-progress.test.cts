/**
 * Under n8n's durable scheduler without durable poll cursors, n8n keeps a poll's state only when it emits. The trigger
 * remembers, in its process, what a poll that emitted nothing would have kept (state/unsavedProgress.ts), and a poll
 * of the same workflow that starts from the same stored state goes on from there. Through n8n's engine with real HTTP
 * to the fake: polls after an update the filters leave out cost 1 request again, and a read longer than a poll that
 * finds nothing goes on to its end; a restart (another process: another workflow object id here) reads it all again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import {
	recordPoll,
	startingPoint,
	unsavedProgress,
} from '../../nodes/KeywordComTrigger/state/unsavedProgress';
import { runPoll } from '../harness/index.cjs';

describe('unsaved progress (pure)', () => {
	const start = startingPoint({ event: 'newAlert' }, { v: 1 }, {}, 'n');

	it('goes on only from the stored state the remembered poll started from', () => {
		recordPoll('w:n', start, false, { v: 1, c: 'next' });
		assert.deepEqual(unsavedProgress('w:n', start), { v: 1, c: 'next' });
		assert.equal(
			unsavedProgress('w:n', startingPoint({ event: 'newAlert' }, { v: 5 }, {}, 'n')),
			undefined,
		);
		// Edited parameters, a new activation baseline of this node, another node: no match.
		assert.equal(
			unsavedProgress('w:n', startingPoint({ event: 'x' }, { v: 1 }, {}, 'n')),
			undefined,
		);
		const baseline = { keywordComTrigger: { n: { v: 1, s: {} } } };
		assert.equal(
			unsavedProgress('w:n', startingPoint({ event: 'newAlert' }, { v: 1 }, baseline, 'n')),
			undefined,
		);
		assert.equal(unsavedProgress('w:other', start), undefined);
	});

	it('what other nodes write in the global static data does not void it', () => {
		recordPoll('w:n', start, false, { v: 1, c: 'next' });
		// A Code node's counter, another trigger's activation baseline.
		const written = { runs: 12, keywordComTrigger: { other: { v: 1, s: {} } } };
		assert.deepEqual(
			unsavedProgress('w:n', startingPoint({ event: 'newAlert' }, { v: 1 }, written, 'n')),
			{ v: 1, c: 'next' },
		);
	});

	it('forgets it once a poll of the node emits', () => {
		recordPoll('w:n', start, false, { v: 1, c: 'next' });
		recordPoll('w:n', start, true, { v: 1, c: 'emitted' });
		assert.equal(unsavedProgress('w:n', start), undefined);
	});
});

describe('unsaved progress through n8n, the durable scheduler without durable cursors', () => {
	let clock = Date.now() - 60 * 60_000;
	let api: FakeKeywordApi;
	const trigger = new KeywordComTrigger();

	before(async () => {
		api = new FakeKeywordApi({ seed: 'empty', now: () => clock, dateFromClock: true });
		await api.start();
	});
	after(async () => await api.stop());

	/**
	 * A workflow under the durable scheduler: n8n saves its static data only with a poll that emits; an activation
	 * poll that emits nothing has its node data dropped and the workflow's global static data (the activation
	 * baseline) saved. `polls = 0`: the next poll is an activation poll (a first one, or after a deactivation).
	 */
	class Workflow {
		nodeData: IDataObject = {};
		globalData: IDataObject = {};
		polls = 0;
		constructor(
			public id: string,
			readonly parameters: IDataObject,
		) {}

		/** One poll a minute later: what it emitted and how many requests it sent. */
		async poll(): Promise<{ items: IDataObject[]; requests: number }> {
			clock += 60_000;
			const before = api.requests.length;
			const result = await runPoll({
				nodeType: trigger,
				typeVersion: 1,
				parameters: this.parameters as INodeParameters,
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
				staticData: this.nodeData,
				globalStaticData: this.globalData,
				workflowId: this.id,
				activation: this.polls === 0 ? 'activate' : 'init',
			});
			assert.equal(result.error, undefined, result.error?.message);
			const items = (result.items?.[0] ?? []).map((item) => item.json);
			if (items.length > 0) this.nodeData = result.staticData;
			if (this.polls === 0 || items.length > 0) this.globalData = result.globalStaticData;
			this.polls++;
			return { items, requests: api.requests.length - before };
		}
	}

	it('polls after an update the filters leave out cost 1 request again; a restart reads it again', async () => {
		api.addKeywords('Tagged', 300);
		api.addKeywords('Untagged', 600);
		for (const keyword of api.state.keywordsOf(api.state.getContainer('Tagged')))
			api.state.setKeywordTags(keyword, ['Watch']);
		const workflow = new Workflow('unsaved-tags', {
			event: 'keywordUpdated',
			filters: { tags: ['Watch'] },
		});
		assert.deepEqual((await workflow.poll()).items, [], 'activation');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Tagged' });
		const first = await workflow.poll();
		assert.equal(first.items.length, 300, 'the tagged update is emitted (and its state saved)');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Untagged' });
		const dropped = await workflow.poll();
		assert.deepEqual(dropped.items, [], 'the untagged update passes no filter');
		assert.ok(dropped.requests > 1, `${dropped.requests} requests: the list was read`);
		for (let n = 0; n < 3; n++)
			assert.deepEqual(await workflow.poll(), { items: [], requests: 1 }, `idle poll ${n + 1}`);
		// Another n8n process (a restart) has no memory of it: it reads the update again, from the stored state.
		workflow.id = 'unsaved-tags-restarted';
		const restarted = await workflow.poll();
		assert.deepEqual(restarted.items, []);
		assert.ok(restarted.requests > 1, `${restarted.requests} requests after a restart`);
		assert.deepEqual(await workflow.poll(), { items: [], requests: 1 });
	});

	it('another node writing the global static data between polls: still 1 request a poll', async () => {
		api.addKeywords('Written', 200);
		api.addKeywords('Skipped', 400);
		for (const keyword of api.state.keywordsOf(api.state.getContainer('Written')))
			api.state.setKeywordTags(keyword, ['Watch']);
		const workflow = new Workflow('unsaved-written', {
			event: 'keywordUpdated',
			filters: { tags: ['Watch'] },
		});
		assert.deepEqual((await workflow.poll()).items, [], 'activation');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Written' });
		assert.equal((await workflow.poll()).items.length, 200, 'the tagged update is emitted');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Skipped' });
		assert.ok((await workflow.poll()).requests > 1, 'the untagged update is read once');
		for (let n = 0; n < 3; n++) {
			// A Code node run by another trigger of the workflow counts its runs there; n8n saves it.
			workflow.globalData = { ...workflow.globalData, runs: n + 1 };
			assert.deepEqual(
				await workflow.poll(),
				{ items: [], requests: 1 },
				`idle poll ${n + 1} after a write`,
			);
		}
	});

	it('a first activation tried again places "now" afresh, whatever the failed try left', async () => {
		api.addKeywords('Retried', 50);
		const workflow = new Workflow('unsaved-retried', {
			event: 'keywordUpdated',
			project: { __rl: true, mode: 'name', value: 'Retried' },
		});
		// The first try's poll placed "now"; the activation failed elsewhere (another trigger), so n8n kept nothing.
		assert.deepEqual((await workflow.poll()).items, []);
		Object.assign(workflow, { nodeData: {}, globalData: {}, polls: 0 });
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Retried' });
		assert.deepEqual((await workflow.poll()).items, [], 'the crawl came before this activation');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Retried' });
		const second = new Date(Math.floor(clock / 1_000) * 1_000).toISOString();
		const items = (await workflow.poll()).items;
		assert.equal(items.length, 50, 'the crawl after it, from the baseline this activation left');
		assert.deepEqual(new Set(items.map((item) => item.crawled_at)), new Set([second]));
	});

	it('deactivated before its first emit and activated again: it goes on from its activation', async () => {
		api.addKeywords('Paused', 40);
		const workflow = new Workflow('unsaved-paused', {
			event: 'keywordUpdated',
			project: { __rl: true, mode: 'name', value: 'Paused' },
		});
		assert.deepEqual((await workflow.poll()).items, [], 'activation: "now" placed');
		assert.deepEqual((await workflow.poll()).items, [], 'nothing crawled yet');
		// Deactivated, then activated again: an activation poll that finds nothing keeps only the global data.
		workflow.polls = 0;
		assert.deepEqual((await workflow.poll()).items, [], 'the activation poll after the pause');
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Paused' });
		assert.equal((await workflow.poll()).items.length, 40, 'the crawl after it is emitted');
		// Deactivated again; a crawl while inactive is emitted by the activation poll, once.
		clock += 5_000;
		api.simulateRankUpdate({ category: 'Paused' });
		workflow.polls = 0;
		assert.equal((await workflow.poll()).items.length, 40, 'the crawl while inactive');
		assert.deepEqual(await workflow.poll(), { items: [], requests: 1 }, 'and not again');
	});

	it('a read longer than a poll that finds nothing goes on to its end', async () => {
		// 70,000 keywords: 280 pages of 250, more than the 240 requests a poll may send.
		const ids = api.addKeywords('Big', 70_000);
		const workflow = new Workflow('unsaved-big', {
			event: 'keywordUpdated',
			project: { __rl: true, mode: 'name', value: 'Big' },
		});
		assert.deepEqual((await workflow.poll()).items, [], 'activation');
		clock += 5_000;
		// The last keyword of the list as the trigger reads it (by id): past what one poll can read.
		const last = ids[ids.length - 1];
		api.simulateRankUpdate({ keywordIds: [last] });
		const polls: Array<{ items: IDataObject[]; requests: number }> = [];
		for (let n = 0; n < 4 && !polls.some((poll) => poll.items.length > 0); n++)
			polls.push(await workflow.poll());
		assert.deepEqual(polls[0], { items: [], requests: 240 }, 'the first poll reads in vain');
		assert.deepEqual(
			polls.at(-1)?.items.map((item) => String(item.id)),
			[last],
			`${polls.length} polls: ${JSON.stringify(polls.map((poll) => poll.requests))} requests`,
		);
		assert.equal(polls.length, 2);
	});
});
