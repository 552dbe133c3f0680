import type { IDataObject } from 'n8n-workflow';

import { aiPointsOf, pointRecord } from '../../../shared/aiSeries';
import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import type { OperationInput } from '../../operation/types';
import { checkAggregation, checkOpaqueId } from '../../../shared/validation';
import { filterFields, filterQuery } from './filters';

/** Competitors named in `top_competitors`. */
const TOP_COMPETITORS = 3;

/** A period's start as the rows name it: the day, or the hour for hourly series. */
function periodName(ms: number, aggregation: string): string {
	const iso = new Date(ms).toISOString();
	return aggregation === 'hourly' ? iso : iso.slice(0, 10);
}

/** The report as one item, as before rows: `data` when it is an object, else the answer without `links`. */
function reportOf(body: IDataObject): IDataObject {
	const data = body.data;
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	const rest = { ...body };
	delete rest.links;
	return rest;
}

/**
 * Output Simplified or Selected Fields: one row per period of the series asked for (daily by default), made of the
 * API's parallel arrays; Raw: the report as the API sent it, as one item.
 */
function dashboardRows(body: IDataObject, input: OperationInput): unknown[] {
	if (input.get('output', 'simplified') === 'raw') return [reportOf(body)];
	const filters = (input.get('filters', {}) ?? {}) as IDataObject;
	// The value the query was sent with (checked, trimmed): the rows are read from that series.
	const aggregation =
		filters.aggregation === undefined
			? 'daily'
			: checkAggregation('Aggregation', filters.aggregation);
	const points = aiPointsOf(body, aggregation) ?? [];
	return points.map((point, index) => {
		const { competitors, ...record } = pointRecord(point, points[index - 1]);
		const top = (competitors as IDataObject[]).slice(0, TOP_COMPETITORS).map((c) => c.name);
		return {
			date: periodName(point.ms, aggregation),
			...record,
			top_competitors: top.join(', '),
			competitors,
		};
	});
}

/** #26 GET /api/v2/ai-visibility/domains/{domain_id}/metrics */
export const getAiDashboard = defineOperation({
	resource: 'aiMetric',
	value: 'getDashboard',
	name: 'Get Dashboard',
	action: 'Get AI visibility dashboard',
	description:
		'Get the AI visibility of a brand and its competitors, one row per day (or per period): visibility score, sentiment, mentions, citations, average position, their changes, and the top competitors',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}/metrics`,
	fields: [domainField(), ...filterFields(true)],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
		qs: filterQuery(input, true),
	}),
	output: { type: 'records', kind: 'aiPeriod', whole: true, select: dashboardRows },
});
