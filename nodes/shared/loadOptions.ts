import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE } from './constants';
import { accessOf } from './credentials';
import { encodeName } from './groupName';
import { apiRequest } from './transport';
import { checkName } from './validation';

/** A resource locator's value as the editor holds it (`{__rl, mode, value}`) or a plain string. */
function locatorValue(value: unknown): string {
	if (value && typeof value === 'object') return String((value as IDataObject).value ?? '');
	return typeof value === 'string' ? value : '';
}

/**
 * The tags of the project chosen in the Project field (#2 GET /api/v2/groups/{project_name}, its `tags`), by name:
 * keyword records name their tags, so the name is what a filter compares. No project chosen yet: no options.
 */
export async function getProjectTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const project = locatorValue(this.getCurrentNodeParameter('project')).trim();
	if (project === '') return [];
	const name = checkName('Project', project);
	const response = await apiRequest(this, {
		method: 'GET',
		url: `${API_PREFIX}/groups/${encodeName(name, '')}`,
		base: { baseURL: accessOf(await this.getCredentials(CREDENTIAL_TYPE)).baseUrl },
	});
	const record = ((response.body as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const tags = ((record.attributes as IDataObject | undefined)?.tags ?? []) as IDataObject[];
	const names = [...new Set(tags.map((tag) => String(tag?.name ?? '')).filter(Boolean))];
	return names.sort((a, b) => a.localeCompare(b)).map((tag) => ({ name: tag, value: tag }));
}

export const loadOptions = { getProjectTags };
