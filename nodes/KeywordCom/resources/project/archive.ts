import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #3 PUT /api/v2/groups/{project_name} with status 2 */
export const archiveProject = defineOperation({
	resource: 'project',
	value: 'archive',
	name: 'Archive',
	action: 'Archive a project',
	description: 'Archive a project or group. Its keywords stop updating until it is restored.',
	method: 'PUT',
	path: `${API_PREFIX}/groups/{target}`,
	fields: [projectField('The project to archive'), groupField()],
	prepare: (input) => {
		const target = readTarget(input);
		return {
			path: { target: target.encoded },
			body: { data: { type: 'group', attributes: { status: 2 } } },
		};
	},
	output: {
		type: 'confirmation',
		result: (input) => ({ archived: true, project: readTarget(input).name }),
	},
});
