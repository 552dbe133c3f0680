/**
 * The node's static data: `{v: 1, e: <event>, c: <cursor of that event>}`.
 * - New Alert: `c` is a WindowCursor (cursor.ts): `{t, f: [at, id|null], k: [≤ 200 ids]}`.
 * - Keyword Updated: `c` is `{s, p: {<project or group>: {u, h?, c?}}}` (keywords.ts), ≤ 500 ids in all.
 * State of another event (the user switched the event) or of an unknown version counts as none: the next poll is a
 * first activation again.
 */
import type { IDataObject } from 'n8n-workflow';

import { readCursor, type WindowCursor } from './cursor';
import { readKeywordState, type KeywordState } from './keywords';

export const STATE_VERSION = 1;

export type EventName = 'newAlert' | 'keywordUpdated';

export interface StoredState {
	v: typeof STATE_VERSION;
	e: EventName;
	c: WindowCursor | KeywordState;
}

export function readAlertState(staticData: IDataObject): WindowCursor | undefined {
	if (staticData.v !== STATE_VERSION || staticData.e !== 'newAlert') return undefined;
	return readCursor(staticData.c);
}

export function readKeywordUpdatedState(staticData: IDataObject): KeywordState | undefined {
	if (staticData.v !== STATE_VERSION || staticData.e !== 'keywordUpdated') return undefined;
	return readKeywordState(staticData.c);
}

export function storedState(event: EventName, cursor: WindowCursor | KeywordState): StoredState {
	return { v: STATE_VERSION, e: event, c: cursor };
}
