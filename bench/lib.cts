/**
 * Shared pieces of the benchmarks: an in-process fake with request accounting (count, peak in flight), timing,
 * and the result rows every section returns.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { INodeParameters } from 'n8n-workflow';

import { FakeKeywordApi, type FaultSpec, type RecordedRequest } from '../dev/fake-api/index.cjs';
import { KeywordCom } from '../nodes/KeywordCom/KeywordCom.node';
import { KeywordComTrigger } from '../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runNode, type RunResult } from '../test/harness/index.cjs';

export const PAGE_SIZE = 250;

/** One measured line of the results table. */
export interface Row {
	section: string;
	scenario: string;
	latencyMs: number;
	/** Requests the fake received (measured), or computed (see `note`). */
	requests: number;
	/** Time of the node's execution in ms (n8n's executionTime of the node run, or the poll's wall clock). */
	ms?: number;
	/** Peak requests in flight at the fake. */
	peakInFlight?: number;
	/** Items the node output. */
	items?: number;
	/** Peak RSS of the process in MB (real n8n only). */
	peakRssMb?: number;
	/** Size of the node's output in MB (JSON of the items). */
	outputMb?: number;
	/** Free text: what was computed rather than measured, the baseline this row compares with, ratios. */
	note?: string;
	/** Ratio against the row's baseline, measured in the same run. */
	ratio?: number;
	ratioLabel?: string;
}

export interface SectionResult {
	rows: Row[];
	/** Statements checked during the section (true = held). */
	checks: Array<{ what: string; ok: boolean; detail?: string }>;
}

export function check(result: SectionResult, what: string, ok: boolean, detail?: string): void {
	result.checks.push({ what, ok, detail });
	const mark = ok ? 'ok  ' : 'FAIL';
	process.stderr.write(`[bench] ${mark} ${what}${detail ? ` (${detail})` : ''}\n`);
}

/** The share of the ideal saving (overlapCheck) a run must reach: timers and the scheduler take the rest. */
export const OVERLAP_SHARE = 0.8;

/**
 * Checks that `concurrency` requests in flight saved the waiting they can save, in a way the CPU's speed does not
 * move: one at a time, `requests` pages of `latencyMs` wait requests × latency; with c in flight a c-th of it. The CPU's
 * part is the same in both runs, or hidden behind the waiting, so the concurrent run is at least
 * requests × latency × (1 − 1/c) shorter on any machine; it must be at least OVERLAP_SHARE of that. (A ratio of the two
 * times, which a slower CPU lowers, is reported, not checked.)
 */
export function overlapCheck(
	result: SectionResult,
	what: string,
	runs: {
		oneAtATimeMs: number;
		concurrentMs: number;
		requests: number;
		latencyMs: number;
		concurrency: number;
	},
): void {
	const ideal = runs.requests * runs.latencyMs * (1 - 1 / runs.concurrency);
	const saved = runs.oneAtATimeMs - runs.concurrentMs;
	check(
		result,
		`${what}: concurrency ${runs.concurrency} saves at least ${OVERLAP_SHARE * 100} % of the waiting it can save (${runs.requests} × ${runs.latencyMs} ms × (1 − 1/${runs.concurrency}))`,
		saved >= OVERLAP_SHARE * ideal,
		`saved ${Math.round(saved)} ms of ${Math.round(ideal)} ms (${Math.round((100 * saved) / ideal)} %); ${(runs.oneAtATimeMs / runs.concurrentMs).toFixed(2)}× faster`,
	);
}

export function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

/** What the benchmarks read of a recorded request. */
export interface SeenRequest {
	method: string;
	path: string;
	query: Record<string, unknown>;
	status: number;
}

/**
 * The fake as the benchmarks use it, wherever it runs. `peakInFlight` is the largest number of requests the fake
 * held unanswered at once (counted as each request arrives; with injected latency every request is held that long).
 */
export interface BenchFake {
	readonly baseUrl: string;
	readonly token: string;
	credentials(): { keywordComApi: { apiToken: string; baseUrl: string } };
	/** Clears the request log and the in-flight peak. */
	reset(): Promise<void>;
	requests(): Promise<SeenRequest[]>;
	peakInFlight(): Promise<number>;
	setLatency(ms: number): Promise<void>;
	addKeywords(category: string, count: number): Promise<string[]>;
	addProject(name: string): Promise<void>;
	addAlerts(count: number): Promise<void>;
	/** Moves the ranks of every keyword of `category`; returns how many keywords were updated. */
	simulateRankUpdate(category: string): Promise<number>;
	/** Faults the request that arrives `index`-th (0-based, since the last reset) with `spec`. */
	faultAtRequest(index: number, spec: FaultSpec): Promise<void>;
	stop(): Promise<void>;
}

export interface FakeSetup {
	/** The fake's clock runs this many ms behind the real one. */
	clockOffsetMs?: number;
	/** Repeated reads answered from the fake's cache (FakeKeywordApiOptions.cacheReads): its JSON work off the CPU n8n uses. */
	cacheReads?: boolean;
}

/** The fake in this process (the fast count tests): its CPU shares this event loop with the node. */
export class MeasuredFake implements BenchFake {
	readonly api: FakeKeywordApi;
	baseUrl = '';
	private peak = 0;
	private faultAt: { index: number; spec: FaultSpec } | undefined;

	constructor(setup: FakeSetup = {}) {
		const offset = setup.clockOffsetMs ?? 0;
		this.api = new FakeKeywordApi({
			seed: 'empty',
			cacheReads: setup.cacheReads,
			...(offset ? { now: () => Date.now() - offset } : {}),
		});
		const requests = this.api.requests;
		const push = requests.push.bind(requests);
		requests.push = (...records: RecordedRequest[]): number => {
			const length = push(...records);
			let open = 0;
			for (const record of requests) if (record.status === 0) open++;
			if (open > this.peak) this.peak = open;
			if (this.faultAt && length - 1 >= this.faultAt.index) {
				this.api.injectFault(this.faultAt.spec);
				this.faultAt = undefined;
			}
			return length;
		};
	}

	get token(): string {
		return this.api.token;
	}

	async start(): Promise<this> {
		this.baseUrl = await this.api.start();
		return this;
	}

	credentials() {
		return { keywordComApi: { apiToken: this.api.token, baseUrl: this.baseUrl } };
	}

	async reset(): Promise<void> {
		this.api.clearRequests();
		this.peak = 0;
	}

	async requests(): Promise<SeenRequest[]> {
		return this.api.requests.map(({ method, path, query, status }) => ({
			method,
			path,
			query,
			status,
		}));
	}

	async peakInFlight(): Promise<number> {
		return this.peak;
	}

	async setLatency(ms: number): Promise<void> {
		this.api.setLatency(ms);
	}

	async addKeywords(category: string, count: number): Promise<string[]> {
		return this.api.addKeywords(category, count);
	}

	async addProject(name: string): Promise<void> {
		this.api.addProject(name);
	}

	async addAlerts(count: number): Promise<void> {
		this.api.addAlerts(count);
	}

	async simulateRankUpdate(category: string): Promise<number> {
		return this.api.simulateRankUpdate({ category }).length;
	}

	async faultAtRequest(index: number, spec: FaultSpec): Promise<void> {
		this.faultAt = { index, spec };
	}

	async stop(): Promise<void> {
		await this.api.stop();
	}
}

/**
 * The fake in a worker thread (the benchmarks): it answers on its own event loop, as a real API answers from its
 * own machine, so its JSON work does not slow the node under test.
 */
export class WorkerFake implements BenchFake {
	baseUrl = '';
	token = '';
	private readonly worker: Worker;
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve: (v: unknown) => void; reject: (e: Error) => void }
	>();

	constructor(setup: FakeSetup = {}) {
		this.worker = new Worker(path.join(__dirname, 'fakeWorker.cjs'), { workerData: setup });
		this.worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
			const waiter = this.pending.get(message.id);
			if (!waiter) return;
			this.pending.delete(message.id);
			if (message.error !== undefined) waiter.reject(new Error(`fake worker: ${message.error}`));
			else waiter.resolve(message.result);
		});
		this.worker.on('error', (error) => {
			for (const waiter of this.pending.values()) waiter.reject(error);
			this.pending.clear();
		});
	}

	private async call<T>(op: string, ...args: unknown[]): Promise<T> {
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
			this.worker.postMessage({ id, op, args });
		});
	}

	async start(): Promise<this> {
		const { baseUrl, token } = await this.call<{ baseUrl: string; token: string }>('start');
		this.baseUrl = baseUrl;
		this.token = token;
		return this;
	}

	credentials() {
		return { keywordComApi: { apiToken: this.token, baseUrl: this.baseUrl } };
	}

	reset = async (): Promise<void> => await this.call('reset');
	requests = async (): Promise<SeenRequest[]> => await this.call('requests');
	peakInFlight = async (): Promise<number> => await this.call('peakInFlight');
	setLatency = async (ms: number): Promise<void> => await this.call('setLatency', ms);
	addKeywords = async (category: string, count: number): Promise<string[]> =>
		await this.call('addKeywords', category, count);
	addProject = async (name: string): Promise<void> => await this.call('addProject', name);
	addAlerts = async (count: number): Promise<void> => await this.call('addAlerts', count);
	simulateRankUpdate = async (category: string): Promise<number> =>
		await this.call('simulateRankUpdate', category);
	faultAtRequest = async (index: number, spec: FaultSpec): Promise<void> =>
		await this.call('faultAtRequest', index, spec);

	async stop(): Promise<void> {
		try {
			await this.call('stop');
		} finally {
			await this.worker.terminate();
		}
	}
}

/** Starts a fake for the benchmarks: in a worker thread unless BENCH_FAKE=inline. */
export async function startFake(setup: FakeSetup = {}): Promise<BenchFake> {
	return process.env.BENCH_FAKE === 'inline'
		? await new MeasuredFake(setup).start()
		: await new WorkerFake(setup).start();
}

/** A resource locator value as the editor saves it. */
export function rl(value: string): { __rl: true; mode: string; value: string } {
	return { __rl: true, mode: 'name', value };
}

export interface NodeRun {
	result: RunResult;
	/** n8n's executionTime of the node's run (ms). */
	ms: number;
	/** Wall clock of the whole runNode call (ms). */
	wallMs: number;
}

const keywordCom = new KeywordCom();

/** The version a node is placed at in the editor: what the benchmarks measure (test/bench-counts holds it). */
function defaultVersionOf(node: KeywordCom | KeywordComTrigger): number {
	const { defaultVersion, version } = node.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

/** The nodes' versions every benchmark runs: their `defaultVersion`, as a new workflow gets them. */
export const BENCH_NODE_VERSIONS = {
	keywordCom: defaultVersionOf(keywordCom),
	keywordComTrigger: defaultVersionOf(new KeywordComTrigger()),
} as const;

/** Runs the Keyword.com node once through n8n's engine (test/harness) and fails loudly on a node error. */
export async function runKeywordCom(
	fake: BenchFake,
	parameters: INodeParameters,
	items?: Array<{ json: Record<string, unknown> }>,
): Promise<NodeRun> {
	const started = performance.now();
	const result = await runNode({
		nodeType: keywordCom,
		typeVersion: BENCH_NODE_VERSIONS.keywordCom,
		parameters,
		credentials: fake.credentials(),
		items: items as never,
	});
	const wallMs = performance.now() - started;
	if (result.error) {
		throw new Error(
			`Keyword.com node failed: ${result.error.message} — ${result.error.description ?? ''}`,
		);
	}
	const task = result.run.data.resultData.runData[result.node.name]?.[0];
	return { result, ms: task?.executionTime ?? wallMs, wallMs };
}

export function listRequests<R extends SeenRequest>(requests: R[]): R[] {
	return requests.filter(
		(request) => request.method === 'GET' && /\/keywords\/?$/.test(request.path),
	);
}

export function round(value: number, digits = 0): number {
	const f = 10 ** digits;
	return Math.round(value * f) / f;
}

/** The ids of the records are the ids the fake holds, in the same (ascending) order. */
export function sameOrder(
	records: Array<{ id?: unknown }>,
	expectedIds: ReadonlyArray<number | string>,
): boolean {
	if (records.length !== expectedIds.length) return false;
	for (let i = 0; i < records.length; i++)
		if (String(records[i].id) !== String(expectedIds[i])) return false;
	return true;
}

/** `⌈a/b⌉` */
export const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);
