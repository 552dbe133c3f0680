/**
 * Unit tests of polling/recordOrder.ts: a list's order, read from its records.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { type Stamped } from '../../nodes/KeywordComTrigger/polling/windowCursor';
import { idSequenceOf, timeSequenceOf } from '../../nodes/KeywordComTrigger/polling/recordOrder';

const ev = (id: number | string, at: number): Stamped => ({ id: String(id), at });

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
