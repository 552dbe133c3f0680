import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #6 GET /api/v2/groups/{project_name}/regions */
export const getProjectRegions = defineOperation({
	resource: 'project',
	value: 'getRegions',
	name: 'Get Regions',
	action: 'Get project regions',
	description:
		'List the search engine regions, languages and device types tracked in a project, with keyword counts',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/regions`,
	fields: [projectField(), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: { type: 'records', kind: 'region' },
});
