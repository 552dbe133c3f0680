/** The CLI: one JSON line when listening, flags applied, clean exit on SIGTERM. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_BEHAVIOUR } from '../../dev/fake-api/index.cjs';
import { firstLine } from './helpers.cjs';

const CLI = path.resolve(__dirname, '../../dev/fake-api/cli.cjs');

describe('fake API: CLI', () => {
	it('starts, prints {baseUrl, token}, serves the flags, and exits 0 on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[
				CLI,
				'--port',
				'0',
				'--seed',
				'empty',
				'--token',
				'cli-token',
				'--keywords',
				'300',
				'--project',
				'Bulk & Co',
			],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		try {
			const info = JSON.parse(await firstLine(child)) as { baseUrl: string; token: string };
			assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
			assert.equal(info.token, 'cli-token');
			const res = await fetch(`${info.baseUrl}/api/v2/groups/active`, {
				headers: { authorization: 'Bearer cli-token' },
			});
			const body: any = await res.json();
			assert.deepEqual(
				body.data.map((g: any) => [g.id, g.attributes.keywords_count.ACTIVE]),
				[['Bulk & Co', 300]],
			);
			const state: any = await (await fetch(`${info.baseUrl}/__control/state`)).json();
			assert.equal(state.keywords, 300);
		} finally {
			child.kill('SIGTERM');
		}
		const [code] = await once(child, 'exit');
		assert.equal(code, 0);
	});

	it('sets the behaviour switches from --alert-order, --history-order, --page-latency and --churn', async () => {
		const churn = { everyPages: 2, addKeywords: 1, deleteKeywords: 1 };
		const child = spawn(
			process.execPath,
			[
				CLI,
				'--alert-order',
				'oldest-first',
				'--history-order',
				'oldest-first',
				'--page-latency',
				'250',
				'--churn',
				JSON.stringify(churn),
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const info = JSON.parse(await firstLine(child)) as { baseUrl: string; token: string };
			const behaviour: any = await (await fetch(`${info.baseUrl}/__control/behaviour`)).json();
			assert.deepEqual(behaviour, {
				...DEFAULT_BEHAVIOUR,
				alertOrder: 'oldest-first',
				historyOrder: 'oldest-first',
				churn: { ...churn, crawlKeywords: 0, addAlerts: 0 },
				pageLatencyMs: 250,
			});
			const t = performance.now();
			const res = await fetch(`${info.baseUrl}/api/v2/alerts?sort_field=bogus`, {
				headers: { authorization: `Bearer ${info.token}` },
			});
			assert.equal(res.status, 200, 'the forced order ignores the sort value');
			const body: any = await res.json();
			assert.ok(performance.now() - t >= 225, 'the page waited');
			const created = body.data.map((a: any) => a.attributes.created_at);
			assert.deepEqual(
				created,
				[...created].sort((a: number, b: number) => a - b),
				'oldest first',
			);
		} finally {
			child.kill('SIGTERM');
		}
		const [code] = await once(child, 'exit');
		assert.equal(code, 0);
	});

	it('refuses a non-loopback host, unknown flags and bad behaviour values', async () => {
		for (const args of [
			['--host', '0.0.0.0'],
			['--bogus'],
			['--seed', 'full'],
			['--alert-order', 'sideways'],
			['--alert-order'],
			['--history-order', 'random'],
			['--page-latency', '-5'],
			['--page-latency', 'slow'],
			['--churn', '{bad json'],
			['--churn', '[1]'],
			['--churn', '{"addKeywords":-1}'],
			['--churn', '{"everyPages":0}'],
			['--churn', '{"bogus":1}'],
		]) {
			const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
			const [code] = await once(child, 'exit');
			assert.equal(code, 2, args.join(' '));
		}
	});
});
