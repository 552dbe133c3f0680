import { API_PREFIX } from '../../../shared/constants';
import {
	dateField,
	groupField,
	keywordIdField,
	options,
	projectField,
} from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';
import { keywordPath } from './keywordSegment';

/** #12 DELETE /api/v2/groups/{project_name}/keywords/{keyword_id}[&date=YYYY-MM-DD] */
export const deleteKeyword = defineOperation({
	resource: 'keyword',
	value: 'delete',
	name: 'Delete',
	action: 'Delete a keyword',
	description:
		'Stop tracking one keyword. Its whole ranking history is deleted; this cannot be undone.',
	method: 'DELETE',
	path: `${API_PREFIX}/groups/{target}/keywords/{keyword}`,
	fields: [
		projectField(),
		groupField(),
		keywordIdField(),
		options([
			dateField(
				'date',
				'Date',
				"A date sent with the deletion, as Keyword.com's API allows; what it changes is not documented, so leave it empty unless Keyword.com asks for it",
			),
		]),
	],
	keywordByText: true,
	prepare: (input) => ({ path: keywordPath(input) }),
	output: {
		type: 'confirmation',
		result: (input) => ({
			deleted: true,
			keyword_id: String(input.get('keywordId')).trim(),
			project: readTarget(input).name,
		}),
	},
});
