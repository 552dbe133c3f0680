/**
 * Keyword Updated: the mark a poll moves the whole account to (plan.ts). Pure.
 */
import type { Container } from '../polling/containers';
import { SETTLE_SECONDS } from '../polling/triggerApi';

/** The newest update time of `containers` (undefined: none has one). */
export function newestUpdate(containers: readonly Container[]): number | undefined {
	let newest: number | undefined;
	for (const { updatedAt } of containers)
		if (updatedAt !== undefined && (newest === undefined || updatedAt > newest)) newest = updatedAt;
	return newest;
}

/**
 * The mark a poll moves to: the newest update `containers` show, held back to `now` (the API's clock for its update
 * times when `groups/active` answered, Unix seconds) less SETTLE_SECONDS; never back from `previous`.
 */
export function markAt(
	containers: readonly Container[],
	now: number | undefined,
	previous = Number.NEGATIVE_INFINITY,
): number {
	const newest = newestUpdate(containers);
	// Nothing updated yet anywhere: no keyword has been crawled, every update to come is after the mark.
	if (newest === undefined) return Number.isFinite(previous) ? previous : 0;
	const held = now === undefined ? newest : now - SETTLE_SECONDS;
	return Math.max(previous, Math.min(held, newest));
}
