/**
 * Unit tests of polling/windowCursor.ts: the cursor of a list read by time (New Alert's), its order, floors and
 * advance.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ALERT_ID_CAP } from '../../nodes/KeywordComTrigger/newAlert/alertRecords';
import {
	advance,
	compareIds,
	cursorAt,
	isCovered,
	maxFloor,
	type Stamped,
} from '../../nodes/KeywordComTrigger/polling/windowCursor';
import {
	decodeAlertCursor,
	encodeAlertCursor,
} from '../../nodes/KeywordComTrigger/state/storedState';

const opts = { lookback: 600, cap: 200, covers: 'all' as const };
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
