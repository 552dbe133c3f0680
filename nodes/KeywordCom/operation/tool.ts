import type { IDataObject, INode } from 'n8n-workflow';

/**
 * The node as an AI agent's tool (n8n's generated `keywordComTool`). Everything one tool call returns goes into the
 * model's context, which is small and paid for: lists default to a few records and one answer is capped in size.
 */
export const TOOL_DEFAULT_LIMIT = 20;

/** The most characters (of JSON) one tool call returns: about 4,000 tokens. */
export const TOOL_RESULT_MAX_CHARACTERS = 16_000;

export function isToolNode(node: INode): boolean {
	return node.type.endsWith('Tool');
}

const size = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

/** A record too big for one answer: its plain values kept, its lists and objects named as left out. */
function reduceRecord(record: IDataObject): IDataObject {
	const kept: IDataObject = {};
	const left: string[] = [];
	for (const [key, value] of Object.entries(record)) {
		if (value !== null && typeof value === 'object') left.push(key);
		else kept[key] = value;
	}
	return left.length > 0 ? { ...kept, left_out: left } : kept;
}

/**
 * The results that fit in one tool answer, in order, and a note saying what was cut and how to ask for less.
 * Nothing is cut silently: the model reads the note.
 */
export function capToolResult(results: IDataObject[]): IDataObject[] {
	if (size(results) <= TOOL_RESULT_MAX_CHARACTERS) return results;
	const kept: IDataObject[] = [];
	let used = 2;
	for (const result of results) {
		const cost = size(result) + 1;
		if (used + cost > TOOL_RESULT_MAX_CHARACTERS - 400) break;
		kept.push(result);
		used += cost;
	}
	if (kept.length === 0 && results.length > 0) {
		const reduced = reduceRecord(results[0]);
		if (size(reduced) <= TOOL_RESULT_MAX_CHARACTERS - 400) kept.push(reduced);
	}
	const note =
		kept.length < results.length
			? `Result cut to ${kept.length} of ${results.length} records to fit one tool answer (${TOOL_RESULT_MAX_CHARACTERS} characters).`
			: `Result cut to fit one tool answer (${TOOL_RESULT_MAX_CHARACTERS} characters): lists and objects of the record were left out (see left_out).`;
	return [
		...kept,
		{
			note: `${note} Ask for fewer records (a smaller limit, a group or a filter) or set Output to Selected Fields.`,
		},
	];
}
