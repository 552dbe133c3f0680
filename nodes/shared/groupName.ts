/**
 * Project and group names. The API names a project by its name and a group by `<project>[sub]<group>`: in paths, in
 * bodies, in a keyword's `category` and in an alert's. Everything about that form is here, the separator only here.
 */

/** The separator the API puts between a project and a group name. */
export const GROUP_SEPARATOR = '[sub]';

/** `<project>[sub]<group>`, or the project alone when there is no group. */
export function composeName(project: string, group: string): string {
	return group ? `${project}${GROUP_SEPARATOR}${group}` : project;
}

/** A path segment for a project or group: each name encoded on its own, the separator kept literal. */
export function encodeName(project: string, group: string): string {
	const encodedProject = encodeURIComponent(project);
	return group ? `${encodedProject}${GROUP_SEPARATOR}${encodeURIComponent(group)}` : encodedProject;
}

/** `{project, group}` of a name (`group` null for a project). */
export function splitName(name: string): { project: string; group: string | null } {
	const index = name.indexOf(GROUP_SEPARATOR);
	return index < 0
		? { project: name, group: null }
		: { project: name.slice(0, index), group: name.slice(index + GROUP_SEPARATOR.length) };
}

export function isGroupName(name: unknown): boolean {
	return typeof name === 'string' && name.includes(GROUP_SEPARATOR);
}

/** Whether a name holds the separator in any case (a name typed with `[sub]` in it). */
export function holdsSeparator(name: string): boolean {
	return name.toLowerCase().includes(GROUP_SEPARATOR);
}

/** Which projects and groups count: the trigger's Project and Group fields. */
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
	if (scope.group) return name === composeName(scope.project, scope.group);
	if (name === scope.project) return true;
	return scope.includeGroups && name.startsWith(`${scope.project}${GROUP_SEPARATOR}`);
}

/** The groups of a project among names: those starting with `<project>[sub]`. */
export function groupsOf(project: string, names: string[]): string[] {
	const prefix = `${project}${GROUP_SEPARATOR}`;
	return names.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));
}
