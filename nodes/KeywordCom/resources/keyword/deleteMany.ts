import { API_PREFIX } from '../../../shared/constants';
import { groupField, keywordIdsField, projectField } from '../../../shared/fields';
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
		projectField('The project the keywords belong to, by its name as shown in Keyword.com'),
		groupField(),
		keywordIdsField(),
	],
	projectId: true,
	prepare: (input) => ({
		path: { projectId: checkNumericId('Project', input.get('projectId')) },
		body: { data: { type: 'keyword', ids: checkIdList('Keywords', input.get('keywordIds')) } },
	}),
	output: {
		type: 'confirmation',
		result: (input) => {
			const ids = checkIdList('Keywords', input.get('keywordIds'));
			return { deleted: true, count: ids.length, keyword_ids: ids };
		},
	},
});
