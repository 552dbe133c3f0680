/**
 * AI Visibility Updated: the days of an AI-visibility dashboard (#26, `aggregation=daily`), each the UTC day of its
 * timestamp (shared/aiSeries.ts reads the answer). Pure.
 */
import { aiPointsOf, type AiPoint } from '../../shared/aiSeries';

export const DAY_SECONDS = 86_400;

/** One day of a domain's series. */
export interface AiDay extends AiPoint {
	/** UTC day number (days since 1970-01-01). */
	day: number;
	/** `YYYY-MM-DD`. */
	date: string;
}

/** What one dashboard answer says day by day; `daily` false when it holds no daily series at all. */
export interface AiSeries {
	days: AiDay[];
	daily: boolean;
}

export function dateOfDay(day: number): string {
	return new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** The days of a dashboard answer (#26), oldest first, one a day (the last one wins). */
export function aiSeriesOf(body: unknown): AiSeries {
	const points = aiPointsOf(body, 'daily');
	if (!points) return { days: [], daily: false };
	const byDay = new Map<number, AiDay>();
	for (const point of points) {
		const day = Math.floor(point.ms / 1000 / DAY_SECONDS);
		byDay.set(day, { ...point, day, date: dateOfDay(day) });
	}
	return { days: [...byDay.values()].sort((a, b) => a.day - b.day), daily: true };
}
