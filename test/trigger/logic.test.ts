/** Unit tests of the trigger's pure logic: the cursor, de-duplication, bounds, project selection, emitted items. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ALERT_ID_CAP, alertItem } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/logic/alerts';
import {
	advance,
	compareIds,
	cursorAt,
	isCovered,
	maxFloor,
	readCursor,
	type Stamped,
	type WindowCursor,
} from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/logic/cursor';
import {
	KEYWORD_ID_BUDGET,
	isHot,
	keywordItem,
	planKeywordPoll,
	rankChange,
	readKeywordState,
	trimToBudget,
	type KeywordState,
} from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/logic/keywords';
import { ALL, inScope, parseScope } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/logic/scope';
import { readAlertState, storedState } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/logic/state';
import { pollKeywordUpdates, pollNewAlerts, type PollSettings } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/poll';
import { MemoryApi, alertRecord, keywordRecord, type MemAlert } from './memory-api';

const opts = { lookback: 600, cap: 200, complete: true };
const ev = (id: number | string, at: number): Stamped => ({ id: String(id), at });
const settings: PollSettings = { scope: ALL, simplify: true, onlyRankChanges: false, token: 'secret-token-xyz' };

describe('cursor: ordering and floors', () => {
	it('orders ids numerically when both are digits, without precision loss', () => {
		assert.ok(compareIds('9', '10') < 0);
		assert.ok(compareIds('12345678901234567890', '12345678901234567891') < 0);
		assert.ok(compareIds('007', '7') === 0);
		assert.ok(compareIds('a', 'b') < 0);
	});
	it('a floor covers keys at or below it; [at, null] covers the whole second', () => {
		assert.equal(isCovered(ev(5, 100), [100, null]), true);
		assert.equal(isCovered(ev(5, 101), [100, null]), false);
		assert.equal(isCovered(ev(5, 100), [100, '5']), true);
		assert.equal(isCovered(ev(6, 100), [100, '5']), false);
		assert.deepEqual(maxFloor([100, '5'], [100, null]), [100, null]);
		assert.deepEqual(maxFloor([99, null], [100, '1']), [100, '1']);
	});
	it('reads back only well-formed cursors', () => {
		assert.deepEqual(readCursor({ t: 1, f: [0, null], k: ['1'] }), { t: 1, f: [0, null], k: ['1'] });
		for (const bad of [null, 'x', { t: 'a', f: [0, null], k: [] }, { t: 1, f: [0], k: [] }, { t: 1, f: [0, null], k: [1] }]) {
			assert.equal(readCursor(bad), undefined);
		}
		assert.equal(readAlertState({ v: 1, e: 'keywordUpdated', c: { t: 1, f: [0, null], k: [] } }), undefined);
		assert.deepEqual(readAlertState(storedState('newAlert', cursorAt(5)) as never), cursorAt(5));
	});
});

describe('cursor: advance', () => {
	it('first activation reports nothing and places the cursor after everything read', () => {
		const { fresh, cursor } = advance(undefined, [ev(1, 100), ev(2, 200), ev(3, 200)], opts);
		assert.deepEqual(fresh, []);
		assert.equal(cursor.t, 200);
		const next = advance(cursor, [ev(1, 100), ev(2, 200), ev(3, 200), ev(4, 200)], opts);
		assert.deepEqual(next.fresh.map((e) => e.id), ['4']);
	});
	it('first activation on an empty list: the first event ever is new', () => {
		const { cursor } = advance(undefined, [], opts);
		assert.deepEqual(advance(cursor, [ev(1, 1_700_000_000)], opts).fresh.map((e) => e.id), ['1']);
	});
	it('events sharing one timestamp are each reported once, including late ones in the same second', () => {
		let cursor: WindowCursor = advance(undefined, [ev(1, 100)], opts).cursor;
		const all = [ev(1, 100), ev(2, 100), ev(3, 100)];
		let result = advance(cursor, all, opts);
		assert.deepEqual(result.fresh.map((e) => e.id), ['2', '3']);
		cursor = result.cursor;
		result = advance(cursor, [...all, ev(4, 100)], opts);
		assert.deepEqual(result.fresh.map((e) => e.id), ['4']);
		assert.deepEqual(advance(result.cursor, [...all, ev(4, 100)], opts).fresh, []);
	});
	it('a late event stamped within the lookback is caught; one older than the lookback is not', () => {
		const { cursor } = advance(undefined, [ev(10, 10_000)], opts);
		const late = advance(cursor, [ev(10, 10_000), ev(11, 10_000 - 60)], opts);
		assert.deepEqual(late.fresh.map((e) => e.id), ['11']);
		const tooLate = advance(late.cursor, [ev(10, 10_000), ev(11, 9_940), ev(12, 10_000 - opts.lookback - 1)], opts);
		assert.deepEqual(tooLate.fresh, []);
	});
	it('emits oldest first and drops duplicates read twice (pages shifting)', () => {
		const { cursor } = advance(undefined, [ev(1, 100)], opts);
		const result = advance(cursor, [ev(4, 300), ev(3, 200), ev(3, 200), ev(2, 200)], opts);
		assert.deepEqual(result.fresh.map((e) => e.id), ['2', '3', '4']);
	});
	it('keeps at most `cap` ids: 600 events in one second, then one more', () => {
		let cursor = advance(undefined, [ev(0, 50)], opts).cursor;
		const burst = Array.from({ length: 600 }, (_, i) => ev(i + 1, 100));
		const first = advance(cursor, burst, opts);
		assert.equal(first.fresh.length, 600);
		assert.equal(first.cursor.k.length, 200);
		assert.deepEqual(first.cursor.f, [100, '400']);
		cursor = first.cursor;
		// Page 1 of a later read holds only the newest 250: still nothing new, and the floor is reached.
		const again = advance(cursor, burst.slice(-250), opts);
		assert.deepEqual(again.fresh, []);
		const more = advance(again.cursor, [...burst.slice(-250), ev(601, 100)], opts);
		assert.deepEqual(more.fresh.map((e) => e.id), ['601']);
	});
	it('an incomplete read raises the floor to the oldest event read', () => {
		const { cursor } = advance(undefined, [ev(5, 500), ev(4, 400)], { ...opts, complete: false });
		assert.deepEqual(cursor.f, [400, '4']);
		assert.deepEqual(advance(cursor, [ev(3, 400), ev(6, 500)], opts).fresh.map((e) => e.id), ['6']);
	});
});

describe('New Alert poll (in-memory API)', () => {
	it('600 new alerts in one second: each emitted exactly once, oldest first, across polls', async () => {
		const api = new MemoryApi();
		api.alerts.push({ id: 1, at: 1000 });
		const activation = await pollNewAlerts(api, undefined, settings);
		assert.deepEqual(activation.items, []);
		for (let i = 2; i <= 601; i++) api.alerts.push({ id: i, at: 2000 });
		api.calls = [];
		const poll = await pollNewAlerts(api, activation.state, settings);
		assert.equal(poll.items.length, 600);
		assert.deepEqual(poll.items.map((item) => item.id), Array.from({ length: 600 }, (_, i) => String(i + 2)));
		assert.deepEqual(api.calls, ['alerts:1', 'alerts:2', 'alerts:3']);
		api.calls = [];
		const idle = await pollNewAlerts(api, poll.state, settings);
		assert.deepEqual(idle.items, []);
		assert.deepEqual(api.calls, ['alerts:1'], 'an idle poll reads one page');
	});

	it('10,000 alerts over many polls (bursts in one second, late arrivals, restarts): all emitted once, state stays small', async () => {
		const api = new MemoryApi();
		let seed = 42;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		let now = 1_700_000_000;
		let nextId = 1;
		let polls = 0;
		const emitted = new Map<string, number>();
		let state: WindowCursor | undefined = (await pollNewAlerts(api, undefined, settings)).state;
		let maxStateSize = 0;
		while (nextId <= 10_000) {
			polls++;
			if (polls % 10 === 0) {
				// A burst: several pages of alerts sharing one second.
				const count = Math.min(10_001 - nextId, 600);
				for (let i = 0; i < count; i++) api.alerts.push({ id: nextId++, at: now });
			} else {
				const count = Math.min(10_001 - nextId, Math.floor(random() * 100));
				for (let i = 0; i < count; i++) {
					// A few arrive late, stamped up to two minutes before the newest one already seen.
					const late = random() < 0.05 ? Math.floor(random() * 120) : 0;
					api.alerts.push({ id: nextId++, at: now - late, category: random() < 0.5 ? 'Acme' : 'Other' });
				}
			}
			const outcome = await pollNewAlerts(api, state, settings);
			for (const item of outcome.items) emitted.set(String(item.id), (emitted.get(String(item.id)) ?? 0) + 1);
			state = JSON.parse(JSON.stringify(outcome.state)) as WindowCursor; // a restart between polls
			maxStateSize = Math.max(maxStateSize, JSON.stringify(storedState('newAlert', state)).length);
			now += 150 + Math.floor(random() * 150);
		}
		assert.equal(emitted.size, 10_000);
		assert.ok([...emitted.values()].every((n) => n === 1), 'no alert emitted twice');
		assert.ok(state!.k.length <= ALERT_ID_CAP);
		assert.ok(maxStateSize < 4_000, `state is ${maxStateSize} bytes`);
	});

	it('a failing page leaves the caller\'s state untouched and the next poll catches up', async () => {
		const api = new MemoryApi();
		api.alerts.push({ id: 1, at: 1000 });
		const { state } = await pollNewAlerts(api, undefined, settings);
		const before = JSON.stringify(state);
		for (let i = 2; i <= 700; i++) api.alerts.push({ id: i, at: 1000 + i });
		api.beforeRequest = (call) => {
			if (call === 'alerts:2') throw new Error('HTTP 500');
		};
		await assert.rejects(pollNewAlerts(api, state, settings), /HTTP 500/);
		assert.equal(JSON.stringify(state), before);
		api.beforeRequest = undefined;
		const retry = await pollNewAlerts(api, state, settings);
		assert.equal(retry.items.length, 699);
	});

	it('filters by project after the bookkeeping: filtered-out alerts are never reported later', async () => {
		const api = new MemoryApi();
		const scoped: PollSettings = { ...settings, scope: parseScope('Acme', '', true) };
		const { state } = await pollNewAlerts(api, undefined, scoped);
		api.alerts.push({ id: 1, at: 10, category: 'Other' }, { id: 2, at: 11, category: 'Acme[sub]Blog' }, { id: 3, at: 12, category: 'Acme' });
		const poll = await pollNewAlerts(api, state, scoped);
		assert.deepEqual(poll.items.map((i) => i.id), ['2', '3']);
		const unscoped = await pollNewAlerts(api, poll.state, settings);
		assert.deepEqual(unscoped.items, []);
	});
});

describe('scope', () => {
	it('matches projects, their groups and single groups', () => {
		const project = parseScope('Acme', '', true);
		assert.ok(inScope('Acme', project) && inScope('Acme[sub]Blog', project) && !inScope('Acme 2', project));
		assert.ok(!inScope('Acme[sub]Blog', parseScope('Acme', '', false)));
		const group = parseScope('Acme', 'Blog', true);
		assert.ok(inScope('Acme[sub]Blog', group) && !inScope('Acme', group));
		assert.throws(() => parseScope('', 'Blog', true), /Group/);
		assert.throws(() => parseScope('Acme[sub]Blog', '', true), /\[sub\]/);
	});
});

describe('Keyword Updated: planning and bounds', () => {
	const containers = [
		{ name: 'A', u: '2026-01-01T00:00:00+00:00' },
		{ name: 'B', u: '2026-01-01T00:00:10+00:00' },
		{ name: 'B[sub]G', u: null },
	];
	const later = Date.parse('2026-01-02T00:00:00Z') / 1000;

	it('first activation reads nothing unless a project was updated this very second', () => {
		const plan = planKeywordPoll(undefined, containers, ALL, later);
		assert.deepEqual(plan.reads, []);
		assert.equal(plan.next.s, Date.parse('2026-01-01T00:00:10Z') / 1000);
		const hot = planKeywordPoll(undefined, containers, ALL, Date.parse('2026-01-01T00:00:11Z') / 1000);
		assert.deepEqual(hot.reads.map((r) => r.name), ['B']);
	});
	it('reads only in-scope projects whose timestamp moved, from their own cursor', () => {
		const state = planKeywordPoll(undefined, containers, ALL, later).next;
		const moved = [{ name: 'A', u: '2026-01-01T05:00:00+00:00' }, containers[1], { name: 'B[sub]G', u: '2026-01-01T06:00:00+00:00' }];
		const plan = planKeywordPoll(state, moved, ALL, later);
		assert.deepEqual(plan.reads.map((r) => [r.name, r.cursor?.f]), [
			['A', [Date.parse('2026-01-01T00:00:00Z') / 1000, null]],
			['B[sub]G', [0, null]],
		]);
		assert.deepEqual(planKeywordPoll(state, moved, parseScope('B', '', false), later).reads, []);
		// A project that appears later reports keywords crawled after the newest stamp seen before.
		const withNew = planKeywordPoll(state, [...moved, { name: 'C', u: '2026-01-01T07:00:00+00:00' }], parseScope('C', '', true), later);
		assert.deepEqual(withNew.reads.map((r) => [r.name, r.cursor?.f]), [['C', [state.s, null]]]);
	});
	it('a hot project is read again even if its stamp has not moved', () => {
		const now = Date.parse('2026-01-01T00:00:10Z') / 1000;
		assert.ok(isHot(containers[1].u, now) && !isHot(containers[1].u, now + 3));
		const state: KeywordState = { s: now, p: { B: { u: containers[1].u, h: 1, c: cursorAt(now) } } };
		assert.deepEqual(planKeywordPoll(state, [containers[1]], ALL, now + 5).reads.map((r) => r.name), ['B']);
		const cooled = planKeywordPoll(state, [containers[1]], ALL, now + 5).next;
		assert.deepEqual(planKeywordPoll(cooled, [containers[1]], ALL, now + 6).reads, []);
	});
	it('keeps at most the id budget over all projects', () => {
		const state: KeywordState = { s: 0, p: {} };
		for (let c = 0; c < 10; c++) {
			state.p[`P${c}`] = { u: null, c: { t: 100, f: [99, null], k: Array.from({ length: 100 }, (_, i) => String(1000 - i)) } };
		}
		trimToBudget(state);
		const total = Object.values(state.p).reduce((n, e) => n + (e.c?.k.length ?? 0), 0);
		assert.ok(total <= KEYWORD_ID_BUDGET, `total ${total}`);
		for (const entry of Object.values(state.p)) {
			// Every id dropped is covered by the raised floor.
			for (let id = 901; id <= 1000; id++) {
				const seen = entry.c!.k.includes(String(id)) || isCovered({ id: String(id), at: 100 }, entry.c!.f);
				assert.ok(seen, `id ${id}`);
			}
		}
		assert.deepEqual(readKeywordState(JSON.parse(JSON.stringify(state))), state);
	});
	it('rank change: previous from grankhistory[1], outside the top 100 as null (101 in the change)', () => {
		assert.deepEqual(rankChange({ grank: 3, grankhistory: [3, 7, 9] }), { rank: 3, previous_rank: 7, change: 4, rank_changed: true });
		assert.deepEqual(rankChange({ grank: null, grankhistory: [0, 95] }), { rank: null, previous_rank: 95, change: -6, rank_changed: true });
		assert.deepEqual(rankChange({ grank: 12, grankhistory: [12, 12] }), { rank: 12, previous_rank: 12, change: 0, rank_changed: false });
		assert.deepEqual(rankChange({ grank: 12, grankhistory: [12] }), { rank: 12, previous_rank: null, change: null, rank_changed: true });
	});
	it('items carry no token, with Simplify on and off', () => {
		const token = 'secret-token-xyz';
		const keyword = keywordRecord({ id: 7, category: 'Acme[sub]Blog', crawled_at: 1_700_000_000, history: [4, 9] });
		(keyword.attributes as Record<string, unknown>).notes = `see https://x/?api_token=${token}`;
		for (const simplify of [true, false]) {
			const item = keywordItem(keyword, simplify, token);
			assert.ok(!JSON.stringify(item).includes(token));
			assert.equal(item.rank, 4);
			assert.equal(item.previous_rank, 9);
			assert.equal(item.change, 5);
		}
		const simple = keywordItem(keyword, true, token);
		assert.equal(simple.project, 'Acme');
		assert.equal(simple.group, 'Blog');
		assert.equal(simple.crawled_at_iso, '2023-11-14T22:13:20.000Z');
		const alert = alertRecord({ id: 3, at: 1_700_000_000 } as MemAlert);
		(alert.attributes as Record<string, unknown>).url = `${token}`;
		assert.ok(!JSON.stringify(alertItem(alert, true, token)).includes(token));
		assert.ok(!JSON.stringify(alertItem(alert, false, token)).includes(token));
	});
});

describe('Keyword Updated poll (in-memory API)', () => {
	function account() {
		const api = new MemoryApi();
		for (let id = 1; id <= 6; id++) api.keywords.push({ id, category: id <= 3 ? 'A' : 'B', crawled_at: 1000, history: [10, 10] });
		api.updated = { A: '1970-01-01T00:16:40+00:00', B: '1970-01-01T00:16:40+00:00' };
		return api;
	}
	it('reports each refreshed keyword once, with the latest rank, even when refreshed twice', async () => {
		const api = account();
		const { state } = await pollKeywordUpdates(api, undefined, settings);
		api.crawl([1], 2000, () => 5);
		api.crawl([1], 2001, () => 3);
		const poll = await pollKeywordUpdates(api, state, settings);
		assert.deepEqual(poll.items.map((i) => [i.id, i.rank, i.previous_rank, i.change]), [['1', 3, 5, 2]]);
		api.calls = [];
		const idle = await pollKeywordUpdates(api, poll.state, settings);
		assert.deepEqual(idle.items, []);
		assert.deepEqual(api.calls, ['groups']);
	});
	it('same second, later in the same second: the second keyword is still reported (boundary ids)', async () => {
		const api = account();
		const { state } = await pollKeywordUpdates(api, undefined, settings);
		api.crawl([1], 3000);
		api.serverTime = 3000; // the read happens within the second of the update: hot
		const first = await pollKeywordUpdates(api, state, settings);
		assert.deepEqual(first.items.map((i) => i.id), ['1']);
		api.crawl([2], 3000); // same second: keywords_last_updated_at does not move
		api.serverTime = 3010;
		const second = await pollKeywordUpdates(api, first.state, settings);
		assert.deepEqual(second.items.map((i) => i.id), ['2']);
		const third = await pollKeywordUpdates(api, second.state, settings);
		assert.deepEqual(third.items, []);
	});
	it('Only Rank Changes leaves out keywords whose rank stayed', async () => {
		const api = account();
		const { state } = await pollKeywordUpdates(api, undefined, settings);
		api.crawl([1, 2], 2000, (k) => (k.id === 1 ? 10 : 4));
		const poll = await pollKeywordUpdates(api, state, { ...settings, onlyRankChanges: true });
		assert.deepEqual(poll.items.map((i) => i.id), ['2']);
	});
});
