import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkOpaqueId } from '../../../shared/validation';

/** #25 GET /api/v2/ai-visibility/domains/{domain_id}/search-terms */
export const getManyAiSearchTerms = defineOperation({
	resource: 'aiSearchTerm',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many AI search terms',
	description:
		'List the prompts tracked for a domain in AI search engines: engines, topic, status, update interval, last and next run',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}/search-terms`,
	fields: [domainField()],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
	}),
	output: { type: 'records', kind: 'searchTerm' },
});
