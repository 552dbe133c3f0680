import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { API_PREFIX } from '../../../shared/constants';
import { groupField, keywordIdsField, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import {
	checkIdList,
	checkNumericId,
	checkOneOf,
	checkTextList,
	InputError,
	requireText,
} from '../../../shared/validation';

const updateFields: INodeProperties[] = [
	{ displayName: 'Business Listing Name', name: 'gmb', type: 'string', default: '' },
	{
		displayName: 'Device',
		name: 'type',
		type: 'options',
		default: 'se',
		options: [
			{ name: 'Desktop', value: 'se' },
			{ name: 'Maps', value: 'maps' },
			{ name: 'Mobile', value: 'sem' },
		],
	},
	{
		displayName: 'Favourite',
		name: 'isfav',
		type: 'boolean',
		default: false,
		description: 'Whether the keyword is a favourite',
	},
	{
		displayName: 'Ignore Featured Snippet',
		name: 'ignore_featured',
		type: 'boolean',
		default: false,
		description: 'Whether to ignore featured snippets when ranking',
	},
	{
		displayName: 'Ignore Local Listings',
		name: 'ignore_local',
		type: 'boolean',
		default: false,
		description: 'Whether to ignore local listings when ranking',
	},
	{ displayName: 'Language', name: 'language', type: 'string', default: '' },
	{ displayName: 'Location', name: 'near', type: 'string', default: '' },
	{ displayName: 'Notes', name: 'notes', type: 'string', default: '' },
	{
		displayName: 'Region',
		name: 'region',
		type: 'string',
		default: '',
		placeholder: 'e.g. google.co.uk',
	},
	{
		displayName: 'Tags',
		name: 'tagsSplited',
		type: 'string',
		default: '',
		description: 'Tags of the keywords, comma-separated (replaces their tags)',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		description: 'New tracked address',
	},
	{
		displayName: 'Other Attributes (JSON)',
		name: 'json',
		type: 'json',
		default: '{}',
		description:
			'More attributes of the keywords as a JSON object, e.g. {"ignore_sub_domains": true}; applied after the fields above',
	},
];

/** #16 PATCH /api/v2/projects/{project_id}/keywords */
export const updateManyKeywords = defineOperation({
	resource: 'keyword',
	value: 'updateMany',
	name: 'Update Many',
	action: 'Update many keywords',
	description:
		'Change attributes (URL, region, device, tags, notes, favourite…) of one or many keywords of a project at once',
	method: 'PATCH',
	path: `${API_PREFIX}/projects/{projectId}/keywords`,
	fields: [
		projectField('The project the keywords belong to, by its name as shown in Keyword.com'),
		groupField(),
		keywordIdsField(),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			options: updateFields,
		},
	],
	projectId: true,
	prepare: (input) => {
		const projectId = checkNumericId('Project', input.get('projectId'));
		const ids = checkIdList('Keywords', input.get('keywordIds'));
		const fields = (input.get('updateFields', {}) ?? {}) as IDataObject;
		const attributes: IDataObject = {};
		for (const [key, value] of Object.entries(fields)) {
			if (key === 'json') {
				const parsed = typeof value === 'string' ? safeJson(value) : value;
				if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
					throw new InputError(
						'Other Attributes (JSON)',
						'must be a JSON object (check the JSON syntax)',
					);
				}
				Object.assign(attributes, parsed);
			} else if (key === 'tagsSplited') attributes.tagsSplited = checkTextList('Tags', value);
			else if (key === 'type') attributes.type = checkOneOf('Device', value, ['se', 'sem', 'maps']);
			else if (typeof value === 'string') attributes[key] = requireText(key, value).trim();
			else attributes[key] = value;
		}
		if (Object.keys(attributes).length === 0) {
			throw new InputError('Update Fields', 'choose at least one attribute to change');
		}
		return {
			path: { projectId },
			body: { data: { ids, type: 'keyword', attributes } },
		};
	},
	output: {
		type: 'confirmation',
		result: (input) => ({
			updated: true,
			keyword_ids: checkIdList('Keywords', input.get('keywordIds')),
		}),
	},
});

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
