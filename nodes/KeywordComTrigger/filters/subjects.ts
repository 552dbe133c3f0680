/** What the filters judge: a rank move (an alert, or a keyword update) and a day of AI visibility against the day before. */

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

/** How a day compares with the day before, as the item says it and the filters read it. */
export interface DayComparison {
	scoreChange: number | null;
	/** true: not found after found; false: found after not found; null: no change or not known. */
	brandLost: boolean | null;
	/** Competitors above the brand this day that were not above it the day before. */
	overtakenBy: string[];
}
