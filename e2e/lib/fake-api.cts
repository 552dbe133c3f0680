/**
 * The project's fake Keyword.com API as a separate process (`build/dev/fake-api/cli.cjs`, compiled by
 * `npx tsc -p tsconfig.test.json`), on loopback, with its control routes (`/__control/...`, see dev/fake-api/README.md).
 * Used by the end-to-end tests and the demo: n8n reaches it over HTTP exactly as it would reach Keyword.com.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

import type { ChurnLogEntry, FakeBehaviour } from '../../dev/fake-api/behaviour.cjs';
import { buildPath } from './paths.cjs';
import { waitUntil } from './waits.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface FakeApiOptions {
	/** Seed data: 'demo' (two projects, ~30 keywords, alerts, two AI domains) or 'empty'. Default 'demo'. */
	seed?: 'demo' | 'empty';
	/** Bearer token; a random one per process by default (so a leak check means something). */
	token?: string;
	/** Fixed port (0 = any free port). */
	port?: number;
	/** How long to wait for the "listening" line. */
	startTimeoutMs?: number;
	/**
	 * The behaviour switches for what the API document leaves open (dev/fake-api/README.md, "Switches"), passed as the
	 * CLI flags (`--alert-order`, `--history-order`, `--page-latency`, `--churn`, `--max-per-page`, ...). Default: none
	 * (the fake's defaults).
	 */
	behaviour?: FakeApiBehaviour;
	/** The fake's clock this many ms behind the real one (`--clock-behind`): nothing it stamps is "this second". */
	clockBehindMs?: number;
}

/** Churn between two page requests of the keyword list (#13) or the alert list (#20); counts left out are 0. */
export interface FakeApiChurn {
	everyPages?: number;
	addKeywords?: number;
	deleteKeywords?: number;
	crawlKeywords?: number;
	addAlerts?: number;
}

/** The fake's behaviour switches (`FakeBehaviour` of dev/fake-api); a partial one changes only what it names. */
export interface FakeApiBehaviour extends Partial<Omit<FakeBehaviour, 'churn'>> {
	/** `null` turns churn off. */
	churn?: FakeApiChurn | null;
}

/** What churn changed after one page answer (`GET /__control/churn-log`), as the fake defines it. Ids are strings. */
export type FakeChurnLogEntry = ChurnLogEntry;

/** The CLI flags of a behaviour (dev/fake-api/cli.cts). */
export function behaviourFlags(behaviour: FakeApiBehaviour = {}): string[] {
	const flags: string[] = [];
	if (behaviour.alertOrder !== undefined) flags.push('--alert-order', behaviour.alertOrder);
	if (behaviour.historyOrder !== undefined) flags.push('--history-order', behaviour.historyOrder);
	if (behaviour.pageLatencyMs !== undefined)
		flags.push('--page-latency', String(behaviour.pageLatencyMs));
	if (behaviour.churn) flags.push('--churn', JSON.stringify(behaviour.churn));
	if (behaviour.maxPerPage !== undefined)
		flags.push('--max-per-page', String(behaviour.maxPerPage));
	if (behaviour.keywordOrder !== undefined) flags.push('--keyword-order', behaviour.keywordOrder);
	if (behaviour.alertTieOrder !== undefined)
		flags.push('--alert-tie-order', behaviour.alertTieOrder);
	if (behaviour.timestampOffsets !== undefined)
		flags.push('--timestamp-offsets', behaviour.timestampOffsets);
	if (behaviour.groupsLastUpdated !== undefined)
		flags.push('--groups-last-updated', behaviour.groupsLastUpdated);
	if (behaviour.projectListIncludesGroups) flags.push('--project-list-includes-groups');
	return flags;
}

/** A recorded request of the fake (`GET /__control/requests`). */
export interface FakeRequest {
	method: string;
	rawPath: string;
	path: string;
	rawQuery: string;
	query: Record<string, unknown>;
	authorization?: string;
	bodyText: string;
	body: any;
	status: number;
}

const fakes = new Set<ChildProcess>();
let hookInstalled = false;
function installExitHook(): void {
	if (hookInstalled) return;
	hookInstalled = true;
	process.on('exit', () => {
		for (const child of fakes) {
			try {
				child.kill('SIGKILL');
			} catch {
				// gone
			}
		}
	});
}

export class FakeApiProcess {
	private stderr = '';

	private constructor(
		private readonly child: ChildProcess,
		/** `http://127.0.0.1:<port>`, no trailing slash. */
		readonly baseUrl: string,
		readonly token: string,
	) {}

	/** Starts the fake; resolves once it printed its `{"baseUrl","token"}` line. */
	static async start(opts: FakeApiOptions = {}): Promise<FakeApiProcess> {
		const cli = buildPath('dev', 'fake-api', 'cli.cjs');
		if (!fs.existsSync(cli))
			throw new Error(`e2e: ${cli} is missing: run \`npx tsc -p tsconfig.test.json\` first`);
		const token = opts.token ?? `kwc-e2e-${randomBytes(12).toString('hex')}`;
		const args = [
			cli,
			'--port',
			String(opts.port ?? 0),
			'--seed',
			opts.seed ?? 'demo',
			'--token',
			token,
			...behaviourFlags(opts.behaviour),
			...(opts.clockBehindMs ? ['--clock-behind', String(opts.clockBehindMs)] : []),
		];
		const child = spawn(process.execPath, args, {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, NODE_OPTIONS: '' },
		});
		fakes.add(child);
		child.once('exit', () => fakes.delete(child));
		installExitHook();
		let stderr = '';
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		const line = await new Promise<string>((resolve, reject) => {
			let out = '';
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				reject(
					new Error(
						`e2e: the fake API did not start within ${(opts.startTimeoutMs ?? 15_000) / 1000} s\n${stderr}`,
					),
				);
			}, opts.startTimeoutMs ?? 15_000);
			child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
				out += chunk;
				const nl = out.indexOf('\n');
				if (nl >= 0) {
					clearTimeout(timer);
					resolve(out.slice(0, nl));
				}
			});
			child.once('exit', (code, signal) => {
				clearTimeout(timer);
				reject(
					new Error(`e2e: the fake API exited (${code ?? signal}) before listening\n${stderr}`),
				);
			});
		});
		const { baseUrl } = JSON.parse(line) as { baseUrl: string; token: string };
		const fake = new FakeApiProcess(child, baseUrl, token);
		child.stderr?.on('data', (chunk: string) => (fake.stderr += chunk));
		return fake;
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	get running(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	/** A control route (`/__control/<route>`): JSON in, JSON out; rejects unless 2xx. */
	async control(method: string, route: string, body?: unknown): Promise<any> {
		const res = await fetch(`${this.baseUrl}/__control/${route.replace(/^\/+/, '')}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(15_000),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(
				`e2e: fake ${method} /__control/${route} answered ${res.status}: ${text.slice(0, 500)}`,
			);
		return text ? JSON.parse(text) : undefined;
	}

	/** Every API request received since the last clearRequests(), in order. */
	async requests(): Promise<FakeRequest[]> {
		return ((await this.control('GET', 'requests')) as { data: FakeRequest[] }).data;
	}

	/**
	 * Waits until the fake has had `count` requests to `apiPath` since the last clearRequests() (every 250 ms); the tests
	 * wait on it for a trigger's poll. `status` counts only requests answered with it; `explain` adds to the error after
	 * `timeoutMs` (n8n's log tail, say).
	 */
	async waitForRequests(
		apiPath: string,
		count: number,
		opts: { status?: number; timeoutMs?: number; explain?: () => string } = {},
	): Promise<void> {
		const { status, timeoutMs = 60_000, explain } = opts;
		let seen = 0;
		await waitUntil(
			`${count} requests to ${apiPath}${status === undefined ? '' : ` answered ${status}`}`,
			async () => {
				seen = (await this.requests()).filter(
					(r) => r.path === apiPath && (status === undefined || r.status === status),
				).length;
				return seen >= count;
			},
			{
				timeoutMs,
				everyMs: 250,
				explain: () => `${seen} came${explain ? `\n${explain()}` : ''}`,
			},
		);
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', 'requests');
	}

	/** Fresh seed data (and no recorded requests, faults or latency). */
	async reset(seed: 'demo' | 'empty' = 'demo'): Promise<void> {
		await this.control('POST', 'reset', { seed });
		await this.clearRequests();
	}

	async state(): Promise<any> {
		return await this.control('GET', 'state');
	}

	/** The behaviour switches in force (`GET /__control/behaviour`), every one filled in. */
	async behaviour(): Promise<Required<FakeApiBehaviour>> {
		return (await this.control('GET', 'behaviour')) as Required<FakeApiBehaviour>;
	}

	/**
	 * Changes the switches named and keeps the others (`POST /__control/behaviour`); returns the full behaviour. A
	 * `churn` object replaces the previous one whole, `churn: null` turns churn off. A bad value rejects (422).
	 */
	async setBehaviour(behaviour: FakeApiBehaviour): Promise<Required<FakeApiBehaviour>> {
		return (await this.control('POST', 'behaviour', behaviour)) as Required<FakeApiBehaviour>;
	}

	/** What churn changed so far, oldest first (`GET /__control/churn-log`, the whole log). */
	async churnLog(): Promise<FakeChurnLogEntry[]> {
		return ((await this.control('GET', 'churn-log')) as { data: FakeChurnLogEntry[] }).data;
	}

	async clearChurnLog(): Promise<void> {
		await this.control('DELETE', 'churn-log');
	}

	/** Calls the API itself (with the token), e.g. to read the data the tests assert against. */
	async api(method: string, apiPath: string, body?: unknown): Promise<any> {
		const res = await fetch(`${this.baseUrl}${apiPath}`, {
			method,
			headers: {
				authorization: `Bearer ${this.token}`,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(15_000),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(
				`e2e: fake ${method} ${apiPath} answered ${res.status}: ${text.slice(0, 500)}`,
			);
		return text ? JSON.parse(text) : undefined;
	}

	/** SIGTERM (SIGKILL after 5 s); resolves when the process is gone. Safe to call twice. */
	async stop(): Promise<void> {
		if (!this.running) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.kill('SIGTERM');
		const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
		await exited;
		clearTimeout(timer);
	}
}
