import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #4 DELETE /api/v2/groups/{project_name} */
export const deleteProject = defineOperation({
	resource: 'project',
	value: 'delete',
	name: 'Delete',
	action: 'Delete a project',
	description:
		'Permanently delete a project or group with its keywords and their ranking history. This cannot be undone.',
	method: 'DELETE',
	path: `${API_PREFIX}/groups/{target}`,
	fields: [projectField('The project to delete'), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: {
		type: 'confirmation',
		result: (input) => ({ deleted: true, project: readTarget(input).name }),
	},
});
