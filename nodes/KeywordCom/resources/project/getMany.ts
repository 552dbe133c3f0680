import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { isGroupName } from '../../../shared/groupName';
import { defineOperation } from '../../operation/define';

/** #1 GET /api/v2/groups/active */
export const getManyProjects = defineOperation({
	resource: 'project',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many projects',
	description:
		'List every active project and group of the account with keyword counts, tags and when ranks were last updated',
	method: 'GET',
	path: `${API_PREFIX}/groups/active`,
	fields: [
		{
			displayName: 'Include',
			name: 'include',
			type: 'options',
			default: 'all',
			options: [
				{ name: 'Groups Only', value: 'groups' },
				{ name: 'Projects and Groups', value: 'all' },
				{ name: 'Projects Only', value: 'projects' },
			],
			description: 'Which to return: projects, their groups, or both',
		},
	],
	output: {
		type: 'records',
		kind: 'group',
		select: (body, input) => {
			const records = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
			const include = input.get('include', 'all');
			if (include === 'all') return records;
			return records.filter((record) => isGroupName(record.id) === (include === 'groups'));
		},
	},
});
