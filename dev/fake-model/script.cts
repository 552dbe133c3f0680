/**
 * The script of the fake chat model: a list of steps (a tool call, several tool calls, or a final text answer) and
 * how the next step of a conversation is chosen. Pure functions; the HTTP side is in server.cts.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Names a tool the request offers. n8n derives tool names from node names ("Get many keywords" → "Get_many_keywords"),
 * so a string matches loosely: compared lower-cased with every run of other characters than letters and digits read
 * as "_", an exact match first, else the one tool whose name starts with it. A RegExp or predicate must match exactly
 * one offered tool. No match, or several, is a script error (answered 400, listed by `errors()`).
 */
export type ToolMatcher = string | RegExp | ((name: string) => boolean);

/** What a step can look at when it computes its arguments or text (in-process scripts only). */
export interface StepContext {
	/** Index of this step in the script (= assistant turns since the last user message). */
	step: number;
	/** The request's `messages`, as received. */
	messages: any[];
	/** Names of the tools the request offers. */
	tools: string[];
	/** The `tool` role messages since the last user message (what the earlier tool calls returned), oldest first. */
	toolResults: ToolResult[];
	/** The whole request body. */
	body: any;
}

export interface ToolResult {
	toolCallId: string;
	/** Name of the tool the matching assistant tool call named, when found. */
	name?: string;
	/** The content as text (an array of content parts is joined). */
	content: string;
	/** UTF-8 size of `content`. */
	bytes: number;
}

export type Arguments = Record<string, unknown>;

export interface ToolCallSpec {
	tool: ToolMatcher;
	/** The call's arguments (sent JSON-encoded); a function gets the step's context. Default `{}`. */
	arguments?: Arguments | ((ctx: StepContext) => Arguments);
}

/** One tool call. */
export interface ToolCallStep extends ToolCallSpec {
	/** Optional text sent along with the call (assistant `content`). */
	text?: string;
}

/** Several tool calls in one assistant turn (parallel tool calls). */
export interface ToolCallsStep {
	toolCalls: ToolCallSpec[];
	text?: string;
}

/** The final answer. */
export interface TextStep {
	text: string | ((ctx: StepContext) => string);
}

export type ScriptStep = ToolCallStep | ToolCallsStep | TextStep;

/** A step resolved against a request: what the model answers. */
export type Reply =
	| { kind: 'text'; text: string }
	| {
			kind: 'tool_calls';
			text: string | null;
			calls: Array<{ id: string; name: string; arguments: string }>;
	  };

export class ScriptError extends Error {}

/** Text of a message's `content` (a string, or an array of `{type:'text', text}` parts). */
export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part: any) =>
				typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : '',
			)
			.join('');
	}
	return content == null ? '' : JSON.stringify(content);
}

/** Names of the tools a chat completions body offers (`tools[].function.name`, or legacy `functions[].name`). */
export function offeredToolNames(body: any): string[] {
	const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
	const functions: any[] = Array.isArray(body?.functions) ? body.functions : [];
	return [
		...tools.map((t) => t?.function?.name ?? t?.name),
		...functions.map((f) => f?.name),
	].filter((n): n is string => typeof n === 'string');
}

/** Messages after the last `user` message (the current turn of the conversation). */
function currentTurn(messages: any[]): any[] {
	let last = -1;
	messages.forEach((m, i) => {
		if (m?.role === 'user') last = i;
	});
	return messages.slice(last + 1);
}

/** The `tool` role messages of the current turn, each with the name its assistant tool call gave. */
export function toolResultsOf(messages: any[]): ToolResult[] {
	const turn = currentTurn(messages);
	const names = new Map<string, string>();
	for (const m of turn) {
		for (const call of m?.role === 'assistant' && Array.isArray(m.tool_calls) ? m.tool_calls : []) {
			if (typeof call?.id === 'string' && typeof call?.function?.name === 'string')
				names.set(call.id, call.function.name);
		}
	}
	return turn
		.filter((m) => m?.role === 'tool')
		.map((m) => {
			const content = contentText(m.content);
			return {
				toolCallId: String(m.tool_call_id ?? ''),
				name: names.get(String(m.tool_call_id ?? '')),
				content,
				bytes: Buffer.byteLength(content),
			};
		});
}

/**
 * Which step a request is at: the number of assistant messages after the last user message. Stateless, so each
 * conversation (and a retried request) gets the same answer for the same history.
 */
export function stepIndexOf(messages: any[]): number {
	return currentTurn(messages).filter((m) => m?.role === 'assistant').length;
}

const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** The one offered tool a matcher names (see ToolMatcher). */
export function matchTool(matcher: ToolMatcher, offered: string[]): string {
	const describe = typeof matcher === 'function' ? 'a predicate' : String(matcher);
	let found: string[];
	if (typeof matcher === 'string') {
		const wanted = normalise(matcher);
		const exact = offered.filter((name) => normalise(name) === wanted);
		found = exact.length > 0 ? exact : offered.filter((name) => normalise(name).startsWith(wanted));
	} else if (matcher instanceof RegExp) {
		found = offered.filter((name) => matcher.test(name));
	} else {
		found = offered.filter((name) => matcher(name));
	}
	if (found.length === 1) return found[0];
	const tools = offered.length > 0 ? offered.join(', ') : 'none';
	throw new ScriptError(
		found.length === 0
			? `no offered tool matches ${describe} (offered: ${tools})`
			: `${describe} matches several tools: ${found.join(', ')}`,
	);
}

/** Resolves the step a request is at into a reply; throws ScriptError when the script has no such step or a tool is not offered. */
export function replyFor(
	script: readonly ScriptStep[],
	body: any,
	callIdPrefix: string,
): { step: number; reply: Reply } {
	const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
	const step = stepIndexOf(messages);
	const spec = script[step];
	if (!spec)
		throw new ScriptError(
			`the script has ${script.length} step(s); the conversation is at step ${step + 1} (assistant turns so far: ${step})`,
		);
	const ctx: StepContext = {
		step,
		messages,
		tools: offeredToolNames(body),
		toolResults: toolResultsOf(messages),
		body,
	};
	if ('toolCalls' in spec || 'tool' in spec) {
		const specs: ToolCallSpec[] = 'toolCalls' in spec ? spec.toolCalls : [spec];
		if (specs.length === 0) throw new ScriptError(`step ${step + 1} has no tool calls`);
		const calls = specs.map((call, i) => {
			const args =
				typeof call.arguments === 'function' ? call.arguments(ctx) : (call.arguments ?? {});
			return {
				id: `${callIdPrefix}_${step}_${i}`,
				name: matchTool(call.tool, ctx.tools),
				arguments: JSON.stringify(args),
			};
		});
		return { step, reply: { kind: 'tool_calls', text: spec.text ?? null, calls } };
	}
	const text = typeof spec.text === 'function' ? spec.text(ctx) : spec.text;
	return { step, reply: { kind: 'text', text } };
}

/** Checks a script read from JSON (the CLI, the control route): steps of `{tool, arguments?}`, `{toolCalls}` or `{text}`. */
export function parseScript(value: unknown): ScriptStep[] {
	const steps = (value as any)?.steps ?? value;
	if (!Array.isArray(steps))
		throw new Error('a script is a JSON array of steps (or {"steps": [...]})');
	return steps.map((step: any, i: number) => {
		const where = `step ${i + 1}`;
		const call = (c: any, at: string): ToolCallSpec => {
			if (typeof c?.tool !== 'string' || c.tool === '')
				throw new Error(`${at}: "tool" must be a non-empty string`);
			if (
				c.arguments !== undefined &&
				(typeof c.arguments !== 'object' || c.arguments === null || Array.isArray(c.arguments))
			) {
				throw new Error(`${at}: "arguments" must be an object`);
			}
			return { tool: c.tool, arguments: c.arguments };
		};
		if (Array.isArray(step?.toolCalls))
			return {
				toolCalls: step.toolCalls.map((c: any, j: number) => call(c, `${where}, call ${j + 1}`)),
				text: step.text,
			};
		if (step?.tool !== undefined) return { ...call(step, where), text: step.text };
		if (typeof step?.text === 'string') return { text: step.text };
		throw new Error(`${where}: expected {"tool", "arguments"}, {"toolCalls": [...]} or {"text"}`);
	});
}
