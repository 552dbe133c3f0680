/**
 * The trigger's movement filters: which rank updates and alerts pass, and why. Pure.
 *
 * Every filter set must pass (they combine with AND); an item that passes carries the reasons (`matched`), one per
 * filter, so one trigger can feed a Switch node. Ranks compare with "outside the top results" counting as 101, as
 * `change` does. An update whose previous rank is unknown (a first rank, or a history that cannot tell) never passes
 * a movement filter, nor does one whose ranking URL before is unknown pass Ranking URL Changed; the tag filter does not
 * look at ranks.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../../shared/paging';
import { OUTSIDE } from '../../shared/ranks';
import { rankChange } from './rankHistory';

export type Direction = 'either' | 'up' | 'down';
export type Crossing = 'either' | 'entered' | 'left';

export interface MovementFilters {
	/** Moved by at least this many positions (in `direction`). */
	movedBy?: { positions: number; direction: Direction };
	/** Crossed the top `n` (1–100). */
	crossedTop?: { n: number; crossing: Crossing };
	/** Only keywords whose ranking URL differs from the one of their update before (Keyword Updated). */
	rankingUrlChanged?: boolean;
	/** Only keywords carrying any of these tags (names compared without case, or ids). */
	tags?: string[];
}

/** A rank update or an alert as the filters see it: null = outside the top results. */
export interface RankMove {
	rank: number | null;
	previousRank: number | null;
	/** Whether the rank before is known (null previousRank then means outside the top results). */
	previousKnown: boolean;
	/**
	 * Whether the ranking URL differs from the update before; undefined when there is none (a first update);
	 * 'unknown' when the ranking history does not show it.
	 */
	rankingUrlChanged?: boolean | 'unknown';
	/** The names and ids of the tags the keyword carries; undefined when the record does not say. */
	tags?: readonly string[];
	/** The tags could not be read (New Alert): the tag filter lets it through as `tags_unknown`. */
	tagsUnknown?: boolean;
}

export function hasFilters(filters: MovementFilters): boolean {
	return (
		filters.movedBy !== undefined ||
		filters.crossedTop !== undefined ||
		filters.rankingUrlChanged === true ||
		(filters.tags !== undefined && filters.tags.length > 0)
	);
}

const effective = (rank: number | null) => rank ?? OUTSIDE;

/**
 * Why the move passes every filter set (`['moved_up', 'top10_entered', 'tagged']`), or undefined when one of them
 * fails. No filter set: an empty list (everything passes).
 */
export function matchFilters(move: RankMove, filters: MovementFilters): string[] | undefined {
	const matched: string[] = [];
	const { movedBy, crossedTop, tags } = filters;
	if (movedBy || crossedTop) {
		if (!move.previousKnown) return undefined;
		const before = effective(move.previousRank);
		const after = effective(move.rank);
		if (movedBy) {
			// Positions gained: positive = moved up (towards rank 1).
			const gained = before - after;
			const up = gained >= movedBy.positions && gained > 0;
			const down = -gained >= movedBy.positions && gained < 0;
			if (up && movedBy.direction !== 'down') matched.push('moved_up');
			else if (down && movedBy.direction !== 'up') matched.push('moved_down');
			else return undefined;
		}
		if (crossedTop) {
			const { n, crossing } = crossedTop;
			const entered = before > n && after <= n;
			const left = before <= n && after > n;
			if (entered && crossing !== 'left') matched.push(`top${n}_entered`);
			else if (left && crossing !== 'entered') matched.push(`top${n}_left`);
			else return undefined;
		}
	}
	if (filters.rankingUrlChanged) {
		// The history does not show the crawl before: passed on, said so, rather than lost (rankingUrls.ts).
		if (move.rankingUrlChanged === 'unknown') matched.push('ranking_url_unknown');
		else if (move.rankingUrlChanged !== true) return undefined;
		else matched.push('ranking_url_changed');
	}
	if (tags !== undefined && tags.length > 0) {
		const wanted = new Set(tags.map(normaliseTag));
		if (move.tagsUnknown) matched.push('tags_unknown');
		else if ((move.tags ?? []).some((tag) => wanted.has(normaliseTag(tag)))) matched.push('tagged');
		else return undefined;
	}
	return matched;
}

export function normaliseTag(name: string): string {
	return name.trim().toLowerCase();
}

/**
 * The tags of a keyword record, by name and by id (`attributes.tags`: tag records, or names; else `attributes.tag`),
 * undefined when it lists none.
 */
export function tagsOf(attributes: IDataObject): string[] | undefined {
	const tags = attributes.tags;
	if (!Array.isArray(tags))
		return typeof attributes.tag === 'string' ? [attributes.tag] : undefined;
	return tags
		.flatMap((tag): unknown[] =>
			tag !== null && typeof tag === 'object'
				? [(tag as IDataObject).name, (tag as IDataObject).id]
				: [tag],
		)
		.filter((value) => typeof value === 'string' || typeof value === 'number')
		.map(String)
		.filter((name) => name.trim() !== '');
}

/** A keyword update's move as the filters see it (its ranks as rankHistory.ts works them out). */
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

// AI Visibility Updated's filter settings, beside the movement filters: aiVisibilityUpdated/dayFilters.ts applies them.
export type ScoreDirection = 'either' | 'rose' | 'dropped';
export type Presence = 'either' | 'lost' | 'found';

/** AI Visibility Updated's filters, as the node's settings give them. */
export interface AiFilters {
	/** The visibility score moved by at least `points` (in `direction`) from the day before. */
	visibilityChange?: { points: number; direction: ScoreDirection };
	/** The brand was not found in AI answers (lost) or found again, against the day before. */
	brandPresence?: Presence;
	/** A competitor's visibility score went above the brand's. */
	competitorOvertook?: boolean;
}
