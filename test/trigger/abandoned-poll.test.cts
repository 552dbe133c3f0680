/**
 * A poll that outlives n8n's timeout behind the budget it gave (`getPollBudgetMs()`): n8n may have abandoned it
 * without cancelling it,
 * and without durable cursors a late state write would land in the workflow's static data that the next emitting poll
 * saves — moving the cursor past items n8n threw away. Requests end at the budget, so only a stalled machine gets a
 * poll there; the test stalls the event loop while a page is on the wire (through n8n's engine, real HTTP to the fake).
 * Such a poll must emit nothing, keep the state exactly as it was and say so in n8n's log; the next poll then emits
 * every event once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { mayHaveBeenAbandoned, timeoutBehind } from '../../nodes/KeywordComTrigger/polling/budget';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { clearCapturedLogs, getCapturedLogs, runPoll } from '../harness/index.cjs';

const nodeType = new KeywordComTrigger();
const BUDGET_MS = 1_500;
const PAGE_LATENCY_MS = 300;
const ALERTS = 3_000;

/** Blocks the event loop for `ms` (a stalled machine: no timer fires, no answer is read). */
function stallEventLoop(ms: number): void {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		// busy
	}
}

describe('mayHaveBeenAbandoned', () => {
	it("only when n8n told a budget and the poll ran up to the timeout behind it (n8n's own margin rule)", () => {
		assert.equal(
			mayHaveBeenAbandoned(undefined, 10 * 60_000),
			false,
			'older n8n: no budget, nothing abandons',
		);
		assert.equal(timeoutBehind(2_500), 5_000);
		assert.equal(timeoutBehind(5_000), 10_000);
		assert.equal(timeoutBehind(36_000), 45_000);
		// Past the budget is not abandoned: the time between budget and timeout is the poll's to finish its work in.
		assert.equal(mayHaveBeenAbandoned(2_500, 2_501), false);
		assert.equal(mayHaveBeenAbandoned(2_500, 4_000), false);
		assert.equal(mayHaveBeenAbandoned(2_500, 4_999), true, 'too close to the 5 s timeout');
		assert.equal(mayHaveBeenAbandoned(36_000, 40_000), false);
		assert.equal(mayHaveBeenAbandoned(36_000, 44_500), true);
		assert.equal(mayHaveBeenAbandoned(Number.NaN, 99_999), false);
		assert.equal(mayHaveBeenAbandoned(0, 99_999), false);
	});
});

describe("a poll that ran up to n8n's timeout (n8n may have abandoned it)", () => {
	let fake: FakeKeywordApi;
	const parameters: INodeParameters = { event: 'newAlert' };

	before(async () => {
		fake = new FakeKeywordApi({ seed: 'empty', now: () => Date.now() - 5 * 60_000 });
		fake.addAlerts(5);
		await fake.start();
	});
	after(async () => await fake.stop());

	const poll = async (staticData: IDataObject, globalStaticData: IDataObject) =>
		await runPoll({
			nodeType,
			typeVersion: 1,
			parameters,
			credentials: { keywordComApi: { apiToken: fake.token, baseUrl: fake.baseUrl } },
			staticData,
			globalStaticData,
			pollBudgetMs: BUDGET_MS,
		});

	it('emits nothing, keeps the state as it was, logs why; the next poll emits every alert once', async () => {
		const activation = await poll({}, {});
		assert.equal(activation.error, undefined);
		assert.equal(activation.items, null);
		const state = activation.staticData;
		const globalState = activation.globalStaticData;

		fake.addAlerts(ALERTS);
		fake.setLatency(PAGE_LATENCY_MS);
		clearCapturedLogs();
		// Once a batch of pages was read (a page to find the floor, then 4 at a time) and the next is on the wire, the
		// machine stalls past the budget.
		const sent = fake.requests.length;
		const stall = setInterval(() => {
			if (fake.requests.length < sent + 6) return;
			clearInterval(stall);
			stallEventLoop(timeoutBehind(BUDGET_MS));
		}, 5);
		const started = Date.now();
		const late = await poll(structuredClone(state), structuredClone(globalState));
		clearInterval(stall);
		const took = Date.now() - started;
		assert.ok(took > timeoutBehind(BUDGET_MS), `the poll ran past n8n's timeout (${took} ms)`);
		assert.equal(late.error, undefined, late.error?.message);
		assert.equal(late.items, null, 'nothing emitted');
		assert.deepEqual(late.staticData, state, 'the state is exactly as it was');
		assert.deepEqual(late.globalStaticData, globalState);
		const warning = getCapturedLogs().find(
			(log) => log.level === 'warn' && log.message.includes('may have abandoned it'),
		);
		assert.ok(warning, 'n8n log says why the poll kept nothing');
		assert.ok(!warning.text.includes(fake.token.slice(0, 8)));

		fake.setLatency(0);
		const emitted: string[] = [];
		let data = late.staticData;
		for (let i = 0; i < 10 && emitted.length < ALERTS; i++) {
			const next = await poll(data, globalState);
			assert.equal(next.error, undefined, next.error?.message);
			for (const item of next.items?.[0] ?? []) emitted.push(String(item.json.id));
			data = next.staticData;
		}
		assert.equal(emitted.length, ALERTS);
		assert.equal(new Set(emitted).size, ALERTS, 'every alert once');
		const none = await poll(data, globalState);
		assert.equal(none.items, null, 'nothing repeated');
	});
});
