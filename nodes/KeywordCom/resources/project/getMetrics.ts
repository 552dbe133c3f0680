import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, PROJECT_TIMEFRAMES } from '../../../shared/constants';
import { groupField, options, projectField } from '../../../shared/fields';
import { onItsScale } from '../../../shared/optionOrder';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';
import { checkNumericId, checkProjectTimeframe } from '../../../shared/validation';

const TIMEFRAME_NAMES: Record<(typeof PROJECT_TIMEFRAMES)[number], string> = {
	daily: 'Daily',
	weekly: 'Weekly',
	monthly: 'Monthly',
	semester: 'Semester (6 Months)',
	yearly: 'Yearly',
	life: 'Lifetime',
};

/** #9 GET /api/v2/groups/{project_name}/metrics */
export const getProjectMetrics = defineOperation({
	resource: 'project',
	value: 'getMetrics',
	name: 'Get Metrics',
	action: 'Get project metrics',
	description:
		'Get how many keywords rank in each range (top 3, top 10…) and how many moved up or down over a timeframe',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/metrics`,
	fields: [
		projectField(),
		groupField(),
		{
			displayName: 'Timeframe',
			name: 'timeframe',
			type: 'options',
			default: 'monthly',
			options: onItsScale(
				PROJECT_TIMEFRAMES.map((value) => ({ name: TIMEFRAME_NAMES[value], value })),
			),
			description: 'Period the changes are measured over',
		},
		options([
			{
				displayName: 'Tag Name or ID',
				name: 'tagId',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getProjectTagIds',
					loadOptionsDependsOn: ['project.value', 'group.value'],
				},
				default: '',
				description:
					'Only count the keywords with this tag. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		]),
	],
	prepare: (input) => {
		const qs: IDataObject = {
			timeframe: checkProjectTimeframe('Timeframe', input.get('timeframe', 'monthly')),
		};
		const tagId = input.get('options.tagId', '');
		if (tagId !== '' && tagId !== undefined) qs.tagId = checkNumericId('Tag', tagId);
		return { path: { target: readTarget(input).encoded }, qs };
	},
	output: { type: 'record', kind: 'metrics' },
});
