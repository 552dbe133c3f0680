/** The fake Keyword.com API in a worker thread, driven by WorkerFake (bench/lib.cts) through messages. */
import { parentPort, workerData } from 'node:worker_threads';

import { FakeKeywordApi, type FaultSpec, type RecordedRequest } from '../dev/fake-api/index.cjs';
import type { FakeSetup } from './lib.cjs';

const setup = (workerData ?? {}) as FakeSetup;
const offset = setup.clockOffsetMs ?? 0;
const api = new FakeKeywordApi({
	seed: 'empty',
	cacheReads: setup.cacheReads,
	...(offset ? { now: () => Date.now() - offset } : {}),
});
let peak = 0;
let faultAt: { index: number; spec: FaultSpec } | undefined;

const requests = api.requests;
const push = requests.push.bind(requests);
requests.push = (...records: RecordedRequest[]): number => {
	const length = push(...records);
	let open = 0;
	for (const record of requests) if (record.status === 0) open++;
	if (open > peak) peak = open;
	if (faultAt && length - 1 >= faultAt.index) {
		api.injectFault(faultAt.spec);
		faultAt = undefined;
	}
	return length;
};

const ops: Record<string, (...args: any[]) => unknown> = {
	start: async () => ({ baseUrl: await api.start(), token: api.token }),
	stop: async () => await api.stop(),
	reset: () => {
		api.clearRequests();
		peak = 0;
	},
	requests: () =>
		api.requests.map(({ method, path, query, status }) => ({ method, path, query, status })),
	peakInFlight: () => peak,
	setLatency: (ms: number) => api.setLatency(ms),
	addKeywords: (category: string, count: number) => api.addKeywords(category, count),
	addProject: (name: string) => void api.addProject(name),
	addAlerts: (count: number) => void api.addAlerts(count),
	simulateRankUpdate: (category: string) => api.simulateRankUpdate({ category }).length,
	faultAtRequest: (index: number, spec: FaultSpec) => {
		faultAt = { index, spec };
	},
};

parentPort?.on('message', (message: { id: number; op: string; args: unknown[] }) => {
	const op = ops[message.op];
	Promise.resolve()
		.then(() => {
			if (!op) throw new Error(`unknown op ${message.op}`);
			return op(...message.args);
		})
		.then(
			(result) => parentPort?.postMessage({ id: message.id, result }),
			(error: unknown) =>
				parentPort?.postMessage({
					id: message.id,
					error: error instanceof Error ? error.message : String(error),
				}),
		);
});
