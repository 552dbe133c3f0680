import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { defineOperation } from '../../operation/define';

/** #23 GET /api/v2/ai-visibility/domains */
export const getManyAiDomains = defineOperation({
	resource: 'aiDomain',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many AI visibility domains',
	description:
		'List the domains (brands) tracked in AI visibility, one item per domain; their IDs are used by the other AI operations',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains`,
	output: {
		type: 'records',
		kind: 'aiDomain',
		// The body is not documented: accept a `data` list or a bare list.
		select: (body) =>
			(Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : []) as IDataObject[],
	},
});
