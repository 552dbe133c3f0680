import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkOpaqueId } from '../../../shared/validation';
import { filterFields, filterQuery } from './filters';

/** #28 GET /api/v2/ai-visibility/domains/{domain_id}/metrics/citations */
export const getAiCitations = defineOperation({
	resource: 'aiMetric',
	value: 'getCitations',
	name: 'Get Citations',
	action: 'Get AI citations',
	description:
		'Get which domains and URLs AI answers cite, by engine and by query, for the brand and its competitors, optionally for some topics or search terms',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}/metrics/citations`,
	fields: [domainField(), ...filterFields(false)],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
		qs: filterQuery(input, false),
	}),
	output: { type: 'report' },
});
