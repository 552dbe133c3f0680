import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_CONCURRENCY, MAX_PAGE_SIZE } from './constants';

/**
 * Field builders shared by every operation. Operations list them without displayOptions; `defineOperation` scopes
 * them to their resource and operation.
 */

/** Project picked from the account's list (#1) or typed by name. The value is the project name. */
export const projectField = (description = 'The project to work on'): INodeProperties => ({
	displayName: 'Project',
	name: 'project',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a project…',
			typeOptions: { searchListMethod: 'searchProjects', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. Acme Shoes',
		},
	],
});

/** Optional group of the chosen project; the node composes `<project>[sub]<group>`. */
export const groupField = (): INodeProperties => ({
	displayName: 'Group',
	name: 'group',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'A group inside the project. Leave empty to use the project itself. Type the group name only: the node adds the [sub] separator.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a group (optional)…',
			typeOptions: { searchListMethod: 'searchGroups', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. Blog',
		},
	],
});

/** Project or group chosen by its numeric id (the endpoints under /projects/{project_id}). */
export const projectIdField = (description = 'The project or group, by its numeric ID'): INodeProperties => ({
	displayName: 'Project',
	name: 'projectId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a project or group…',
			typeOptions: { searchListMethod: 'searchProjectIds', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1234',
			validation: [
				{ type: 'regex', properties: { regex: '^[0-9]+$', errorMessage: 'A project ID is a whole number' } },
			],
		},
	],
});

export const domainField = (): INodeProperties => ({
	displayName: 'Domain',
	name: 'domainId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The AI visibility domain',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a domain…',
			typeOptions: { searchListMethod: 'searchDomains', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 7' },
	],
});

export const keywordIdField = (): INodeProperties => ({
	displayName: 'Keyword ID',
	name: 'keywordId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 272678916',
	description: 'The numeric ID of the keyword, as listed by Keyword → Get Many',
});

export const keywordIdsField = (description: string): INodeProperties => ({
	displayName: 'Keyword IDs',
	name: 'keywordIds',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 101, 102, 103',
	description: `${description}. Comma-separated, or a list from an expression.`,
});

export const dateField = (name: string, displayName: string, description: string, required = false): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	required,
	placeholder: 'YYYY-MM-DD',
	description,
});

export const returnAllFields = (): INodeProperties[] => [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

export const simplifyField = (): INodeProperties => ({
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
});

/** Pages fetched at once by Return All. */
export const concurrencyOption = (): INodeProperties => ({
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	default: DEFAULT_PAGE_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: 16 },
	description: `How many pages of ${MAX_PAGE_SIZE} records to fetch at once. 1 fetches one page after another.`,
});

/** An "Options" collection, or "Additional Fields" (named `additionalFields`) for extra body attributes. */
export const options = (fields: INodeProperties[], displayName = 'Options'): INodeProperties => ({
	displayName,
	name: displayName === 'Options' ? 'options' : 'additionalFields',
	type: 'collection',
	placeholder: displayName === 'Options' ? 'Add option' : 'Add Field',
	default: {},
	options: fields,
});

export const stringListField = (name: string, displayName: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	typeOptions: { multipleValues: true },
	default: [],
	description,
});
