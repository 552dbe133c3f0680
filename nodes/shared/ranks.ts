/**
 * What a rank is, for both nodes. The document says `grank` is the current rank (null outside the top results) and
 * `grank_int` is 0 outside the top results. Outside the top results counts as 101 in a change, as the app's trends
 * count it.
 */
import type { IDataObject } from 'n8n-workflow';

/** Outside the top results: 0 or null in the API's data; 101 in a change. */
export const OUTSIDE = 101;

/** A rank as a number for comparisons: 1…100, OUTSIDE for 0/null; undefined when the value is not a rank. */
export function rankValue(value: unknown): number | undefined {
	if (value === null || value === 0) return OUTSIDE;
	if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
	if (typeof value === 'string' && /^\d+$/.test(value)) return rankValue(Number(value));
	return undefined;
}

/** The current rank as a number (OUTSIDE outside the top results), or undefined when the record does not say. */
export function currentRankValue(attributes: IDataObject): number | undefined {
	const { grank, grank_int: grankInt } = attributes;
	if (grankInt === 0 || grankInt === '0') return OUTSIDE;
	if (grank === null) return OUTSIDE;
	const fromGrank = rankValue(grank);
	if (fromGrank !== undefined) return fromGrank;
	return grankInt === undefined ? undefined : rankValue(grankInt);
}

/** The current rank as a user reads it: null outside the top results or when the record does not say. */
export function currentRank(attributes: IDataObject): number | null {
	const value = currentRankValue(attributes);
	return value === undefined || value === OUTSIDE ? null : value;
}

/** Positions moved up (positive) or down from `previous` to `current`; null when either is not a rank. */
export function rankDifference(previous: unknown, current: unknown): number | null {
	const before = rankValue(previous);
	const after = rankValue(current);
	return before === undefined || after === undefined ? null : before - after;
}
