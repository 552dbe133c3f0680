import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE, MAX_PAGE_SIZE } from './constants';
import { accessOf } from './credentials';
import { encodeName, groupsOf, isGroupName } from './groupName';
import { normalizeKeywordText, summarizeKeyword } from './keywordText';
import { parsePage } from './paging';
import { redactDeep } from './redact';
import { apiRequest } from './transport';

/**
 * Searchable lists behind the resource locators. Projects and groups come from one read of `groups/active` (#1),
 * domains from #23. The lists are small (one record per project), so filtering happens here. Keywords come from the
 * project's keyword list (#13), a few pages at a time: the API has no search parameter (the document gives `page`,
 * `per_page` and `date` only), so the text is matched here too.
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

/** Pages of the keyword list (250 keywords each) one search of the keyword picker reads at most. */
export const KEYWORD_SEARCH_PAGES = 4;

/** A search stops reading pages once this many keywords match; the editor asks for more as the user scrolls. */
export const KEYWORD_SEARCH_MATCHES = 50;

/** A name parameter of the node as typed or picked; empty when unset or an expression (nothing to resolve it with). */
function nameParameter(context: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = context.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		// A parameter the operation does not show (no Group): as if empty.
		return '';
	}
	return typeof value === 'string' && !value.startsWith('=') ? value.trim() : '';
}

/** The page a search starts at: the editor's pagination token (the next page of the previous answer), or 1. */
function firstPageOf(paginationToken?: string): number {
	const page = Number(paginationToken);
	return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * Keywords of the project (and group) chosen in the node, by keyword text or ID. Without a filter one page per call;
 * with one, up to KEYWORD_SEARCH_PAGES pages, until KEYWORD_SEARCH_MATCHES keywords match. `paginationToken` is the
 * next page to read, so scrolling the list reads on where the last call stopped.
 */
export async function searchKeywords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const project = nameParameter(this, 'project');
	if (project === '') return { results: [] };
	const url = `${API_PREFIX}/groups/${encodeName(project, nameParameter(this, 'group'))}/keywords/`;
	const { baseUrl: baseURL, token } = accessOf(await this.getCredentials(CREDENTIAL_TYPE));
	const wanted = normalizeKeywordText(filter ?? '');
	const results: INodeListSearchItems[] = [];
	let page = firstPageOf(paginationToken);
	let next: number | undefined;
	for (let read = 0; read < KEYWORD_SEARCH_PAGES; read++) {
		const response = await apiRequest(this, {
			method: 'GET',
			url,
			qs: { page, per_page: MAX_PAGE_SIZE },
			base: { baseURL },
		});
		const { records, hasNext } = parsePage('pagination', response.body, page, MAX_PAGE_SIZE);
		for (const keyword of records.map(summarizeKeyword)) {
			if (!keyword) continue;
			if (
				wanted === '' ||
				keyword.id === wanted ||
				normalizeKeywordText(keyword.text).includes(wanted)
			)
				results.push({ name: keyword.label, value: keyword.id });
		}
		next = hasNext && records.length > 0 ? page + 1 : undefined;
		if (next === undefined || wanted === '' || results.length >= KEYWORD_SEARCH_MATCHES) break;
		page = next;
	}
	// The token never reaches the editor, whatever the API put in a keyword.
	return redactDeep(
		next === undefined ? { results } : { results, paginationToken: String(next) },
		token,
	);
}

export const listSearch = {
	searchProjects,
	searchGroups,
	searchDomains,
	searchKeywords,
};
