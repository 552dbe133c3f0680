import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkNumericId } from '../../../shared/validation';

/** #5 POST /api/v2/keywords/refresh */
export const refreshProject = defineOperation({
	resource: 'project',
	value: 'refresh',
	name: 'Refresh Ranks',
	action: 'Refresh project ranks',
	description:
		'Start an on-demand rank refresh of a project (and optionally its groups). Uses the daily on-demand refresh allowance.',
	method: 'POST',
	path: `${API_PREFIX}/keywords/refresh`,
	fields: [
		projectField('The project to refresh, by its name as shown in Keyword.com'),
		groupField(),
		{
			displayName: 'Include Groups',
			name: 'includeSubGroups',
			type: 'boolean',
			default: true,
			description: 'Whether to refresh the groups of the project as well',
		},
	],
	projectId: true,
	prepare: (input) => ({
		body: {
			data: {
				include_sub_groups: input.get('includeSubGroups', true) === true,
				project_ids: [Number(checkNumericId('Project', input.get('projectId')))],
			},
		},
	}),
	output: { type: 'body' },
});
