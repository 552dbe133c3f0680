import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isGroupName } from './groupName';
import { readGroups } from './listSearch';

/**
 * The tags to choose from in a Tags filter: those of the project chosen in the Project field, or of every project when
 * none is. One read of `groups/active` (#1), which lists each project with its tags. The value is the tag's name
 * (keyword records name their tags; ids differ from project to project).
 */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const project = String(
		this.getCurrentNodeParameter('project', { extractValue: true }) ?? '',
	).trim();
	const names = new Set<string>();
	for (const record of await readGroups(this)) {
		const attributes = (record.attributes ?? {}) as IDataObject;
		const name = String(record.id ?? attributes.name ?? '');
		if (isGroupName(name) || (project !== '' && name !== project)) continue;
		for (const tag of Array.isArray(attributes.tags) ? (attributes.tags as IDataObject[]) : []) {
			if (typeof tag?.name === 'string' && tag.name.trim() !== '') names.add(tag.name.trim());
		}
	}
	return [...names].sort((a, b) => a.localeCompare(b)).map((name) => ({ name, value: name }));
}
