import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #8 GET /api/v2/groups/{project_name}/undo/archive */
export const restoreProject = defineOperation({
	resource: 'project',
	value: 'restore',
	name: 'Restore',
	action: 'Restore a project',
	description:
		'Restore an archived project or group. Its keywords update at the next scheduled cycle (or refresh them now).',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/undo/archive`,
	fields: [projectField('The archived project to restore'), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: {
		type: 'confirmation',
		result: (input) => ({ restored: true, project: readTarget(input).name }),
	},
});
