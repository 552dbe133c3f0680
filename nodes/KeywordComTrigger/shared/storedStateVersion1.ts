/**
 * Keyword Updated's stored state of version 1 (storedState.ts reads it still), carried over: per container the last
 * `keywords_last_updated_at` seen and a cursor over crawled_at, read as done up to the newest crawled_at it had seen.
 */
import type { IDataObject } from 'n8n-workflow';

import { apiTimeSeconds } from '../../shared/time';
import { nameKey } from '../keywordUpdated/containers';
import type { WindowCursor } from './windowCursor';
import type { ContainerState, KeywordState } from '../keywordUpdated/plan';

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/**
 * A Keyword Updated state of version 1 (per container: the last `keywords_last_updated_at` seen and a cursor over
 * crawled_at): each container done up to the newest crawled_at it had seen.
 */
export function keywordStateFromVersion1(
	value: unknown,
	decodeWindowCursor: (value: unknown) => WindowCursor | undefined,
): KeywordState | undefined {
	if (!isObject(value) || typeof value.s !== 'number' || !isObject(value.p)) return undefined;
	const containers = new Map<string, ContainerState>();
	for (const name of Object.keys(value.p)) {
		const raw = value.p[name];
		if (!isObject(raw)) continue;
		const reportedUpTo = decodeWindowCursor(raw.c)?.newest ?? apiTimeSeconds(raw.u);
		if (reportedUpTo !== undefined) containers.set(nameKey(name), { name, reportedUpTo });
	}
	const known = new Map([...containers].map(([key, entry]) => [key, entry.name]));
	return { mark: value.s, containers, known };
}
