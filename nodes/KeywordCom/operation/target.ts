import type { OperationInput } from './types';
import { composeName, encodeName } from '../../shared/groupName';
import { checkName } from '../../shared/validation';

/** The project (and optional group) an operation acts on, checked and ready for a path or a body. */
export interface Target {
	project: string;
	group: string;
	/** `<project>[sub]<group>` or the project name: what the API calls the project or group name. */
	name: string;
	/** The same, URL-encoded for a path segment. */
	encoded: string;
}

export function readTarget(input: OperationInput, { withGroup = true } = {}): Target {
	const project = checkName('Project', input.get('project', ''));
	const group = withGroup ? checkName('Group', input.get('group', ''), { allowEmpty: true }) : '';
	return { project, group, name: composeName(project, group), encoded: encodeName(project, group) };
}
