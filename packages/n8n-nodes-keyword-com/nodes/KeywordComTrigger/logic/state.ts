/**
 * What the trigger stores between polls. Pure.
 *
 * - The node's static data: `{v: 3, e: <event>, c: <state of that event>}`.
 *   - New Alert: `c` is an AlertCursor (cursor.ts + poll/newAlert.ts):
 *     `{t, f: [at, id|null], k: [≤ 200 ids], i?, o?, x?, n?}`.
 *   - Keyword Updated: `c` is `{s, p: [{k, n, w, q?, r?, f?}, ...], o?, u?}` (keywords.ts): per project or group its
 *     key, name, window, held-back second, read in progress and failures; `u`, while the filter Ranking URL Changed is
 *     on, `[[keyword id, URL hash], ...]` (rankingUrls.ts).
 *   Versions 1 and 2 are read too (2 kept Keyword Updated's projects in an object keyed by name). State of another
 *   event (the user switched the event) or of an unknown version counts as none.
 * - The **activation baseline**, in the workflow's global static data under `keywordComTrigger` → node id: the state
 *   the first poll after activation recorded. n8n's durable scheduler runs the activation poll as a test poll and
 *   drops the node's static data it wrote; n8n's activation saves the workflow's global static data, though, so the
 *   first scheduled poll finds "now" there and reports everything after it. It is removed by the first poll that
 *   writes the node's own state (saved with it).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Measured } from './budget';
import { nameKey } from './containers';
import { readCursor, type WindowCursor } from './cursor';
import {
	readKeywordState,
	storedKeywordState,
	type ContainerState,
	type KeywordState,
} from './keywords';
import { apiTimeSeconds } from '../../shared/time';

export const STATE_VERSION = 3;

export type EventName = 'newAlert' | 'keywordUpdated';

export type EventState = WindowCursor | KeywordState;

export interface StoredState {
	v: typeof STATE_VERSION;
	e: EventName;
	c: IDataObject;
	/**
	 * What the last poll measured (ms): its slowest request and what a page cost once in. The next poll plans its
	 * first requests with them.
	 */
	l?: [number, number];
}

/** A state read back from static data. */
export interface FoundState {
	state: EventState;
	raw: unknown;
	/** StoredState.l */
	measured?: Measured;
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
	const p = new Map<string, ContainerState>();
	for (const name of Object.keys(value.p)) {
		const raw = value.p[name];
		if (!isObject(raw)) continue;
		const cursor = readCursor(raw.c);
		const w = cursor?.t ?? apiTimeSeconds(raw.u);
		if (w !== undefined) p.set(nameKey(name), { name, w });
	}
	return { s: value.s, p };
}

/** The state of `event` in the node's static data, or undefined (first poll, another event, unknown version). */
export function readEventState(event: EventName, staticData: IDataObject): FoundState | undefined {
	if (staticData.e !== event) return undefined;
	if (staticData.v !== STATE_VERSION && staticData.v !== 2 && staticData.v !== 1) return undefined;
	const state =
		event === 'newAlert'
			? readCursor(staticData.c)
			: staticData.v === 1
				? keywordStateFromVersion1(staticData.c)
				: readKeywordState(staticData.c);
	if (!state) return undefined;
	const found: FoundState = { state, raw: staticData.c };
	const measured = staticData.l;
	if (
		Array.isArray(measured) &&
		measured.length === 2 &&
		measured.every((ms) => typeof ms === 'number')
	)
		found.measured = { requestMs: measured[0] as number, pageWorkMs: measured[1] as number };
	return found;
}

export function storedState(event: EventName, state: EventState, measured?: Measured): StoredState {
	const c =
		event === 'keywordUpdated'
			? storedKeywordState(state as KeywordState)
			: (state as unknown as IDataObject);
	const stored: StoredState = { v: STATE_VERSION, e: event, c };
	if (measured && measured.requestMs > 0)
		stored.l = [Math.round(measured.requestMs), Math.round(measured.pageWorkMs)];
	return stored;
}

function baselines(globalData: IDataObject): IDataObject {
	if (!isObject(globalData[BASELINE_KEY])) globalData[BASELINE_KEY] = {};
	return globalData[BASELINE_KEY] as IDataObject;
}

/**
 * The activation baseline of this node for `event`, when one is there. (One marked used, `a: 1`, by an earlier
 * version of this node counts as none.)
 */
export function findBaseline(
	event: EventName,
	globalData: IDataObject,
	nodeId: string,
): FoundState | undefined {
	const entry = isObject(globalData[BASELINE_KEY])
		? (globalData[BASELINE_KEY] as IDataObject)[nodeId]
		: undefined;
	if (!isObject(entry) || entry.a === 1) return undefined;
	return readEventState(event, entry);
}

/** Removes this node's activation baseline (its own state is written now, and saved with the removal). */
export function dropBaseline(globalData: IDataObject, nodeId: string): void {
	const all = globalData[BASELINE_KEY];
	if (!isObject(all) || !Object.prototype.hasOwnProperty.call(all, nodeId)) return;
	delete all[nodeId];
	if (Object.keys(all).length === 0) delete globalData[BASELINE_KEY];
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
