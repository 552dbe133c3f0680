import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE, MAX_PAGE_SIZE } from './constants';
import { accessOf } from './credentials';
import { encodeName } from './groupName';
import { summarizeKeyword } from './keywordText';
import { parsePage } from './paging';
import { redactDeep } from './redact';
import { apiRequest } from './transport';
import { checkName } from './validation';

/**
 * Dropdowns filled from the project (and group) chosen in the node's Project and Group fields. No project chosen
 * yet: no options. The token never reaches the editor, whatever the API put in a name.
 */

/** A resource locator's value as the editor holds it (`{__rl, mode, value}`) or a plain string. */
function locatorValue(value: unknown): string {
	if (value && typeof value === 'object') return String((value as IDataObject).value ?? '');
	return typeof value === 'string' ? value : '';
}

/** The project and group chosen, checked, as a path segment; undefined when no project is chosen. */
function chosenTarget(context: ILoadOptionsFunctions): string | undefined {
	const project = locatorValue(context.getCurrentNodeParameter('project')).trim();
	if (project === '') return undefined;
	const group = locatorValue(context.getCurrentNodeParameter('group')).trim();
	return encodeName(checkName('Project', project), checkName('Group', group, { allowEmpty: true }));
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

/** The tags of the chosen project or group (#2 GET /api/v2/groups/{project_name}, its `tags`). */
async function readTags(context: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const target = chosenTarget(context);
	if (target === undefined) return [];
	const { baseUrl } = accessOf(await context.getCredentials(CREDENTIAL_TYPE));
	const response = await apiRequest(context, {
		method: 'GET',
		url: `${API_PREFIX}/groups/${target}`,
		base: { baseURL: baseUrl },
	});
	const record = ((response.body as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const tags = (record.attributes as IDataObject | undefined)?.tags;
	return Array.isArray(tags) ? (tags as IDataObject[]) : [];
}

/** The chosen project's tags by name: keyword records name their tags, so the name is what a filter compares. */
export async function getProjectTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const names = [
		...new Set((await readTags(this)).map((tag) => String(tag?.name ?? '')).filter(Boolean)),
	];
	return names.map((tag) => ({ name: tag, value: tag })).sort(byName);
}

/** The chosen project's tags by ID (what Get Metrics sends), each shown by its name. */
export async function getProjectTagIds(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const { token } = accessOf(await this.getCredentials(CREDENTIAL_TYPE));
	const options = (await readTags(this))
		.filter((tag) => tag && (typeof tag.id === 'number' || typeof tag.id === 'string'))
		.map((tag) => ({ name: String(tag.name ?? tag.id), value: String(tag.id) }));
	return redactDeep({ options }, token).options as INodePropertyOptions[];
}

/** Pages of the keyword list (250 keywords each) the keyword dropdown reads at most: 1,000 keywords. */
export const KEYWORD_OPTIONS_PAGES = 4;

/**
 * The chosen project's keywords (#13), each shown with where it is tracked, by its ID. A larger project lists its
 * first 1,000 keywords; the others are given by ID in an expression (the field's description says so).
 */
export async function getKeywords(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const target = chosenTarget(this);
	if (target === undefined) return [];
	const { baseUrl, token } = accessOf(await this.getCredentials(CREDENTIAL_TYPE));
	const options: INodePropertyOptions[] = [];
	for (let page = 1; page <= KEYWORD_OPTIONS_PAGES; page++) {
		const response = await apiRequest(this, {
			method: 'GET',
			url: `${API_PREFIX}/groups/${target}/keywords/`,
			qs: { page, per_page: MAX_PAGE_SIZE },
			base: { baseURL: baseUrl },
		});
		const { records, hasNext } = parsePage('pagination', response.body, page, MAX_PAGE_SIZE);
		for (const keyword of records.map(summarizeKeyword))
			if (keyword) options.push({ name: keyword.label, value: keyword.id });
		if (!hasNext || records.length === 0) break;
	}
	return (redactDeep({ options }, token).options as INodePropertyOptions[]).sort(byName);
}

export const loadOptions = { getKeywords, getProjectTagIds, getProjectTags };
