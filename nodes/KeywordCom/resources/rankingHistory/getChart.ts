import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, MAX_CHART_DAYS } from '../../../shared/constants';
import { groupField, keywordIdsField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { outputModeOf } from '../../operation/shape';
import { checkChartDays, checkIdList } from '../../../shared/validation';

/**
 * The chart answer is positional: `data: [series[], [], label, "<id>|<hash>", {days, rankingurls}]`.
 * Simplified and Selected Fields name the parts (the catalogue `chart`) and keep the daily ranking history; Raw
 * gives the entry as sent.
 */
export function namedChart(entry: IDataObject): IDataObject {
	const parts = Array.isArray(entry.data) ? (entry.data as unknown[]) : [];
	const [series, , label, , details] = parts as [
		IDataObject[] | undefined,
		unknown,
		unknown,
		unknown,
		IDataObject | undefined,
	];
	const [domain, keyword, project, region, language] =
		typeof label === 'string' ? label.split('|') : [];
	return {
		keyword_id: entry.kwid,
		keyword,
		domain,
		project,
		region,
		language,
		days: details?.days,
		history: Array.isArray(details?.rankingurls) ? details?.rankingurls : [],
		series: Array.isArray(series)
			? series.map((line) => ({
					name: line.name,
					points: Array.isArray(line.data) ? line.data.length : 0,
				}))
			: [],
	};
}

/** #14 POST /api/v2/keywords/chart?action=chart&limit=N */
export const getRankingChart = defineOperation({
	resource: 'rankingHistory',
	value: 'getChart',
	name: 'Get Chart',
	action: 'Get a ranking chart',
	description: `Get the daily rank history (up to ${MAX_CHART_DAYS} days) of one or more keywords, with the ranking URL of each day`,
	method: 'POST',
	path: `${API_PREFIX}/keywords/chart`,
	fields: [
		{
			...projectField(
				'The project to pick the keywords from (the chart itself needs their IDs only)',
			),
			required: false,
		},
		groupField(),
		keywordIdsField(),
		{
			displayName: 'Days',
			name: 'days',
			type: 'number',
			default: 30,
			typeOptions: { minValue: 1, maxValue: MAX_CHART_DAYS },
			description: `Days of history to return (1 to ${MAX_CHART_DAYS})`,
		},
	],
	prepare: (input) => ({
		qs: { action: 'chart', limit: checkChartDays('Days', input.get('days', 30)) },
		body: { keyword_ids: checkIdList('Keywords', input.get('keywordIds')).map(Number) },
	}),
	output: {
		type: 'records',
		kind: 'chart',
		select: (body, input) => {
			const entries = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
			return outputModeOf(input) === 'raw' ? entries : entries.map(namedChart);
		},
	},
});
