/**
 * Which projects and groups an event is reported for. The API names a project by its name and a group by
 * `<project>[sub]<group>`; an alert's `category` and a keyword's container use the same names.
 */
import { checkName, InputError } from '../../shared/validation';

export const GROUP_SEPARATOR = '[sub]';

export interface Scope {
	/** Empty: every project. */
	project: string;
	/** Empty: the project itself (and its groups when `includeGroups`). */
	group: string;
	includeGroups: boolean;
}

export const ALL: Scope = { project: '', group: '', includeGroups: true };

export function inScope(name: string, scope: Scope): boolean {
	if (!scope.project) return true;
	if (scope.group) return name === `${scope.project}${GROUP_SEPARATOR}${scope.group}`;
	if (name === scope.project) return true;
	return scope.includeGroups && name.startsWith(`${scope.project}${GROUP_SEPARATOR}`);
}

/** `{project, group}` of a container name (`group` null for a project). */
export function splitName(name: string): {
	project: string;
	group: string | null;
} {
	const index = name.indexOf(GROUP_SEPARATOR);
	return index < 0
		? { project: name, group: null }
		: {
				project: name.slice(0, index),
				group: name.slice(index + GROUP_SEPARATOR.length),
			};
}

/** Checks the Project and Group fields (names as the action node checks them); throws InputError naming the field. */
export function parseScope(rawProject: unknown, rawGroup: unknown, includeGroups: boolean): Scope {
	const project = checkName('Project', rawProject, { allowEmpty: true });
	const group = checkName('Group', rawGroup, { allowEmpty: true });
	if (group && !project) throw new InputError('Group', 'choose the project of the group first');
	return { project, group, includeGroups };
}
