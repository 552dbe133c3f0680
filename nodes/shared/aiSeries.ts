/**
 * An AI-visibility dashboard (#26) read period by period, for both nodes: Get Dashboard's Simplified rows and the
 * trigger's AI Visibility Updated days. Pure.
 *
 * The API sends parallel arrays (`ownBrandMetrics.historicalData.<aggregation>`: timestamps, each metric,
 * brandNotFound; `competitorTimeSeriesData.<aggregation>`: timestamps, each competitor's metrics). A value that is not
 * a number reads as null, an array shorter than the timestamps as null past its end. Periods come out oldest first,
 * one per timestamp (the last one wins when the API repeats one).
 */
import type { IDataObject } from 'n8n-workflow';

import { apiTimeMs } from './time';

/** The metrics of a period, as the API names them, and as the items name them. */
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

/** One period (an hour, day, week or month) of a domain's series. */
export interface AiPoint {
	/** Its start, ms since the epoch. */
	ms: number;
	metrics: Record<AiMetric, number | null>;
	/** null: the API did not say. */
	brandNotFound: boolean | null;
	/** The competitors' visibility score then (the own brand left out); empty when the API sent none. */
	competitors: Array<{ name: string; visibilityScore: number | null }>;
}

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function numberAt(values: unknown[], index: number): number | null {
	const value = values[index];
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

/**
 * An API timestamp (ISO 8601, or Unix seconds or ms) in ms, or undefined. A time without an offset is UTC (time.ts),
 * never the n8n host's time zone: a day read a day off would be judged complete while it is still in progress.
 */
export function timestampMs(timestamp: unknown): number | undefined {
	if (typeof timestamp === 'number' && Number.isFinite(timestamp))
		return timestamp < 100_000_000_000 ? timestamp * 1000 : timestamp;
	return typeof timestamp === 'string' ? apiTimeMs(timestamp) : undefined;
}

/** The report itself: `data`, or the body when it has none. */
function reportOf(body: unknown): IDataObject {
	const object = isObject(body) ? body : {};
	return isObject(object.data) ? object.data : object;
}

/** The competitors' visibility scores, by period start. */
function competitorPoints(
	data: IDataObject,
	aggregation: string,
): Map<number, AiPoint['competitors']> {
	const byMs = new Map<number, AiPoint['competitors']>();
	const series = isObject(data.competitorTimeSeriesData)
		? (data.competitorTimeSeriesData as IDataObject)[aggregation]
		: undefined;
	if (!isObject(series)) return byMs;
	const timestamps = asArray(series.timestamps);
	for (const competitor of asArray(series.competitors)) {
		if (!isObject(competitor) || competitor.isOwnBrand === true) continue;
		const name = typeof competitor.name === 'string' ? competitor.name : '';
		if (name === '') continue;
		const scores = asArray((competitor.metrics as IDataObject | undefined)?.visibilityScore);
		timestamps.forEach((timestamp, index) => {
			const ms = timestampMs(timestamp);
			if (ms === undefined) return;
			const list = byMs.get(ms) ?? [];
			list.push({ name, visibilityScore: numberAt(scores, index) });
			byMs.set(ms, list);
		});
	}
	return byMs;
}

/** The periods of a dashboard answer for one aggregation, oldest first; undefined when it holds no such series. */
export function aiPointsOf(body: unknown, aggregation: string): AiPoint[] | undefined {
	const data = reportOf(body);
	const own = isObject(data.ownBrandMetrics) ? data.ownBrandMetrics : {};
	const historical = isObject(own.historicalData) ? own.historicalData : {};
	const series = historical[aggregation];
	if (!isObject(series) || !Array.isArray(series.timestamps)) return undefined;
	const competitors = competitorPoints(data, aggregation);
	const byMs = new Map<number, AiPoint>();
	const found = asArray(series.brandNotFound);
	series.timestamps.forEach((timestamp, index) => {
		const ms = timestampMs(timestamp);
		if (ms === undefined) return;
		const metrics = {} as AiPoint['metrics'];
		for (const [name] of AI_METRICS) metrics[name] = numberAt(asArray(series[name]), index);
		const notFound = found[index];
		byMs.set(ms, {
			ms,
			metrics,
			brandNotFound: typeof notFound === 'boolean' ? notFound : null,
			competitors: competitors.get(ms) ?? [],
		});
	});
	return [...byMs.values()].sort((a, b) => a.ms - b.ms);
}

/** a − b rounded to 2 decimals (the API's scores carry 2); null when either is unknown. */
export function difference(a: number | null, b: number | null): number | null {
	if (a === null || b === null) return null;
	return Math.round((a - b) * 100) / 100;
}

/** Competitors whose score is above the brand's in that period (unknown scores left out), lowest first. */
export function competitorsAbove(point: AiPoint): Array<{ name: string; visibilityScore: number }> {
	const own = point.metrics.visibilityScore;
	if (own === null) return [];
	return point.competitors
		.filter(
			(competitor): competitor is { name: string; visibilityScore: number } =>
				competitor.visibilityScore !== null && competitor.visibilityScore > own,
		)
		.sort((a, b) => a.visibilityScore - b.visibilityScore);
}

/**
 * The period as one flat record: each metric with its change from the period before (null without one), whether
 * the brand was found, its rank among its competitors by visibility score, the competitor just above it, and the
 * competitors, highest first.
 */
export function pointRecord(point: AiPoint, before: AiPoint | undefined): IDataObject {
	const record: IDataObject = {};
	for (const [metric, name] of AI_METRICS) {
		record[name] = point.metrics[metric];
		record[`${name}_change`] = before
			? difference(point.metrics[metric], before.metrics[metric])
			: null;
	}
	const higher = competitorsAbove(point);
	const known = point.metrics.visibilityScore !== null && point.competitors.length > 0;
	record.brand_not_found = point.brandNotFound;
	record.brand_rank = known ? higher.length + 1 : null;
	record.competitor_above = known ? (higher[0]?.name ?? null) : null;
	record.competitors = [...point.competitors]
		.sort((a, b) => (b.visibilityScore ?? -1) - (a.visibilityScore ?? -1))
		.map((competitor) => ({ name: competitor.name, visibility_score: competitor.visibilityScore }));
	return record;
}
