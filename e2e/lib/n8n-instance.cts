/**
 * What every real n8n of the end-to-end tier has in common, whether one process on sqlite (RealN8n) or a queue-mode
 * cluster on Postgres and Redis (QueueN8n): the environment n8n runs with, the CLI (import, publish), the community
 * package installed from its tarball, and the REST API of the main process (owner set-up, executions).
 * Node built-ins only; global fetch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { parseFlatted } from './flatted.cjs';
import { node24ProcessEnv, nodeEnv } from './host.cjs';
import {
	ManagedProcess,
	killGroup,
	spawnLogged,
	waitForHttpOk,
	type LogSink,
} from './processes.cjs';
import { waitUntil } from './waits.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	durationMs: number;
}

export interface OwnerLogin {
	email: string;
	password: string;
	/** `n8n-auth=<jwt>`, ready for a Cookie header. */
	cookie: string;
}

export interface Timeouts {
	/** One CLI command (import, execute, publish, export). */
	cliMs: number;
	/** `n8n start` (or `n8n worker`) until its readiness endpoint answers 200. */
	startMs: number;
	/** SIGTERM → exit before SIGKILL. */
	stopMs: number;
	/** The community-package npm install. */
	npmMs: number;
	/** One REST request. */
	restMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
	cliMs: 120_000,
	startMs: 120_000,
	stopMs: 20_000,
	npmMs: 120_000,
	restMs: 30_000,
};

/** A stable n8n-style id (16 alphanumerics) derived from a text, e.g. a workflow's name. */
export function stableId(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function newEncryptionKey(): string {
	return randomBytes(24).toString('hex');
}

/**
 * The environment of an n8n process: the caller's environment without anything of its own n8n set-up, test runner or
 * coverage, Node 24 first on PATH, then the settings every e2e n8n runs with (loopback only, no telemetry, text logs
 * at info, community packages allowed), then `extra` (wins).
 */
export function n8nProcessEnv(args: {
	userFolder: string;
	encryptionKey: string;
	/** The main process's HTTP port (also the editor and webhook URL). */
	port: number;
	/** N8N_RUNNERS_BROKER_PORT of this process. */
	brokerPort: number;
	/** The host's n8n version (1.x knows no `mcp-registry` module and refuses to start when it is named). */
	n8nVersion?: string;
	extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
	const inherited: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (
			/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_OPTIONS$|NODE_TEST_CONTEXT$|NODE_V8_COVERAGE$|NODE_ENV$)/.test(
				key,
			)
		)
			continue;
		inherited[key] = value;
	}
	return {
		...node24ProcessEnv(inherited),
		N8N_USER_FOLDER: args.userFolder,
		N8N_ENCRYPTION_KEY: args.encryptionKey,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_PROTOCOL: 'http',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(args.port),
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${args.port}/`,
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_BROKER_PORT: String(args.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_FORMAT: 'text',
		DB_TYPE: 'sqlite',
		...(Number((args.n8nVersion ?? '2').split('.')[0]) >= 2
			? { N8N_DISABLED_MODULES: 'mcp-registry' }
			: {}),
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NO_COLOR: '1',
		...(args.extra ?? {}),
	};
}

/** The version of the n8n installed in a host folder (its package.json). */
export function n8nVersionOf(hostDir: string): string {
	return String(
		JSON.parse(fs.readFileSync(path.join(hostDir, 'node_modules', 'n8n', 'package.json'), 'utf8'))
			.version,
	);
}

type ImportableCredential = {
	id?: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
} & Record<string, unknown>;

/** The statuses of an execution not over yet (no output to read). */
export const UNFINISHED_STATUSES: ReadonlySet<string> = new Set(['new', 'running', 'waiting']);

/**
 * The shared part of RealN8n and QueueN8n. A subclass says where the CLI runs (user folder, environment, log) and
 * whether its main process serves HTTP; this class runs CLI commands and talks to the REST API.
 */
export abstract class N8nInstance {
	readonly hostDir: string;
	/** Temp root of this instance (user folders, logs, import files). */
	readonly rootDir: string;
	readonly encryptionKey: string;
	readonly timeouts: Timeouts;
	/** The login of setupOwnerAndLogin(), once done. */
	owner: OwnerLogin | undefined;

	protected readonly nodeBin: string;
	protected readonly n8nBin: string;
	/** Every CLI child still running (killed by dispose). */
	protected readonly cliChildren = new Set<ChildProcess>();
	protected disposed = false;

	protected constructor(args: { hostDir: string; rootDir: string; encryptionKey: string }) {
		this.hostDir = args.hostDir;
		this.rootDir = args.rootDir;
		this.encryptionKey = args.encryptionKey;
		this.timeouts = { ...DEFAULT_TIMEOUTS };
		this.nodeBin = nodeEnv().nodeBin;
		this.n8nBin = path.join(args.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
	}

	/** `http://127.0.0.1:<port>` of the process serving the editor, REST API and webhooks. */
	abstract readonly baseUrl: string;
	/** Whether that process runs (REST calls need it). */
	protected abstract isServing(): boolean;
	/** Environment of a CLI command (its own runners broker port, so it works while n8n runs). */
	protected abstract cliEnv(): NodeJS.ProcessEnv;
	/** Where CLI output is logged. */
	protected abstract cliLog(): LogSink;
	/** The user folder CLI commands run with (holds `.n8n/nodes`). */
	protected abstract cliUserFolder(): string;
	/** The last lines of the relevant logs, for error messages. */
	abstract logTail(lines?: number): string;

	protected failure(message: string): Error {
		return new Error(`${message}\n--- last lines of the n8n log(s) ---\n${this.logTail()}`);
	}

	protected assertAlive(): void {
		if (this.disposed) throw new Error(`e2e: this ${this.constructor.name} was disposed`);
	}

	/** Spawns `n8n <args>` under Node 24 in its own process group, its output appended to `log`. */
	protected spawnN8n(
		args: string[],
		env: NodeJS.ProcessEnv,
		log: LogSink,
		label = `n8n ${args.join(' ')}`,
	): ChildProcess {
		return spawnLogged(this.nodeBin, [this.n8nBin, ...args], {
			cwd: this.rootDir,
			env,
			log,
			header: `$ ${label}`,
		});
	}

	/**
	 * Spawns a long-running n8n process (`start`, `worker`) and resolves once `readinessUrl` answers 200. Rejects
	 * (with the log tail) when it exits first or is not ready within `timeouts.startMs`; it is then stopped.
	 */
	protected async startProcess(
		label: string,
		args: string[],
		env: NodeJS.ProcessEnv,
		log: LogSink,
		readinessUrl: string,
	): Promise<ManagedProcess> {
		this.assertAlive();
		const proc = new ManagedProcess(
			label,
			this.spawnN8n(args, env, log, `n8n ${args.join(' ')} (${label})`),
			log,
		);
		try {
			await waitForHttpOk(readinessUrl, proc, this.timeouts.startMs);
		} catch (error) {
			await proc.stop({ timeoutMs: this.timeouts.stopMs });
			throw this.failure((error as Error).message);
		}
		return proc;
	}

	// ----- CLI ----------------------------------------------------------------------------------------------------

	/** Runs one n8n CLI command to completion (bounded by `timeoutMs`). Rejects only on spawn failure or timeout. */
	async cli(
		args: string[],
		opts: { timeoutMs?: number; env?: Record<string, string> } = {},
	): Promise<CliResult> {
		this.assertAlive();
		const timeoutMs = opts.timeoutMs ?? this.timeouts.cliMs;
		const started = Date.now();
		const child = this.spawnN8n(args, { ...this.cliEnv(), ...(opts.env ?? {}) }, this.cliLog());
		this.cliChildren.add(child);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk: string) => (stdout += chunk));
		child.stderr?.on('data', (chunk: string) => (stderr += chunk));
		return await new Promise<CliResult>((resolve, reject) => {
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				killGroup(child, 'SIGTERM');
				setTimeout(() => killGroup(child, 'SIGKILL'), 5_000).unref();
			}, timeoutMs);
			child.once('error', (error) => {
				clearTimeout(timer);
				this.cliChildren.delete(child);
				reject(this.failure(`e2e: could not run n8n ${args[0]}: ${error.message}`));
			});
			child.once('close', (code, signal) => {
				clearTimeout(timer);
				this.cliChildren.delete(child);
				killGroup(child, 'SIGKILL'); // stray task runners of this command, if any
				if (timedOut) {
					reject(
						this.failure(`e2e: n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000} s`),
					);
					return;
				}
				resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started });
			});
		});
	}

	/** Like cli(), but rejects (with the log tail) unless the command exits 0. */
	protected async cliOk(args: string[], what: string): Promise<CliResult> {
		const result = await this.cli(args);
		if (result.code !== 0)
			throw this.failure(
				`e2e: ${what} failed (n8n ${args.join(' ')} exited ${result.code ?? result.signal})`,
			);
		return result;
	}

	/**
	 * Installs a package tarball the way users install community nodes by hand: npm in `<userFolder>/.n8n/nodes`
	 * (default: the CLI's user folder).
	 */
	async installCommunityPackage(
		tarball: string,
		userFolder: string = this.cliUserFolder(),
	): Promise<void> {
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		fs.mkdirSync(nodesDir, { recursive: true });
		const pkgJson = path.join(nodesDir, 'package.json');
		if (!fs.existsSync(pkgJson)) fs.writeFileSync(pkgJson, '{"private":true}\n');
		// --legacy-peer-deps: the peer dependency on n8n-workflow is provided by n8n itself (n8n's own installer strips
		// peerDependencies before installing); npm must not fetch it.
		const args = [
			'install',
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--no-audit',
			'--no-fund',
			'--prefer-offline',
			'--loglevel=error',
			path.resolve(tarball),
		];
		const log = this.cliLog();
		log.append(`\n===== ${new Date().toISOString()} $ (cd ${nodesDir} && npm ${args.join(' ')})\n`);
		const { code, output } = await new Promise<{ code: number | null; output: string }>(
			(resolve, reject) => {
				const child = spawn('npm', args, {
					cwd: nodesDir,
					env: node24ProcessEnv(),
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				let out = '';
				const onData = (chunk: Buffer): void => {
					out += chunk.toString('utf8');
				};
				child.stdout.on('data', onData);
				child.stderr.on('data', onData);
				const timer = setTimeout(() => child.kill('SIGKILL'), this.timeouts.npmMs);
				child.once('error', (error) => {
					clearTimeout(timer);
					reject(error);
				});
				child.once('close', (exitCode) => {
					clearTimeout(timer);
					resolve({ code: exitCode, output: out });
				});
			},
		);
		log.append(output);
		if (code !== 0)
			throw this.failure(`e2e: npm install ${tarball} into ${nodesDir} failed (exit ${code})`);
	}

	/**
	 * `n8n import:credentials`: plain (unencrypted) `data` objects are accepted and encrypted by n8n; each credential
	 * keeps the given `id` (derived from its name when missing), so workflows can reference it. Returns the ids.
	 */
	async importCredentials(credentials: ImportableCredential[]): Promise<string[]> {
		const withIds = credentials.map((credential) => ({
			...credential,
			id: credential.id ?? stableId(`credential:${credential.name}`),
		}));
		const file = path.join(this.rootDir, `credentials-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(withIds), { mode: 0o600 });
		try {
			await this.cliOk(['import:credentials', `--input=${file}`], 'importing credentials');
		} finally {
			fs.rmSync(file, { force: true });
		}
		return withIds.map((credential) => credential.id);
	}

	/**
	 * `n8n import:workflow`: imports (or replaces) one workflow, inactive. It keeps its `id`, or gets a fixed one derived
	 * from its name. Returns the id.
	 */
	async importWorkflow(workflow: Record<string, any>): Promise<string> {
		const [id] = await this.importWorkflows(
			[workflow],
			`workflow-${String(workflow.id ?? 'named')}`,
		);
		return id;
	}

	/**
	 * Like importWorkflow, for several workflows in one `n8n import:workflow` (one start-up instead of one each).
	 * Returns their ids, in order.
	 */
	async importWorkflows(
		workflows: Array<Record<string, any>>,
		fileLabel = `workflows-${Date.now()}`,
	): Promise<string[]> {
		if (workflows.length === 0) return [];
		const data = workflows.map((workflow) => {
			const id: string =
				typeof workflow.id === 'string' && workflow.id
					? workflow.id
					: stableId(`workflow:${String(workflow.name ?? 'workflow')}`);
			if (id.length > 21)
				throw new Error(`e2e: workflow id "${id}" is longer than the 21 characters n8n accepts`);
			return { name: 'workflow', settings: {}, ...workflow, id, active: false };
		});
		const file = path.join(this.rootDir, `${fileLabel.replace(/[^A-Za-z0-9_-]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		const what =
			data.length === 1 ? `importing workflow ${data[0].id}` : `importing ${data.length} workflows`;
		await this.cliOk(['import:workflow', `--input=${file}`], what);
		return data.map((workflow) => workflow.id);
	}

	/** The n8n version this instance runs. */
	n8nVersion(): string {
		return n8nVersionOf(this.hostDir);
	}

	/**
	 * `n8n publish:workflow --id=…` (n8n 2.x's activation; 1.x: `update:workflow --active=true`). A running main reads
	 * it only after a restart.
	 */
	protected async publishInDatabase(workflowId: string): Promise<void> {
		const args =
			Number(this.n8nVersion().split('.')[0]) < 2
				? ['update:workflow', `--id=${workflowId}`, '--active=true']
				: ['publish:workflow', `--id=${workflowId}`];
		await this.cliOk(args, `publishing workflow ${workflowId}`);
	}

	/** `n8n unpublish:workflow --id=…` (deactivation). A running main reads it only after a restart. */
	protected async unpublishInDatabase(workflowId: string): Promise<void> {
		await this.cliOk(
			['unpublish:workflow', `--id=${workflowId}`],
			`unpublishing workflow ${workflowId}`,
		);
	}

	// ----- REST ---------------------------------------------------------------------------------------------------

	/**
	 * Owner set-up (`POST /rest/owner/setup`; skipped when already done) then `POST /rest/login`; keeps the cookie
	 * for rest(). Needs the main process running.
	 */
	async setupOwnerAndLogin(owner: { email?: string; password?: string } = {}): Promise<OwnerLogin> {
		const email = owner.email ?? 'owner@e2e.test';
		const password = owner.password ?? 'E2e-Passw0rd';
		const setup = await this.fetchRest('POST', '/rest/owner/setup', {
			email,
			firstName: 'E2E',
			lastName: 'Owner',
			password,
		});
		if (!setup.ok && setup.status !== 400) {
			throw this.failure(
				`e2e: POST /rest/owner/setup answered ${setup.status}: ${await setup.text()}`,
			);
		}
		await setup.arrayBuffer().catch(() => undefined);
		const login = await this.fetchRest('POST', '/rest/login', {
			emailOrLdapLoginId: email,
			password,
		});
		if (!login.ok)
			throw this.failure(`e2e: POST /rest/login answered ${login.status}: ${await login.text()}`);
		await login.arrayBuffer().catch(() => undefined);
		const cookie = login.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (!cookie) throw this.failure('e2e: POST /rest/login set no n8n-auth cookie');
		this.owner = { email, password, cookie };
		return this.owner;
	}

	protected async fetchRest(method: string, urlPath: string, body?: unknown): Promise<Response> {
		if (!this.isServing())
			throw new Error(`e2e: ${method} ${urlPath} needs a running n8n: start it first`);
		const headers: Record<string, string> = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.owner) headers.cookie = this.owner.cookie;
		try {
			return await fetch(`${this.baseUrl}${urlPath}`, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(this.timeouts.restMs),
			});
		} catch (error) {
			throw this.failure(`e2e: ${method} ${urlPath} failed: ${(error as Error).message}`);
		}
	}

	/** A REST call with the owner's cookie; returns the `data` of n8n's `{ data }` envelope. Rejects unless 2xx. */
	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		const res = await this.fetchRest(method, urlPath, body);
		const text = await res.text();
		if (!res.ok)
			throw this.failure(
				`e2e: ${method} ${urlPath} answered ${res.status}: ${text.slice(0, 2000)}`,
			);
		const parsed = text ? JSON.parse(text) : undefined;
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	/** Execution summaries (`GET /rest/executions`), oldest first, at most `limit` (≤ 100) most recent ones. */
	async listExecutionSummaries(workflowId?: string, limit = 100): Promise<any[]> {
		const query = new URLSearchParams({ limit: String(limit) });
		if (workflowId) query.set('filter', JSON.stringify({ workflowId }));
		const page = await this.rest('GET', `/rest/executions?${query.toString()}`);
		const results: any[] = Array.isArray(page?.results) ? page.results : [];
		return results.slice().reverse();
	}

	/**
	 * The executions of a workflow (or all), oldest first, each with its data (see getExecution). Needs
	 * setupOwnerAndLogin().
	 */
	async listExecutions(workflowId?: string): Promise<any[]> {
		const summaries = await this.listExecutionSummaries(workflowId);
		const full: any[] = [];
		for (const summary of summaries) full.push(await this.getExecution(String(summary.id)));
		return full;
	}

	/**
	 * One execution (`GET /rest/executions/:id`) with `data` (IRunExecutionData, un-flatted): use
	 * `nodeOutput(execution, nodeName)`. Other fields: id, workflowId, mode ('trigger' for polls, 'webhook', 'cli',
	 * 'manual'), status, finished, startedAt, stoppedAt, workflowData.
	 */
	async getExecution(id: string): Promise<any> {
		const execution = await this.rest('GET', `/rest/executions/${encodeURIComponent(id)}`);
		if (execution && typeof execution.data === 'string')
			execution.data = parseFlatted(execution.data);
		return execution;
	}

	/** Polls listExecutions until `predicate` holds (default: at least `count` finished executions). */
	async waitForExecutions(
		workflowId: string,
		count = 1,
		opts: { timeoutMs?: number; predicate?: (executions: any[]) => boolean } = {},
	): Promise<any[]> {
		const timeoutMs = opts.timeoutMs ?? 60_000;
		const predicate =
			opts.predicate ??
			((list: any[]) => list.filter((e) => !UNFINISHED_STATUSES.has(e.status)).length >= count);
		let last: any[] = [];
		return await waitUntil(
			`the expected executions of workflow ${workflowId}`,
			async () => {
				last = await this.listExecutions(workflowId);
				return predicate(last) && last;
			},
			{
				timeoutMs,
				explain: () => `it has ${last.length}`,
				error: (message) => this.failure(message),
			},
		);
	}

	/**
	 * Waits until the workflow's static data holds something: n8n saves a poll's state after the poll returns, so a
	 * restart between the activation's request and that save would start afresh (a second "now", not the first).
	 */
	async waitForStaticData(
		workflowId: string,
		timeoutMs = 60_000,
	): Promise<Record<string, unknown>> {
		return await waitUntil(
			`static data of workflow ${workflowId}`,
			async () => {
				const workflow = await this.rest(
					'GET',
					`/rest/workflows/${encodeURIComponent(workflowId)}`,
				);
				const staticData = workflow?.staticData;
				return staticData && typeof staticData === 'object' && Object.keys(staticData).length > 0
					? (staticData as Record<string, unknown>)
					: undefined;
			},
			{ timeoutMs, everyMs: 300, error: (message) => this.failure(message) },
		);
	}
}
