/**
 * A scripted OpenAI-compatible chat model on loopback: what n8n's "OpenAI Chat Model" node calls (`GET /v1/models`,
 * `POST /v1/chat/completions`, plain JSON or SSE when the request says `stream: true`), answered from a script
 * (script.cts) instead of a model. Every request is recorded, so a test can read the tools a model was offered and
 * what each tool call returned. Node built-ins only.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import {
	offeredToolNames,
	parseScript,
	replyFor,
	ScriptError,
	toolResultsOf,
	type Reply,
	type ScriptStep,
	type ToolResult,
} from './script.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface FakeModelOptions {
	script?: ScriptStep[];
	/** The key n8n must send (`Authorization: Bearer …`); random by default. */
	apiKey?: string;
	/** Model ids `GET /v1/models` lists; default ['fake-model']. Any model name is accepted in a completion. */
	models?: string[];
	port?: number;
}

export interface ModelRequest {
	/** Order of arrival, from 1. */
	seq: number;
	at: string;
	method: string;
	/** Path without the query. */
	path: string;
	/** Lower-cased header names, as received. */
	headers: Record<string, string>;
	bodyText: string;
	/** JSON-parsed body, or undefined. */
	body: any;
	/** `body.stream === true` (answered as server-sent events). */
	stream: boolean;
	status: number;
	/** For a chat completion: the script step it was at (0-based) and what was answered. */
	step?: number;
	reply?: Reply;
	/** A script error, an unknown route or a bad request. */
	error?: string;
}

/** A chat completion request with the parts a test asserts on. */
export interface ChatRequest extends ModelRequest {
	/** Names of the offered tools. */
	tools: string[];
	/** `tool` role messages of the current turn. */
	toolResults: ToolResult[];
}

const LOOPBACK = '127.0.0.1';

export class FakeModel {
	private server: Server | undefined;
	private readonly sockets = new Set<Socket>();
	private readonly recorded: ModelRequest[] = [];
	private script: ScriptStep[];
	private seq = 0;
	private completions = 0;
	private origin = '';
	readonly apiKey: string;
	readonly models: string[];

	constructor(opts: FakeModelOptions = {}) {
		this.script = opts.script ?? [];
		this.apiKey = opts.apiKey ?? `sk-fake-${randomBytes(12).toString('hex')}`;
		this.models = opts.models ?? ['fake-model'];
	}

	/** Starts a fake on a free loopback port. */
	static async start(opts: FakeModelOptions = {}): Promise<FakeModel> {
		const model = new FakeModel(opts);
		await model.listen(opts.port ?? 0);
		return model;
	}

	/** `http://127.0.0.1:<port>/v1`: the OpenAI base URL (the `url` of an `openAiApi` credential). */
	get baseUrl(): string {
		return `${this.origin}/v1`;
	}

	/** `http://127.0.0.1:<port>` (the control routes are under `/__control/`). */
	get serverUrl(): string {
		return this.origin;
	}

	async listen(port = 0): Promise<void> {
		if (this.server) return;
		const server = createServer((req, res) => {
			this.onRequest(req, res).catch((err: unknown) => {
				if (!res.headersSent && !res.destroyed)
					this.sendError(
						res,
						500,
						`internal error in the fake model: ${String(err)}`,
						'server_error',
					);
				else res.destroy();
			});
		});
		server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			// Loopback only: it accepts any caller that knows the key and has unauthenticated control routes.
			server.listen(port, LOOPBACK, () => {
				server.off('error', reject);
				resolve();
			});
		});
		this.server = server;
		const address = server.address();
		this.origin = `http://${LOOPBACK}:${typeof address === 'object' && address ? address.port : port}`;
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		const closed = new Promise<void>((resolve) => server.close(() => resolve()));
		for (const socket of this.sockets) socket.destroy();
		this.sockets.clear();
		await closed;
	}

	/** Replaces the script; conversations continue at the step their history says. */
	setScript(script: ScriptStep[]): void {
		this.script = script;
	}

	/** Every request received, in order (copies of the records). */
	requests(): ModelRequest[] {
		return this.recorded.map((r) => ({ ...r }));
	}

	/** The chat completion requests, with their offered tools and tool results. */
	chatRequests(): ChatRequest[] {
		return this.recorded
			.filter(
				(r) => r.method === 'POST' && r.path === '/v1/chat/completions' && r.body !== undefined,
			)
			.map((r) => ({
				...r,
				tools: offeredToolNames(r.body),
				toolResults: toolResultsOf(Array.isArray(r.body.messages) ? r.body.messages : []),
			}));
	}

	/** The requests that were answered with an error (script errors included), with their message. */
	errors(): Array<{ seq: number; path: string; status: number; error: string }> {
		return this.recorded
			.filter((r) => r.error !== undefined)
			.map((r) => ({ seq: r.seq, path: r.path, status: r.status, error: r.error as string }));
	}

	clearRequests(): void {
		this.recorded.length = 0;
	}

	// ----- HTTP ---------------------------------------------------------------------------------------------------

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const bodyText = await readBody(req);
		const path = (req.url ?? '/').split('?')[0];
		const method = req.method ?? 'GET';
		if (path.startsWith('/__control/'))
			return this.onControl(method, path.slice('/__control/'.length), bodyText, res);

		let body: any;
		try {
			body = bodyText ? JSON.parse(bodyText) : undefined;
		} catch {
			body = undefined;
		}
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers))
			headers[name] = Array.isArray(value) ? value.join(', ') : String(value ?? '');
		const record: ModelRequest = {
			seq: ++this.seq,
			at: new Date().toISOString(),
			method,
			path,
			headers,
			bodyText,
			body,
			stream: body?.stream === true,
			status: 0,
		};
		this.recorded.push(record);
		const fail = (status: number, message: string, type = 'invalid_request_error'): void => {
			record.status = status;
			record.error = message;
			this.sendError(res, status, message, type);
		};

		if (headers.authorization !== `Bearer ${this.apiKey}`)
			return fail(401, 'the fake model expects the API key it was started with', 'invalid_api_key');
		const route = path.replace(/\/+$/, '');
		if (method === 'GET' && route === '/v1/models') {
			record.status = 200;
			return this.sendJson(res, 200, {
				object: 'list',
				data: this.models.map((id) => modelObject(id)),
			});
		}
		if (method === 'GET' && route.startsWith('/v1/models/')) {
			const id = decodeURIComponent(route.slice('/v1/models/'.length));
			if (!this.models.includes(id)) return fail(404, `the fake model lists no model "${id}"`);
			record.status = 200;
			return this.sendJson(res, 200, modelObject(id));
		}
		if (method === 'POST' && route === '/v1/responses') {
			return fail(
				404,
				'the fake model serves Chat Completions only: turn off "Use Responses API" on the OpenAI Chat Model node (responsesApiEnabled: false)',
			);
		}
		if (method !== 'POST' || route !== '/v1/chat/completions')
			return fail(404, `the fake model has no route ${method} ${path}`);
		if (!body || !Array.isArray(body.messages))
			return fail(400, 'a chat completion needs a JSON body with "messages"');

		let answer: { step: number; reply: Reply };
		try {
			answer = replyFor(this.script, body, `call_${++this.completions}`);
		} catch (err) {
			if (err instanceof ScriptError)
				return fail(400, `fake model script: ${err.message}`, 'fake_model_script_error');
			throw err;
		}
		record.step = answer.step;
		record.reply = answer.reply;
		record.status = 200;
		const id = `chatcmpl-fake-${record.seq}`;
		const model = typeof body.model === 'string' ? body.model : this.models[0];
		const usage = usageOf(bodyText, answer.reply);
		if (record.stream)
			return this.sendStream(
				res,
				id,
				model,
				answer.reply,
				body.stream_options?.include_usage === true ? usage : undefined,
			);
		this.sendJson(res, 200, {
			id,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model,
			choices: [
				{
					index: 0,
					message: messageOf(answer.reply),
					logprobs: null,
					finish_reason: finishReason(answer.reply),
				},
			],
			usage,
			system_fingerprint: null,
		});
	}

	/** Server-sent events as OpenAI streams them: role, content or tool call deltas, the finish reason, usage, `[DONE]`. */
	private sendStream(
		res: ServerResponse,
		id: string,
		model: string,
		reply: Reply,
		usage: object | undefined,
	): void {
		res.writeHead(200, {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		const created = Math.floor(Date.now() / 1000);
		const chunk = (choices: unknown[], extra: object = {}): void => {
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`,
			);
		};
		const delta = (d: object, finish: string | null = null): void =>
			chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
		delta({ role: 'assistant', content: '' });
		// A few pieces, so a client that concatenates deltas is exercised.
		for (const piece of splitText(reply.text ?? '')) delta({ content: piece });
		if (reply.kind === 'tool_calls') {
			reply.calls.forEach((call, index) => {
				delta({
					tool_calls: [
						{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
					],
				});
				for (const piece of splitText(call.arguments))
					delta({ tool_calls: [{ index, function: { arguments: piece } }] });
			});
		}
		delta({}, finishReason(reply));
		if (usage) chunk([], { usage });
		res.end('data: [DONE]\n\n');
	}

	private onControl(method: string, route: string, bodyText: string, res: ServerResponse): void {
		if (method === 'GET' && route === 'requests')
			return this.sendJson(res, 200, { data: this.requests() });
		if (method === 'DELETE' && route === 'requests') {
			this.clearRequests();
			return this.sendJson(res, 200, { ok: true });
		}
		if (method === 'GET' && route === 'errors')
			return this.sendJson(res, 200, { data: this.errors() });
		if (method === 'PUT' && route === 'script') {
			try {
				this.setScript(parseScript(JSON.parse(bodyText)));
			} catch (err) {
				return this.sendJson(res, 422, { error: String(err instanceof Error ? err.message : err) });
			}
			return this.sendJson(res, 200, { ok: true, steps: this.script.length });
		}
		this.sendJson(res, 404, { error: `no control route ${method} /__control/${route}` });
	}

	private sendJson(res: ServerResponse, status: number, value: unknown): void {
		const text = JSON.stringify(value);
		res.writeHead(status, {
			'content-type': 'application/json',
			'content-length': Buffer.byteLength(text),
		});
		res.end(text);
	}

	/** OpenAI's error shape; 4xx so the OpenAI client does not retry a script error. */
	private sendError(res: ServerResponse, status: number, message: string, type: string): void {
		this.sendJson(res, status, { error: { message, type, param: null, code: type } });
	}
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function modelObject(id: string): object {
	return { id, object: 'model', created: 1_700_000_000, owned_by: 'fake-model' };
}

function messageOf(reply: Reply): object {
	if (reply.kind === 'text') return { role: 'assistant', content: reply.text, refusal: null };
	return {
		role: 'assistant',
		content: reply.text,
		refusal: null,
		tool_calls: reply.calls.map((call) => ({
			id: call.id,
			type: 'function',
			function: { name: call.name, arguments: call.arguments },
		})),
	};
}

const finishReason = (reply: Reply): string =>
	reply.kind === 'tool_calls' ? 'tool_calls' : 'stop';

/** Rough token counts (4 bytes a token): enough for n8n's token usage display. */
function usageOf(
	bodyText: string,
	reply: Reply,
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
	const out =
		reply.kind === 'text'
			? reply.text
			: (reply.text ?? '') + reply.calls.map((c) => c.name + c.arguments).join('');
	const prompt = Math.ceil(Buffer.byteLength(bodyText) / 4);
	const completion = Math.max(1, Math.ceil(Buffer.byteLength(out) / 4));
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
	};
}

/** Up to `pieces` parts, cut between code points (never inside a surrogate pair). */
function splitText(text: string, pieces = 3): string[] {
	const chars = Array.from(text);
	if (chars.length === 0) return [];
	const size = Math.max(1, Math.ceil(chars.length / pieces));
	const out: string[] = [];
	for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
	return out;
}
