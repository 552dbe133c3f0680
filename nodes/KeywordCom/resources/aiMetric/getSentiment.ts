import { API_PREFIX } from '../../../shared/constants';
import { domainField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkOpaqueId } from '../../../shared/validation';
import { filterFields, filterQuery } from './filters';

/** #27 GET /api/v2/ai-visibility/domains/{domain_id}/metrics/sentiment */
export const getAiSentiment = defineOperation({
	resource: 'aiMetric',
	value: 'getSentiment',
	name: 'Get Sentiment',
	action: 'Get AI sentiment',
	description:
		'Get brand and company sentiment in AI answers: aggregates, keyword clouds and sentiment by engine, optionally for some topics or search terms',
	method: 'GET',
	path: `${API_PREFIX}/ai-visibility/domains/{domainId}/metrics/sentiment`,
	fields: [domainField(), ...filterFields(false)],
	prepare: (input) => ({
		path: { domainId: encodeURIComponent(checkOpaqueId('Domain', input.get('domainId'))) },
		qs: filterQuery(input, false),
	}),
	output: { type: 'report' },
});
