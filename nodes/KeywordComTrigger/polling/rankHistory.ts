/**
 * Keyword Updated: the new rank, the rank of the update before, and the change. Pure.
 *
 * The document says `grank` is the current rank (null outside the top results) and `grank_int` is 0 outside the top
 * results; `grankhistory` is "rank history" in an order it does not give. The rules:
 * - **rank**: null when `grank_int` is 0 or `grank` is null; else `grank` (or `grank_int` when only it is there).
 *   Never taken from the history.
 * - **History order**: the newest end of the history is the current rank. A keyword whose two ends differ and only one
 *   equals its current rank shows which end is the newest; that holds for every keyword of the account, so one such
 *   keyword tells the order for all (it is remembered between polls). Keywords that contradict each other mean the
 *   history is not what these rules expect: then no previous rank is given at all. As a ListOrder in time:
 *   descending = newest first; unordered = keywords contradict each other.
 * - **previous_rank**: the entry next to the newest one, when the order is known and the newest entry really is the
 *   current rank; when both orders give the same entry, that entry. Otherwise null: never a guess.
 * - **change**: previous − new, "outside the top results" counting as 101 (positive = moved up); null without a
 *   previous rank.
 * - **rank_changed**: true/false when the change is known; for a first rank (no history before it) true when the
 *   keyword has a rank; null when the history cannot tell.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../../shared/paging';
import { currentRank, currentRankValue, OUTSIDE, rankValue } from '../../shared/ranks';
import type { RankMove } from '../filters/subjects';
import { tagsOf } from '../filters/tags';

export interface RankChange {
	/** Current rank, null outside the top results. */
	rank: number | null;
	/** Rank of the update before, null outside the top results, without an update before, or when unknown. */
	previous_rank: number | null;
	/** previous − current (outside the top results counting as 101): positive = moved up. Null when unknown. */
	change: number | null;
	/** Null when the history cannot tell. */
	rank_changed: boolean | null;
}

function historyOf(attributes: IDataObject): unknown[] {
	return Array.isArray(attributes.grankhistory) ? (attributes.grankhistory as unknown[]) : [];
}

/**
 * What one keyword says about the history order: the order, when exactly one end of its history is its current rank
 * (and the ends differ); undefined when it cannot tell.
 */
export function historyOrderEvidence(attributes: IDataObject): ListOrder | undefined {
	const history = historyOf(attributes);
	const current = currentRankValue(attributes);
	if (history.length < 2 || current === undefined) return undefined;
	const first = rankValue(history[0]);
	const last = rankValue(history[history.length - 1]);
	if (first === current && last !== current) return 'descending';
	if (last === current && first !== current) return 'ascending';
	return undefined;
}

/**
 * What the history order is, from what was known before and the keywords read now: `undefined` = not known yet,
 * 'unordered' = keywords disagree (no previous rank is given for them).
 */
export function learnHistoryOrder(
	known: ListOrder | undefined,
	records: Iterable<IDataObject>,
): ListOrder | undefined {
	let order = known;
	for (const attributes of records) {
		const evidence = historyOrderEvidence(attributes);
		if (evidence === undefined) continue;
		if (order === undefined) order = evidence;
		else if (order !== evidence) return 'unordered';
	}
	return order;
}

function movement(rank: number | null, current: number, previous: number | undefined): RankChange {
	if (previous === undefined)
		return { rank, previous_rank: null, change: null, rank_changed: null };
	const change = previous - current;
	return {
		rank,
		previous_rank: previous === OUTSIDE ? null : previous,
		change,
		rank_changed: change !== 0,
	};
}

/** Rank, previous rank and change of one keyword, given the history order (undefined or 'unordered' = unknown). */
export function rankChange(attributes: IDataObject, order: ListOrder | undefined): RankChange {
	const current = currentRankValue(attributes);
	const rank = currentRank(attributes);
	const history = historyOf(attributes);
	if (current === undefined) return { rank, previous_rank: null, change: null, rank_changed: null };
	if (history.length < 2) {
		// A first rank (or no history at all): a change when the keyword has a rank.
		return {
			rank,
			previous_rank: null,
			change: null,
			rank_changed: history.length <= 1 ? rank !== null : null,
		};
	}
	if (order === 'unordered') return movement(rank, current, undefined);
	const last = history.length - 1;
	const newestFirst = rankValue(history[0]) === current ? rankValue(history[1]) : undefined;
	const oldestFirst =
		rankValue(history[last]) === current ? rankValue(history[last - 1]) : undefined;
	if (order === 'descending') return movement(rank, current, newestFirst);
	if (order === 'ascending') return movement(rank, current, oldestFirst);
	// Order not known yet: only an entry both orders agree on is certain.
	return movement(
		rank,
		current,
		newestFirst !== undefined && newestFirst === oldestFirst ? newestFirst : undefined,
	);
}

/** A keyword update's move as the filters see it (its ranks as worked out above, its tags from the record). */
export function keywordMove(
	attributes: IDataObject,
	order: ListOrder | undefined,
	rankingUrlChanged?: boolean | 'unknown',
): RankMove {
	const movement = rankChange(attributes, order);
	return {
		rank: movement.rank,
		previousRank: movement.previous_rank,
		previousKnown: movement.change !== null,
		rankingUrlChanged,
		tags: tagsOf(attributes),
	};
}
