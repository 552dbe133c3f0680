/**
 * Keyword Updated, filter Ranking URL Changed: each keyword's ranking URL at its last update, as the trigger read it.
 * Pure.
 *
 * A keyword record carries its current `rankingurl` only; the URL before an update is the one the keyword had at its
 * update before, which the trigger read then (a URL only changes with an update). So the trigger remembers, per
 * keyword id, a short hash of the ranking URL of every update it reads in scope while the filter is on: about 20
 * bytes a keyword in its stored state (state.ts), at most MAX_REMEMBERED keywords (the longest unseen are forgotten
 * first). A keyword's first update after the filter was turned on cannot tell (it does not pass).
 */
import type { IDataObject } from 'n8n-workflow';

/** Keyword id → hash of its ranking URL at its last update read. Oldest first (insertion order). */
export type RankingUrlMemory = Map<string, string>;

export const MAX_REMEMBERED = 50_000;

/** `NOT FOUND` (the API's "no ranking URL") and a missing URL are one value. */
const NONE = '-';

/** A short hash (FNV-1a, 32 bits, base 36) of a ranking URL; collisions only hide a change one time in four billion. */
export function rankingUrlHash(url: unknown): string {
	if (typeof url !== 'string' || url.trim() === '' || url.trim() === 'NOT FOUND') return NONE;
	let hash = 0x811c9dc5;
	for (const char of url.trim()) {
		hash ^= char.codePointAt(0) ?? 0;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(36);
}

/** Whether the keyword's ranking URL changed since its update before; undefined when it was not seen then. */
export function rankingUrlChanged(
	memory: RankingUrlMemory,
	id: string,
	url: unknown,
): boolean | undefined {
	const before = memory.get(id);
	return before === undefined ? undefined : before !== rankingUrlHash(url);
}

/** Remembers the URL of this update (the keyword becomes the most recently seen). */
export function rememberRankingUrl(memory: RankingUrlMemory, id: string, url: unknown): void {
	memory.delete(id);
	memory.set(id, rankingUrlHash(url));
	if (memory.size > MAX_REMEMBERED) {
		const oldest = memory.keys().next().value;
		if (oldest !== undefined) memory.delete(oldest);
	}
}

/** The ranking URL of a keyword record (`attributes.rankingurl`). */
export function rankingUrlOf(record: IDataObject): unknown {
	return ((record.attributes ?? {}) as IDataObject).rankingurl;
}
