import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #2 GET /api/v2/groups/{project_name} */
export const getProject = defineOperation({
	resource: 'project',
	value: 'get',
	name: 'Get',
	action: 'Get a project',
	description:
		'Get one project or group by name, with its tags, keyword counts and report settings',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}`,
	fields: [projectField(), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: { type: 'record', kind: 'group' },
});
