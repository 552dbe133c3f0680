/**
 * The demo (e2e/demo/demo.cts, what `npm run demo` runs after compiling) as a user runs it, with --keep-open: it
 * prints a summary per example workflow (the AI Agent one on the scripted fake model, the MCP server one called by an
 * MCP client), keeps n8n, the fake API and the fake model running with an owner account whose login works and the MCP
 * server reachable with the printed token, and on Ctrl-C (SIGINT) stops every process it started.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/demo.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { after, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { EXAMPLES, buildPath, node24ProcessEnv, utcDay, waitUntil } from '../../e2e/lib/index.cjs';

/** Pids of live processes whose environment holds `KEY=value` (n8n and its task runners carry N8N_PORT). */
function processesWithEnv(key: string, value: string): number[] {
	const wanted = `${key}=${value}`;
	const pids: number[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted))
				pids.push(Number(entry));
		} catch {
			// gone, or not ours to read
		}
	}
	return pids;
}

async function refused(url: string): Promise<boolean> {
	try {
		await fetch(url, { signal: AbortSignal.timeout(3_000) });
		return false;
	} catch {
		return true;
	}
}

describe('npm run demo -- --keep-open', { timeout: 12 * 60_000 }, () => {
	let demo: ChildProcess | undefined;
	let out = '';

	after(() => {
		if (demo && demo.exitCode === null && demo.signalCode === null) demo.kill('SIGKILL');
	});

	test('prints a summary per example, keeps n8n open with a working login, and Ctrl-C stops everything', async () => {
		const started = Date.now();
		demo = spawn(
			process.execPath,
			[buildPath('e2e', 'demo', 'demo.cjs'), '--keep-open', '--port', '0'],
			{
				env: { ...node24ProcessEnv(), NODE_TEST_CONTEXT: '', NODE_OPTIONS: '' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const child = demo;
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
		const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
			child.once('exit', (code, signal) => resolve({ code, signal })),
		);

		// Ready: the editor URL and the login are printed.
		await waitUntil(
			'the demo getting ready',
			() => {
				assert.ok(child.exitCode === null, `the demo is still running:\n${out}`);
				return out.includes('Press Ctrl-C');
			},
			{ timeoutMs: 10 * 60_000, everyMs: 250, explain: () => out },
		);
		process.stdout.write(
			`# demo ready after ${((Date.now() - started) / 1000).toFixed(1)} s\n${out.replace(/^/gm, '# ')}\n`,
		);

		// The summary: one ✔ block per example.
		for (const spec of EXAMPLES)
			assert.match(
				out,
				new RegExp(`✔ ${spec.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
				`${spec.title} ran`,
			);
		assert.match(out, /12 keyword rows ready for the sheet/);
		// 30 days up to today; the demo data is charted up to yesterday when it was seeded in the first 10 minutes
		// of a UTC day (its keywords were crawled 10 min to 6 h before) or the demo ran over midnight.
		const sinceMidnight = started % 86_400_000;
		const days =
			sinceMidnight < 10 * 60_000 || utcDay(started) !== utcDay() ? ['29', '30'] : ['30'];
		const sheet = /(\d+) rows \(12 keywords × (\d+) days\) ready for the sheet/.exec(out);
		assert.ok(sheet && days.includes(sheet[2]), `the 30-days example: ${sheet?.[0]}`);
		assert.equal(Number(sheet[1]), 12 * Number(sheet[2]));
		assert.match(
			out,
			/the agent called Get many projects → Get many keywords and answered 'You track 2 projects: Acme Shoes and Café Zürich\. Acme Shoes has 14 keywords; the best placed: /,
			'the agent example: the tools it called and its answer (12 keywords of the demo data + 2 the bulk example added)',
		);
		assert.match(
			out,
			/an MCP client listed 3 tools \([^)]*Get_many_keywords[^)]*\); Get_many_keywords \{"project":"Acme Shoes"\} returned 14 records, first: '[^']+'.*; without the bearer token: HTTP 403/,
			'the MCP example: the tools listed, the records of a call, no access without the token',
		);
		assert.match(
			out,
			/2 keyword updates crossing the top 10 \(the filtered trigger's items: fixture\) → Switch: 1 entered, 1 left → 2 Slack messages/,
			'the top 10 example: each crossing through its branch of the Switch to Slack',
		);
		assert.match(
			out,
			/2 days whose visibility dropped \(the filtered trigger's items: fixture\) → 2 Slack messages/,
			'the AI-visibility drop example',
		);
		assert.match(out, /1 e-mail covering 2 brands \(SMTP stubbed\)/, 'the weekly summary');
		assert.match(
			out,
			/12 rows to update in place by keyword_id \(Google Sheets stubbed\)/,
			'the rank sheet updated in place: one row per keyword of the demo project',
		);
		assert.match(
			out,
			/1 keyword left the top 10 \(the filtered trigger's items: fixture\) → 1 HubSpot task \(HubSpot stubbed\), first: 'SEO: "[^"]+" left the top 10 \(\d+ → \d+\)'/,
			'the CRM example: a HubSpot task naming the keyword that left',
		);
		assert.equal(EXAMPLES.length, 11);
		assert.match(out, /11 of 11 example workflows ran in n8n 2\./);
		assert.match(out, /the fake model 3\./, 'the agent example took three model calls');

		const url = /n8n is running: (http:\/\/127\.0\.0\.1:(\d+))\//.exec(out);
		const login = /Sign in as (\S+), password (\S+)/.exec(out);
		const fakeUrl = /Fake Keyword\.com API: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
		const modelUrl = /Fake chat model: (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
		const mcp =
			/MCP server \(published\): (http:\/\/127\.0\.0\.1:\d+\/mcp\/keyword-com) +header "Authorization: Bearer (\S+)"/.exec(
				out,
			);
		assert.ok(
			url && login && fakeUrl && modelUrl && mcp,
			'URL, login, fake API, fake model and MCP server are printed',
		);
		const [, baseUrl, port] = url;

		// The printed login works, and the examples (and their test copies) are there.
		const res = await fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: login[1], password: login[2] }),
		});
		assert.equal(res.status, 200, 'the printed login signs in');
		const cookie = res.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		assert.ok(cookie);
		const workflows = (await (
			await fetch(`${baseUrl}/rest/workflows`, { headers: { cookie } })
		).json()) as { data: any[] };
		const withCopy = EXAMPLES.filter((spec) => spec.kind !== 'mcp');
		assert.equal(withCopy.length, 10, 'every example but the MCP server has a test copy');
		assert.equal(
			workflows.data.length,
			EXAMPLES.length + withCopy.length,
			'each example, and the test copy of each example run by n8n execute',
		);
		const credentials = (await (
			await fetch(`${baseUrl}/rest/credentials`, { headers: { cookie } })
		).json()) as { data: any[] };
		assert.deepEqual(credentials.data.map((c) => c.name).sort(), [
			'Keyword.com account',
			'MCP bearer token',
			'OpenAI account',
		]);
		for (const match of out.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/workflow\/(\w+))/g)) {
			assert.ok(
				workflows.data.some((w) => w.id === match[2]),
				`${match[1]} is a workflow of this n8n`,
			);
		}
		assert.equal((await fetch(`${fakeUrl[1]}/__control/state`)).status, 200, 'the fake API is up');
		assert.equal(
			(await fetch(`${modelUrl[1]}/models`)).status,
			401,
			'the fake model is up (and asks for its key)',
		);

		// The MCP server stays up: an MCP client with the printed token lists the Keyword.com tools.
		const client = new Client({ name: 'demo-e2e', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(mcp[1]), {
				requestInit: { headers: { Authorization: `Bearer ${mcp[2]}` } },
			}),
		);
		const { tools } = await client.listTools();
		await client.close();
		assert.deepEqual(tools.map((t) => t.name).sort(), [
			'Get_many_alerts',
			'Get_many_keywords',
			'Get_many_projects',
		]);
		assert.ok(processesWithEnv('N8N_PORT', port).length >= 1, 'n8n runs');

		// Ctrl-C: everything stops.
		child.kill('SIGINT');
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		const { code, signal } = await exited;
		clearTimeout(timer);
		assert.equal(signal, null, `the demo exited by itself:\n${out.slice(-2000)}`);
		assert.equal(code, 0);
		assert.match(out, /Stopped\./);
		assert.ok(await refused(`${baseUrl}/healthz`), 'n8n no longer answers');
		assert.ok(await refused(`${fakeUrl[1]}/__control/state`), 'the fake API no longer answers');
		assert.ok(await refused(`${modelUrl[1]}/models`), 'the fake model no longer answers');
		assert.deepEqual(
			processesWithEnv('N8N_PORT', port),
			[],
			'no n8n process (nor task runner) is left',
		);
	});
});
