import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { AI_AGGREGATIONS, AI_TIMEFRAMES } from '../../../shared/constants';
import { stringListField } from '../../../shared/fields';
import { onItsScale } from '../../../shared/optionOrder';
import type { OperationInput } from '../../operation/types';
import {
	checkAggregation,
	checkAiTimeframe,
	checkPeriodOffset,
	checkTextList,
} from '../../../shared/validation';

const TIMEFRAME_NAMES: Record<(typeof AI_TIMEFRAMES)[number], string> = {
	'24h': 'Last 24 Hours',
	'7d': 'Last 7 Days',
	'30d': 'Last 30 Days',
	'3m': 'Last 3 Months',
	'1y': 'Last Year',
};

/** Filters shared by the three AI metrics reports; the dashboard (#26) also takes the period settings. */
export function filterFields(withPeriod: boolean): INodeProperties[] {
	const filters: INodeProperties[] = [
		stringListField('topics', 'Topics', 'Only these topics, by name'),
		stringListField('searchTerms', 'Search Terms', 'Only these search terms, by their text'),
	];
	if (withPeriod) {
		filters.push(
			stringListField('engines', 'Engines', 'Only these AI engines, by ID (e.g. chatgpt_gui)'),
			{
				displayName: 'Timeframe',
				name: 'timeframe',
				type: 'options',
				default: '30d',
				options: onItsScale(
					AI_TIMEFRAMES.map((value) => ({ name: TIMEFRAME_NAMES[value], value })),
				),
				description: 'The period covered (an expression may give a number of days instead)',
			},
			{
				displayName: 'Period Offset',
				name: 'periodOffset',
				type: 'number',
				default: 0,
				typeOptions: { minValue: -365, maxValue: 0 },
				description: '0 for the current period, -1 for the one before, down to -365',
			},
			{
				displayName: 'Aggregation',
				name: 'aggregation',
				type: 'options',
				default: 'daily',
				options: onItsScale(
					AI_AGGREGATIONS.map((value) => ({
						name: value[0].toUpperCase() + value.slice(1),
						value,
					})),
				),
				description: 'One row per hour, day, week or month',
			},
		);
	}
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add filter',
			default: {},
			options: filters,
		},
	];
}

/** Query for the AI metrics endpoints. Arrays are sent with brackets (`topics[]=a&topics[]=b`). */
export function filterQuery(input: OperationInput, withPeriod: boolean): IDataObject {
	const filters = (input.get('filters', {}) ?? {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.topics !== undefined) qs.topics = checkTextList('Topics', filters.topics);
	if (filters.searchTerms !== undefined)
		qs.search_terms = checkTextList('Search Terms', filters.searchTerms);
	if (withPeriod) {
		if (filters.engines !== undefined) qs.engine = checkTextList('Engines', filters.engines);
		if (filters.timeframe !== undefined)
			qs.timeframe = checkAiTimeframe('Timeframe', filters.timeframe);
		if (filters.periodOffset !== undefined)
			qs.period_offset = checkPeriodOffset('Period Offset', filters.periodOffset);
		if (filters.aggregation !== undefined)
			qs.aggregation = checkAggregation('Aggregation', filters.aggregation);
	}
	for (const key of Object.keys(qs)) {
		if (Array.isArray(qs[key]) && (qs[key] as unknown[]).length === 0) delete qs[key];
	}
	return qs;
}
