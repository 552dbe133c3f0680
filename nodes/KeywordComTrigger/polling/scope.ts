/**
 * The trigger's Project and Group fields as a scope (and AI Visibility Updated's: a domain, topics, engines). What a
 * scope covers, and every other rule about project and group names, is in shared/groupName.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Scope } from '../../shared/groupName';
import { checkName, InputError } from '../../shared/validation';
import { readAiNarrowing } from '../filters/triggerFilters';

/** Checks the Project and Group fields (names as the action node checks them); throws InputError naming the field. */
export function parseScope(rawProject: unknown, rawGroup: unknown, includeGroups: boolean): Scope {
	const project = checkName('Project', rawProject, { allowEmpty: true });
	const group = checkName('Group', rawGroup, { allowEmpty: true });
	if (group && !project) throw new InputError('Group', 'choose the project of the group first');
	return { project, group, includeGroups };
}

/** What the event reads: one domain or all, narrowed to some topics or engines (the API's own filters). */
export interface AiScope {
	/** A domain id; undefined: every domain. */
	domainId?: string;
	topics: string[];
	engines: string[];
}

/** AI Visibility Updated's scope: the Domain field, and the Topics and Engines of the Filters. */
export function readAiScope(domainId: unknown, rawFilters: IDataObject): AiScope {
	const id =
		typeof domainId === 'string' || typeof domainId === 'number' ? String(domainId).trim() : '';
	return { domainId: id === '' ? undefined : id, ...readAiNarrowing(rawFilters) };
}
