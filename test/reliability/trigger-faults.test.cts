/**
 * Item 5 of the hardening issue: the trigger's exactly-once guarantee under faults. A seeded script runs 55 rounds;
 * each round the fake produces alerts (sometimes several in one second, sometimes more than a page, sometimes in the
 * second of the previous batch) and rank updates, then both trigger events poll with a fault injected at a random
 * request of the poll (500, 429, dropped connection, cut-off or non-JSON body, slow answer), sometimes on every retry
 * so the poll fails. Between polls the static data goes through JSON, and now and then the instance "restarts" from
 * what n8n persisted. Two fault-free polls at the end drain everything. Every alert is emitted exactly once; every
 * keyword's latest update is emitted exactly once and nothing is emitted twice or invented.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi, type FaultSpec } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll, type RunPollResult } from '../harness/index.cjs';
import { TOKEN, assertNoTokenIn } from './helpers.cjs';
import { crawlSeconds } from '../trigger/crawl-time.cjs';

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const SEED = 20260115;
const ROUNDS = 55;

const restart = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

type Event = 'newAlert' | 'keywordUpdated';

describe('trigger: exactly once under faults (seeded script)', () => {
	let api: FakeKeywordApi;
	// The fake's clock (its Date header follows it) only moves when the script says.
	let clock = Date.now() - 15 * 60_000;
	const nodeType = new KeywordComTrigger();

	before(async () => {
		api = new FakeKeywordApi({ seed: 'demo', token: TOKEN, now: () => clock, dateFromClock: true });
		await api.start();
		api.addKeywords('Paged Project', 600); // more than two pages of 250
	});
	after(async () => await api.stop());

	async function poll(event: Event, staticData: IDataObject | undefined): Promise<RunPollResult> {
		return await runPoll({
			nodeType,
			typeVersion: 1,
			parameters: { event } as INodeParameters,
			credentials: { keywordComApi: { apiToken: TOKEN, baseUrl: `${api.baseUrl}/` } },
			staticData,
		});
	}

	it(`${ROUNDS} rounds of polls with random faults, then a drain: every event once`, async () => {
		const random = prng(SEED);
		const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
		const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

		const initialAlerts = new Set(api.state.alerts.map((alert) => String(alert.id)));
		const produced = new Map<string, number[]>(); // keyword id → crawled_at of each update
		const emittedAlerts: string[] = [];
		const emittedUpdates: Array<{ id: string; crawledAt: number }> = [];
		const state: Record<Event, IDataObject> = { newAlert: {}, keywordUpdated: {} };
		const stats = { polls: 0, failedPolls: 0, faults: 0, restarts: 0, alerts: 0, updates: 0 };

		const record = (event: Event, result: RunPollResult) => {
			stats.polls++;
			assertNoTokenIn(result.items ?? [], `${event} items`);
			if (result.error) {
				stats.failedPolls++;
				assertNoTokenIn(result.error.message, `${event} error`);
				assertNoTokenIn(
					(result.error as { description?: unknown }).description,
					`${event} error description`,
				);
				assert.match(result.error.message, /HTTP|connection|answer|body/, result.error.message);
			}
			for (const item of result.items?.[0] ?? []) {
				if (event === 'newAlert') emittedAlerts.push(String(item.json.id));
				else
					emittedUpdates.push({
						id: String(item.json.id),
						crawledAt: crawlSeconds(item.json),
					});
			}
			// Sometimes n8n restarts and reads back what it persisted; otherwise the instance keeps its in-memory data.
			if (random() < 0.25) {
				stats.restarts++;
				state[event] = restart(result.persistedStaticData);
			} else state[event] = restart(result.staticData);
		};

		// Activation of both triggers, fault-free: nothing is emitted, "now" is recorded.
		for (const event of ['newAlert', 'keywordUpdated'] as const) {
			const activation = await poll(event, undefined);
			assert.equal(activation.error, undefined);
			assert.equal(activation.items, null);
			state[event] = restart(activation.staticData);
		}

		let lastStamp: number | undefined;
		const categories = ['Acme Shoes', 'Acme Shoes[sub]Blog', 'Café Zürich', 'Paged Project'];
		for (let round = 0; round < ROUNDS; round++) {
			// Time moves 0–20 s (0: a second batch in the same second as the last one).
			clock += pick([0, 1000, 1000, 3000, 20_000]);
			// The fake produces alerts…
			const alertRoll = random();
			if (alertRoll < 0.15) {
				stats.alerts += api.addAlerts(int(251, 300)).length; // more than a page
			} else if (alertRoll < 0.35 && lastStamp !== undefined && clock - lastStamp * 1000 < 5000) {
				stats.alerts += api.addAlerts(int(2, 4), { createdAt: lastStamp }).length; // same created_at as before
			} else if (alertRoll < 0.8) {
				const batch = api.addAlerts(int(1, 6)); // several sharing one created_at
				stats.alerts += batch.length;
				lastStamp = Number((batch[0].attributes as IDataObject).created_at);
			}
			// …and rank updates.
			if (random() < 0.6) {
				clock += 1000;
				const updated = api.simulateRankUpdate({
					category: pick(categories),
					changeRanks: random() < 0.8,
				});
				for (const keyword of updated) {
					const crawledAt = Number((keyword.attributes as IDataObject).crawled_at);
					produced.set(String(keyword.id), [
						...(produced.get(String(keyword.id)) ?? []),
						crawledAt,
					]);
					stats.updates++;
				}
			}
			// Both events poll; a fault is armed for a random request of one of the polls.
			const faulted: Event | undefined =
				random() < 0.7 ? pick(['newAlert', 'keywordUpdated'] as const) : undefined;
			for (const event of ['newAlert', 'keywordUpdated'] as const) {
				api.clearFaults();
				if (event === faulted) {
					const at = int(1, 3);
					let seen = 0;
					const atRequest = { test: () => ++seen >= at } as unknown as RegExp;
					const fault: Omit<FaultSpec, 'times'> = pick([
						{ kind: 'status', status: 500, retryAfter: '0' },
						{ kind: 'status', status: 503 },
						{ kind: 'status', status: 429, retryAfter: '0' },
						{ kind: 'drop' },
						{ kind: 'truncated' },
						{ kind: 'non-json' },
						{ kind: 'stall', stallMs: int(20, 300) },
					]);
					// 1 fault: retried within the poll; 3 in a row: the poll fails (the trigger tries 3 times).
					api.injectFault({ ...fault, path: atRequest, times: pick([1, 3]) });
					stats.faults++;
				}
				record(event, await poll(event, state[event]));
			}
		}

		// Drain: fault-free polls until nothing more comes (two are enough; allow a third).
		api.clearFaults();
		clock += 2000;
		for (let drain = 0; drain < 3; drain++) {
			for (const event of ['newAlert', 'keywordUpdated'] as const) {
				const result = await poll(event, state[event]);
				assert.equal(result.error, undefined, result.error?.message);
				record(event, result);
			}
		}

		// Alerts: each produced alert exactly once.
		const producedAlerts = api.state.alerts
			.map((alert) => String(alert.id))
			.filter((id) => !initialAlerts.has(id));
		const duplicates = emittedAlerts.filter((id, index) => emittedAlerts.indexOf(id) !== index);
		assert.deepEqual(duplicates, [], 'no alert is emitted twice');
		assert.deepEqual(
			[...emittedAlerts].sort(),
			[...producedAlerts].sort(),
			'every produced alert is emitted',
		);

		// Keyword updates: nothing twice, nothing invented, each keyword's latest update emitted. A keyword updated
		// twice between two successful polls is one event with its latest rank (documented coalescing).
		const seen = new Set<string>();
		for (const update of emittedUpdates) {
			const key = `${update.id}@${update.crawledAt}`;
			assert.ok(!seen.has(key), `update ${key} emitted twice`);
			seen.add(key);
			assert.ok(
				produced.get(update.id)?.includes(update.crawledAt),
				`update ${key} was never produced`,
			);
		}
		for (const [id, crawls] of produced) {
			const latest = Math.max(...crawls);
			assert.ok(
				seen.has(`${id}@${latest}`),
				`keyword ${id}: its latest update (${latest}) was emitted`,
			);
		}

		assert.ok(stats.polls >= 2 * ROUNDS, JSON.stringify(stats));
		assert.ok(stats.failedPolls >= 5, `some polls failed: ${JSON.stringify(stats)}`);
		assert.ok(stats.alerts > 0 && stats.updates > 0 && stats.restarts > 0, JSON.stringify(stats));
		console.log(
			`trigger-faults: ${JSON.stringify({ ...stats, emittedAlerts: emittedAlerts.length, emittedUpdates: emittedUpdates.length })}`,
		);
	});
});
