import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { AI_AGGREGATIONS } from '../../../shared/constants';
import { stringListField } from '../../../shared/fields';
import { alphabetical } from '../../../shared/optionOrder';
import type { OperationInput } from '../../operation/types';
import {
	checkAggregation,
	checkAiTimeframe,
	checkPeriodOffset,
	checkTextList,
} from '../../../shared/validation';

/** Filters shared by the three AI metrics reports; the dashboard (#26) also takes the period settings. */
export function filterFields(withPeriod: boolean): INodeProperties[] {
	const filters: INodeProperties[] = [
		stringListField('topics', 'Topics', 'Only these topics (names); sent as topics[]'),
		stringListField(
			'searchTerms',
			'Search Terms',
			'Only these search terms (query text); sent as search_terms[]',
		),
	];
	if (withPeriod) {
		filters.push(
			stringListField(
				'engines',
				'Engines',
				'Only these engine IDs (e.g. an engine\'s "<name>_gui" ID); sent as engine[]',
			),
			{
				displayName: 'Timeframe',
				name: 'timeframe',
				type: 'string',
				default: '30d',
				placeholder: '24h, 7d, 30d, 3m, 1y or a number of days',
				description: 'Period covered: 24h, 7d, 30d, 3m, 1y, or a number of days (default 30 days)',
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
				options: alphabetical(
					AI_AGGREGATIONS.map((value) => ({
						name: value[0].toUpperCase() + value.slice(1),
						value,
					})),
				),
				description: 'Granularity of the time series',
			},
		);
	}
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
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
