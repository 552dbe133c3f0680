/**
 * The account-life simulation in a real n8n 2.x (the package installed from its packed tarball, sqlite, the in-memory
 * scheduler): two published Keyword.com Triggers (New Alert and Keyword Updated, every project, Output Raw) polled by
 * n8n at second 0 of every minute against the fake API as a process. Between polls the world applies a small
 * account's events through the fake's control routes (dev/simulation/real-time.cts: crawls, alerts and late ones,
 * keywords added and deleted, a rename and a deletion in the middle of a poll, an archive and a restore), sets the
 * next poll's weather (503 and 429 bursts, a latency spike, one project failing for two polls) and restarts n8n once;
 * the checker of the engine simulation (dev/simulation/checker.cts) judges every poll from the executions n8n started.
 * About 10 minutes of real time.
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/simulation.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ControlDriver } from '../../dev/simulation/control-driver.cjs';
import {
	planRealTime,
	simulateRealTime,
	type RealN8nSide,
} from '../../dev/simulation/real-time.cjs';
import type { TriggerEvent } from '../../dev/simulation/run.cjs';
import {
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	KEYWORD_COM_TRIGGER_NODE,
	RealN8n,
	UNFINISHED_STATUSES,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	waitUntil,
} from '../../e2e/lib/index.cjs';
import { leakPieces } from '../leak-pieces.cjs';

const NODE_NAME = 'Keyword.com Trigger';
const WORKFLOWS: Record<TriggerEvent, string> = {
	newAlert: 'kwcSimAlerts0001',
	keywordUpdated: 'kwcSimKeywords01',
};
/** Polls with events and weather, then quiet ones. */
const POLLS = 6;
const QUIET = 2;

function simulationWorkflow(event: TriggerEvent): Record<string, unknown> {
	return {
		id: WORKFLOWS[event],
		name: `Simulation ${event}`,
		nodes: [
			{
				id: `kwc-sim-${event}`,
				name: NODE_NAME,
				type: KEYWORD_COM_TRIGGER_NODE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					// Second 0 of every minute (everyMinute would pick a random second).
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0 * * * * *' }] },
					event,
					output: 'raw',
				},
				credentials: {
					keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME },
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

describe('the account-life simulation in a real n8n', { timeout: 20 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'empty' });
		// Debug level: n8n 2.x logs a trigger's activation (after its poll returned) only there.
		n8n = await RealN8n.create({
			packageTarball: tarball,
			name: 'simulation',
			env: { N8N_LOG_LEVEL: 'debug' },
		});
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		for (const event of ['newAlert', 'keywordUpdated'] as const)
			await n8n.importWorkflow(simulationWorkflow(event));
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	/** Waits (at most `timeoutMs`, then fails) until none of the workflows has an execution new, running or waiting. */
	const settled = async (ids: string[], timeoutMs: number): Promise<void> => {
		let unfinished: string[] = [];
		await waitUntil(
			'every execution finishing',
			async () => {
				unfinished = [];
				for (const id of ids)
					for (const e of await n8n.listExecutionSummaries(id))
						if (UNFINISHED_STATUSES.has(e.status)) unfinished.push(`${id} #${e.id} ${e.status}`);
				return unfinished.length === 0;
			},
			{
				timeoutMs,
				explain: () => `still unfinished: ${unfinished.join(', ')}\n${n8n.logTail(40)}`,
			},
		);
	};

	/**
	 * Starts n8n with `start` and returns once both triggers' start-up polls returned (n8n's readiness answers before
	 * it activates workflows; it logs each activation after its poll) and what they emitted finished: the world's next
	 * events then fall after every activation poll, and each poll is observed whole.
	 */
	const startedAndSettled = async (start: () => Promise<void>): Promise<void> => {
		const offset = n8n.logs().length;
		await start();
		const ids = Object.values(WORKFLOWS);
		await waitUntil(
			'both triggers activated',
			() => n8n.activatedSince(offset, ids).length === ids.length,
			{ timeoutMs: 5 * 60_000, explain: () => n8n.logTail(40) },
		);
		await settled(ids, 60_000);
	};

	test(`${POLLS} polls of a living account, then ${QUIET} quiet ones: every event once, in time`, async () => {
		const side: RealN8nSide = {
			// Finished executions only: one still running has no output yet, and once seen it would not be read again.
			executions: async (event) => {
				await settled([WORKFLOWS[event]], 60_000);
				return (await n8n.listExecutions(WORKFLOWS[event]))
					.filter((execution: any) => !UNFINISHED_STATUSES.has(execution.status))
					.map((execution: any) => ({
						id: String(execution.id),
						startedAt: Date.parse(String(execution.startedAt)),
						items: nodeOutput(execution, NODE_NAME) ?? [],
					}));
			},
			restart: async () => await startedAndSettled(async () => await n8n.restart()),
		};
		const results = await simulateRealTime({
			driver: new ControlDriver(fake.baseUrl, fake.token),
			n8n: side,
			plan: planRealTime('e2e', POLLS),
			triggers: [
				{ event: 'newAlert', scope: {} },
				{ event: 'keywordUpdated', scope: {} },
			],
			activate: async () => {
				for (const id of Object.values(WORKFLOWS)) await n8n.publish(id);
				await startedAndSettled(async () => {
					await n8n.start();
					await n8n.setupOwnerAndLogin();
				});
			},
			quiet: QUIET,
			log: (line) => console.log(`# ${line}`),
		});
		const failures: string[] = [];
		for (const result of results) {
			const s = result.summary;
			console.log(
				`# ${result.event}: events ${s.events} (owed ${s.owed}), emitted ${s.emitted}, lost ${s.lost}, late ${s.late}, duplicated ${s.duplicated}, out of scope ${s.outOfScope}, before activation ${s.beforeActivation}, unknown ${s.unknown}, rank errors ${s.rankErrors}, worst delay ${s.worstDelay} polls, requests per poll max ${s.requestsMax}`,
			);
			// The first three of each kind of violation.
			const shown = new Map<string, number>();
			for (const v of result.violations) {
				const count = shown.get(v.kind) ?? 0;
				shown.set(v.kind, count + 1);
				if (count < 3) failures.push(`${result.event} [${v.kind}] poll ${v.poll}: ${v.detail}`);
			}
			assert.ok(s.owed > 0, `${result.event}: the world made events`);
		}
		const logs = n8n.logs();
		for (const piece of leakPieces(fake.token))
			assert.ok(!logs.includes(piece), 'no piece of the token in n8n’s log');
		assert.deepEqual(failures, []);
	});
});
