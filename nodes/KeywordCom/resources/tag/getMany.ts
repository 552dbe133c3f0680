import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';

/** Tags live on the project record: #2 GET /api/v2/groups/{project_name}, one item per tag. */
export const getManyTags = defineOperation({
	resource: 'tag',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many tags',
	description:
		'List the tags of a project or group (ID, name, dates); use a tag ID to filter metrics',
	method: 'GET',
	path: `${API_PREFIX}/groups/{target}`,
	fields: [projectField(), groupField()],
	prepare: (input) => ({ path: { target: readTarget(input).encoded } }),
	output: {
		type: 'records',
		kind: 'tag',
		select: (body) => {
			const attributes = ((body.data as IDataObject | undefined)?.attributes ?? {}) as IDataObject;
			return Array.isArray(attributes.tags) ? attributes.tags : [];
		},
	},
});
