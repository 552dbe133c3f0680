import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { options } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { checkInteger, checkOneOf, requireText } from '../../../shared/validation';

/** #20 GET /api/v2/alerts — paged by meta.pagination */
export const getManyAlerts = defineOperation({
	resource: 'alert',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many alerts',
	description:
		'List rank-change alerts (keyword, project, previous rank, new rank, time), newest first by default, one item per alert',
	method: 'GET',
	path: `${API_PREFIX}/alerts`,
	paged: 'pagination',
	fields: [
		options([
			{
				displayName: 'Last (Days)',
				name: 'last',
				type: 'number',
				default: 7,
				typeOptions: { minValue: 1 },
				description: 'Only alerts of the last N days',
			},
			{
				displayName: 'Sort Direction',
				name: 'sortDirection',
				type: 'options',
				default: 'desc',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
			},
			{
				displayName: 'Sort Field',
				name: 'sortField',
				type: 'string',
				default: 'created_at',
				description:
					'The alert field to sort by, as Keyword.com names it: created_at (when the alert was made) by default',
			},
			{
				displayName: 'View Type',
				name: 'viewType',
				type: 'string',
				default: '',
				description:
					"Only the alerts of this view of Keyword.com's alert list (the views are Keyword.com's own; empty: all alerts)",
			},
		]),
	],
	prepare: (input) => {
		const qs: IDataObject = {};
		const opts = (input.get('options', {}) ?? {}) as IDataObject;
		if (opts.last !== undefined) qs.last = checkInteger('Last (Days)', opts.last, 1, 3650);
		if (opts.sortDirection !== undefined)
			qs.sort_direction = checkOneOf('Sort Direction', opts.sortDirection, ['asc', 'desc']);
		if (opts.sortField) qs.sort_field = requireText('Sort Field', opts.sortField).trim();
		if (opts.viewType) qs.view_type = requireText('View Type', opts.viewType).trim();
		return { qs };
	},
	output: { type: 'records', kind: 'alert' },
});
