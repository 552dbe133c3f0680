/**
 * What the AI tests (agent, MCP) share: the two Keyword.com tools they hand over, and what they check of the records
 * one tool call handed over: n8n sends a tool's items as JSON (an array, or one object); a note item (an answer that
 * was cut) comes without an id.
 */
import assert from 'node:assert/strict';

import {
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	KEYWORD_COM_TOOL_NODE,
} from '../../e2e/lib/index.cjs';

/** The Keyword.com node version the tools use (the node has one). */
export const TOOL_NODE_VERSION = 1;

/** A parameter the model fills in (n8n's `$fromAI`). */
export const fromAI = (key: string, description: string): string =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;

/**
 * The tools "Get many keywords" (`limit` of a project's keywords) and "Get a keyword", the project and the keyword
 * named by the model; `at(x)` places each (x: 0 and `getX`), `idPrefix` names their node ids.
 */
export function keywordTools(opts: {
	idPrefix: string;
	at: (x: number) => [number, number];
	getX: number;
	limit: number;
}): any[] {
	const tool = (name: string, x: number, parameters: Record<string, unknown>): any => ({
		id: `${opts.idPrefix}-${x}`,
		name,
		type: KEYWORD_COM_TOOL_NODE,
		typeVersion: TOOL_NODE_VERSION,
		position: opts.at(x),
		parameters,
		credentials: { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } },
	});
	const project = {
		__rl: true,
		mode: 'name',
		value: fromAI('project', 'The Keyword.com project name, e.g. Acme Shoes'),
	};
	return [
		tool('Get many keywords', 0, {
			resource: 'keyword',
			operation: 'getMany',
			project,
			returnAll: false,
			limit: opts.limit,
		}),
		tool('Get a keyword', opts.getX, {
			resource: 'keyword',
			operation: 'get',
			project,
			keywordId: fromAI(
				'keywordId',
				'The numeric ID of the keyword, as listed by Get many keywords',
			),
		}),
	];
}

/** The records of a tool answer: the items that have an id. */
export function recordsOf(json: string): any[] {
	const parsed = JSON.parse(json);
	return (Array.isArray(parsed) ? parsed : [parsed]).filter(
		(r) => r && typeof r === 'object' && 'id' in r,
	);
}

/** Keyword records of one project: between 1 and `limit`, simplified to at most 10 fields. */
export function assertKeywordRecords(
	records: any[],
	opts: { limit: number; project: string; nodeVersion: number },
): void {
	assert.ok(
		records.length >= 1 && records.length <= opts.limit,
		`1..${opts.limit} keyword records (got ${records.length})`,
	);
	assert.ok(
		records.every((r) => r.project === opts.project),
		`keywords of ${opts.project}`,
	);
	assert.ok(
		records.every((r) => Object.keys(r).length <= 10),
		'simplified records: at most 10 fields',
	);
	assert.ok(
		records.every((r) => /^\d+$/.test(String(r.id))),
		'each record has its numeric keyword id',
	);
}
