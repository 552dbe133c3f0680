import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { dateField, groupField, options, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';
import { checkOptionalDate } from '../../../shared/validation';

/** #13 GET /api/v2/groups/{project_name}/keywords/ — paged by meta.pagination */
export const getManyKeywords = defineOperation({
	resource: 'keyword',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many keywords',
	description:
		'List the tracked keywords of a project or group with their current ranks, one item per keyword, optionally as of a past date',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}/keywords/`,
	fields: [
		projectField(),
		groupField(),
		options([
			dateField('date', 'Date', 'Return the ranking data of this date instead of the latest'),
		]),
	],
	paged: 'pagination',
	prepare: (input) => {
		const qs: IDataObject = {};
		const date = checkOptionalDate('Date', input.get('options.date', ''));
		if (date) qs.date = date;
		return { path: { target: readTarget(input).encoded }, qs };
	},
	output: { type: 'records', kind: 'keyword' },
});
