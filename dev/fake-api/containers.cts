/**
 * The life of projects and groups ("containers"): archive, restore and delete with the effects of #3, #8 and #4
 * (the handlers use these too), rename (the real API has no rename endpoint; users rename in the web app), and the
 * one-shot changes the fake applies between two requests (FakeKeywordApi.afterNextAnswer).
 */
import { invalid } from './errors.cjs';
import { SUB, type Container, type FakeState } from './state.cjs';

/** A change to one project or group, named by its full name. */
export type ContainerChange =
	| { op: 'rename'; name: string; to: string }
	| { op: 'archive' | 'restore' | 'delete'; name: string };
export const CHANGE_OPS = ['rename', 'archive', 'restore', 'delete'] as const;

/** What an after-answer change did (FakeKeywordApi.changesLog). */
export interface ChangeLogEntry {
	/** The id afterNextAnswer returned. */
	id: number;
	/** Index into `requests` of the request after whose answer the change was applied. */
	afterRequest: number;
	op: ContainerChange['op'];
	name: string;
	/** The new name (rename only). */
	to?: string;
	/** False when the change could not be made (e.g. the name no longer exists); `error` says why. */
	applied: boolean;
	error?: string;
}

export const kindOf = (c: Container): string => (c.parent ? 'Group' : 'Project');

/** #3: status 2 archives, any other status makes the project or group active. */
export function setArchived(state: FakeState, c: Container, archived: boolean): void {
	c.archived = archived;
	c.updatedAt = state.now();
}

/** #8: restores an archived project or group; one that is not archived is a 422. */
export function restoreArchived(state: FakeState, c: Container): void {
	if (!c.archived) throw invalid(`${kindOf(c)} "${c.name}" is not archived.`);
	setArchived(state, c, false);
}

/** #4: deletes a project (with its groups) or a group, with their keywords; returns how many keywords went. */
export function deleteWithKeywords(state: FakeState, c: Container): number {
	let keywords = c.keywordIds.length;
	for (const child of c.children) keywords += child.keywordIds.length;
	state.deleteContainer(c);
	return keywords;
}

/** Why `name` cannot be the name of a project or (the part after `[sub]`) of a group, or undefined when it can. */
function badName(name: string, what: 'project' | 'group'): string | undefined {
	if (name.trim() === '') return `The ${what} name must not be empty.`;
	if (name.trim() !== name) return `The ${what} name may not start or end with white space.`;
	if (name.includes(SUB)) return `A ${what} name may not contain "[sub]".`;
	if (what === 'project' && name.length > 255)
		return 'The project name may not be longer than 255 characters.';
	return undefined;
}

/**
 * Renames a project (its groups move with it: `Old[sub]G` becomes `New[sub]G`) or a group (`P[sub]Old` to
 * `P[sub]New`: a group stays in its project). Everything else stays: project_id, keywords (whose category is the
 * container's name), tags, keywords_last_updated_at, crawled_at. Alerts keep the category they were created with.
 * A name that exists already, or is not valid, is a 422; an unknown `name` a 404.
 */
export function renameContainer(state: FakeState, name: string, to: string): Container {
	const c = state.getContainer(name);
	if (typeof to !== 'string') throw invalid('The new name must be a string.', { pointer: '/to' });
	if (state.containers.has(to))
		throw invalid(`A project or group named "${to}" already exists.`, { pointer: '/to' });
	if (c.parent === null) {
		const bad = badName(to, 'project');
		if (bad) throw invalid(bad, { pointer: '/to' });
		state.containers.delete(c.name);
		c.name = to;
		c.projectName = to;
		state.containers.set(to, c);
		for (const child of c.children) {
			state.containers.delete(child.name);
			child.projectName = to;
			child.name = `${to}${SUB}${child.groupName ?? ''}`;
			state.containers.set(child.name, child);
		}
		return c;
	}
	const prefix = `${c.projectName}${SUB}`;
	if (!to.startsWith(prefix))
		throw invalid(`A group stays in its project: the new name must start with "${prefix}".`, {
			pointer: '/to',
		});
	const groupName = to.slice(prefix.length);
	const bad = badName(groupName, 'group');
	if (bad) throw invalid(bad, { pointer: '/to' });
	state.containers.delete(c.name);
	c.name = to;
	c.groupName = groupName;
	state.containers.set(to, c);
	return c;
}

/** Makes the change (see ContainerChange); throws as the single operations do. */
export function applyChange(state: FakeState, change: ContainerChange): void {
	if (change.op === 'rename') {
		renameContainer(state, change.name, change.to);
		return;
	}
	const c = state.getContainer(change.name);
	if (change.op === 'archive') setArchived(state, c, true);
	else if (change.op === 'restore') restoreArchived(state, c);
	else deleteWithKeywords(state, c);
}

/** A ContainerChange checked field by field (Error on anything else), copied so later edits of the input do not leak. */
export function checkChange(value: unknown): ContainerChange {
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new Error('change must be an object {op, name, to?}.');
	const { op, name, to } = value as Record<string, unknown>;
	if (!(CHANGE_OPS as readonly unknown[]).includes(op))
		throw new Error(`change.op must be one of ${CHANGE_OPS.join(', ')}.`);
	if (typeof name !== 'string' || name === '')
		throw new Error('change.name must be a non-empty string.');
	if (op === 'rename') {
		if (typeof to !== 'string' || to === '')
			throw new Error('change.to (the new name) must be a non-empty string.');
		return { op, name, to };
	}
	return { op: op as 'archive' | 'restore' | 'delete', name };
}
