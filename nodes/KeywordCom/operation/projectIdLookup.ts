import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX } from '../../shared/constants';
import type { ApiRequest, ApiResponse, AttemptHooks } from '../../shared/transport';
import { InputError, quote, said } from '../../shared/validation';
import type { Target } from './target';
import type { OperationInput } from './types';

/**
 * Some endpoints name a project or group by its numeric ID (`/projects/{project_id}`, `project_ids` of a refresh):
 * the user picks it by name, as everywhere else, and the node reads its ID from its record (#2) once every other
 * value is checked. A record without a usable ID stops the item: nothing is written on a guess.
 */

export const PROJECT_ID_PARAMETER = 'projectId';

/** The project ID while the other values are checked, before the lookup: any valid ID, never sent. */
export const STAND_IN_PROJECT_ID = '1';

/** The item's parameters with the project ID given (the ID found, or the stand-in). */
export function withProjectId(input: OperationInput, id: string): OperationInput {
	return {
		...input,
		get: (name, fallback) => (name === PROJECT_ID_PARAMETER ? id : input.get(name, fallback)),
	};
}

type Send = (request: Omit<ApiRequest, 'base'>, hooks?: AttemptHooks) => Promise<ApiResponse>;

/** The numeric ID of the project or group `target` (its record's `project_id`). */
export async function lookUpProjectId(send: Send, target: Target): Promise<string> {
	const { body } = await send({ method: 'GET', url: `${API_PREFIX}/groups/${target.encoded}` });
	const record = ((body as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const id = String(((record.attributes ?? {}) as IDataObject).project_id ?? '');
	if (/^[1-9]\d{0,15}$/.test(id)) return id;
	throw new InputError(
		'Project',
		said`Keyword.com gave no numeric ID for ${quote(target.name)}, so nothing was sent`,
		'Check the project and group in Keyword.com; Project or Group → Get shows the record the node read.',
	);
}
