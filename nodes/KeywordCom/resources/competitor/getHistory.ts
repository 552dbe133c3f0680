import { API_PREFIX } from '../../../shared/constants';
import { dateField, groupField, keywordIdField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';
import { checkDate, checkNumericId, InputError } from '../../../shared/validation';

/** #15 GET /api/v2/metrics/{project_name}/competitors/{keyword_id}/history?dateRange=FROM.TO */
export const getCompetitorHistory = defineOperation({
	resource: 'competitor',
	value: 'getHistory',
	name: 'Get History',
	action: 'Get competitor history',
	description:
		'Get, for each day of a date range, the top 100 results (URL, title, result type) for a keyword and its own rank',
	method: 'GET',
	path: `${API_PREFIX}/metrics/{target}/competitors/{keywordId}/history`,
	fields: [
		projectField(),
		groupField(),
		keywordIdField(),
		dateField('startDate', 'Start Date', 'First day of the range', true),
		dateField('endDate', 'End Date', 'Last day of the range', true),
	],
	keywordByText: true,
	prepare: (input) => {
		const from = checkDate('Start Date', input.get('startDate'));
		const to = checkDate('End Date', input.get('endDate'));
		if (from > to) throw new InputError('Start Date', `${from} is after the End Date ${to}`);
		return {
			path: {
				target: readTarget(input).encoded,
				keywordId: checkNumericId('Keyword ID', input.get('keywordId')),
			},
			qs: { dateRange: `${from}.${to}` },
		};
	},
	output: { type: 'records', kind: 'competitorDay' },
});
