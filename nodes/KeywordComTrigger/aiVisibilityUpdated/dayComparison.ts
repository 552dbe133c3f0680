/**
 * AI Visibility Updated: how a day compares with the day before, as the item says it and the filters judge it
 * (filters/triggerFilters.ts). Pure. A day whose day before is not in the series (the first day of a domain, or after
 * a gap) compares with nothing: it passes no filter.
 */
import { competitorsAbove, difference } from '../../shared/aiSeries';
import type { DayComparison } from '../filters/subjects';
import type { AiDay } from './daySeries';

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
