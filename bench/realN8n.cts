/**
 * Scenarios 1 and 4 in a real n8n (2.41.1, e2e/lib): the package is built (`n8n-node build` in packageDir()),
 * packed and installed as a community package; the fake runs as its own process with `--latency L --keywords N
 * --project "Bulk Project"`.
 *
 * - Speed: one workflow per way of reading the list (Keyword.com Return All at the default concurrency, at
 *   concurrency 1, and n8n's HTTP Request node (latest typeVersion) with its built-in pagination at its best settings:
 *   page = {{ $pageCount + 1 }}, per_page 250, complete when current_page >= total_pages, no page limit, no interval).
 *   Each workflow runs the same read twice, in two branches: the first warms n8n up (JIT-compiled code, as in a
 *   long-running instance) and is not measured, the second is. The workflows are run alternately, `repeat` times
 *   each, and the fastest run of each way counts. A node's time is its `executionTime` in the run `n8n execute --rawOutput` prints.
 * - Memory: peak RSS of the `n8n execute` process (VmHWM, read at exit through a `--require` hook) for Return All
 *   with Output Simplified (the default), Raw and Selected Fields (two fields), next to a run that reads 1 keyword
 *   (n8n's own footprint). The node runs at its default version (BENCH_NODE_VERSIONS), as a new workflow places it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	buildAndPackPackage,
	buildPath,
	freePort,
	nodeEnv,
	nodeOutput,
	parseExecuteOutput,
	RealN8n,
	removeTarball,
} from '../e2e/lib/index.cjs';
import { DEFAULT_PAGE_CONCURRENCY } from '../nodes/shared/constants';
import { quietReadRequests } from '../dev/quiet-read.cjs';
import {
	BENCH_NODE_VERSIONS,
	PAGE_SIZE,
	ceilDiv,
	check,
	log,
	overlapCheck,
	round,
	type Row,
	type SectionResult,
} from './lib.cjs';

const PROJECT = 'Bulk Project';
const PROJECT_PATH = `/api/v2/groups/${encodeURIComponent(PROJECT)}/keywords/`;
const TOKEN = 'bench-token-0123456789';
const CREDENTIAL = { id: 'benchKwcCred0001', name: 'Keyword.com (bench fake)' };
const KWC_TYPE = 'n8n-nodes-keyword-com.keywordCom';
const HTTP_TYPE = 'n8n-nodes-base.httpRequest';

export interface RealOptions {
	keywords: number;
	latencies: number[];
	/** Runs of each way, alternated; the fastest counts. */
	repeat?: number;
}

interface FakeProcess {
	child: ChildProcess;
	baseUrl: string;
}

async function startFake(port: number, latencyMs: number, keywords: number): Promise<FakeProcess> {
	const cli = buildPath('dev', 'fake-api', 'cli.cjs');
	const args = [
		cli,
		'--port',
		String(port),
		'--seed',
		'empty',
		'--token',
		TOKEN,
		'--latency',
		String(latencyMs),
		'--keywords',
		String(keywords),
		'--project',
		PROJECT,
		'--cache-reads',
	];
	const child = spawn(process.execPath, args, {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, NODE_OPTIONS: '' },
	});
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let out = '';
		let err = '';
		const timer = setTimeout(
			() => reject(new Error(`bench: the fake did not start\n${err}`)),
			60_000,
		);
		child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
		child.stdout?.setEncoding('utf8').on('data', (c: string) => {
			out += c;
			if (out.includes('\n')) {
				clearTimeout(timer);
				resolve((JSON.parse(out.slice(0, out.indexOf('\n'))) as { baseUrl: string }).baseUrl);
			}
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`bench: the fake exited (${code})\n${err}`));
		});
	});
	return { child, baseUrl };
}

async function stopFake(fake: FakeProcess): Promise<void> {
	if (fake.child.exitCode !== null) return;
	const exited = new Promise((resolve) => fake.child.once('exit', resolve));
	fake.child.kill('SIGTERM');
	await exited;
}

interface FakeRequest {
	method: string;
	path: string;
	query: Record<string, unknown>;
	headers: Record<string, string>;
	status: number;
}

async function control(baseUrl: string, method: string, route: string): Promise<any> {
	const res = await fetch(`${baseUrl}/__control/${route}`, {
		method,
		signal: AbortSignal.timeout(30_000),
	});
	if (!res.ok) throw new Error(`bench: ${method} /__control/${route} answered ${res.status}`);
	return await res.json();
}

/** Reads every page once, so no measured run pays for the fake building its answers (its read cache). */
async function primeReadCache(baseUrl: string, pages: number): Promise<void> {
	const queue = Array.from({ length: pages }, (_, i) => i + 1);
	const worker = async () => {
		for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
			const res = await fetch(`${baseUrl}${PROJECT_PATH}?per_page=${PAGE_SIZE}&page=${page}`, {
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			if (!res.ok) throw new Error(`bench: priming page ${page} answered ${res.status}`);
			await res.arrayBuffer();
		}
	};
	await Promise.all(Array.from({ length: 10 }, worker));
	await control(baseUrl, 'DELETE', 'requests');
}

/** n8n's Manual Trigger at its first version (it has no other behaviour to choose). */
const MANUAL_TRIGGER_VERSION = 1;

const manualTrigger = {
	id: 'benchTrigger0001',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: MANUAL_TRIGGER_VERSION,
	position: [0, 300],
	parameters: {},
};

function keywordComNode(name: string, y: number, parameters: Record<string, unknown>) {
	return {
		id: `bench-${name.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 36),
		name,
		type: KWC_TYPE,
		typeVersion: BENCH_NODE_VERSIONS.keywordCom,
		position: [300, y],
		parameters: {
			resource: 'keyword',
			operation: 'getMany',
			project: { __rl: true, mode: 'name', value: PROJECT },
			returnAll: true,
			...parameters,
		},
		credentials: { keywordComApi: CREDENTIAL },
	};
}

function httpRequestNode(name: string, y: number, baseUrl: string, typeVersion: number) {
	return {
		id: `bench-${name.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 36),
		name,
		type: HTTP_TYPE,
		typeVersion,
		position: [300, y],
		parameters: {
			method: 'GET',
			url: `${baseUrl}${PROJECT_PATH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'keywordComApi',
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'per_page', value: String(PAGE_SIZE) }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
						},
						paginationCompleteWhen: 'other',
						completeExpression:
							'={{ $response.body.meta.pagination.current_page >= $response.body.meta.pagination.total_pages }}',
						limitPagesFetched: false,
						requestInterval: 0,
					},
				},
			},
		},
		credentials: { keywordComApi: CREDENTIAL },
	};
}

function workflow(
	id: string,
	name: string,
	nodes: Array<Record<string, unknown> & { name: string }>,
) {
	return {
		id,
		name,
		nodes: [manualTrigger, ...nodes],
		connections: {
			[manualTrigger.name]: {
				main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/** A `--require` hook for `n8n execute`: writes the process's peak RSS (VmHWM) to a file when it exits. */
function writeRssHook(dir: string): string {
	const file = path.join(dir, 'peak-rss-hook.js');
	fs.writeFileSync(
		file,
		`'use strict';
const fs = require('fs');
const out = process.env.BENCH_RSS_DIR;
if (out && process.argv.some((a) => a === 'execute')) {
	process.on('exit', () => {
		let hwmKb = 0;
		try { hwmKb = Number((/VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8')) || [])[1] || 0); } catch {}
		const maxRssKb = process.resourceUsage().maxRSS;
		fs.writeFileSync(require('path').join(out, 'rss-' + process.pid + '.json'), JSON.stringify({ pid: process.pid, hwmKb, maxRssKb }));
	});
}
`,
	);
	return file;
}

interface Measured {
	output: any;
	stdoutBytes: number;
	peakRssMb?: number;
	cliMs: number;
}

/**
 * `n8n execute --id=… --rawOutput` with its stdout going to a file: through a pipe, n8n exits before a large output
 * (tens of MB) is flushed, and the run would arrive cut.
 */
async function execute(
	n8n: RealN8n,
	workflowId: string,
	hook: string,
	rssDir: string,
): Promise<Measured> {
	for (const f of fs.readdirSync(rssDir)) fs.rmSync(path.join(rssDir, f));
	const outFile = path.join(rssDir, '..', `execute-${workflowId}.stdout`);
	const out = fs.openSync(outFile, 'w');
	const env = {
		...n8n.processEnv,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		// BENCH_N8N_NODE_OPTIONS: extra flags for n8n (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a run).
		NODE_OPTIONS: `--require ${hook} ${process.env.BENCH_N8N_NODE_OPTIONS ?? ''}`.trim(),
		BENCH_RSS_DIR: rssDir,
	};
	const started = Date.now();
	const child = spawn(
		nodeEnv().nodeBin,
		[
			path.join(n8n.hostDir, 'node_modules', 'n8n', 'bin', 'n8n'),
			'execute',
			`--id=${workflowId}`,
			'--rawOutput',
		],
		{
			cwd: n8n.rootDir,
			env,
			stdio: ['ignore', out, 'pipe'],
			detached: true,
		},
	);
	let stderr = '';
	child.stderr
		?.setEncoding('utf8')
		.on('data', (c: string) => (stderr = (stderr + c).slice(-20_000)));
	const timer = setTimeout(() => {
		try {
			process.kill(-(child.pid ?? 0), 'SIGKILL');
		} catch {
			// gone
		}
	}, 600_000);
	const code = await new Promise<number | null>((resolve) =>
		child.once('close', (c) => resolve(c)),
	);
	clearTimeout(timer);
	try {
		process.kill(-(child.pid ?? 0), 'SIGKILL'); // task runners it left behind, if any
	} catch {
		// gone
	}
	fs.closeSync(out);
	const stdout = fs.readFileSync(outFile, 'utf8');
	fs.rmSync(outFile, { force: true });
	const output = parseExecuteOutput(stdout);
	if (code !== 0 || !output || output?.data?.resultData?.error) {
		const dump = path.join(os.tmpdir(), `kwc-bench-failed-${workflowId}.stdout`);
		fs.writeFileSync(dump, stdout + '\n--- stderr ---\n' + stderr);
		throw new Error(
			`bench: n8n execute ${workflowId} failed (exit ${code}); its output is in ${dump}`,
		);
	}
	const files = fs.readdirSync(rssDir).map(
		(f) =>
			JSON.parse(fs.readFileSync(path.join(rssDir, f), 'utf8')) as {
				hwmKb: number;
				maxRssKb: number;
			},
	);
	const kb = files.length ? Math.max(...files.map((f) => f.hwmKb || f.maxRssKb)) : undefined;
	return {
		output,
		stdoutBytes: Buffer.byteLength(stdout),
		peakRssMb: kb === undefined ? undefined : round(kb / 1024),
		cliMs: Date.now() - started,
	};
}

function nodeTask(
	output: any,
	name: string,
): { executionTime: number; startTime: number; items: any[] } {
	const task = output.data.resultData.runData[name]?.[0];
	if (!task) throw new Error(`bench: node "${name}" did not run`);
	return {
		executionTime: task.executionTime,
		startTime: task.startTime,
		items: nodeOutput(output, name) ?? [],
	};
}

const mb = (bytes: number): number => round(bytes / 2 ** 20, 1);

/**
 * Selected Fields in the memory run: the keyword and its rank, as a sheet row of a rank report would hold (field names
 * of the keyword's catalogue, as the node offers them).
 */
export const SELECTED_FIELDS = ['keyword', 'rank'];

export async function benchRealN8n({
	keywords,
	latencies,
	repeat = 3,
}: RealOptions): Promise<SectionResult> {
	const result: SectionResult = { rows: [], checks: [] };
	// Page 1, then windows of 125–250 that each hold the last keyword read (a list that changes meanwhile loses nothing).
	const pages = quietReadRequests(keywords, PAGE_SIZE);
	// The HTTP Request node reads plain pages of 250.
	const plainPages = ceilDiv(keywords, PAGE_SIZE);
	log('building and packing the package (n8n-node build, npm pack)');
	const tarball = buildAndPackPackage();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-bench-'));
	const rssDir = path.join(tmp, 'rss');
	fs.mkdirSync(rssDir);
	const hook = writeRssHook(tmp);
	log('starting a real n8n with the package installed');
	const n8n = await RealN8n.create({ packageTarball: tarball, name: 'bench' });
	let fake: FakeProcess | undefined;
	try {
		const described = await n8n.exportNodes();
		const http = described.filter((d: any) => d.name === HTTP_TYPE);
		const httpVersion = Math.max(
			...http.flatMap((d: any) => (Array.isArray(d.version) ? d.version : [d.version])),
		);
		log(`HTTP Request node: latest typeVersion ${httpVersion}`);
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		await n8n.importCredentials([
			{ ...CREDENTIAL, type: 'keywordComApi', data: { apiToken: TOKEN, baseUrl } },
		]);

		const WARM_UP = 'Warm-up';
		const MEASURED = 'Measured';
		const ways = [
			{
				label: 'Keyword.com (default concurrency)',
				warmUp: keywordComNode(WARM_UP, 100, {}),
				measured: keywordComNode(MEASURED, 300, {}),
			},
			{
				label: 'Keyword.com (concurrency 1)',
				warmUp: keywordComNode(WARM_UP, 100, { options: { concurrency: 1 } }),
				measured: keywordComNode(MEASURED, 300, { options: { concurrency: 1 } }),
			},
			{
				label: 'HTTP Request (pagination)',
				warmUp: httpRequestNode(WARM_UP, 100, baseUrl, httpVersion),
				measured: httpRequestNode(MEASURED, 300, baseUrl, httpVersion),
			},
		];
		const [KWC_DEFAULT, KWC_SEQ, HTTP] = ways.map((way) => way.label);
		const speedIds = new Map<string, string>();
		for (const [index, way] of ways.entries()) {
			// Branches of a v1 workflow run top to bottom: the warm-up (y 100) before the measured node (y 300).
			speedIds.set(
				way.label,
				await n8n.importWorkflow(
					workflow(`benchSpeed${index}`.padEnd(16, '0'), `Bench: ${way.label}`, [
						way.warmUp,
						way.measured,
					]),
				),
			);
		}
		const SIMPLE = 'Keyword.com';
		const SIMPLIFIED = 'Output Simplified (default)';
		const RAW = 'Output Raw';
		const SELECTED = `Output Selected Fields (${SELECTED_FIELDS.join(', ')})`;
		const BASE = 'Limit 1 (n8n itself)';
		const memoryRuns: Array<[string, string]> = [];
		for (const [label, id, parameters] of [
			[SIMPLIFIED, 'benchMemSimple01', {}],
			[RAW, 'benchMemRaw00001', { output: 'raw' }],
			[SELECTED, 'benchMemSelect01', { output: 'selected', fields: SELECTED_FIELDS }],
			[BASE, 'benchMemBase0001', { returnAll: false, limit: 1 }],
		] as const) {
			memoryRuns.push([
				label,
				await n8n.importWorkflow(
					workflow(id, `Bench: memory, ${label}`, [keywordComNode(SIMPLE, 300, parameters)]),
				),
			]);
		}

		for (const [index, latencyMs] of latencies.entries()) {
			log(`fake: ${keywords} keywords, latency ${latencyMs} ms`);
			fake = await startFake(port, latencyMs, keywords);
			await primeReadCache(fake.baseUrl, plainPages);
			const runs = new Map<string, number[]>();
			const tasks: Array<{
				name: string;
				executionTime: number;
				items: any[];
				requests: FakeRequest[];
			}> = [];
			for (let round_ = 0; round_ < repeat; round_++) {
				// Alternated, a different way first in each round: no way always meets the machine in the same state.
				const order = ways.map((_, i) => ways[(i + round_) % ways.length].label);
				for (const label of order) {
					await control(fake.baseUrl, 'DELETE', 'requests');
					const run = await execute(n8n, speedIds.get(label)!, hook, rssDir);
					const requests = (
						(await control(fake.baseUrl, 'GET', 'requests')) as { data: FakeRequest[] }
					).data;
					const warmUp = nodeTask(run.output, WARM_UP);
					const measured = nodeTask(run.output, MEASURED);
					// The measured node's requests start at the second page 1 (the warm-up read the whole list first).
					const firstPages = requests
						.map((r, i) => (String(r.query.page) === '1' ? i : -1))
						.filter((i) => i >= 0);
					const sent = requests.slice(firstPages[1] ?? requests.length);
					const what = `real n8n @${latencyMs} ms, ${label}, run ${round_ + 1}`;
					const expected = label.startsWith('HTTP') ? plainPages : pages;
					check(
						result,
						`${what}: the warm-up ran first`,
						warmUp.startTime + warmUp.executionTime <= measured.startTime,
						`${warmUp.startTime} + ${warmUp.executionTime} vs ${measured.startTime}`,
					);
					check(
						result,
						`${what}: warm-up ${expected} requests`,
						(firstPages[1] ?? -1) === expected,
						`${firstPages[1]}`,
					);
					(runs.get(label) ?? runs.set(label, []).get(label)!).push(round(measured.executionTime));
					log(
						`real n8n @${latencyMs} ms, ${label}, run ${round_ + 1}/${repeat}: ${round(measured.executionTime)} ms, ${sent.length} requests${process.env.BENCH_N8N_NODE_OPTIONS ? ` (started at ${measured.startTime})` : ''}`,
					);
					check(
						result,
						`${what}: ${expected} requests`,
						sent.length === expected,
						`${sent.length}`,
					);
					const best = tasks.find((t) => t.name === label);
					if (!best || measured.executionTime < best.executionTime) {
						if (best) tasks.splice(tasks.indexOf(best), 1);
						tasks.push({
							name: label,
							executionTime: measured.executionTime,
							items: measured.items,
							requests: sent,
						});
					}
				}
			}
			tasks.sort(
				(a, b) =>
					ways.findIndex((w) => w.label === a.name) - ways.findIndex((w) => w.label === b.name),
			);
			const seq = tasks.find((t) => t.name === KWC_SEQ)!;
			for (const task of tasks) {
				const sent = task.requests;
				const isHttp = task.name === HTTP;
				const records = isHttp
					? task.items.reduce(
							(n: number, page: any) => n + (Array.isArray(page?.data) ? page.data.length : 0),
							0,
						)
					: task.items.length;
				check(
					result,
					`real n8n @${latencyMs} ms, ${task.name}: ${keywords} records`,
					records === keywords,
					`${records}`,
				);
				const row: Row = {
					section: 'real',
					scenario: `Real n8n: ${task.name}${isHttp ? ', one item per page' : ''}`,
					latencyMs,
					requests: sent.length,
					ms: round(task.executionTime),
					items: task.items.length,
					note: `${isHttp ? `${records.toLocaleString('en')} records inside ${task.items.length} page items; ` : ''}fastest of ${repeat} runs: ${(runs.get(task.name) ?? []).join(', ')} ms`,
				};
				if (task.name !== KWC_SEQ) {
					row.ratio = round(seq.executionTime / task.executionTime, 2);
					row.ratioLabel = 'vs Keyword.com concurrency 1';
				}
				result.rows.push(row);
			}
			const fast = tasks.find((t) => t.name === KWC_DEFAULT)!;
			const httpTask = tasks.find((t) => t.name === HTTP)!;
			overlapCheck(result, `real n8n @${latencyMs} ms`, {
				oneAtATimeMs: seq.executionTime,
				concurrentMs: fast.executionTime,
				requests: pages,
				latencyMs,
				concurrency: DEFAULT_PAGE_CONCURRENCY,
			});
			const httpRatio = httpTask.executionTime / fast.executionTime;
			const fastRow = result.rows.find(
				(r) =>
					r.section === 'real' && r.latencyMs === latencyMs && r.scenario.includes(KWC_DEFAULT),
			)!;
			fastRow.note = `${round(httpRatio, 2)}× faster than the HTTP Request node; ${fastRow.note}`;
			log(
				`real n8n @${latencyMs} ms: default ${round(fast.executionTime)} ms, c=1 ${round(seq.executionTime)} ms, HTTP Request ${round(httpTask.executionTime)} ms`,
			);

			if (index === 0) {
				log(`n8n execute: memory (${memoryRuns.map(([label]) => label).join('; ')})`);
				const measured: Record<string, Measured> = {};
				for (const [label, id] of memoryRuns) {
					const run = await execute(n8n, id, hook, rssDir);
					measured[label] = run;
					const task = nodeTask(run.output, SIMPLE);
					const outBytes = Buffer.byteLength(JSON.stringify(task.items));
					result.rows.push({
						section: 'memory',
						scenario: `Real n8n: n8n execute, Keyword.com Return All, ${label}`,
						latencyMs,
						requests: label === BASE ? 1 : pages,
						ms: round(task.executionTime),
						items: task.items.length,
						peakRssMb: run.peakRssMb,
						outputMb: mb(outBytes),
						note: `stdout of n8n execute ${mb(run.stdoutBytes)} MB`,
					});
				}
				const peak = (label: string) => measured[label].peakRssMb ?? 0;
				const [simplified, raw, selected, base] = [SIMPLIFIED, RAW, SELECTED, BASE].map(peak);
				for (const [label, value] of [
					[SIMPLIFIED, simplified],
					[SELECTED, selected],
				] as const) {
					const row = result.rows.find(
						(r) => r.section === 'memory' && r.scenario.endsWith(label),
					)!;
					row.ratio = round((raw - base) / Math.max(1, value - base), 2);
					row.ratioLabel = 'less memory above n8n itself than Output Raw';
				}
				check(
					result,
					'peak RSS measured for every memory run',
					simplified > 0 && raw > 0 && selected > 0 && base > 0,
					`${simplified} / ${raw} / ${selected} / ${base} MB`,
				);
				check(
					result,
					'Output Simplified adds at least 50 % less memory above n8n itself than Output Raw',
					simplified - base <= (raw - base) * 0.5,
					`${round(simplified - base)} MB vs ${round(raw - base)} MB above ${base} MB`,
				);
				check(
					result,
					'Output Selected Fields (two fields) adds no more memory than Output Simplified',
					selected <= simplified,
					`${selected} MB vs ${simplified} MB`,
				);
			}
			await stopFake(fake);
			fake = undefined;
		}
	} finally {
		if (fake) await stopFake(fake);
		await n8n.dispose();
		removeTarball(tarball);
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	return result;
}
