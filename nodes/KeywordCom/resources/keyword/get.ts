import { API_PREFIX } from '../../../shared/constants';
import {
	dateField,
	groupField,
	keywordIdField,
	options,
	projectField,
} from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { keywordPath } from './keywordSegment';

/** #11 GET /api/v2/groups/{project_name}/keywords/{keyword_id}[&date=YYYY-MM-DD] */
export const getKeyword = defineOperation({
	resource: 'keyword',
	value: 'get',
	name: 'Get',
	action: 'Get a keyword',
	description:
		'Get one tracked keyword with its current rank, best rank, ranking URL, search volume and SERP features, optionally as of a past date',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/keywords/{keyword}`,
	fields: [
		projectField(),
		groupField(),
		keywordIdField(),
		options([
			dateField('date', 'Date', 'Return the ranking data of this date instead of the latest'),
		]),
	],
	keywordByText: true,
	prepare: (input) => ({ path: keywordPath(input) }),
	output: { type: 'record', kind: 'keyword' },
});
