/**
 * Unit tests of keywordUpdated/plan.ts: one mark for the whole account, the windows behind it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { nameKey, toContainers } from '../../nodes/KeywordComTrigger/polling/containers';
import { windowEvents } from '../../nodes/KeywordComTrigger/keywordUpdated/windowEvents';
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
} from '../../nodes/KeywordComTrigger/keywordUpdated/plan';
import { SETTLE_SECONDS } from '../../nodes/KeywordComTrigger/polling/triggerApi';
import { ALL } from '../../nodes/shared/groupName';
import { parseScope } from '../../nodes/KeywordComTrigger/polling/scope';
import {
	decodeKeywordState,
	encodeKeywordState,
} from '../../nodes/KeywordComTrigger/state/storedState';
import { byName, containers, stateOf } from './keyword-states.cjs';

const at = (seconds: number) => new Date(seconds * 1000).toISOString();

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
