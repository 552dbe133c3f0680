/**
 * Keyword Updated: the projects and groups in scope that this n8n process's last kept poll of a trigger node knew
 * (listed, or still being read or looked up after they left `groups/active`), by key: the name, and a departed
 * one's failure. In this process's memory only.
 *
 * Why: a project that leaves `groups/active` is noticed by comparing with the state the poll starts from. n8n's
 * durable scheduler without durable poll cursors keeps a poll's state only when the poll emits, so under a filter
 * that state may be days old: a project created or restored since then, crawled and archived between two polls, was
 * in no state a poll started from, and its crawl would wait for its restore. What the last poll knew is looked up
 * too (planKeywordPoll). It only ever adds a lookup: the events come from the API and the stored state, never from
 * here. A restart forgets it (that crawl then comes with the restore); elsewhere it holds nothing the state does not.
 */
import type { KeywordState, SeenContainer } from './plan';

/** Trigger nodes remembered at most (the oldest forgotten first): workflows come and go in a long-running n8n. */
const MAX_NODES = 1_000;

const seen = new Map<string, ReadonlyMap<string, SeenContainer>>();

/** What the last kept poll of `node` (workflow id and node id) knew, if this process ran it. */
export function seenLastPoll(node: string): ReadonlyMap<string, SeenContainer> | undefined {
	return seen.get(node);
}

/** Remembers what the state a poll keeps knows: its known containers and those it is still reading or looking up. */
export function rememberSeen(node: string, state: KeywordState): void {
	const known = new Map<string, SeenContainer>();
	for (const [key, name] of state.known) known.set(key, { name });
	for (const [key, entry] of state.containers) {
		// One that left and fails: its count goes on from here, so that it is given up in time (departures.ts).
		const failure = entry.departed ? entry.failure : undefined;
		known.set(key, failure ? { name: entry.name, failure } : { name: entry.name });
	}
	seen.delete(node);
	seen.set(node, known);
	if (seen.size > MAX_NODES) seen.delete(seen.keys().next().value as string);
}
