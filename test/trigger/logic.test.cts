/**
 * Unit tests of the trigger's pure logic: the alert cursor, the list's order, the poll budget, Keyword Updated's
 * windows, the stored state and the activation baseline, the emitted items.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { ALERT_ID_CAP, alertItem } from '../../nodes/KeywordComTrigger/newAlert/alertRecords';
import {
	DEFAULT_POLL_BUDGET_MS,
	MAX_POLL_BUDGET_MS,
	PollBudget,
	hardDeadlineMs,
	mayHaveBeenAbandoned,
	pollBudgetMs,
	timeoutBehind,
} from '../../nodes/KeywordComTrigger/shared/budget';
import {
	advance,
	compareIds,
	cursorAt,
	isCovered,
	maxFloor,
	type Stamped,
} from '../../nodes/KeywordComTrigger/shared/windowCursor';
import { type AlertCursor } from '../../nodes/KeywordComTrigger/newAlert/alertCursor';
import {
	nameKey,
	toContainers,
	type Container,
} from '../../nodes/KeywordComTrigger/keywordUpdated/containers';
import { windowEvents } from '../../nodes/KeywordComTrigger/keywordUpdated/windowEvents';
import { keywordItem } from '../../nodes/KeywordComTrigger/keywordUpdated/updateItem';
import {
	departedWindow,
	settleDeparture,
} from '../../nodes/KeywordComTrigger/keywordUpdated/departures';
import {
	rememberSeen,
	seenLastPoll,
} from '../../nodes/KeywordComTrigger/keywordUpdated/seenLastPoll';
import {
	DEPARTED_FAILURES,
	firstState,
	nextWindow,
	planKeywordPoll,
	readsInProgress,
	settleJob,
	type ContainerState,
	type KeywordState,
} from '../../nodes/KeywordComTrigger/keywordUpdated/plan';
import { SETTLE_SECONDS } from '../../nodes/KeywordComTrigger/keywordUpdated/mark';
import { idSequenceOf, timeSequenceOf } from '../../nodes/KeywordComTrigger/shared/listOrder';
import { ALL, inScope } from '../../nodes/shared/groupName';
import type { ListOrder } from '../../nodes/shared/paging';
import { parseScope } from '../../nodes/KeywordComTrigger/shared/scope';
import {
	decodeAlertCursor,
	decodeKeywordState,
	encodeAlertCursor,
	encodeKeywordState,
	readEventState,
	storedState,
} from '../../nodes/KeywordComTrigger/shared/storedState';
import {
	BASELINE_KEY,
	dropBaseline,
	findBaseline,
	putBaseline,
} from '../../nodes/KeywordComTrigger/shared/activationBaseline';
import { alertRecord, keywordRecord } from './memory-api.cjs';

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
		const stored = { t: 9, f: [8, '4'], k: ['5', '6'], i: 0, o: 'd', x: 12, n: 400, z: 200 };
		assert.deepEqual(decodeAlertCursor(stored), {
			newest: 9,
			floor: [8, '4'],
			idsAboveFloor: ['5', '6'],
			tie: 0,
			listOrder: 'descending',
			floorIndex: 12,
			listLength: 400,
			pageSize: 200,
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
		assert.ok(budget.mayStart(), '1.5 s left of 2.5 s fits another 1 s request (with its margin)');
		await budget.timed(async () => {
			now += 1_000;
		});
		assert.equal(budget.mayStart(), false, '0.5 s left does not fit a third');
		const roomy = new PollBudget(36_000, () => now);
		assert.ok(roomy.mayStart());
		assert.equal(roomy.deadline, now + 36_000, 'requests may take the whole budget');
		assert.equal(roomy.hardDeadline, now + 36_000 + 5_000 - 250, 'handing over is kept free');
	});
});

/** Containers known by name (no project_id), with their update times (null: never updated). */
const containers = (entries: Record<string, number | null>): Container[] =>
	Object.entries(entries).map(([name, updatedAt]) =>
		updatedAt === null ? { key: nameKey(name), name } : { key: nameKey(name), name, updatedAt },
	);

/** A state of containers known by name: the mark, the containers behind it, and those known (default: both). */
const stateOf = (
	mark: number,
	entries: Record<string, Omit<ContainerState, 'name'>>,
	known: string[] = Object.keys(entries),
): KeywordState => ({
	mark,
	containers: new Map(
		Object.entries(entries).map(([name, entry]) => [nameKey(name), { name, ...entry }]),
	),
	known: new Map(known.map((name) => [nameKey(name), name])),
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
		assert.equal(measured.affordable(1_000), Math.floor((36_000 - 1_000) / 40));
		now = 35_000;
		assert.equal(measured.affordable(100), 1, 'the last poll only sizes: one request still goes');
	});
});

describe('Keyword Updated: one mark, windows behind it', () => {
	it('first activation reads nothing: the mark is the newest update, held back to the API clock less its settling seconds', () => {
		const first = firstState(containers({ A: 1_000, B: 4_999, C: null }), ALL, 5_000);
		assert.equal(first.mark, 5_000 - SETTLE_SECONDS);
		assert.deepEqual(
			byName(first),
			{ B: { reportedUpTo: 4_999 } },
			'only a container updated after the mark is behind it, done up to its update',
		);
		assert.deepEqual([...first.known.values()], ['A', 'B', 'C']);
	});

	it('reads in-scope containers whose update passed the mark, each for the window (mark, new mark]', () => {
		const state = stateOf(2_000, {}, ['A', 'B', 'A[sub]G']);
		const plan = planKeywordPoll(
			state,
			containers({ A: 3_000, B: 2_000, 'A[sub]G': 3_100, Z: 3_200 }),
			parseScope('A', '', false),
			9_000,
		);
		assert.equal(plan.next.mark, 3_200, 'the newest update (the API clock is well past it)');
		assert.deepEqual(
			plan.jobs.map((job) => [job.name, job.reportedUpTo, job.read.windowEnd]),
			[['A', 2_000, 3_200]],
		);
		assert.deepEqual(byName(plan.next), {}, 'nothing behind the mark yet');
		assert.deepEqual([...plan.next.known.values()], ['A'], 'only containers in scope are known');
		assert.deepEqual(plan.departures, [], 'out of scope is not gone');
	});

	it('a container seen for the first time (new, restored, renamed into scope) starts at the mark', () => {
		const plan = planKeywordPoll(
			stateOf(2_000, {}),
			containers({ New: 2_000, Moved: 2_500 }),
			ALL,
			9_000,
		);
		assert.deepEqual(
			plan.jobs.map((job) => [job.name, job.reportedUpTo, job.read.windowEnd]),
			[['Moved', 2_000, 2_500]],
		);
	});

	it("an update in the API's last seconds is read up to the mark, and its second at the next poll", () => {
		const plan = planKeywordPoll(stateOf(1_000, {}, ['A']), containers({ A: 2_000 }), ALL, 2_001);
		assert.deepEqual(
			plan.jobs.map((job) => [job.reportedUpTo, job.read.windowEnd]),
			[[1_000, 1_999]],
		);
		settleJob(plan.next, plan.jobs[0], { kind: 'done' });
		assert.deepEqual(byName(plan.next), {}, 'read to the mark: at the mark');
		const again = planKeywordPoll(plan.next, containers({ A: 2_000 }), ALL, 2_300);
		assert.deepEqual(
			again.jobs.map((job) => [job.reportedUpTo, job.read.windowEnd]),
			[[1_999, 2_000]],
		);
	});

	it('a read in progress goes on while groups/active is asked; once done behind the mark, its next window opens', () => {
		const state = stateOf(
			5_000,
			{
				A: {
					reportedUpTo: 1_000,
					read: { windowEnd: 4_000, lastId: '77', lastIndex: 500, listLength: 900 },
				},
			},
			['A', 'B'],
		);
		const started = readsInProgress(state);
		assert.deepEqual(
			started.map((job) => [job.name, job.reportedUpTo, job.read.lastId]),
			[['A', 1_000, '77']],
		);
		const plan = planKeywordPoll(state, containers({ A: 6_000, B: 5_000 }), ALL, 9_000, started);
		assert.deepEqual(plan.jobs, [], 'A is being read already; B did not pass the mark');
		settleJob(plan.next, started[0], { kind: 'done' });
		assert.deepEqual(byName(plan.next), { A: { reportedUpTo: 4_000 } }, 'behind the mark still');
		const window = nextWindow(containers({ A: 6_000 })[0], started[0], plan.next.mark);
		assert.deepEqual(window && [window.reportedUpTo, window.read.windowEnd], [4_000, 6_000]);
	});

	it('a container gone from groups/active is looked up: archived, its window is read; deleted, it is forgotten', () => {
		const plan = planKeywordPoll(
			stateOf(5_000, {}, ['A', 'B']),
			containers({ B: 5_000 }),
			ALL,
			9_000,
		);
		assert.deepEqual(plan.departures, [{ key: 'name:A', name: 'A', reportedUpTo: 5_000 }]);
		const [departure] = plan.departures;
		// Up to its last update: nothing of it comes later (the API's clock, 9,000, is past it).
		const window = departedWindow(departure, { updatedAt: 6_000, sameContainer: true }, 9_000);
		assert.deepEqual(window && [window.reportedUpTo, window.read.windowEnd, window.departed], [
			5_000,
			6_000,
			true,
		]);
		assert.equal(
			departedWindow(departure, { updatedAt: 4_000, sameContainer: true }, 8_998),
			undefined,
		);
		assert.equal(departedWindow(departure, undefined, 8_998), undefined, 'deleted (404)');
		assert.equal(
			departedWindow(departure, { updatedAt: 6_000, sameContainer: false }, 8_998),
			undefined,
			'its name now another project’s',
		);
		// A failed lookup keeps it, parked, until DEPARTED_FAILURES polls in a row.
		settleDeparture(plan.next, departure, { status: '500' });
		assert.deepEqual(byName(plan.next).A, {
			reportedUpTo: 5_000,
			departed: true,
			failure: { status: '500', polls: 1 },
		});
	});

	it('one the kept state never knew but this process’s last poll saw is looked up when it leaves, from that state’s mark', () => {
		// n8n kept the state of a poll before P[sub]C was restored (durable scheduler, no poll emitted since); the last
		// poll saw it listed; it was crawled and archived before this one.
		const [p, c, d, e, q] = ['P', 'P[sub]C', 'P[sub]D', 'P[sub]E', 'Q'];
		const seen = new Map([p, c, d, e, q].map((name) => [nameKey(name), { name }]));
		const plan = planKeywordPoll(
			stateOf(2_000, {}, [p]),
			// D still listed; E's name now another container's; Q out of the scope.
			[...containers({ [p]: 2_000, [d]: 1_500 }), { key: 'id:99', name: e, updatedAt: 1_000 }],
			parseScope(p, '', true),
			9_000,
			[],
			seen,
		);
		assert.deepEqual(plan.departures, [{ key: nameKey(c), name: c, reportedUpTo: 2_000 }]);
		const window = departedWindow(
			plan.departures[0],
			{ updatedAt: 8_000, sameContainer: true },
			9_000,
		);
		assert.deepEqual(window && [window.reportedUpTo, window.read.windowEnd], [2_000, 8_000]);
		// Where the state is the last poll's own (in-memory scheduler, durable cursors), it adds nothing.
		const current = planKeywordPoll(
			stateOf(2_000, {}, [p, c]),
			containers({ [p]: 2_000 }),
			ALL,
			9_000,
			[],
			new Map([p, c].map((name) => [nameKey(name), { name }])),
		);
		assert.deepEqual(current.departures, [{ key: nameKey(c), name: c, reportedUpTo: 2_000 }]);
	});

	it('what the last poll saw of one that left goes on: its newer name, and its failing polls until it is given up', () => {
		// Renamed from Foo to Bar in a poll n8n did not keep, then archived: looked up as Bar.
		const renamed = planKeywordPoll(
			stateOf(2_000, {}, ['Foo']),
			[],
			ALL,
			9_000,
			[],
			new Map([[nameKey('Foo'), { name: 'Bar' }]]),
		);
		assert.deepEqual(renamed.departures, [
			{ key: nameKey('Foo'), name: 'Bar', reportedUpTo: 2_000 },
		]);

		// C left and its lookup has failed for polls the kept state does not know of: the count goes on from them.
		const failing = stateOf(2_000, {});
		const next = stateOf(2_000, {
			C: { reportedUpTo: 2_000, departed: true, failure: { status: '500', polls: 3 } },
		});
		rememberSeen('workflow:node', next);
		const seen = seenLastPoll('workflow:node');
		assert.deepEqual(seen?.get(nameKey('C')), {
			name: 'C',
			failure: { status: '500', polls: 3 },
		});
		const plan = planKeywordPoll(failing, [], ALL, 9_000, [], seen);
		assert.deepEqual(plan.departures[0].parked, { status: '500', polls: 3 });
		// Its lookup answers at last, its list fails: the window's read counts on as well.
		const window = departedWindow(
			plan.departures[0],
			{ updatedAt: 5_000, sameContainer: true },
			9_000,
		);
		assert.ok(window);
		assert.deepEqual(window.parked, { status: '500', polls: 3 });
		assert.equal(
			settleJob(plan.next, window, { kind: 'failed', status: '500', read: window.read }),
			false,
			'4 polls: kept',
		);
		assert.equal(byName(plan.next).C.failure?.polls, 4);
		const lastTry = { name: 'C', failure: { status: '500', polls: DEPARTED_FAILURES - 1 } };
		const atLast = planKeywordPoll(
			stateOf(2_000, {}),
			[],
			ALL,
			9_000,
			[],
			new Map([[nameKey('C'), lastTry]]),
		);
		assert.equal(
			settleDeparture(atLast.next, atLast.departures[0], { status: '500' }),
			true,
			`given up after ${DEPARTED_FAILURES} polls in a row`,
		);
	});

	it('a read that ends after its container left is looked up for what came after its window', () => {
		// A's list failed while its read (window to 4,000) was in progress; A was crawled at 6,000, then archived.
		const state = stateOf(5_000, {
			A: {
				reportedUpTo: 1_000,
				read: { windowEnd: 4_000, lastIndex: -1, listLength: 0 },
				failure: { status: '500', polls: 4 },
			},
		});
		const plan = planKeywordPoll(state, containers({ B: 5_000 }), ALL, 9_000);
		assert.deepEqual(
			plan.jobs.map((job) => [job.name, job.departed]),
			[['A', true]],
		);
		// Its read ends: its last update is not known (no lookup told it), so it is not forgotten yet.
		settleJob(plan.next, plan.jobs[0], { kind: 'done' });
		assert.deepEqual(byName(plan.next).A, { reportedUpTo: 4_000, departed: true });
		const after = planKeywordPoll(plan.next, containers({ B: 5_000 }), ALL, 9_300);
		assert.deepEqual(after.departures, [{ key: 'name:A', name: 'A', reportedUpTo: 4_000 }]);
		const window = departedWindow(
			after.departures[0],
			{ updatedAt: 6_000, sameContainer: true },
			9_300,
		);
		assert.deepEqual(window && [window.reportedUpTo, window.read.windowEnd], [4_000, 6_000]);
		// Read to its last update, it is forgotten.
		settleJob(after.next, window!, { kind: 'done' });
		assert.equal(byName(after.next).A, undefined);

		// A window ending past the mark moves the mark there even before the lookup: a restore after a lookup that
		// never answers (or finds the name taken) starts after what was reported.
		const ahead = stateOf(5_000, {
			A: {
				reportedUpTo: 5_000,
				read: { windowEnd: 6_000, lastIndex: -1, listLength: 0 },
				departed: true,
			},
		});
		const last = planKeywordPoll(ahead, containers({ B: 5_000 }), ALL, 9_000);
		settleJob(last.next, last.jobs[0], { kind: 'done' });
		assert.equal(last.next.mark, 6_000);
		assert.deepEqual(byName(last.next).A, { reportedUpTo: 6_000, departed: true });
	});

	it('a parked read not reached this poll keeps its failure, as it stood', () => {
		const state = stateOf(5_000, {
			A: {
				reportedUpTo: 1_000,
				read: { windowEnd: 4_000, lastIndex: -1, listLength: 0 },
				failure: { status: '503', polls: 4 },
			},
		});
		const plan = planKeywordPoll(state, containers({ A: 4_000 }), ALL, 9_000);
		assert.equal(plan.jobs[0].parked?.polls, 4);
		settleJob(plan.next, plan.jobs[0], { kind: 'untried' });
		assert.deepEqual(byName(plan.next).A.failure, { status: '503', polls: 4 });
	});

	it('window events: crawled after reportedUpTo and at or before windowEnd; a project list leaves its groups’ keywords', () => {
		const records = [10, 20, 30, null].map((crawled, n) => ({
			id: String(n),
			attributes: { crawled_at: crawled, category: 'P' },
		}));
		assert.deepEqual(
			windowEvents(records, 10, 30, 'P').map((event) => event.at),
			[20, 30],
		);
		const withGroup = [{ id: '9', attributes: { crawled_at: 20, category: 'P[sub]G' } }];
		assert.deepEqual(windowEvents(withGroup, 10, 30, 'P'), [], 'the group’s own list reports it');
		assert.equal(windowEvents(withGroup, 10, 30, 'P[sub]G').length, 1);
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
		// Containers keyed by name (an object, not the stored list) are not the stored format.
		assert.equal(decodeKeywordState({ s: 1, p: { A: { w: 1 } } }), undefined);
		assert.equal(decodeKeywordState({ t: 1, p: {} }), undefined);
		// Stored as a list, read back the same.
		const state = stateOf(
			7,
			{
				A: { reportedUpTo: 1, failure: { status: '500', polls: 2 } },
				['__proto__']: { reportedUpTo: 3, departed: true },
				// A read page by page that ended a poll searching for its anchors.
				C: {
					reportedUpTo: 2,
					read: {
						windowEnd: 9,
						lastIndex: 499,
						listLength: 900,
						idOrder: 'unordered',
						pageSize: 100,
						anchors: ['101', '102'],
						back: 245,
					},
				},
			},
			['A', '__proto__', 'B'],
		);
		state.known.set('id:1234', 'Idée');
		const stored = encodeKeywordState(state);
		assert.deepEqual(JSON.parse(JSON.stringify(stored)), {
			s: 7,
			p: [
				{ k: 'name:A', n: 'A', w: 1, f: { s: '500', n: 2 } },
				{ k: 'name:__proto__', n: '__proto__', w: 3, d: 1 },
				{
					k: 'name:C',
					n: 'C',
					w: 2,
					r: { h: 9, x: 499, n: 900, o: '?', z: 100, a: ['101', '102'], b: 245 },
				},
			],
			m: [['name:A'], ['name:__proto__'], ['name:B'], [1234, 'Idée']],
		});
		assert.deepEqual(decodeKeywordState(JSON.parse(JSON.stringify(stored))), state);
	});
});

describe('stored state and the activation baseline', () => {
	it('reads its own event and format only', () => {
		const alert = storedState('newAlert', cursorAt(5));
		assert.deepEqual(alert, { v: 1, e: 'newAlert', c: { t: 5, f: [5, null], k: [] } });
		assert.deepEqual(readEventState('newAlert', alert as never)?.state, cursorAt(5));
		assert.equal(readEventState('keywordUpdated', alert as never), undefined);
		for (const v of [0, 2, 4, '1'])
			assert.equal(
				readEventState('newAlert', { v, e: 'newAlert', c: encodeAlertCursor(cursorAt(1)) }),
				undefined,
				`format ${String(v)}`,
			);
	});

	it('list orders are one letter each in static data, ListOrder once read back', () => {
		for (const [letter, order] of [
			['a', 'ascending'],
			['d', 'descending'],
			['u', 'unordered'],
		] as const) {
			const saved = `{"v":1,"e":"newAlert","c":{"t":9,"f":[8,"4"],"k":["5"],"i":-1,"o":"${letter}","x":12,"n":400},"l":[120,30]}`;
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
			'{"v":1,"e":"keywordUpdated","c":{"s":7,"p":[{"k":"name:A","n":"A","w":1,"r":{"h":3,"x":0,"n":9,"e":"5","o":"d"}},' +
			'{"k":"name:B","n":"B","w":2,"r":{"h":3,"x":4,"n":9,"o":"?","z":100,"a":["1","2"]}},' +
			'{"k":"name:C","n":"C","w":3,"r":{"h":3,"x":0,"n":9}}],"m":[[1001,"A"],["name:B"]],"o":"o"}}';
		const back = readEventState('keywordUpdated', JSON.parse(saved) as never)!
			.state as KeywordState;
		assert.equal(back.historyOrder, 'ascending');
		assert.deepEqual(
			[...back.containers.values()].map((entry) => entry.read?.idOrder),
			['descending', 'unordered', undefined],
		);
		assert.deepEqual(
			[...back.known],
			[
				['id:1001', 'A'],
				['name:B', 'B'],
			],
		);
		assert.equal(JSON.stringify(storedState('keywordUpdated', back)), saved);
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
	it('items carry no token, whatever the Output', () => {
		const token = 'secret-token-xyz';
		const alert = {
			...alertRecord({ id: 1, at: 100 }),
			links: { self: `https://x/?api_token=${token}` },
		};
		for (const mode of ['simplified', 'raw', 'selected'] as const) {
			const fields = mode === 'selected' ? ['id', 'notes', 'previous_rank'] : [];
			assert.ok(
				!JSON.stringify(alertItem(alert, { mode, fields: fields.slice(0, 1) }, token)).includes(
					token,
				),
			);
			const keyword = keywordRecord({ id: 2, category: 'A', crawled_at: 100, history: [3, 4] });
			(keyword.attributes as Record<string, unknown>).notes = `see ${token}`;
			const item = keywordItem(keyword, { mode, fields }, token, 'descending');
			assert.ok(!JSON.stringify(item).includes(token), mode);
			if (mode !== 'simplified') assert.ok(JSON.stringify(item).includes('see '), mode);
			assert.equal(item.previous_rank, 4);
		}
	});
});
