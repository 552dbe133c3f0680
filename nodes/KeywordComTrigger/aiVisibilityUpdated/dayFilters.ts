/**
 * AI Visibility Updated's filters: which days pass, and why. Pure. Every filter set must pass (AND); a
 * day that passes carries the reasons (`matched`), as Keyword Updated's items do. A day whose day before is not in the
 * series (the first day of a domain, or after a gap) passes no filter that compares with it.
 */
import { competitorsAbove, difference } from '../../shared/aiSeries';
import type { AiFilters } from '../polling/filters';
import type { AiDay } from './daySeries';

/** How a day compares with the day before, as the item says it and the filters read it. */
export interface DayComparison {
	scoreChange: number | null;
	/** true: not found after found; false: found after not found; null: no change or not known. */
	brandLost: boolean | null;
	/** Competitors above the brand this day that were not above it the day before. */
	overtakenBy: string[];
}

export function compareDays(day: AiDay, before: AiDay | undefined): DayComparison {
	if (!before) return { scoreChange: null, brandLost: null, overtakenBy: [] };
	const wasAbove = new Set(competitorsAbove(before).map((competitor) => competitor.name));
	const knewBefore = new Set(
		before.competitors.filter((c) => c.visibilityScore !== null).map((c) => c.name),
	);
	const lost =
		day.brandNotFound === null ||
		before.brandNotFound === null ||
		day.brandNotFound === before.brandNotFound
			? null
			: day.brandNotFound;
	return {
		scoreChange: difference(day.metrics.visibilityScore, before.metrics.visibilityScore),
		brandLost: lost,
		overtakenBy:
			before.metrics.visibilityScore === null
				? []
				: competitorsAbove(day)
						.filter((c) => knewBefore.has(c.name) && !wasAbove.has(c.name))
						.map((c) => c.name),
	};
}

export function hasAiFilters(filters: AiFilters | undefined): boolean {
	return (
		!!filters &&
		(filters.visibilityChange !== undefined ||
			filters.brandPresence !== undefined ||
			filters.competitorOvertook === true)
	);
}

/** Why the day passes every filter set (`['visibility_dropped', 'brand_lost']`), or undefined when one fails. */
export function matchDay(comparison: DayComparison, filters: AiFilters): string[] | undefined {
	const matched: string[] = [];
	const { visibilityChange, brandPresence } = filters;
	if (visibilityChange) {
		const change = comparison.scoreChange;
		if (change === null) return undefined;
		const rose = change > 0 && change >= visibilityChange.points;
		const dropped = change < 0 && -change >= visibilityChange.points;
		if (rose && visibilityChange.direction !== 'dropped') matched.push('visibility_rose');
		else if (dropped && visibilityChange.direction !== 'rose') matched.push('visibility_dropped');
		else return undefined;
	}
	if (brandPresence) {
		const lost = comparison.brandLost;
		if (lost === true && brandPresence !== 'found') matched.push('brand_lost');
		else if (lost === false && brandPresence !== 'lost') matched.push('brand_found');
		else return undefined;
	}
	if (filters.competitorOvertook) {
		if (comparison.overtakenBy.length === 0) return undefined;
		matched.push('overtaken');
	}
	return matched;
}
