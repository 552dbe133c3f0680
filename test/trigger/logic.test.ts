/**
 * Unit tests of the trigger's pure logic: the alert cursor, the list's order, the poll budget, Keyword Updated's
 * windows, the stored state and the activation baseline, the emitted items.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { ALERT_ID_CAP, alertItem } from '../../nodes/KeywordComTrigger/logic/alerts';
import {
	DEFAULT_POLL_BUDGET_MS,
	MAX_POLL_BUDGET_MS,
	PollBudget,
	hardDeadlineMs,
	mayHaveBeenAbandoned,
	pollBudgetMs,
	timeoutBehind,
} from '../../nodes/KeywordComTrigger/logic/budget';
import {
	advance,
	compareIds,
	cursorAt,
	isCovered,
	maxFloor,
	type AlertCursor,
	type Stamped,
} from '../../nodes/KeywordComTrigger/logic/cursor';
import {
	nameKey,
	toContainers,
	type Container,
} from '../../nodes/KeywordComTrigger/logic/containers';
import { windowEvents } from '../../nodes/KeywordComTrigger/logic/keywordEvents';
import { keywordItem } from '../../nodes/KeywordComTrigger/logic/keywordItem';
import {
	SETTLE_SECONDS,
	planKeywordPoll,
	readsInProgress,
	settleJob,
	type ContainerState,
	type KeywordState,
} from '../../nodes/KeywordComTrigger/logic/keywords';
import { idSequenceOf, timeSequenceOf } from '../../nodes/KeywordComTrigger/logic/order';
import { ALL, inScope } from '../../nodes/shared/groupName';
import type { ListOrder } from '../../nodes/shared/paging';
import { parseScope } from '../../nodes/KeywordComTrigger/logic/scope';
import {
	BASELINE_KEY,
	decodeAlertCursor,
	decodeKeywordState,
	dropBaseline,
	encodeAlertCursor,
	encodeKeywordState,
	findBaseline,
	putBaseline,
	readEventState,
	storedState,
} from '../../nodes/KeywordComTrigger/logic/state';
import { alertRecord, keywordRecord } from './memory-api';

const opts = { lookback: 600, cap: 200, covers: 'all' as const };
const at = (seconds: number) => new Date(seconds * 1000).toISOString();
const ev = (id: number | string, at: number): Stamped => ({ id: String(id), at });

describe('cursor: ordering and floors', () => {
	it('orders ids numerically when both are digits, without precision loss', () => {
		assert.ok(compareIds('9', '10') < 0);
		assert.ok(compareIds('12345678901234567890', '12345678901234567891') < 0);
		assert.ok(compareIds('007', '7') === 0);
		assert.ok(compareIds('a', 'b') < 0);
	});
	it('a floor covers keys at or below it; [at, null] covers the whole second; the tie order counts', () => {
		assert.equal(isCovered(ev(5, 100), [100, null]), true);
		assert.equal(isCovered(ev(5, 101), [100, null]), false);
		assert.equal(isCovered(ev(5, 100), [100, '5']), true);
		assert.equal(isCovered(ev(6, 100), [100, '5']), false);
		// Ids descending within a second: 6 comes before 5.
		assert.equal(isCovered(ev(6, 100), [100, '5'], -1), true);
		assert.equal(isCovered(ev(4, 100), [100, '5'], -1), false);
		assert.deepEqual(maxFloor([100, '5'], [100, null]), [100, null]);
		assert.deepEqual(maxFloor([99, null], [100, '1']), [100, '1']);
	});
	it('reads back only well-formed cursors', () => {
		assert.deepEqual(decodeAlertCursor({ t: 1, f: [0, null], k: ['1'] }), {
			newest: 1,
			floor: [0, null],
			idsAboveFloor: ['1'],
		});
		assert.deepEqual(decodeAlertCursor({ t: 1, f: [0, null], k: [], i: -1 }), {
			newest: 1,
			floor: [0, null],
			idsAboveFloor: [],
			tie: -1,
		});
		for (const bad of [
			null,
			'x',
			{ t: 'a', f: [0, null], k: [] },
			{ t: 1, f: [0], k: [] },
			{ t: 1, f: [0, null], k: [1] },
		]) {
			assert.equal(decodeAlertCursor(bad), undefined);
		}
		// Every key, as stored since version 3, reads back and is stored again the same.
		const stored = { t: 9, f: [8, '4'], k: ['5', '6'], i: 0, o: 'd', x: 12, n: 400 };
		assert.deepEqual(decodeAlertCursor(stored), {
			newest: 9,
			floor: [8, '4'],
			idsAboveFloor: ['5', '6'],
			tie: 0,
			listOrder: 'descending',
			floorIndex: 12,
			listLength: 400,
		});
		assert.deepEqual(encodeAlertCursor(decodeAlertCursor(stored)!), stored);
	});
});

describe('cursor: advance', () => {
	it('first activation reports nothing and places the cursor after everything read', () => {
		const { fresh, cursor } = advance(undefined, [ev(1, 100), ev(2, 105)], {
			...opts,
			covers: 'newest-only',
		});
		assert.deepEqual(fresh, []);
		assert.equal(cursor.newest, 105);
		assert.equal(advance(cursor, [ev(1, 100), ev(2, 105)], opts).fresh.length, 0);
		assert.deepEqual(advance(cursor, [ev(1, 100), ev(2, 105), ev(3, 105)], opts).fresh, [
			ev(3, 105),
		]);
	});
	it('events sharing one timestamp are each reported once, including late ones in the same second', () => {
		let cursor = advance(cursorAt(90), [ev(1, 100), ev(2, 100)], opts).cursor;
		const second = advance(cursor, [ev(1, 100), ev(2, 100), ev(3, 100)], opts);
		assert.deepEqual(second.fresh, [ev(3, 100)]);
		cursor = second.cursor;
		assert.deepEqual(advance(cursor, [ev(1, 100), ev(2, 100), ev(3, 100)], opts).fresh, []);
	});
	it('a late event stamped within the look-back is caught; one older than the look-back is not', () => {
		const { cursor } = advance(cursorAt(1_000), [ev(10, 2_000)], opts);
		assert.deepEqual(advance(cursor, [ev(10, 2_000), ev(11, 1_500)], opts).fresh, [ev(11, 1_500)]);
		assert.deepEqual(advance(cursor, [ev(10, 2_000), ev(12, 1_300)], opts).fresh, []);
	});
	it('keeps at most `cap` ids: 600 events in one second, then one more', () => {
		const burst = Array.from({ length: 600 }, (_, n) => ev(n + 1, 500));
		const { fresh, cursor } = advance(cursorAt(400), burst, opts);
		assert.equal(fresh.length, 600);
		assert.equal(cursor.idsAboveFloor.length, ALERT_ID_CAP);
		assert.deepEqual(advance(cursor, [...burst, ev(601, 500)], opts).fresh, [ev(601, 500)]);
	});
	it('a read that stopped at a key: the floor never passes it, and the ids above it stay', () => {
		let cursor = advance(cursorAt(100), [ev(1, 200), ev(2, 300)], opts).cursor;
		// Next poll reads from the floor but stops at (250, '5'): alert 2 (at 300) was not reached.
		const partial = advance(cursor, [ev(1, 200), ev(5, 250)], {
			...opts,
			lookback: 0,
			covers: { at: 250, id: '5' },
		});
		assert.deepEqual(partial.fresh, [ev(5, 250)]);
		assert.ok(
			partial.cursor.idsAboveFloor.includes('2'),
			'alert 2 (above where the read stopped) stays known',
		);
		assert.ok(
			!isCovered(ev(6, 260), partial.cursor.floor),
			'nothing above the stop counts as seen',
		);
		cursor = partial.cursor;
		assert.deepEqual(advance(cursor, [ev(2, 300), ev(6, 260)], { ...opts, lookback: 0 }).fresh, [
			ev(6, 260),
		]);
	});
	it('emits oldest first and drops duplicates read twice (pages shifting)', () => {
		const { fresh } = advance(cursorAt(0), [ev(3, 10), ev(1, 5), ev(3, 10), ev(2, 5)], opts);
		assert.deepEqual(fresh, [ev(1, 5), ev(2, 5), ev(3, 10)]);
	});
});

describe('the list order, read from the records', () => {
	it('alerts: newest first, oldest first, neither; ties in either id order', () => {
		assert.equal(timeSequenceOf([ev(3, 30), ev(2, 20), ev(1, 10)]).sequence, 'descending');
		assert.equal(timeSequenceOf([ev(1, 10), ev(2, 20)]).sequence, 'ascending');
		assert.equal(timeSequenceOf([ev(1, 10), ev(3, 30), ev(2, 20)]).sequence, 'unordered');
		// created_at descending, ids ascending within a second: the tie order is learned.
		const mixed = timeSequenceOf([ev(7, 30), ev(5, 20), ev(6, 20), ev(1, 10)]);
		assert.deepEqual(mixed, { sequence: 'descending', tie: -1, tieShown: true });
		assert.equal(timeSequenceOf([ev(1, 10)]).sequence, undefined);
	});
	it('keyword ids: ascending, descending, unordered', () => {
		assert.equal(idSequenceOf(['1', '2', '10']), 'ascending');
		assert.equal(idSequenceOf(['10', '9', '1']), 'descending');
		assert.equal(idSequenceOf(['1', '10', '2']), 'unordered');
	});
});

describe('poll budget', () => {
	it("n8n's budget where n8n gives one, capped below a minute; a default where it does not", () => {
		assert.equal(pollBudgetMs(36_000), 36_000);
		assert.equal(pollBudgetMs(2_500), 2_500);
		assert.equal(
			pollBudgetMs(300_000),
			MAX_POLL_BUDGET_MS,
			"n8n's in-memory 5 minutes would overlap the next poll",
		);
		assert.equal(pollBudgetMs(undefined), DEFAULT_POLL_BUDGET_MS);
		assert.ok(DEFAULT_POLL_BUDGET_MS < 45_000 && MAX_POLL_BUDGET_MS < 60_000);
	});
	it('starts a request only when one as slow as the slowest so far still fits', async () => {
		let now = 0;
		const budget = new PollBudget(2_500, () => now);
		assert.ok(budget.mayStart(), 'the first request');
		await budget.timed(async () => {
			now += 1_000;
		});
		assert.ok(
			budget.mayStart(),
			'1.25 s left of 2.5 s (minus the reserve) fits another 1 s request',
		);
		await budget.timed(async () => {
			now += 1_000;
		});
		assert.equal(budget.mayStart(), false, '0.25 s left does not fit a third');
		const roomy = new PollBudget(36_000, () => now);
		assert.ok(roomy.mayStart());
		assert.equal(roomy.deadline, now + 36_000 - 250);
	});
});

/** Containers known by name (no project_id), with their update times (null: never updated). */
const containers = (entries: Record<string, number | null>): Container[] =>
	Object.entries(entries).map(([name, updatedAt]) =>
		updatedAt === null ? { key: nameKey(name), name } : { key: nameKey(name), name, updatedAt },
	);

/** A state of containers known by name. */
const stateOf = (
	newestUpdate: number,
	entries: Record<string, Omit<ContainerState, 'name'>>,
): KeywordState => ({
	newestUpdate,
	containers: new Map(
		Object.entries(entries).map(([name, entry]) => [nameKey(name), { name, ...entry }]),
	),
});

/** The containers of a state by name, for comparisons. */
const byName = (state: KeywordState): Record<string, Omit<ContainerState, 'name'>> =>
	Object.fromEntries([...state.containers.values()].map(({ name, ...entry }) => [name, entry]));

describe("budget: the time to shape what is in hand, n8n's timeout behind its budget", () => {
	it('the time left for requests shrinks with the items read and not yet shaped', () => {
		const now = 0;
		const budget = new PollBudget(36_000, () => now);
		const empty = budget.deadline;
		budget.itemsInHand = 30_000;
		assert.ok(
			empty - budget.deadline >= 30_000 * 0.05,
			'at least 0.05 ms an item kept for shaping',
		);
	});

	it('shaping may run past the budget up to a hard deadline well before n8n abandons the poll', () => {
		for (const fromN8n of [2_500, 5_000, 36_000]) {
			const budgetMs = pollBudgetMs(fromN8n);
			const hard = hardDeadlineMs(fromN8n, budgetMs);
			assert.ok(hard > budgetMs, `${fromN8n}: past the budget`);
			assert.ok(!mayHaveBeenAbandoned(fromN8n, hard), `${fromN8n}: not abandoned there`);
			assert.ok(hard < timeoutBehind(fromN8n), `${fromN8n}: before the timeout`);
		}
	});

	it('a poll with no request timed yet starts one with as little as 0.3 s left; what the last poll measured sizes its first batch', () => {
		let now = 0;
		const fresh = new PollBudget(550, () => now);
		assert.ok(fresh.mayStart(), 'an untimed poll tries');
		const measured = new PollBudget(36_000, () => now, undefined, {
			requestMs: 1_000,
			pageWorkMs: 40,
		});
		// Each page's own work, as the last poll measured it.
		assert.equal(measured.affordable(1_000), Math.floor((36_000 - 250 - 1_000) / 40));
		now = 35_000;
		assert.equal(measured.affordable(100), 1, 'the last poll only sizes: one request still goes');
	});
});

describe('Keyword Updated: windows', () => {
	it('first activation reads nothing: every container done up to its own last update', () => {
		const plan = planKeywordPoll(
			undefined,
			containers({ A: 1_000, B: 2_000, C: null }),
			ALL,
			5_000,
		);
		assert.deepEqual(plan.jobs, []);
		assert.equal(plan.next.newestUpdate, 2_000);
		assert.deepEqual(byName(plan.next), {
			A: { reportedUpTo: 1_000 },
			B: { reportedUpTo: 2_000 },
		});
	});

	it('reads only in-scope containers whose update moved, with the window up to that update', () => {
		const state = stateOf(2_000, {
			A: { reportedUpTo: 1_000 },
			B: { reportedUpTo: 2_000 },
			'A[sub]G': { reportedUpTo: 1_500 },
		});
		const plan = planKeywordPoll(
			state,
			containers({ A: 3_000, B: 2_000, 'A[sub]G': 3_100, Z: 3_200 }),
			parseScope('A', '', false),
			9_000,
		);
		assert.deepEqual(
			plan.jobs.map((job) => [job.name, job.reportedUpTo, job.read.windowEnd]),
			[['A', 1_000, 3_000]],
		);
		assert.deepEqual(byName(plan.next), {}, 'out-of-scope containers are not tracked');
		assert.equal(plan.next.newestUpdate, 3_200);
	});

	it('a container seen for the first time is done up to the newest update seen before', () => {
		const plan = planKeywordPoll(stateOf(2_000, {}), containers({ New: 2_500 }), ALL, 9_000);
		assert.deepEqual(
			plan.jobs.map((job) => [job.name, job.reportedUpTo, job.read.windowEnd]),
			[['New', 2_000, 2_500]],
		);
	});

	it("an update in the API's last two seconds: its second is held back once, then read", () => {
		const state = stateOf(1_000, { A: { reportedUpTo: 1_000 } });
		const serverNow = 2_000 + SETTLE_SECONDS - 1;
		const plan = planKeywordPoll(state, containers({ A: 2_000 }), ALL, serverNow);
		assert.deepEqual(
			plan.jobs.map((job) => [job.reportedUpTo, job.read.windowEnd, job.heldBackUpdate]),
			[[1_000, 1_999, 2_000]],
		);
		settleJob(plan.next, plan.jobs[0], { kind: 'done' });
		assert.deepEqual(byName(plan.next).A, { reportedUpTo: 1_999, heldBackUpdate: 2_000 });
		// Next poll: the same update, even if the API's clock still looks close: its second is read now.
		const again = planKeywordPoll(plan.next, containers({ A: 2_000 }), ALL, serverNow);
		assert.deepEqual(
			again.jobs.map((job) => [job.reportedUpTo, job.read.windowEnd]),
			[[1_999, 2_000]],
		);
	});

	it('a read in progress goes on while groups/active is asked; the plan then leaves it to the read', () => {
		const state = stateOf(5_000, {
			A: {
				reportedUpTo: 1_000,
				read: { windowEnd: 4_000, lastId: '77', lastIndex: 500, listLength: 900 },
			},
			B: { reportedUpTo: 5_000 },
		});
		const started = readsInProgress(state);
		assert.deepEqual(
			started.map((job) => [job.name, job.reportedUpTo, job.read.lastId]),
			[['A', 1_000, '77']],
		);
		const plan = planKeywordPoll(state, containers({ A: 6_000, B: 5_000 }), ALL, 9_000, started);
		assert.deepEqual(plan.jobs, [], 'A is being read already');
		assert.deepEqual(byName(plan.next), { B: { reportedUpTo: 5_000 } });
		settleJob(plan.next, started[0], { kind: 'done' });
		assert.deepEqual(byName(plan.next), {
			B: { reportedUpTo: 5_000 },
			A: { reportedUpTo: 4_000 },
		});
	});

	it('window events: crawled after reportedUpTo and at or before windowEnd', () => {
		const records = [10, 20, 30, null].map((crawled, n) => ({
			id: String(n),
			attributes: { crawled_at: crawled },
		}));
		assert.deepEqual(
			windowEvents(records, 10, 30).map((event) => event.at),
			[20, 30],
		);
	});

	it('keywords_count tells a list’s length; state read back strictly', () => {
		const [container] = toContainers({
			data: [
				{
					id: 'A',
					attributes: {
						keywords_last_updated_at: at(5),
						keywords_count: { ACTIVE: 40, PAUSED: 2 },
					},
				},
			],
		});
		assert.equal(container.count, 42);
		const read = decodeKeywordState({
			s: 1,
			p: { A: { w: 1, q: 2, r: { h: 3, x: -1, n: 0, e: '5', o: 'd' } }, B: { w: 'x' } },
		});
		assert.deepEqual(read && byName(read), {
			A: {
				reportedUpTo: 1,
				heldBackUpdate: 2,
				read: { windowEnd: 3, lastIndex: -1, listLength: 0, lastId: '5', idOrder: 'descending' },
			},
		});
		assert.equal(decodeKeywordState({ t: 1, p: {} }), undefined);
		// Stored as a list, read back the same.
		const state = stateOf(7, {
			A: { reportedUpTo: 1, failure: { status: '500', polls: 2 } },
			['__proto__']: { reportedUpTo: 3 },
		});
		const stored = encodeKeywordState(state);
		assert.deepEqual(JSON.parse(JSON.stringify(stored)), {
			s: 7,
			p: [
				{ k: 'name:A', n: 'A', w: 1, f: { s: '500', n: 2 } },
				{ k: 'name:__proto__', n: '__proto__', w: 3 },
			],
		});
		assert.deepEqual(decodeKeywordState(JSON.parse(JSON.stringify(stored))), state);
	});
});

describe('stored state and the activation baseline', () => {
	it('reads its own event only; version 1 states are carried over', () => {
		const alert = storedState('newAlert', cursorAt(5));
		assert.deepEqual(alert, { v: 3, e: 'newAlert', c: { t: 5, f: [5, null], k: [] } });
		assert.deepEqual(readEventState('newAlert', alert as never)?.state, cursorAt(5));
		assert.equal(readEventState('keywordUpdated', alert as never), undefined);
		assert.deepEqual(
			readEventState('newAlert', { v: 1, e: 'newAlert', c: encodeAlertCursor(cursorAt(7)) })?.state,
			cursorAt(7),
		);
		const v1 = {
			v: 1,
			e: 'keywordUpdated',
			c: {
				s: 900,
				p: { A: { u: at(800), c: { t: 850, f: [849, null], k: [] } }, B: { u: at(700) } },
			},
		};
		const carried = readEventState('keywordUpdated', v1)?.state as KeywordState;
		assert.equal(carried.newestUpdate, 900);
		assert.deepEqual(byName(carried), { A: { reportedUpTo: 850 }, B: { reportedUpTo: 700 } });
		assert.equal(
			readEventState('newAlert', { v: 4, e: 'newAlert', c: encodeAlertCursor(cursorAt(1)) }),
			undefined,
		);
	});

	it('list orders are one letter each in static data, ListOrder once read back', () => {
		for (const [letter, order] of [
			['a', 'ascending'],
			['d', 'descending'],
			['u', 'unordered'],
		] as const) {
			const saved = `{"v":3,"e":"newAlert","c":{"t":9,"f":[8,"4"],"k":["5"],"i":-1,"o":"${letter}","x":12,"n":400},"l":[120,30]}`;
			const found = readEventState('newAlert', JSON.parse(saved) as never)!;
			assert.equal((found.state as AlertCursor).listOrder, order);
			// Stored again byte for byte.
			assert.equal(JSON.stringify(storedState('newAlert', found.state, found.measured)), saved);
		}
		const read = (idOrder?: ListOrder) => ({ windowEnd: 3, lastIndex: 0, listLength: 9, idOrder });
		const state = stateOf(7, {
			A: { reportedUpTo: 1, read: read('descending') },
			B: { reportedUpTo: 2, read: read('unordered') },
			C: { reportedUpTo: 3, read: read('ascending') },
		});
		state.historyOrder = 'descending';
		const c = storedState('keywordUpdated', state).c as {
			o?: string;
			p: Array<{ r: IDataObject }>;
		};
		assert.equal(c.o, 'n');
		assert.deepEqual(
			c.p.map((entry) => entry.r.o),
			['d', '?', undefined],
		);
		const saved =
			'{"v":3,"e":"keywordUpdated","c":{"s":7,"p":[{"k":"name:A","n":"A","w":1,"r":{"h":3,"x":0,"n":9,"e":"5","o":"d"}},' +
			'{"k":"name:B","n":"B","w":2,"r":{"h":3,"x":4,"n":9,"o":"?","z":100,"a":["1","2"]}},' +
			'{"k":"name:C","n":"C","w":3,"r":{"h":3,"x":0,"n":9}}],"o":"o","u":[["1","h"]]}}';
		const back = readEventState('keywordUpdated', JSON.parse(saved) as never)!
			.state as KeywordState;
		assert.equal(back.historyOrder, 'ascending');
		assert.deepEqual(
			[...back.containers.values()].map((entry) => entry.read?.idOrder),
			['descending', 'unordered', undefined],
		);
		assert.equal(JSON.stringify(storedState('keywordUpdated', back)), saved);
		// Version 2 kept the projects in an object keyed by name.
		const v2 =
			'{"v":2,"e":"keywordUpdated","c":{"s":7,"o":"o","p":{"__proto__":{"w":1,"r":{"h":3,"x":0,"n":9,"o":"?"}}}}}';
		const carried = readEventState('keywordUpdated', JSON.parse(v2) as never)!
			.state as KeywordState;
		assert.equal(carried.historyOrder, 'ascending');
		assert.deepEqual(byName(carried), {
			['__proto__']: { reportedUpTo: 1, read: read('unordered') },
		});
	});

	it('a baseline is found by node and event, until the node writes its own state', () => {
		const global: Record<string, unknown> = {};
		putBaseline('newAlert', cursorAt(42), global as never, 'node-1');
		assert.equal(
			findBaseline('keywordUpdated', global as never, 'node-1'),
			undefined,
			'another event',
		);
		assert.equal(findBaseline('newAlert', global as never, 'node-2'), undefined, 'another node');
		assert.deepEqual(findBaseline('newAlert', global as never, 'node-1')?.state, cursorAt(42));
		assert.deepEqual(findBaseline('newAlert', global as never, 'node-1')?.state, cursorAt(42));
		dropBaseline(global as never, 'node-1');
		assert.equal(findBaseline('newAlert', global as never, 'node-1'), undefined, 'removed');
		assert.ok(!(BASELINE_KEY in global), 'nothing left behind');
	});
});

describe('scope and items', () => {
	it('matches projects, their groups and single groups', () => {
		assert.ok(inScope('Acme', parseScope('Acme', '', true)));
		assert.ok(inScope('Acme[sub]Blog', parseScope('Acme', '', true)));
		assert.ok(!inScope('Acme[sub]Blog', parseScope('Acme', '', false)));
		assert.ok(inScope('Acme[sub]Blog', parseScope('Acme', 'Blog', true)));
		assert.ok(!inScope('Acme2', parseScope('Acme', '', true)));
		assert.throws(() => parseScope('', 'Blog', true), /project of the group/);
	});
	it('items carry no token, with Simplify on and off', () => {
		const token = 'secret-token-xyz';
		const alert = {
			...alertRecord({ id: 1, at: 100 }),
			links: { self: `https://x/?api_token=${token}` },
		};
		for (const simplify of [true, false]) {
			assert.ok(
				!JSON.stringify(
					alertItem(alert, { version: 1, simplify, mode: 'raw', fields: [] }, token),
				).includes(token),
			);
			const keyword = keywordRecord({ id: 2, category: 'A', crawled_at: 100, history: [3, 4] });
			(keyword.attributes as Record<string, unknown>).note = `see ${token}`;
			const item = keywordItem(
				keyword,
				{ version: 1, simplify, mode: 'raw', fields: [] },
				token,
				'descending',
			);
			assert.ok(!JSON.stringify(item).includes(token));
			assert.equal(item.previous_rank, 4);
		}
	});
});
