import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkOpaqueId } from '../../../shared/validation';

/** #24 GET /api/v2/ai-visibility/domains/{domain_id} */
export const getAiDomain = defineOperation({
	resource: 'aiDomain',
	value: 'get',
	name: 'Get',
	action: 'Get an AI visibility domain',
	description: 'Get one AI visibility domain (brand) by ID',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}`,
	fields: [domainField()],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
	}),
	output: { type: 'record', kind: 'aiDomain' },
});
