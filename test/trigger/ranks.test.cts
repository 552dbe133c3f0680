/**
 * Keyword Updated's rank rules (polling/rankHistory.ts): the rank outside the top results, and the previous rank for either
 * order of `grankhistory` (the document does not give it) — right, or null where the data cannot tell; never wrong.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { OUTSIDE, currentRankValue } from '../../nodes/shared/ranks';
import {
	historyOrderEvidence,
	learnHistoryOrder,
	rankChange,
} from '../../nodes/KeywordComTrigger/polling/rankHistory';
import type { ListOrder } from '../../nodes/shared/paging';

/** A keyword's attributes as the API would send them: ranks newest first in `newest`, served in `order`. */
function keyword(newest: Array<number | null>, order: ListOrder = 'descending') {
	const current = newest[0];
	return {
		grank: current === null || current === 0 ? null : current,
		grank_int: current ?? 0,
		grankhistory: order === 'descending' ? [...newest] : [...newest].reverse(),
	};
}

describe('rank: outside the top results', () => {
	it('grank_int 0 (grank null) is no rank, whatever the history says', () => {
		for (const order of ['descending', 'ascending'] as const) {
			const otr = keyword([0, 12, 15], order);
			const moved = rankChange(otr, order);
			assert.equal(moved.rank, null);
			assert.equal(moved.previous_rank, 12);
			assert.equal(moved.change, 12 - OUTSIDE, 'dropping out counts as 101');
			assert.equal(moved.rank_changed, true);
		}
		// The history's first entry is never taken for the rank (an oldest-first history starts with an old rank).
		assert.equal(
			rankChange({ grank: null, grank_int: 0, grankhistory: [7, 9, 0] }, undefined).rank,
			null,
		);
		assert.equal(currentRankValue({ grank: 5, grank_int: 0 }), OUTSIDE, 'grank_int 0 wins');
		assert.equal(currentRankValue({ grank: null }), OUTSIDE);
		assert.equal(currentRankValue({ grank_int: 8 }), 8);
		assert.equal(currentRankValue({}), undefined);
	});

	it('entering the top results from outside: previous_rank null, change from 101', () => {
		const entered = rankChange(keyword([40, 0, 0]), 'descending');
		assert.deepEqual(entered, {
			rank: 40,
			previous_rank: null,
			change: OUTSIDE - 40,
			rank_changed: true,
		});
		const stayedOut = rankChange(keyword([0, 0, 31]), 'descending');
		assert.deepEqual(stayedOut, {
			rank: null,
			previous_rank: null,
			change: 0,
			rank_changed: false,
		});
	});
});

describe('previous rank: either history order', () => {
	it('newest first and oldest first give the same previous rank', () => {
		for (const order of ['descending', 'ascending'] as const) {
			const attributes = keyword([3, 8, 10, 12], order);
			assert.equal(historyOrderEvidence(attributes), order);
			assert.deepEqual(rankChange(attributes, order), {
				rank: 3,
				previous_rank: 8,
				change: 5,
				rank_changed: true,
			});
		}
	});

	it('the order is learned from any keyword whose ends differ, and holds for all of them', () => {
		for (const order of ['descending', 'ascending'] as const) {
			const telling = keyword([3, 8, 10], order);
			const palindrome = keyword([4, 9, 4], order); // both ends are the current rank: tells nothing
			assert.equal(historyOrderEvidence(palindrome), undefined);
			const learned = learnHistoryOrder(undefined, [palindrome, telling]);
			assert.equal(learned, order);
			assert.equal(rankChange(palindrome, learned).previous_rank, 9);
		}
	});

	it('without the order, only a previous rank both orders agree on is given; otherwise null, never a guess', () => {
		assert.equal(
			rankChange(keyword([4, 9, 9, 4]), undefined).previous_rank,
			9,
			'both orders give 9',
		);
		const ambiguous = rankChange(keyword([4, 9, 6, 4]), undefined);
		assert.deepEqual(ambiguous, { rank: 4, previous_rank: null, change: null, rank_changed: null });
	});

	it('contradicting keywords (history not what the rules expect): no previous rank at all', () => {
		const a = keyword([3, 8, 10], 'descending');
		const b = keyword([3, 8, 10], 'ascending');
		assert.equal(learnHistoryOrder(undefined, [a, b]), 'unordered');
		assert.equal(learnHistoryOrder('descending', [b]), 'unordered');
		assert.equal(rankChange(a, 'unordered').previous_rank, null);
		assert.equal(rankChange(a, 'unordered').rank_changed, null);
	});

	it('a newest entry that is not the current rank gives no previous rank', () => {
		// The order says newest first, but this keyword's first entry is not its rank: its history cannot be trusted.
		assert.equal(
			rankChange({ grank: 5, grank_int: 5, grankhistory: [7, 6, 5] }, 'descending').previous_rank,
			null,
		);
	});

	it('a first rank: a change when the keyword has a rank', () => {
		assert.deepEqual(rankChange(keyword([12]), undefined), {
			rank: 12,
			previous_rank: null,
			change: null,
			rank_changed: true,
		});
		assert.deepEqual(rankChange(keyword([0]), undefined), {
			rank: null,
			previous_rank: null,
			change: null,
			rank_changed: false,
		});
		assert.deepEqual(
			rankChange({ grank: 3, grank_int: 3, grankhistory: null }, undefined).rank_changed,
			true,
		);
	});

	it('property: for any history, served either way, the previous rank is the second newest or null — never another', () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constant(null)), {
					minLength: 1,
					maxLength: 30,
				}),
				fc.constantFrom<ListOrder>('descending', 'ascending'),
				fc.boolean(),
				(newest, order, orderKnown) => {
					const attributes = keyword(newest, order);
					const learned = learnHistoryOrder(orderKnown ? order : undefined, [attributes]);
					const result = rankChange(attributes, learned);
					const expectedPrevious = newest.length > 1 ? newest[1] : undefined;
					if (result.previous_rank !== null) assert.equal(result.previous_rank, expectedPrevious);
					if (result.change !== null) {
						const value = (rank: number | null | undefined) =>
							rank === null || rank === 0 || rank === undefined ? OUTSIDE : rank;
						assert.equal(result.change, value(expectedPrevious) - value(newest[0]));
					}
					const current = newest[0];
					assert.equal(result.rank, current === null || current === 0 ? null : current);
				},
			),
			{ numRuns: 2_000 },
		);
	});
});
