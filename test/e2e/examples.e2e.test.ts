/**
 * The example workflows of examples/ in a real n8n 2.x: each imports as shipped (only node types and versions this n8n
 * has), and its Keyword.com part runs against the fake API. Test copies (e2e/lib/examples.ts: prepareForTest) stub the
 * nodes that would reach a third party (Google Sheets, Slack, SMTP) and start from a Manual Trigger; the example files
 * stay untouched. The alert → Slack example also runs through the published-trigger path: the Keyword.com Trigger is
 * kept, the workflow is published, n8n started, new alerts added to the fake, n8n restarted.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/examples.e2e.test.js
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, test } from 'node:test';

import {
	BULK_SHEET_ROWS,
	EXAMPLES,
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	KEYWORD_COM_NODE,
	KEYWORD_COM_TRIGGER_NODE,
	RealN8n,
	buildAndPackPackage,
	examplesDir,
	importAndRunExamples,
	keywordComCredential,
	loadExample,
	nodeOutput,
	removeTarball,
	testCopyOf,
	type ExampleRun,
} from '../../e2e/lib';

/* eslint-disable @typescript-eslint/no-explicit-any */

function runOf(runs: ExampleRun[], file: string): ExampleRun {
	const run = runs.find((r) => r.spec.file === file);
	assert.ok(run, `${file} ran`);
	assert.ok(run.result.ok, `${file}: ${run.summary}`);
	return run;
}

describe('example workflows in a real n8n, against the fake API', { timeout: 15 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let n8n: RealN8n;
	let runs: ExampleRun[] = [];

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'examples' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	test('examples/ holds the four examples; each is n8n 2.x workflow JSON with node types and versions of this n8n', async () => {
		const files = fs.readdirSync(examplesDir()).filter((f) => f.endsWith('.json')).sort();
		assert.deepEqual(files, EXAMPLES.map((e) => e.file).sort());
		const known = new Map<string, number[]>();
		for (const node of await n8n.exportNodes()) {
			known.set(node.name, [...(known.get(node.name) ?? []), ...[node.version].flat()]);
		}
		for (const spec of EXAMPLES) {
			const workflow = loadExample(spec.file);
			assert.equal(typeof workflow.id, 'string', `${spec.file}: has an id`);
			assert.equal(typeof workflow.name, 'string');
			assert.equal(workflow.settings?.executionOrder, 'v1', `${spec.file}: n8n 1.x/2.x execution order`);
			const names = new Set<string>();
			for (const node of workflow.nodes) {
				assert.match(node.id, /^[0-9a-f-]{36}$/, `${spec.file}: "${node.name}" has a node id`);
				assert.ok(!names.has(node.name), `${spec.file}: node names are unique`);
				names.add(node.name);
				assert.ok(Array.isArray(node.position) && node.position.length === 2, `${spec.file}: "${node.name}" has a position`);
				assert.ok(known.has(node.type), `${spec.file}: node type ${node.type} exists in this n8n`);
				assert.ok(known.get(node.type)!.includes(node.typeVersion), `${spec.file}: ${node.type} v${node.typeVersion} exists (has ${known.get(node.type)!.join(', ')})`);
				if (node.type === KEYWORD_COM_NODE || node.type === KEYWORD_COM_TRIGGER_NODE) {
					assert.deepEqual(node.credentials, { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } }, `${spec.file}: "${node.name}" uses the "Keyword.com account" credential`);
				}
			}
			for (const [from, outputs] of Object.entries<any>(workflow.connections)) {
				assert.ok(names.has(from), `${spec.file}: connection from a node that exists (${from})`);
				for (const c of outputs.main.flat()) assert.ok(names.has(c.node), `${spec.file}: connection to a node that exists (${c.node})`);
			}
		}
	});

	test('each example imports as shipped, and its test copy runs against the fake', async () => {
		const before = JSON.stringify(EXAMPLES.map((spec) => loadExample(spec.file)));
		runs = await importAndRunExamples(n8n);
		assert.equal(JSON.stringify(EXAMPLES.map((spec) => loadExample(spec.file))), before, 'the example files are untouched');
		for (const run of runs) {
			assert.ok(run.result.ok, `${run.spec.file}: ${run.summary}\n${n8n.logTail(30)}`);
			process.stdout.write(`# ${run.spec.title}: ${run.summary}\n`);
		}
		const listed = await n8n.cli(['list:workflow']);
		for (const run of runs) assert.match(listed.stdout, new RegExp(`${run.exampleId}\\|`), `${run.exampleId} is in n8n`);
	});

	test('daily ranks → Google Sheet: one row per keyword of the project', () => {
		const { result } = runOf(runs, 'daily-ranks-to-google-sheet.json');
		const rows = nodeOutput(result.output, 'Append to Google Sheet')!;
		assert.equal(rows.length, 12);
		assert.deepEqual(Object.keys(rows[0]).sort(), ['best_rank', 'change_1d', 'date', 'device', 'keyword', 'project', 'rank', 'ranking_url', 'region', 'search_volume'].sort());
		assert.equal(rows[0].keyword, 'running shoes');
		assert.ok(rows.every((r) => r.project === 'Acme Shoes' && /^\d{4}-\d\d-\d\d$/.test(r.date)));
		assert.ok(rows.some((r) => r.device === 'Mobile') && rows.some((r) => r.device === 'Desktop'));
	});

	test('new alert → Slack: one message per alert', () => {
		const { result } = runOf(runs, 'new-alert-to-slack.json');
		const alerts = nodeOutput(result.output, 'On new rank alert')!;
		const messages = nodeOutput(result.output, 'Post to Slack')!;
		assert.ok(alerts.length >= 1, 'the demo data has alerts of the last day');
		assert.equal(messages.length, alerts.length);
		messages.forEach((m, i) => assert.ok(m.text.includes(`*${alerts[i].kw}*`), m.text));
	});

	test('weekly AI-visibility summary: one e-mail with a line per brand', () => {
		const { result } = runOf(runs, 'weekly-ai-visibility-summary.json');
		const [mail, ...more] = nodeOutput(result.output, 'Email the summary')!;
		assert.equal(more.length, 0);
		assert.deepEqual(mail.brands.map((b: any) => b.domain), ['acmeshoes.com', 'cafe-zuerich.ch']);
		assert.match(mail.subject, /2 brands/);
		assert.match(mail.text, /Acme Shoes: visibility \d+\.\d \([+-]?\d+\.\d vs last week\)/);
		assert.match(mail.html, /<li>Café Zürich: visibility/);
	});

	test('keywords from a sheet in bulk: grouped per project, duplicates counted', async () => {
		const { result } = runOf(runs, 'bulk-add-keywords-from-sheet.json');
		const added = nodeOutput(result.output, 'Add keywords')!;
		assert.equal(added.length, 2, 'one addition per project and URL');
		assert.deepEqual(added.map((a) => [a.requested, a.added, a.duplicates]), [[3, 2, 1], [2, 2, 0]]);
		const cafe = await fake.api('GET', `/api/v2/groups/${encodeURIComponent('Café Zürich')}/keywords/?per_page=250`);
		const imported = (cafe.data as any[]).filter((k) => k.attributes.tags?.some((t: any) => t.name === 'Imported'));
		assert.deepEqual(imported.map((k) => k.attributes.kw).sort(), BULK_SHEET_ROWS.filter((r) => r.project === 'Café Zürich').map((r) => r.keyword).sort());
	});

	test('new alert → Slack through the published trigger: new alerts after a restart are posted, each once', async () => {
		const copy = testCopyOf(EXAMPLES.find((e) => e.file === 'new-alert-to-slack.json')!, {
			trigger: 'keep',
			id: 'kwcExAlertSlackPub',
			name: 'Keyword.com: new rank alert → Slack (published test copy)',
		});
		assert.ok(copy.nodes.some((n: any) => n.type === KEYWORD_COM_TRIGGER_NODE), 'the trigger is kept');
		const id = await n8n.importWorkflow(copy);
		const alertPolls = async (): Promise<number> => (await fake.requests()).filter((r) => r.path === '/api/v2/alerts' && r.status === 200).length;
		const waitForPoll = async (count: number): Promise<void> => {
			const deadline = Date.now() + 60_000;
			while ((await alertPolls()) < count) {
				assert.ok(Date.now() < deadline, `the trigger polled (${count} polls expected)\n${n8n.logTail(40)}`);
				await new Promise((r) => setTimeout(r, 300));
			}
		};
		await fake.clearRequests();
		await n8n.publish(id);
		await n8n.start();
		await n8n.setupOwnerAndLogin();
		await waitForPoll(1); // activation: the trigger learns where "now" is
		const first = await n8n.listExecutionSummaries(id);

		const created = (await fake.control('POST', 'alerts', { count: 2, category: 'Acme Shoes' })).data as any[];
		await n8n.restart(); // activation poll again: the two new alerts
		await waitForPoll(2);
		const executions = await n8n.waitForExecutions(id, first.length + 1, { timeoutMs: 60_000 });
		const last = executions[executions.length - 1];
		assert.equal(last.mode, 'trigger');
		assert.equal(last.status, 'success');
		const posted = nodeOutput(last, 'Post to Slack')!;
		const fromTrigger = nodeOutput(last, 'On new rank alert')!;
		assert.deepEqual(fromTrigger.map((a) => String(a.id)).sort(), created.map((a) => String(a.id)).sort(), 'exactly the new alerts');
		assert.equal(posted.length, 2);
		assert.ok(posted.every((m) => m.text.includes('(Acme Shoes, ')));

		await n8n.restart(); // nothing new: no further execution
		await waitForPoll(3);
		await new Promise((r) => setTimeout(r, 1_500));
		const again = await n8n.listExecutionSummaries(id);
		assert.equal(again.length, executions.length, 'the alerts were posted once');
		await n8n.stop();
		assert.ok(!n8n.logs().includes(fake.token), 'no token in the logs');
	});
});
