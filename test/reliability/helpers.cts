/**
 * Helpers of the reliability tests: the KeywordCom node runs through n8n's engine (test/harness) against the fake
 * API over real HTTP, with faults injected into the fake.
 */
import assert from 'node:assert/strict';

import type { INodeParameters } from 'n8n-workflow';

import type { RecordedRequest } from '../../dev/fake-api/index.cjs';

// The fake, its fixed clock and token are the engine tests' (one setup for both suites).
import {
	FIXED_NOW,
	PROJECT,
	TOKEN,
	keywordAddParameters,
	rl,
	run as runEngine,
	succeeded,
	useFake,
	keywordIdsOf,
	projectIdOf,
	type Fake,
	type Outcome as EngineOutcome,
	type RunOptions as EngineRunOptions,
} from '../engine/helpers.cjs';
import {
	LEAK_PIECE_LENGTH,
	leakPieces as piecesOf,
	tokenForms as formsOf,
} from '../leak-pieces.cjs';

export {
	FIXED_NOW,
	PROJECT,
	TOKEN,
	keywordAddParameters,
	keywordIdsOf,
	projectIdOf,
	rl,
	useFake,
	type Fake,
};

export interface RunOptions extends EngineRunOptions {
	/** Clear the faults armed before the run (default: they stay armed for it). */
	clearFaults?: boolean;
}

export type Outcome = EngineOutcome & { ms: number };

/** Clears the fake's request log, runs the node, returns its output, its error and the requests the fake got. */
export async function run(
	fake: Fake,
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<Outcome> {
	fake.api.clearRequests();
	if (options.clearFaults) fake.api.clearFaults();
	const started = Date.now();
	const outcome = await runEngine(fake, parameters, options);
	const ms = Date.now() - started;
	// Faults a test armed but the run did not consume must not leak into the next test.
	fake.api.clearFaults();
	return { ...outcome, ms };
}

export async function runOk(
	fake: Fake,
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<Outcome> {
	return succeeded(await run(fake, parameters, options));
}

export function describeRequests(requests: RecordedRequest[]): string {
	return requests.map((r) => `${r.method} ${r.rawPath}?${r.rawQuery} → ${r.status}`).join(' | ');
}

/** The forms of a token that must never appear: as is, URL-encoded (both space styles). */
export function tokenForms(token: string = TOKEN): string[] {
	return formsOf(token);
}

/** Serializes anything (errors with their own fields, cause chains, circular structures) for a leak search. */
export function serialize(value: unknown, skipKeys: readonly string[] = []): string {
	const seen = new WeakSet<object>();
	if (typeof value === 'string') return value;
	return (
		JSON.stringify(value, function (key, v: unknown) {
			if (skipKeys.includes(key)) return undefined;
			if (v instanceof Error) {
				const e = v as Error & Record<string, unknown>;
				const out: Record<string, unknown> = { name: e.name, message: e.message, stack: e.stack };
				for (const k of Object.keys(e)) out[k] = e[k];
				if ('cause' in e) out.cause = e.cause;
				if (seen.has(e)) return '[Circular]';
				seen.add(e);
				return out;
			}
			if (typeof v === 'object' && v !== null) {
				if (seen.has(v)) return '[Circular]';
				seen.add(v);
			}
			return v;
		}) ?? ''
	);
}

/** A leak is the token or any piece of it this long (the whole token when it is shorter). */
export { LEAK_PIECE_LENGTH };

/** What must never appear: every form of the token, and every LEAK_PIECE_LENGTH-character piece of each form. */
export function leakPieces(token: string = TOKEN): string[] {
	return piecesOf(token);
}

/**
 * Where the token or a piece of it appears in `value`, or undefined. `skipKeys`: keys left out of the search (e.g.
 * `node`, the workflow node n8n attaches to errors, which holds the parameters exactly as the user typed them).
 */
export function findTokenLeak(
	value: unknown,
	token: string = TOKEN,
	skipKeys: readonly string[] = [],
): string | undefined {
	const text = serialize(value, skipKeys);
	for (const piece of leakPieces(token)) {
		const at = text.indexOf(piece);
		if (at !== -1) return `"${piece}" in …${text.slice(Math.max(0, at - 200), at + 100)}…`;
	}
	const parameter = /api_token(=|%3D)(?!\[redacted\])[^&\s"'\\]/i.exec(text);
	if (parameter)
		return `an api_token parameter in …${text.slice(Math.max(0, parameter.index - 200), parameter.index + 100)}…`;
	return undefined;
}

export function assertNoTokenIn(
	value: unknown,
	label: string,
	token: string = TOKEN,
	skipKeys: readonly string[] = [],
): void {
	const leak = findTokenLeak(value, token, skipKeys);
	assert.equal(leak, undefined, `${label}: the token leaked: ${leak}`);
}

// Every operation of the node, with valid parameters against the fake: the registry, test/operations/.
