import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkOpaqueId } from '../../../shared/validation';
import { filterFields, filterQuery } from './filters';

/** #26 GET /api/v2/ai-visibility/domains/{domain_id}/metrics */
export const getAiDashboard = defineOperation({
	resource: 'aiMetric',
	value: 'getDashboard',
	name: 'Get Dashboard',
	action: 'Get the AI visibility dashboard of a domain',
	description:
		'Get the AI visibility metrics of a brand and its competitors: visibility score, sentiment, mentions, citations, average position, trends and time series',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}/metrics`,
	fields: [domainField(), ...filterFields(true)],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
		qs: filterQuery(input, true),
	}),
	output: { type: 'report', legacy: 'record' },
});
