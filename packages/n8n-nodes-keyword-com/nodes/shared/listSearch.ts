import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE } from './constants';
import { accessOf } from './credentials';
import { GROUP_SEPARATOR, groupsOf, isGroupName } from './groupName';
import { apiRequest } from './transport';

/**
 * Searchable lists behind the resource locators. Projects and groups come from one read of `groups/active` (#1),
 * domains from #23. The lists are small (one record per project), so filtering happens here.
 */
async function baseUrl(context: ILoadOptionsFunctions): Promise<string> {
	return accessOf(await context.getCredentials(CREDENTIAL_TYPE)).baseUrl;
}

export async function readGroups(context: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const response = await apiRequest(context, {
		method: 'GET',
		url: `${API_PREFIX}/groups/active`,
		base: { baseURL: await baseUrl(context) },
	});
	const data = (response.body as IDataObject | undefined)?.data;
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

function matches(name: string, filter?: string): boolean {
	return !filter || name.toLowerCase().includes(filter.toLowerCase());
}

function sortByName(results: INodeListSearchItems[]): INodeListSearchResult {
	return { results: results.sort((a, b) => a.name.localeCompare(b.name)) };
}

function recordName(record: IDataObject): string {
	return String(record.id ?? (record.attributes as IDataObject | undefined)?.name ?? '');
}

export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const records = await readGroups(this);
	return sortByName(
		records
			.map(recordName)
			.filter((name) => name !== '' && !isGroupName(name) && matches(name, filter))
			.map((name) => ({ name, value: name })),
	);
}

/** Groups of the project chosen in the Project field; the value is the group name alone. */
export async function searchGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = String(this.getCurrentNodeParameter('project', { extractValue: true }) ?? '');
	if (project === '') return { results: [] };
	const records = await readGroups(this);
	return sortByName(
		groupsOf(project, records.map(recordName))
			.filter((group) => matches(group, filter))
			.map((group) => ({ name: group, value: group })),
	);
}

/** Projects and groups with their numeric ids, for the endpoints addressed by project id. */
export async function searchProjectIds(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const records = await readGroups(this);
	return sortByName(
		records
			.map((record) => ({
				name: recordName(record).replace(GROUP_SEPARATOR, ' › '),
				value: String((record.attributes as IDataObject | undefined)?.project_id ?? ''),
			}))
			.filter((entry) => entry.value !== '' && matches(entry.name, filter)),
	);
}

export async function searchDomains(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const response = await apiRequest(this, {
		method: 'GET',
		url: `${API_PREFIX}/ai-visibility/domains`,
		base: { baseURL: await baseUrl(this) },
	});
	const body = response.body as IDataObject | unknown[] | undefined;
	const data = Array.isArray(body) ? body : (body as IDataObject | undefined)?.data;
	const domains = Array.isArray(data) ? (data as IDataObject[]) : [];
	return sortByName(
		domains
			.map((domain) => {
				const attributes = (domain.attributes ?? domain) as IDataObject;
				const label = String(
					attributes.domain ?? attributes.name ?? attributes.brandName ?? domain.id,
				);
				return { name: label, value: String(domain.id ?? '') };
			})
			.filter((entry) => entry.value !== '' && matches(entry.name, filter)),
	);
}

export const listSearch = { searchProjects, searchGroups, searchProjectIds, searchDomains };
