/**
 * What the polls of a trigger node that emitted nothing would have kept, in this n8n process's memory.
 *
 * Why: n8n's durable scheduler without durable poll cursors saves a poll trigger's static data only with a poll that
 * emits. Every poll after one that emitted then starts from that poll's state: updates the filters leave out are
 * read again at each poll (a quiet account's polls cost a list read each instead of 1 request), and a read longer
 * than one poll that finds nothing to emit starts over at each poll and never ends. So a poll that emits nothing
 * leaves here the state it would have kept, with the stored state it started from; a later poll of the same node
 * that starts from that same stored state (nothing was saved since) goes on from the remembered one instead.
 *
 * Safe by construction: only a poll that emitted nothing is remembered, so what it passed over was nothing to emit;
 * anything else (a poll that emits, a restart, another n8n main, edited parameters) starts from a
 * stored state that does not match, and the stored state is used. Where n8n keeps every poll's state (its in-memory
 * scheduler, durable poll cursors) a poll never starts from the state an earlier one started from, so nothing is
 * resumed there.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { ownBaseline } from './activationBaseline';

/** Trigger nodes remembered at most (the least recently polled forgotten first): workflows come and go. */
const MAX_NODES = 1_000;

const unsaved = new Map<string, { from: string; next: string }>();

/**
 * What a poll starts from, as compared: a digest of the node's parameters, its stored static data and its own
 * activation baseline. The rest of the workflow's global static data is left out: other nodes write there (a Code
 * node, another trigger's baseline), and a write of theirs says nothing about where this node stands.
 */
export function startingPoint(
	parameters: unknown,
	nodeData: IDataObject,
	globalData: IDataObject,
	nodeId: string,
): string {
	return createHash('sha256')
		.update(JSON.stringify([parameters, nodeData, ownBaseline(globalData, nodeId) ?? null]))
		.digest('base64');
}

/**
 * The node data a poll of `node` goes on from: the remembered one when it started from `from`. The caller asks only
 * where the stored state (or an activation baseline) says where "now" was placed: a poll that starts with neither
 * places "now" afresh (a first activation tried again after it failed), whatever an earlier try left here.
 */
export function unsavedProgress(node: string, from: string): IDataObject | undefined {
	const entry = unsaved.get(node);
	return entry && entry.from === from ? (JSON.parse(entry.next) as IDataObject) : undefined;
}

/** Records the outcome of a poll of `node`: what it would have kept when it emitted nothing; nothing otherwise. */
export function recordPoll(node: string, from: string, emitted: boolean, next: IDataObject): void {
	unsaved.delete(node);
	if (emitted) return;
	unsaved.set(node, { from, next: JSON.stringify(next) });
	if (unsaved.size > MAX_NODES) unsaved.delete(unsaved.keys().next().value as string);
}
