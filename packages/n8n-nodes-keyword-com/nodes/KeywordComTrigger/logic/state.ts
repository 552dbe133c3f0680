/**
 * What the trigger stores between polls. Pure.
 *
 * - The node's static data: `{v: 2, e: <event>, c: <state of that event>}`.
 *   - New Alert: `c` is an AlertCursor (cursor.ts + poll.ts): `{t, f: [at, id|null], k: [≤ 200 ids], i?, o?, x?, n?}`.
 *   - Keyword Updated: `c` is `{s, p: {<project or group>: {w, q?, r?}}, o?}` (keywords.ts).
 *   State of another event (the user switched the event) or of an unknown version counts as none.
 * - The **activation baseline**, in the workflow's global static data under `keywordComTrigger` → node id: the state
 *   the first poll after activation recorded. n8n's durable scheduler runs the activation poll as a test poll and
 *   drops the node's static data it wrote; n8n's activation saves the workflow's global static data, though, so the
 *   first scheduled poll finds "now" there and reports everything after it. A baseline is used once (`a` marks it).
 */
import type { IDataObject } from 'n8n-workflow';

import { readCursor, type WindowCursor } from './cursor';
import { epochSeconds, readKeywordState, type ContainerState, type KeywordState } from './keywords';

export const STATE_VERSION = 2;

export type EventName = 'newAlert' | 'keywordUpdated';

export type EventState = WindowCursor | KeywordState;

export interface StoredState {
	v: typeof STATE_VERSION;
	e: EventName;
	c: EventState;
}

/** Key of the activation baselines in the workflow's global static data. */
export const BASELINE_KEY = 'keywordComTrigger';

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A Keyword Updated state of version 1 (per container: the last `keywords_last_updated_at` seen and a cursor over
 * crawled_at) as a version-2 state: each container done up to the newest crawled_at it had seen.
 */
function keywordStateFromVersion1(value: unknown): KeywordState | undefined {
	if (!isObject(value) || typeof value.s !== 'number' || !isObject(value.p)) return undefined;
	const p: Record<string, ContainerState> = {};
	for (const [name, raw] of Object.entries(value.p)) {
		if (!isObject(raw)) continue;
		const cursor = readCursor(raw.c);
		const w = cursor?.t ?? epochSeconds(typeof raw.u === 'string' ? raw.u : null);
		if (w !== undefined) p[name] = { w };
	}
	return { s: value.s, p };
}

/** The state of `event` in the node's static data, or undefined (first poll, another event, unknown version). */
export function readEventState(
	event: EventName,
	staticData: IDataObject,
): { state: EventState; raw: unknown } | undefined {
	if (staticData.e !== event) return undefined;
	if (staticData.v === STATE_VERSION || staticData.v === 1) {
		if (event === 'newAlert') {
			const cursor = readCursor(staticData.c);
			return cursor ? { state: cursor, raw: staticData.c } : undefined;
		}
		const state =
			staticData.v === 1 ? keywordStateFromVersion1(staticData.c) : readKeywordState(staticData.c);
		return state ? { state, raw: staticData.c } : undefined;
	}
	return undefined;
}

export function storedState(event: EventName, state: EventState): StoredState {
	return { v: STATE_VERSION, e: event, c: state };
}

interface Baseline extends StoredState {
	/** Set once a poll started from this baseline. */
	a?: 1;
}

function baselines(globalData: IDataObject): IDataObject {
	if (!isObject(globalData[BASELINE_KEY])) globalData[BASELINE_KEY] = {};
	return globalData[BASELINE_KEY] as IDataObject;
}

/**
 * The activation baseline of this node for `event`, when one is there and not used yet: it is marked used (the mark is
 * saved with the state of the poll that used it).
 */
export function takeBaseline(
	event: EventName,
	globalData: IDataObject,
	nodeId: string,
): { state: EventState; raw: unknown } | undefined {
	const entry = isObject(globalData[BASELINE_KEY])
		? (globalData[BASELINE_KEY] as IDataObject)[nodeId]
		: undefined;
	if (!isObject(entry) || entry.a === 1) return undefined;
	const found = readEventState(event, entry);
	if (!found) return undefined;
	(entry as unknown as Baseline).a = 1;
	return found;
}

/** Records the state a first poll placed at "now" as this node's activation baseline. */
export function putBaseline(
	event: EventName,
	state: EventState,
	globalData: IDataObject,
	nodeId: string,
): void {
	baselines(globalData)[nodeId] = storedState(event, state) as unknown as IDataObject;
}
