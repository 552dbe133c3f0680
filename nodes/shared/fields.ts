import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_CONCURRENCY, MAX_PAGE_SIZE } from './constants';

/**
 * Field builders shared by every operation. Operations list them without displayOptions; `defineOperation` scopes
 * them to their resource and operation.
 */

interface LocatorSpec {
	name: string;
	displayName: string;
	description: string;
	required: boolean;
	searchListMethod: string;
	listPlaceholder: string;
	/** The second way to give the value: typed name, or typed ID (digits only when `numeric`). */
	typed: { mode: 'name' | 'id'; placeholder: string; numeric?: boolean };
}

/** A resource locator: a searchable list from the API, or the value typed in. */
function locator(spec: LocatorSpec): INodeProperties {
	const numericValidation = spec.typed.numeric
		? [
				{
					type: 'regex' as const,
					properties: { regex: '^[0-9]+$', errorMessage: 'An ID is a whole number' },
				},
			]
		: undefined;
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: spec.required,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: spec.listPlaceholder,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: spec.typed.mode === 'name' ? 'By Name' : 'By ID',
				name: spec.typed.mode,
				type: 'string',
				placeholder: spec.typed.placeholder,
				...(numericValidation ? { validation: numericValidation } : {}),
			},
		],
	};
}

/** Project picked from the account's list (#1) or typed by name. The value is the project name. */
// Said for AI agents too ($fromAI): a name, not an ID.
export const projectField = (
	description = 'The project to work on, by its name as shown in Keyword.com (not its ID)',
): INodeProperties =>
	locator({
		name: 'project',
		displayName: 'Project',
		description,
		required: true,
		searchListMethod: 'searchProjects',
		listPlaceholder: 'Select a project…',
		typed: { mode: 'name', placeholder: 'e.g. Acme Shoes' },
	});

/** Optional group of the chosen project; the node composes the group's full name. */
export const groupField = (): INodeProperties =>
	locator({
		name: 'group',
		displayName: 'Group',
		description:
			"A group inside the project. Leave empty to use the project itself. Typed, it is the group's own name (without the project's).",
		required: false,
		searchListMethod: 'searchGroups',
		listPlaceholder: 'Select a group (optional)…',
		typed: { mode: 'name', placeholder: 'e.g. Blog' },
	});

export const domainField = (): INodeProperties =>
	locator({
		name: 'domainId',
		displayName: 'Domain',
		description: 'The AI visibility domain',
		required: true,
		searchListMethod: 'searchDomains',
		listPlaceholder: 'Select a domain…',
		typed: { mode: 'id', placeholder: 'e.g. 6650a1c2e4b0f1a2b3c4d5e6' },
	});

/**
 * The keyword of #11, #12 and #15: picked from the keywords of the project (and group) chosen above, or typed by its
 * ID. The value is the keyword ID either way; a value saved as plain text (the field was a text field before) is
 * still read as the ID.
 */
// Said for AI agents too ($fromAI): as a tool, the keyword's text is looked up in the project (operation/keywordLookup.ts).
export const keywordIdField = (): INodeProperties =>
	locator({
		name: 'keywordId',
		displayName: 'Keyword ID',
		description:
			"The keyword, picked from the project's keywords or by its numeric ID. As an AI tool, the keyword's exact text also works when exactly one keyword of the project has it.",
		required: true,
		searchListMethod: 'searchKeywords',
		listPlaceholder: 'Select a keyword…',
		typed: { mode: 'id', placeholder: 'e.g. 272678916', numeric: true },
	});

/**
 * Keywords picked from the keyword list of the project (and group) chosen above; the values are their IDs. (n8n's
 * lint wants the description as written here, a literal ending in its sentence on expressions.)
 */
export const keywordIdsField = (): INodeProperties => ({
	displayName: 'Keyword Names or IDs',
	name: 'keywordIds',
	type: 'multiOptions',
	typeOptions: {
		loadOptionsMethod: 'getKeywords',
		loadOptionsDependsOn: ['project.value', 'group.value'],
	},
	default: [],
	required: true,
	description:
		'The keywords, from the chosen project’s first 1,000. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
});

/** A date, picked in n8n's date field; the node sends the day as the API wants it (`YYYY-MM-DD`). */
export const dateField = (
	name: string,
	displayName: string,
	description: string,
	required = false,
): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	required,
	// An AI agent filling the field ($fromAI) reads only the description: the day is what counts.
	description: `${description} (a date; its time of day is not used)`,
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

/** Pages fetched at once by Return All. */
export const concurrencyOption = (): INodeProperties => ({
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	default: DEFAULT_PAGE_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: 16, numberPrecision: 0 },
	description: `How many pages of ${MAX_PAGE_SIZE} records to fetch at once. 1 fetches one page after another.`,
});

/** An "Options" collection, or "Additional Fields" (named `additionalFields`) for extra body attributes. */
export const options = (fields: INodeProperties[], displayName = 'Options'): INodeProperties => ({
	displayName,
	name: displayName === 'Options' ? 'options' : 'additionalFields',
	type: 'collection',
	placeholder: displayName === 'Options' ? 'Add option' : 'Add field',
	default: {},
	options: fields,
});

export const stringListField = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	typeOptions: { multipleValues: true },
	default: [],
	description,
});
