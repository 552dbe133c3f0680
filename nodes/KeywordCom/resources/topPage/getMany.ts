import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #21 GET /api/v2/groups/{project_name}/keywords/ranking-urls — Laravel paginator */
export const getManyTopPages = defineOperation({
	resource: 'topPage',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many top pages',
	description:
		'List the pages of a project or group that rank for its keywords: keyword count, average current and previous rank, search volume, CPC',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/keywords/ranking-urls`,
	fields: [projectField(), groupField()],
	paged: 'laravel',
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: {
		type: 'records',
		kind: 'topPage',
	},
});
