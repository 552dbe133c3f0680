import { API_PREFIX } from '../../../shared/constants';
import { keywordIdsField, projectIdField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkIdList, checkNumericId } from '../../../shared/validation';

/** #17 DELETE /api/v2/projects/{project_id}/keywords with the ids in the body */
export const deleteManyKeywords = defineOperation({
	resource: 'keyword',
	value: 'deleteMany',
	name: 'Delete Many',
	action: 'Delete many keywords',
	description:
		'Stop tracking several keywords of a project at once. Their ranking history is deleted; this cannot be undone.',
	method: 'DELETE',
	path: `${API_PREFIX}/projects/{projectId}/keywords`,
	fields: [
		projectIdField('The project or group the keywords belong to'),
		keywordIdsField('IDs of the keywords to delete'),
	],
	prepare: (input) => ({
		path: { projectId: checkNumericId('Project', input.get('projectId')) },
		body: { data: { type: 'keyword', ids: checkIdList('Keyword IDs', input.get('keywordIds')) } },
	}),
	output: {
		type: 'confirmation',
		result: (input) => {
			const ids = checkIdList('Keyword IDs', input.get('keywordIds'));
			return { deleted: true, count: ids.length, keyword_ids: ids };
		},
	},
});
