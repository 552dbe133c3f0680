import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** #18 GET /api/v2/metrics/{project_name}/mindshare/latest */
export const getLatestShareOfVoice = defineOperation({
	resource: 'shareOfVoice',
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest share of voice',
	description:
		"Get the 10 domains with the largest share of voice for the project's keywords: estimated clicks, percentage and monthly change",
	method: 'GET',
	path: `${API_PREFIX}/metrics/{target}/mindshare/latest`,
	fields: [projectField(), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: {
		type: 'records',
		kind: 'shareOfVoice',
	},
});
