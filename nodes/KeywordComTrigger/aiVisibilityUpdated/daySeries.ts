/**
 * AI Visibility Updated: the days of an AI-visibility dashboard (#26, `aggregation=daily`) as one record a day. Pure.
 *
 * The API sends parallel arrays (`ownBrandMetrics.historicalData.daily`: timestamps, each metric, brandNotFound; and
 * `competitorTimeSeriesData.daily`: timestamps, each competitor's metrics). A day is the UTC day of its timestamp; a
 * value that is not a number reads as null, an array shorter than the timestamps as null past its end. Days come out
 * oldest first, one per day (the last one wins when the API repeats a day).
 */
import type { IDataObject } from 'n8n-workflow';

/** The metrics of a day, as the API names them, and as the items name them. */
export const AI_METRICS = [
	['visibilityScore', 'visibility_score'],
	['sentiment', 'sentiment'],
	['mentions', 'mentions'],
	['citations', 'citations'],
	['avgPosition', 'avg_position'],
	['detectionRate', 'detection_rate'],
	['top3', 'top3'],
] as const;

export type AiMetric = (typeof AI_METRICS)[number][0];

export const DAY_SECONDS = 86_400;

/** One day of a domain's series. */
export interface AiDay {
	/** UTC day number (days since 1970-01-01). */
	day: number;
	/** `YYYY-MM-DD`. */
	date: string;
	metrics: Record<AiMetric, number | null>;
	/** null: the API did not say. */
	brandNotFound: boolean | null;
	/** The competitors' visibility score that day (the own brand left out); empty when the API sent none. */
	competitors: Array<{ name: string; visibilityScore: number | null }>;
}

/** What one dashboard answer says day by day; `daily` false when it holds no daily series at all. */
export interface AiSeries {
	days: AiDay[];
	daily: boolean;
}

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function numberAt(values: unknown[], index: number): number | null {
	const value = values[index];
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

/** The UTC day number of an API timestamp (ISO 8601, or Unix seconds or ms), or undefined. */
export function dayOf(timestamp: unknown): number | undefined {
	let ms: number;
	if (typeof timestamp === 'number' && Number.isFinite(timestamp))
		ms = timestamp < 100_000_000_000 ? timestamp * 1000 : timestamp;
	else if (typeof timestamp === 'string') ms = Date.parse(timestamp);
	else return undefined;
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000 / DAY_SECONDS);
}

export function dateOfDay(day: number): string {
	return new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** The competitors' daily visibility scores, by day. */
function competitorDays(data: IDataObject): Map<number, AiDay['competitors']> {
	const byDay = new Map<number, AiDay['competitors']>();
	const series = isObject(data.competitorTimeSeriesData)
		? (data.competitorTimeSeriesData as IDataObject).daily
		: undefined;
	if (!isObject(series)) return byDay;
	const timestamps = asArray(series.timestamps);
	for (const competitor of asArray(series.competitors)) {
		if (!isObject(competitor) || competitor.isOwnBrand === true) continue;
		const name = typeof competitor.name === 'string' ? competitor.name : '';
		if (name === '') continue;
		const scores = asArray((competitor.metrics as IDataObject | undefined)?.visibilityScore);
		timestamps.forEach((timestamp, index) => {
			const day = dayOf(timestamp);
			if (day === undefined) return;
			const list = byDay.get(day) ?? [];
			list.push({ name, visibilityScore: numberAt(scores, index) });
			byDay.set(day, list);
		});
	}
	return byDay;
}

/** The days of a dashboard answer (#26), oldest first. */
export function aiSeriesOf(body: unknown): AiSeries {
	const object = isObject(body) ? body : {};
	const data = isObject(object.data) ? object.data : object;
	const own = isObject(data.ownBrandMetrics) ? data.ownBrandMetrics : {};
	const historical = isObject(own.historicalData) ? own.historicalData : {};
	const daily = historical.daily;
	if (!isObject(daily) || !Array.isArray(daily.timestamps)) return { days: [], daily: false };
	const competitors = competitorDays(data);
	const byDay = new Map<number, AiDay>();
	const found = asArray(daily.brandNotFound);
	daily.timestamps.forEach((timestamp, index) => {
		const day = dayOf(timestamp);
		if (day === undefined) return;
		const metrics = {} as AiDay['metrics'];
		for (const [name] of AI_METRICS) metrics[name] = numberAt(asArray(daily[name]), index);
		const notFound = found[index];
		byDay.set(day, {
			day,
			date: dateOfDay(day),
			metrics,
			brandNotFound: typeof notFound === 'boolean' ? notFound : null,
			competitors: competitors.get(day) ?? [],
		});
	});
	return { days: [...byDay.values()].sort((a, b) => a.day - b.day), daily: true };
}
