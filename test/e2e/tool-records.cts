/**
 * What the AI tests (agent, MCP) check of the records one Keyword.com tool call handed over: n8n sends a tool's
 * items as JSON (an array, or one object); a note item (an answer that was cut) comes without an id.
 */
import assert from 'node:assert/strict';

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
