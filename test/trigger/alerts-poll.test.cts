/**
 * New Alert, exactly once, over the in-memory API (pure poll logic, virtual time): whichever order the list is served
 * in (newest first, oldest first, neither — the document shows no sort values), with alerts arriving while a poll
 * pages through the list, bursts far larger than a poll can read in its budget, late alerts, restarts, failures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { ALERT_ID_CAP } from '../../nodes/KeywordComTrigger/newAlert/alertRecords';
import type { AlertCursor } from '../../nodes/KeywordComTrigger/newAlert/alertCursor';
import {
	decodeAlertCursor,
	encodeAlertCursor,
} from '../../nodes/KeywordComTrigger/state/storedState';
import { ALL } from '../../nodes/shared/groupName';
import { pollNewAlerts } from '../../nodes/KeywordComTrigger/newAlert/poll';
import type { PollSettings } from '../../nodes/KeywordComTrigger/polling/pollContract';
import { MemoryApi, type MemAlert } from './memory-api.cjs';

/** Output Simplified (the default). */
const SIMPLIFIED = { mode: 'simplified' as const, fields: [] };

const settings: PollSettings = {
	scope: ALL,
	output: SIMPLIFIED,
	onlyRankChanges: false,
	token: 'secret-token-xyz',
};
const ORDERS = ['newest-first', 'oldest-first', 'unordered'] as const;

/** What n8n keeps between polls: the state as JSON (a restart reads it back). */
function persist(state: AlertCursor): AlertCursor | undefined {
	return decodeAlertCursor(JSON.parse(JSON.stringify(encodeAlertCursor(state))));
}

class Run {
	readonly api = new MemoryApi();
	cursor: AlertCursor | undefined;
	emitted: string[] = [];
	polls = 0;
	private nextId = 1;
	now = 1_700_000_000;

	/**
	 * How n8n keeps the cursor between polls: 'every-poll' (durable cursors: committed after every poll; in-memory: the
	 * live object) or 'on-emit' (the durable scheduler without durable cursors: each poll starts from the cursor saved
	 * with the last poll that emitted; the activation poll's is kept).
	 */
	persistence: 'every-poll' | 'on-emit' = 'every-poll';

	constructor(order: (typeof ORDERS)[number]) {
		this.api.alertOrder = order;
	}

	add(count: number, at = this.now, category?: string): string[] {
		const added: MemAlert[] = [];
		for (let n = 0; n < count; n++) added.push({ id: this.nextId++, at, category });
		this.api.alerts.push(...added);
		return added.map((a) => String(a.id));
	}

	/** One poll with `budgetMs` of virtual time; returns the ids it emitted. Asserts it kept within its budget. */
	async poll(budgetMs = 36_000): Promise<string[]> {
		const started = this.api.clock;
		const outcome = await pollNewAlerts(this.api, this.cursor, settings, {
			budget: this.api.budget(budgetMs),
		});
		assert.ok(
			this.api.clock - started <= budgetMs,
			`poll took ${this.api.clock - started} ms of ${budgetMs}`,
		);
		const ids = outcome.items.map((item) => String(item.id));
		this.emitted.push(...ids);
		if (this.persistence === 'every-poll' || ids.length > 0 || this.polls === 0)
			this.cursor = persist(outcome.state);
		this.polls++;
		this.api.clock += 60_000; // the next poll, a minute later
		return ids;
	}

	async drain(budgetMs: number, maxPolls = 200): Promise<void> {
		for (let n = 0; n < maxPolls; n++) {
			const before = this.emitted.length;
			await this.poll(budgetMs);
			if (this.emitted.length === before && n > 0) return;
		}
		assert.fail('did not drain');
	}

	assertExactlyOnce(expected: string[]): void {
		assert.equal(new Set(this.emitted).size, this.emitted.length, 'no alert emitted twice');
		assert.deepEqual([...this.emitted].sort(), [...expected].sort(), 'every alert emitted');
	}
}

describe('New Alert: exactly once in every list order', () => {
	for (const order of ORDERS) {
		it(`${order}: first activation emits nothing, then 600 alerts of one second once, oldest first, then nothing`, async () => {
			const run = new Run(order);
			run.add(40, run.now - 100);
			assert.deepEqual(await run.poll(), []);
			const burst = run.add(600);
			const first = await run.poll();
			assert.deepEqual(first, burst, 'oldest first, each once');
			assert.deepEqual(await run.poll(), []);
			// A list whose alerts of one second come in no id order keeps every id of its newest second (a late alert of
			// that second is told by its id); otherwise at most ALERT_ID_CAP.
			const newestSecond = order === 'unordered' ? 600 : 0;
			assert.ok(run.cursor!.idsAboveFloor.length <= Math.max(ALERT_ID_CAP, newestSecond));
			assert.ok(JSON.stringify(run.cursor).length < 4_000);
		});

		it(`${order}: alerts arriving while a poll pages through the list are each emitted once`, async () => {
			const run = new Run(order);
			run.add(300, run.now - 1_000);
			await run.poll();
			const expected = run.add(1_200, run.now);
			let arriving = 0;
			run.api.beforeRequest = () => {
				if (arriving++ < 12) expected.push(...run.add(7, ++run.now));
			};
			await run.drain(36_000);
			run.api.beforeRequest = undefined;
			await run.drain(36_000);
			run.assertExactlyOnce(expected);
		});

		it(`${order}: a late alert stamped a little earlier, and alerts sharing a second across polls`, async () => {
			const run = new Run(order);
			run.add(5, run.now - 500);
			await run.poll();
			const shared = run.add(2);
			assert.deepEqual(await run.poll(), shared);
			const more = run.add(2, run.now); // the same second
			const late = run.add(1, run.now - 60); // arrives late
			assert.deepEqual(await run.poll(), [...late, ...more]);
			assert.deepEqual(await run.poll(), []);
		});
	}

	for (const order of ['newest-first', 'oldest-first'] as const) {
		for (const [budgetMs, persistence] of [
			[36_000, 'every-poll'],
			[2_500, 'every-poll'],
			[36_000, 'on-emit'],
			[2_500, 'on-emit'],
		] as const) {
			it(`${order}: a 10,000-alert burst at 1 s a page with a ${budgetMs / 1000} s budget, cursor kept ${persistence === 'on-emit' ? 'only by polls that emit' : 'after every poll'}: every poll within it, each alert once`, async () => {
				const run = new Run(order);
				run.persistence = persistence;
				run.add(1_000, run.now - 3_600);
				await run.poll(budgetMs);
				run.api.latencyMs = 1_000;
				const burst = run.add(10_000);
				await run.drain(budgetMs);
				run.assertExactlyOnce(burst);
				assert.deepEqual(run.emitted, burst, 'in order, oldest first, across polls');
				// The small budget needs several polls; each makes progress (no livelock).
				if (budgetMs < 5_000) assert.ok(run.polls > 3 && run.polls < 20, `${run.polls} polls`);
				assert.ok(JSON.stringify(run.cursor).length < 4_000);
			});
		}
	}

	it('unordered: a list that fits in the budget is read whole; one that does not is reported, loses nothing', async () => {
		const run = new Run('unordered');
		run.add(100, run.now - 500);
		await run.poll();
		run.api.latencyMs = 1_000;
		const burst = run.add(3_000);
		const short = await pollNewAlerts(run.api, run.cursor, settings, {
			budget: run.api.budget(2_500),
		});
		assert.deepEqual(short.items, []);
		assert.deepEqual(short.state.floor, run.cursor?.floor, 'the cursor stays');
		assert.match(short.problems[0]?.message ?? '', /no time order.*did not fit/);
		await run.drain(36_000);
		run.assertExactlyOnce(burst);
	});

	it('an API serving smaller pages than asked: idle polls cost 1 request at every list length (seed 26)', async () => {
		// Pages are numbered by the size served: a first request planned with the 250 asked for lands on another page.
		for (const order of ['newest-first', 'oldest-first'] as const) {
			for (const served of [200, 120]) {
				for (let total = 190; total <= 1_300; total += 37) {
					const run = new Run(order);
					run.api.maxAlertsPerPage = served;
					run.add(total, run.now - 900);
					await run.poll();
					assert.equal(run.cursor?.pageSize, served, 'the size served is kept');
					const fresh = run.add(1, ++run.now);
					await run.poll();
					for (let idle = 0; idle < 3; idle++) {
						const before = run.api.calls.length;
						assert.deepEqual(await run.poll(), []);
						const calls = run.api.calls.slice(before);
						assert.equal(
							calls.length,
							1,
							`${order}, ${served} a page, ${total} alerts: ${calls.join(' ')}`,
						);
					}
					run.assertExactlyOnce(fresh);
				}
			}
		}
	});

	it('a list that switches order between polls is followed (sort parameters ignored from one day on)', async () => {
		const run = new Run('newest-first');
		run.add(500, run.now - 900);
		await run.poll();
		const expected = run.add(300);
		run.api.alertOrder = 'oldest-first';
		await run.drain(36_000);
		expected.push(...run.add(260, ++run.now));
		run.api.alertOrder = 'newest-first';
		await run.drain(36_000);
		run.assertExactlyOnce(expected);
	});

	it('a failing page mid-read keeps what was read before it; the next poll goes on from there', async () => {
		for (const order of ['newest-first', 'oldest-first'] as const) {
			const run = new Run(order);
			run.add(50, run.now - 900);
			await run.poll();
			const burst = run.add(2_000);
			let calls = 0;
			run.api.beforeRequest = (call) => {
				if (call.startsWith('alerts') && ++calls === 3) throw new Error('HTTP 500');
			};
			const outcome = await pollNewAlerts(run.api, run.cursor, settings, {
				budget: run.api.budget(36_000),
			});
			run.api.beforeRequest = undefined;
			assert.equal(outcome.problems.length, 1, 'the failure is reported');
			assert.ok(
				outcome.items.length > 0 && outcome.items.length < 2_000,
				`${order}: progress kept (${outcome.items.length})`,
			);
			run.emitted.push(...outcome.items.map((item) => String(item.id)));
			run.cursor = persist(outcome.state);
			await run.drain(36_000);
			run.assertExactlyOnce(burst);
		}
	});

	it('a failure before anything was read fails the poll and changes nothing', async () => {
		const run = new Run('newest-first');
		run.add(10, run.now - 100);
		await run.poll();
		const before = JSON.stringify(run.cursor);
		run.add(3);
		run.api.beforeRequest = () => {
			throw new Error('HTTP 503');
		};
		await assert.rejects(
			async () =>
				await pollNewAlerts(run.api, run.cursor, settings, { budget: run.api.budget(36_000) }),
			/503/,
		);
		assert.equal(JSON.stringify(run.cursor), before);
	});

	it('alerts of one second in no id order: one that lands before where a poll already read, while a burst passes the id cap, is emitted by the next poll', async () => {
		for (const order of ['newest-first', 'oldest-first'] as const) {
			const run = new Run(order);
			run.api.alertTies = 'mixed';
			run.add(40, run.now - 100);
			await run.poll();
			run.now += 1;
			const expected = run.add(3_000);
			// While the poll reads (4 pages at a time), more alerts of the same second arrive, anywhere among its alerts,
			// then one of the next second.
			let calls = 0;
			run.api.beforeRequest = () => {
				calls++;
				if (calls >= 6 && calls <= 12) expected.push(...run.add(3));
				if (calls === 12) expected.push(...run.add(1, run.now + 1));
			};
			await run.poll();
			run.api.beforeRequest = undefined;
			await run.drain(36_000);
			run.assertExactlyOnce(expected);
		}
	});

	it('alerts of one second in no id order: a second larger than one poll can read goes on where the last poll stopped, each alert once', async () => {
		// Oldest first, the activation cannot tell the order (its alerts all of one second): page 1 shows the floor.
		for (const order of ['newest-first', 'oldest-first'] as const) {
			for (const persistence of ['every-poll', 'on-emit'] as const) {
				const run = new Run(order);
				run.persistence = persistence;
				run.api.alertTies = 'mixed';
				// The API's clock: the second is over (without it, a second's alerts may still be arriving).
				run.api.dateHeader = run.now;
				run.add(40, run.now - 100);
				await run.poll();
				run.api.latencyMs = 1_000;
				// About 3,700 alerts a poll at 1 s a page within 2.5 s: the second takes three polls.
				const burst = run.add(10_000, run.now - 10);
				await run.drain(2_500);
				run.assertExactlyOnce(burst);
				assert.ok(run.polls <= 6, `${order}, ${persistence}: ${run.polls} polls`);
				assert.equal(run.cursor?.within, undefined, 'past it');
				assert.ok(JSON.stringify(run.cursor).length < 400, JSON.stringify(run.cursor));
			}
		}
	});

	it('alerts of one second in no id order: a read that stops inside a second after new alerts of earlier ones keeps at most the id cap', async () => {
		for (const order of ['newest-first', 'oldest-first'] as const) {
			const run = new Run(order);
			run.api.alertTies = 'mixed';
			run.api.dateHeader = run.now;
			// Two seconds: the activation learns the list's order.
			run.add(20, run.now - 101);
			run.add(20, run.now - 100);
			await run.poll();
			run.api.latencyMs = 1_000;
			// About 3,700 alerts a poll: the first second whole, the read stops inside the second.
			const burst = [...run.add(2_000, run.now - 20), ...run.add(3_000, run.now - 10)];
			await run.poll(2_500);
			assert.ok(run.emitted.length > 0 && run.emitted.length < burst.length);
			assert.ok(
				(run.cursor?.idsAboveFloor.length ?? 0) <= ALERT_ID_CAP,
				`${order}: ${run.cursor?.idsAboveFloor.length} ids kept`,
			);
			await run.drain(2_500);
			run.assertExactlyOnce(burst);
		}
	});

	it('an activation whose alerts (more than a page) are all of one second in no id order: a burst after it is emitted, each once, whichever way the list runs', async () => {
		// Page 1 and the last page show one second: the order is a guess (newest first, as asked), doubted when the list
		// grows and page 1 shows nothing new.
		for (const order of ['newest-first', 'oldest-first'] as const) {
			const run = new Run(order);
			run.api.alertTies = 'mixed';
			run.api.dateHeader = run.now;
			run.add(2_000, run.now - 100);
			await run.poll();
			const before = run.api.calls.length;
			assert.deepEqual(await run.poll(), []);
			assert.equal(run.api.calls.length - before, 1, `${order}: an idle poll`);
			run.api.latencyMs = 1_000;
			const burst = run.add(10_000, run.now - 10);
			// Oldest first: one poll doubts the order, the next asks the last page (1 s a page within 2.5 s), then reads.
			for (let n = 0; n < 7; n++) await run.poll(2_500);
			run.assertExactlyOnce(burst);
		}
	});

	it('property: random arrivals, budgets, latencies, restarts and failures — every alert once, in every order', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...ORDERS),
				fc.array(
					fc.record({
						arrive: fc.integer({ min: 0, max: 900 }),
						sameSecond: fc.boolean(),
						duringPoll: fc.integer({ min: 0, max: 20 }),
						latency: fc.constantFrom(0, 200, 1_000),
						budget: fc.constantFrom(2_500, 8_000, 36_000),
						failAt: fc.integer({ min: 0, max: 6 }),
					}),
					{ minLength: 1, maxLength: 8 },
				),
				async (order, steps) => {
					const run = new Run(order);
					run.add(120, run.now - 2_000);
					await run.poll();
					const expected: string[] = [];
					for (const step of steps) {
						if (!step.sameSecond) run.now += 1;
						expected.push(...run.add(step.arrive));
						run.api.latencyMs = step.latency;
						let calls = 0;
						run.api.beforeRequest = () => {
							calls++;
							if (step.failAt > 0 && calls === step.failAt) throw new Error('HTTP 502');
							if (calls <= step.duringPoll) expected.push(...run.add(1, run.now));
						};
						try {
							await run.poll(step.budget);
						} catch {
							run.api.clock += 60_000; // a failed poll: n8n keeps the state as it was
						}
					}
					run.api.beforeRequest = undefined;
					run.api.latencyMs = 0;
					await run.drain(36_000);
					run.assertExactlyOnce(expected);
				},
			),
			{ numRuns: 60, seed: 20261124 },
		);
	});
});
