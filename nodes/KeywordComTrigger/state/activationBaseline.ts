/**
 * The activation baseline (storedState.ts says what it is): the first poll's state kept in the workflow's global
 * static data, which n8n's activation saves even where it drops the node's own static data.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	readEventState,
	storedState,
	type EventName,
	type EventState,
	type FoundState,
} from './storedState';

/** Key of the activation baselines in the workflow's global static data. */
export const BASELINE_KEY = 'keywordComTrigger';

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function baselines(globalData: IDataObject): IDataObject {
	if (!isObject(globalData[BASELINE_KEY])) globalData[BASELINE_KEY] = {};
	return globalData[BASELINE_KEY] as IDataObject;
}

/** This node's entry among the activation baselines, whatever its event (undefined: none). */
export function ownBaseline(globalData: IDataObject, nodeId: string): unknown {
	const all = globalData[BASELINE_KEY];
	return isObject(all) ? all[nodeId] : undefined;
}

/** The activation baseline of this node for `event`, when one is there. */
export function findBaseline(
	event: EventName,
	globalData: IDataObject,
	nodeId: string,
): FoundState | undefined {
	const entry = isObject(globalData[BASELINE_KEY])
		? (globalData[BASELINE_KEY] as IDataObject)[nodeId]
		: undefined;
	if (!isObject(entry)) return undefined;
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

/** The state a poll goes on from as n8n stored it: the node's own, else this node's activation baseline. */
export function keptState(
	event: EventName,
	nodeData: IDataObject,
	globalData: IDataObject,
	nodeId: string,
): FoundState | undefined {
	return readEventState(event, nodeData) ?? findBaseline(event, globalData, nodeId);
}
