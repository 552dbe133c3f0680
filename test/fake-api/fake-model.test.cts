/**
 * The scripted fake chat model (dev/fake-model): OpenAI's Chat Completions shapes (JSON and SSE), step choice from
 * the conversation, tool matching, script errors, recording, and the CLI. Plain fetch; no n8n.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { FakeModel, matchTool, parseScript, stepIndexOf } from '../../dev/fake-model/index.cjs';
import { firstLine } from './helpers.cjs';

const CLI = path.resolve(__dirname, '../../dev/fake-model/cli.cjs');
const TOOLS = ['Get_many_keywords', 'Get_a_keyword'].map((name) => ({
	type: 'function',
	function: { name, description: name, parameters: { type: 'object' } },
}));
const USER = { role: 'user', content: 'Which keywords does Acme Shoes track?' };

async function chat(
	model: FakeModel,
	body: Record<string, unknown>,
	apiKey = model.apiKey,
): Promise<{ status: number; json: any; text: string }> {
	const res = await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'fake-model', tools: TOOLS, ...body }),
	});
	const text = await res.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, json, text };
}

/** The assistant message and tool message a client sends back after a tool call. */
function afterCall(message: any, result: string): any[] {
	return [
		message,
		...message.tool_calls.map((call: any) => ({
			role: 'tool',
			tool_call_id: call.id,
			content: result,
		})),
	];
}

/** Folds SSE chunks the way an OpenAI client does. */
function foldStream(text: string): {
	content: string;
	calls: Array<{ id: string; name: string; arguments: string }>;
	finish: string;
	usage: any;
	done: boolean;
} {
	const events = text
		.split('\n\n')
		.filter((e) => e.startsWith('data: '))
		.map((e) => e.slice('data: '.length));
	const out = {
		content: '',
		calls: [] as Array<{ id: string; name: string; arguments: string }>,
		finish: '',
		usage: undefined as any,
		done: events.at(-1) === '[DONE]',
	};
	for (const event of events.filter((e) => e !== '[DONE]').map((e) => JSON.parse(e))) {
		assert.equal(event.object, 'chat.completion.chunk');
		if (event.usage) out.usage = event.usage;
		const choice = event.choices[0];
		if (!choice) continue;
		out.content += choice.delta.content ?? '';
		for (const d of choice.delta.tool_calls ?? []) {
			out.calls[d.index] ??= { id: '', name: '', arguments: '' };
			if (d.id) out.calls[d.index].id = d.id;
			if (d.function?.name) out.calls[d.index].name = d.function.name;
			out.calls[d.index].arguments += d.function?.arguments ?? '';
		}
		if (choice.finish_reason) out.finish = choice.finish_reason;
	}
	return out;
}

describe('fake model: scripted chat completions', () => {
	let model: FakeModel;

	before(async () => {
		model = await FakeModel.start({
			script: [
				{ tool: 'get many', arguments: { project: 'Acme Shoes' } },
				// The second call takes an id out of what the first call returned, as a model would.
				{
					tool: /^Get_a_/,
					arguments: (ctx) => ({
						project: 'Acme Shoes',
						keywordId: JSON.parse(ctx.toolResults[0].content)[0].id,
					}),
				},
				{ text: (ctx) => `Seen ${ctx.toolResults.length} tool results. Grüße 👟` },
			],
		});
	});
	after(() => model.stop());

	it('lists its models on GET /v1/models and answers one model by id', async () => {
		const headers = { authorization: `Bearer ${model.apiKey}` };
		const list: any = await (await fetch(`${model.baseUrl}/models`, { headers })).json();
		assert.deepEqual(list, {
			object: 'list',
			data: [{ id: 'fake-model', object: 'model', created: 1_700_000_000, owned_by: 'fake-model' }],
		});
		assert.equal(
			((await (await fetch(`${model.baseUrl}/models/fake-model`, { headers })).json()) as any).id,
			'fake-model',
		);
		assert.equal((await fetch(`${model.baseUrl}/models/gpt-4`, { headers })).status, 404);
	});

	it('plays the script as JSON completions: tool call, tool call from the result, text', async () => {
		model.clearRequests();
		const first = await chat(model, { messages: [USER] });
		assert.equal(first.status, 200);
		assert.equal(first.json.object, 'chat.completion');
		assert.equal(first.json.choices[0].finish_reason, 'tool_calls');
		const [call] = first.json.choices[0].message.tool_calls;
		assert.equal(call.function.name, 'Get_many_keywords');
		assert.deepEqual(JSON.parse(call.function.arguments), { project: 'Acme Shoes' });

		const listed = JSON.stringify([{ id: '100001', kw: 'running shoes' }]);
		const history = [USER, ...afterCall(first.json.choices[0].message, listed)];
		const second = await chat(model, { messages: history });
		const [call2] = second.json.choices[0].message.tool_calls;
		assert.equal(call2.function.name, 'Get_a_keyword');
		assert.deepEqual(JSON.parse(call2.function.arguments), {
			project: 'Acme Shoes',
			keywordId: '100001',
		});

		const third = await chat(model, {
			messages: [...history, ...afterCall(second.json.choices[0].message, '{"id":"100001"}')],
		});
		assert.equal(third.json.choices[0].finish_reason, 'stop');
		assert.equal(third.json.choices[0].message.content, 'Seen 2 tool results. Grüße 👟');
		assert.ok(third.json.usage.total_tokens > 0);

		const chats = model.chatRequests();
		assert.deepEqual(
			chats.map((c) => c.step),
			[0, 1, 2],
		);
		assert.deepEqual(chats[0].tools, ['Get_many_keywords', 'Get_a_keyword']);
		assert.deepEqual(
			chats[2].toolResults.map((r) => [r.name, r.content, r.bytes]),
			[
				['Get_many_keywords', listed, Buffer.byteLength(listed)],
				['Get_a_keyword', '{"id":"100001"}', 15],
			],
		);
		assert.deepEqual(model.errors(), []);
	});

	it('streams the same answers as server-sent events when asked (stream: true), with usage when asked', async () => {
		const first = await chat(model, {
			messages: [USER],
			stream: true,
			stream_options: { include_usage: true },
		});
		assert.equal(first.status, 200);
		const folded = foldStream(first.text);
		assert.equal(folded.done, true, 'ends with [DONE]');
		assert.equal(folded.finish, 'tool_calls');
		assert.equal(folded.calls.length, 1);
		assert.equal(folded.calls[0].name, 'Get_many_keywords');
		assert.deepEqual(JSON.parse(folded.calls[0].arguments), { project: 'Acme Shoes' });
		assert.ok(folded.usage?.total_tokens > 0, 'a usage chunk');

		const message = {
			role: 'assistant',
			content: null,
			tool_calls: folded.calls.map((c) => ({
				id: c.id,
				type: 'function',
				function: { name: c.name, arguments: c.arguments },
			})),
		};
		const history = [USER, ...afterCall(message, '[{"id":"7"}]')];
		const second = await chat(model, { messages: [...history], stream: false });
		const third = foldStream(
			(
				await chat(model, {
					messages: [...history, ...afterCall(second.json.choices[0].message, '{}')],
					stream: true,
				})
			).text,
		);
		assert.equal(
			third.content,
			'Seen 2 tool results. Grüße 👟',
			'the deltas add up to the text (split between code points)',
		);
		assert.equal(third.finish, 'stop');
		assert.equal(third.usage, undefined, 'no usage chunk unless asked');
	});

	it('answers script errors with 400 and records them: no such tool, an ambiguous name, the script exhausted', async () => {
		model.clearRequests();
		const noTool = await chat(model, { messages: [USER], tools: [] });
		assert.equal(noTool.status, 400);
		assert.match(noTool.json.error.message, /no offered tool matches get many \(offered: none\)/);
		const assistant = (n: number): any[] =>
			Array.from({ length: n }, () => ({ role: 'assistant', content: 'x' }));
		const exhausted = await chat(model, { messages: [USER, ...assistant(3)] });
		assert.equal(exhausted.status, 400);
		assert.match(exhausted.json.error.message, /3 step\(s\); the conversation is at step 4/);
		assert.deepEqual(
			model.errors().map((e) => e.status),
			[400, 400],
		);
		assert.throws(
			() => matchTool('get', ['Get_many_keywords', 'Get_a_keyword']),
			/matches several tools/,
		);
		assert.equal(
			matchTool('Get a keyword', ['Get_a_keyword_2', 'Get_a_keyword']),
			'Get_a_keyword',
			'an exact name wins over a prefix',
		);
	});

	it('counts the step from the assistant turns after the last user message', () => {
		assert.equal(stepIndexOf([USER]), 0);
		assert.equal(
			stepIndexOf([USER, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant' }]),
			2,
		);
		assert.equal(
			stepIndexOf([USER, { role: 'assistant' }, USER]),
			0,
			'a new user message starts again',
		);
	});

	it('refuses a wrong key (401), the Responses API and unknown routes (404)', async () => {
		assert.equal((await chat(model, { messages: [USER] }, 'sk-wrong')).status, 401);
		const responses = await fetch(`${model.baseUrl}/responses`, {
			method: 'POST',
			headers: { authorization: `Bearer ${model.apiKey}` },
			body: '{}',
		});
		assert.equal(responses.status, 404);
		assert.match(((await responses.json()) as any).error.message, /responsesApiEnabled: false/);
		assert.equal(
			(
				await fetch(`${model.baseUrl}/embeddings`, {
					headers: { authorization: `Bearer ${model.apiKey}` },
				})
			).status,
			404,
		);
	});

	it('checks JSON scripts', () => {
		assert.deepEqual(
			parseScript({ steps: [{ tool: 'x', arguments: { a: 1 } }, { text: 'done' }] }),
			[{ tool: 'x', arguments: { a: 1 }, text: undefined }, { text: 'done' }],
		);
		assert.throws(
			() => parseScript([{ tool: 'x', arguments: [1] }]),
			/step 1: "arguments" must be an object/,
		);
		assert.throws(() => parseScript([{}]), /step 1: expected/);
		assert.throws(() => parseScript('nope'), /JSON array of steps/);
	});
});

describe('fake model: CLI', () => {
	it('prints {baseUrl, apiKey}, plays --script-json, serves the control routes, exits 0 on SIGTERM', async () => {
		const script = JSON.stringify([{ text: 'Hello from the CLI' }]);
		const child = spawn(
			process.execPath,
			[CLI, '--script-json', script, '--api-key', 'sk-cli', '--model', 'm1'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const info = JSON.parse(await firstLine(child)) as { baseUrl: string; apiKey: string };
			assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
			assert.equal(info.apiKey, 'sk-cli');
			const headers = { authorization: 'Bearer sk-cli', 'content-type': 'application/json' };
			const models: any = await (await fetch(`${info.baseUrl}/models`, { headers })).json();
			assert.deepEqual(
				models.data.map((m: any) => m.id),
				['m1'],
			);
			const res: any = await (
				await fetch(`${info.baseUrl}/chat/completions`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ messages: [USER] }),
				})
			).json();
			assert.equal(res.choices[0].message.content, 'Hello from the CLI');
			const origin = info.baseUrl.replace(/\/v1$/, '');
			const put = await fetch(`${origin}/__control/script`, {
				method: 'PUT',
				body: JSON.stringify([{ text: 'Replaced' }]),
			});
			assert.equal(put.status, 200);
			const again: any = await (
				await fetch(`${info.baseUrl}/chat/completions`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ messages: [USER] }),
				})
			).json();
			assert.equal(again.choices[0].message.content, 'Replaced');
			const recorded: any = await (await fetch(`${origin}/__control/requests`)).json();
			assert.deepEqual(
				recorded.data.map((r: any) => `${r.method} ${r.path} ${r.status}`),
				['GET /v1/models 200', 'POST /v1/chat/completions 200', 'POST /v1/chat/completions 200'],
			);
			assert.equal(
				(await fetch(`${origin}/__control/script`, { method: 'PUT', body: '[{}]' })).status,
				422,
			);
		} finally {
			child.kill('SIGTERM');
		}
		const [code] = await once(child, 'exit');
		assert.equal(code, 0);
	});
});
