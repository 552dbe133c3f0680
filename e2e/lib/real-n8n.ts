/**
 * Drives a real n8n 2.x (the cached host install, run under the pinned Node 24): a fresh user folder per instance,
 * CLI commands (import, execute, publish, export), `n8n start` with its REST API, and a complete log of everything
 * n8n printed. Node built-ins only; global fetch.
 *
 * Typical use (one instance per test file; each CLI command costs ~2.5 s, `start` ~6 s):
 *
 *   const n8n = await RealN8n.create({ packageTarball: packPackage(projectRoot()) });
 *   after(() => n8n.dispose());
 *   await n8n.importCredentials([{ id: 'kwcCred000000001', name: 'K', type: 'keywordComApi', data: { ... } }]);
 *   const id = await n8n.importWorkflow(workflowJson);
 *   const { ok, output } = await n8n.execute(id);          // output = n8n's IRun: output.data.resultData.runData
 *   nodeOutput(output, 'Keyword.com')                        // → the json of the node's first output items
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { parseFlatted } from './flatted';
import { installN8nHost, node24ProcessEnv, nodeEnv } from './host';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface RealN8nOptions {
	/** A tarball from `npm pack` (see packPackage), installed as a community package into `$N8N_USER_FOLDER/.n8n/nodes`. */
	packageTarball?: string;
	/** Folder(s) for N8N_CUSTOM_EXTENSIONS (node types are then `CUSTOM.<name>`); several separated by ";". */
	customExtensionsDir?: string;
	/** Extra environment for every n8n process (wins over the defaults). */
	env?: Record<string, string>;
	/** N8N_PORT; a free port is chosen when omitted. */
	port?: number;
	/** Label used in temp folder names and log headers. */
	name?: string;
}

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	durationMs: number;
}

export interface ExecuteResult {
	/** Exit code 0, a result was printed, and it carries no `data.resultData.error`. */
	ok: boolean;
	/** The run n8n printed (IRun: `{ data: { resultData: { runData, error?, lastNodeExecuted } }, status, mode, ... }`), or undefined. */
	output: any;
	stdout: string;
	stderr: string;
	exitCode: number | null;
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
	/** `n8n start` until /healthz/readiness answers 200. */
	startMs: number;
	/** SIGTERM → exit before SIGKILL. */
	stopMs: number;
	/** The community-package npm install. */
	npmMs: number;
	/** One REST request. */
	restMs: number;
}

const DEFAULT_TIMEOUTS: Timeouts = { cliMs: 120_000, startMs: 120_000, stopMs: 20_000, npmMs: 120_000, restMs: 30_000 };

/** Every live n8n process group, killed if the test process exits without disposing. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on('exit', () => {
		for (const child of liveChildren) killGroup(child, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		const handler = (): void => {
			for (const child of liveChildren) killGroup(child, 'SIGKILL');
			process.removeListener(signal, handler);
			process.kill(process.pid, signal);
		};
		process.on(signal, handler);
	}
}

export async function freePort(): Promise<number> {
	return await new Promise<number>((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => (port ? resolve(port) : reject(new Error('e2e: could not get a free port'))));
		});
	});
}

/** A stable n8n-style id (16 alphanumerics) derived from a text, e.g. a workflow's name. */
export function stableId(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Parses the run that `n8n execute --rawOutput` prints through n8n's logger: from the last line that is just `{` to the next line that is just `}`. */
export function parseExecuteOutput(stdout: string): any {
	const lines = stdout.split(/\r?\n/);
	for (let i = lines.length - 1; i >= 0; i--) {
		if (lines[i].trimEnd() !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j].trimEnd() !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch {
				break;
			}
		}
	}
	return undefined;
}

/**
 * The `json` of each item a node emitted (run `runIndex`, output `outputIndex`), from either an `execute()` output
 * (IRun) or a `getExecution()` result — both have `data.resultData.runData`. Undefined if the node did not run.
 */
export function nodeOutput(run: any, nodeName: string, outputIndex = 0, runIndex = 0): any[] | undefined {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	const task = runs?.[runIndex];
	if (!task) return undefined;
	const items = task.data?.main?.[outputIndex];
	return Array.isArray(items) ? items.map((item: any) => item.json) : [];
}

/** The error a node raised in a run (`runData[node][run].error`), or the workflow's error. */
export function runError(run: any, nodeName?: string, runIndex = 0): any {
	if (nodeName) return run?.data?.resultData?.runData?.[nodeName]?.[runIndex]?.error;
	return run?.data?.resultData?.error;
}

export class RealN8n {
	readonly hostDir: string;
	/** Temp root: holds `user/` (N8N_USER_FOLDER) and `n8n.log`. */
	readonly rootDir: string;
	readonly userFolder: string;
	readonly logFile: string;
	readonly port: number;
	readonly baseUrl: string;
	readonly encryptionKey: string;
	readonly timeouts: Timeouts;
	/** The login of setupOwnerAndLogin(), once done. */
	owner: OwnerLogin | undefined;

	private readonly nodeBin: string;
	private readonly n8nBin: string;
	private readonly env: NodeJS.ProcessEnv;
	private readonly cliBrokerPort: number;
	private readonly logChunks: string[] = [];
	private readonly children = new Set<ChildProcess>();
	private server: ChildProcess | undefined;
	private serverExit: Promise<void> | undefined;
	private disposed = false;

	private constructor(args: {
		hostDir: string;
		rootDir: string;
		port: number;
		serverBrokerPort: number;
		cliBrokerPort: number;
		opts: RealN8nOptions;
	}) {
		const { hostDir, rootDir, port, serverBrokerPort, cliBrokerPort, opts } = args;
		this.hostDir = hostDir;
		this.rootDir = rootDir;
		this.userFolder = path.join(rootDir, 'user');
		this.logFile = path.join(rootDir, 'n8n.log');
		this.port = port;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.cliBrokerPort = cliBrokerPort;
		this.encryptionKey = randomBytes(24).toString('hex');
		this.timeouts = { ...DEFAULT_TIMEOUTS };
		this.nodeBin = nodeEnv().nodeBin;
		this.n8nBin = path.join(hostDir, 'node_modules', 'n8n', 'bin', 'n8n');

		const inherited: NodeJS.ProcessEnv = {};
		for (const [key, value] of Object.entries(process.env)) {
			// Nothing of the caller's n8n set-up, test runner or coverage may leak into n8n.
			if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_OPTIONS$|NODE_TEST_CONTEXT$|NODE_V8_COVERAGE$|NODE_ENV$)/.test(key)) continue;
			inherited[key] = value;
		}
		this.env = {
			...node24ProcessEnv(inherited),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
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
			N8N_PORT: String(port),
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_RUNNERS_BROKER_PORT: String(serverBrokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			N8N_LOG_FORMAT: 'text',
			DB_TYPE: 'sqlite',
			N8N_DISABLED_MODULES: 'mcp-registry',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			GENERIC_TIMEZONE: 'UTC',
			TZ: 'UTC',
			NO_COLOR: '1',
			...(opts.customExtensionsDir ? { N8N_CUSTOM_EXTENSIONS: opts.customExtensionsDir } : {}),
			...(opts.env ?? {}),
		};
		installExitHook();
	}

	/** A fresh n8n: new user folder, free ports, optionally our package installed as a community package. */
	static async create(opts: RealN8nOptions = {}): Promise<RealN8n> {
		const hostDir = installN8nHost();
		const label = (opts.name ?? 'n8n').replace(/[^A-Za-z0-9_-]/g, '-');
		const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${label}-`));
		const port = opts.port ?? (await freePort());
		let serverBrokerPort = await freePort();
		let cliBrokerPort = await freePort();
		while (serverBrokerPort === port) serverBrokerPort = await freePort();
		while (cliBrokerPort === port || cliBrokerPort === serverBrokerPort) cliBrokerPort = await freePort();
		const n8n = new RealN8n({ hostDir, rootDir, port, serverBrokerPort, cliBrokerPort, opts });
		fs.mkdirSync(path.join(n8n.userFolder, '.n8n'), { recursive: true });
		n8n.appendLog(`# RealN8n ${label}: host ${hostDir}, user folder ${n8n.userFolder}, port ${port}\n`);
		if (opts.packageTarball) {
			try {
				await n8n.installCommunityPackage(opts.packageTarball);
			} catch (error) {
				await n8n.dispose();
				throw error;
			}
		}
		return n8n;
	}

	/** Environment every n8n process of this instance gets (copy). */
	get processEnv(): NodeJS.ProcessEnv {
		return { ...this.env };
	}

	get running(): boolean {
		return this.server !== undefined;
	}

	// ----- logs ---------------------------------------------------------------------------------------------------

	/** Everything n8n printed (stdout and stderr of every command and of `start`), plus command headers. */
	logs(): string {
		return this.logChunks.join('');
	}

	/** The last `lines` lines of logs(). */
	logTail(lines = 60): string {
		return this.logs().split('\n').slice(-lines).join('\n');
	}

	private appendLog(text: string): void {
		this.logChunks.push(text);
		try {
			fs.appendFileSync(this.logFile, text);
		} catch {
			// the temp root may be gone after dispose()
		}
	}

	private failure(message: string): Error {
		return new Error(`${message}\n--- last lines of the n8n log (${this.logFile}) ---\n${this.logTail()}`);
	}

	// ----- processes ----------------------------------------------------------------------------------------------

	private spawnN8n(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
		this.appendLog(`\n===== ${new Date().toISOString()} $ n8n ${args.join(' ')}\n`);
		const child = spawn(this.nodeBin, [this.n8nBin, ...args], {
			cwd: this.rootDir,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true, // own process group: the task runners it spawns die with it
		});
		liveChildren.add(child);
		this.children.add(child);
		child.once('exit', () => {
			liveChildren.delete(child);
			this.children.delete(child);
		});
		return child;
	}

	/** Runs one n8n CLI command to completion (bounded by `timeoutMs`). Rejects only on spawn failure or timeout. */
	async cli(args: string[], opts: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CliResult> {
		this.assertAlive();
		const timeoutMs = opts.timeoutMs ?? this.timeouts.cliMs;
		const env = { ...this.env, N8N_RUNNERS_BROKER_PORT: String(this.cliBrokerPort), ...(opts.env ?? {}) };
		const started = Date.now();
		const child = this.spawnN8n(args, env);
		let stdout = '';
		let stderr = '';
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
			stdout += chunk;
			this.appendLog(chunk);
		});
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
			stderr += chunk;
			this.appendLog(chunk);
		});
		return await new Promise<CliResult>((resolve, reject) => {
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				killGroup(child, 'SIGTERM');
				setTimeout(() => killGroup(child, 'SIGKILL'), 5_000).unref();
			}, timeoutMs);
			child.once('error', (error) => {
				clearTimeout(timer);
				reject(this.failure(`e2e: could not run n8n ${args[0]}: ${error.message}`));
			});
			child.once('close', (code, signal) => {
				clearTimeout(timer);
				killGroup(child, 'SIGKILL'); // stray task runners of this command, if any
				if (timedOut) {
					reject(this.failure(`e2e: n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000} s`));
					return;
				}
				resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started });
			});
		});
	}

	/** Like cli(), but rejects (with the log tail) unless the command exits 0. */
	private async cliOk(args: string[], what: string): Promise<CliResult> {
		const result = await this.cli(args);
		if (result.code !== 0) throw this.failure(`e2e: ${what} failed (n8n ${args.join(' ')} exited ${result.code ?? result.signal})`);
		return result;
	}

	private assertAlive(): void {
		if (this.disposed) throw new Error('e2e: this RealN8n was disposed');
	}

	// ----- set-up -------------------------------------------------------------------------------------------------

	/** Installs a package tarball the way users install community nodes by hand: npm in `~/.n8n/nodes`. */
	async installCommunityPackage(tarball: string): Promise<void> {
		const nodesDir = path.join(this.userFolder, '.n8n', 'nodes');
		fs.mkdirSync(nodesDir, { recursive: true });
		const pkgJson = path.join(nodesDir, 'package.json');
		if (!fs.existsSync(pkgJson)) fs.writeFileSync(pkgJson, '{"private":true}\n');
		// --legacy-peer-deps: the peer dependency on n8n-workflow is provided by n8n itself (n8n's own installer strips
		// peerDependencies before installing); npm must not fetch it.
		const args = ['install', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', path.resolve(tarball)];
		this.appendLog(`\n===== ${new Date().toISOString()} $ (cd ${nodesDir} && npm ${args.join(' ')})\n`);
		const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
			const child = spawn('npm', args, { cwd: nodesDir, env: node24ProcessEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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
		});
		this.appendLog(output);
		if (code !== 0) throw this.failure(`e2e: npm install ${tarball} into ${nodesDir} failed (exit ${code})`);
	}

	/**
	 * `n8n import:credentials`: plain (unencrypted) `data` objects are accepted and encrypted by n8n; each credential
	 * keeps the given `id` (derived from its name when missing), so workflows can reference it. Returns the ids.
	 */
	async importCredentials(credentials: Array<{ id?: string; name: string; type: string; data: Record<string, unknown> } & Record<string, unknown>>): Promise<string[]> {
		const withIds = credentials.map((credential) => ({ ...credential, id: credential.id ?? stableId(`credential:${credential.name}`) }));
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
		const id: string = typeof workflow.id === 'string' && workflow.id ? workflow.id : stableId(`workflow:${String(workflow.name ?? 'workflow')}`);
		if (id.length > 21) throw new Error(`e2e: workflow id "${id}" is longer than the 21 characters n8n accepts`);
		const data = { name: 'workflow', settings: {}, ...workflow, id, active: false };
		const file = path.join(this.rootDir, `workflow-${id}.json`);
		fs.writeFileSync(file, JSON.stringify([data], null, 2));
		await this.cliOk(['import:workflow', `--input=${file}`], `importing workflow ${id}`);
		return id;
	}

	/**
	 * Like importWorkflow, for several workflows in one `n8n import:workflow` (one start-up instead of one each).
	 * Returns their ids, in order.
	 */
	async importWorkflows(workflows: Array<Record<string, any>>): Promise<string[]> {
		if (workflows.length === 0) return [];
		const data = workflows.map((workflow) => {
			const id: string = typeof workflow.id === 'string' && workflow.id ? workflow.id : stableId(`workflow:${String(workflow.name ?? 'workflow')}`);
			if (id.length > 21) throw new Error(`e2e: workflow id "${id}" is longer than the 21 characters n8n accepts`);
			return { name: 'workflow', settings: {}, ...workflow, id, active: false };
		});
		const file = path.join(this.rootDir, `workflows-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		await this.cliOk(['import:workflow', `--input=${file}`], `importing ${data.length} workflows`);
		return data.map((workflow) => workflow.id);
	}

	/**
	 * `n8n publish:workflow --id=…` (n8n 2.x's activation: the active version is what triggers run). n8n reads it at
	 * start-up, so a running instance is restarted; a polling trigger then polls once at activation.
	 */
	async publish(workflowId: string): Promise<void> {
		await this.cliOk(['publish:workflow', `--id=${workflowId}`], `publishing workflow ${workflowId}`);
		if (this.running) await this.restart();
	}

	/** `n8n unpublish:workflow --id=…` (deactivation); restarts a running instance. */
	async unpublish(workflowId: string): Promise<void> {
		await this.cliOk(['unpublish:workflow', `--id=${workflowId}`], `unpublishing workflow ${workflowId}`);
		if (this.running) await this.restart();
	}

	// ----- headless execution -------------------------------------------------------------------------------------

	/**
	 * `n8n execute --id=… --rawOutput`: runs a workflow that starts with a Manual Trigger. The run is parsed from what
	 * n8n prints (on success and on failure). Works while `start` runs (the CLI uses its own runners broker port).
	 */
	async execute(workflowId: string, opts: { timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], { timeoutMs: opts.timeoutMs });
		const output = parseExecuteOutput(result.stdout) ?? parseExecuteOutput(result.stdout + '\n' + result.stderr);
		const ok = result.code === 0 && output !== undefined && !output?.data?.resultData?.error;
		return { ok, output, stdout: result.stdout, stderr: result.stderr, exitCode: result.code, durationMs: result.durationMs };
	}

	/** `n8n export:nodes`: the node type descriptions n8n loaded (incl. generated `…Tool` variants). */
	async exportNodes(): Promise<any[]> {
		const file = path.join(this.rootDir, `nodes-${Date.now()}.json`);
		try {
			await this.cliOk(['export:nodes', `--output=${file}`], 'exporting nodes');
			return JSON.parse(fs.readFileSync(file, 'utf8')) as any[];
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	// ----- server -------------------------------------------------------------------------------------------------

	/** `n8n start`; resolves when /healthz/readiness answers 200. */
	async start(): Promise<void> {
		this.assertAlive();
		if (this.server) return;
		const child = this.spawnN8n(['start'], { ...this.env });
		this.server = child;
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.appendLog(chunk));
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.appendLog(chunk));
		let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
		this.serverExit = new Promise<void>((resolve) => {
			child.once('close', (code, signal) => {
				exited = { code, signal };
				killGroup(child, 'SIGKILL'); // task runners left behind, if any
				if (this.server === child) this.server = undefined;
				this.appendLog(`\n===== ${new Date().toISOString()} n8n start exited (${code ?? signal})\n`);
				resolve();
			});
		});
		child.once('error', (error) => this.appendLog(`\n===== could not spawn n8n start: ${error.message}\n`));

		const deadline = Date.now() + this.timeouts.startMs;
		while (Date.now() < deadline) {
			if (exited) throw this.failure(`e2e: n8n start exited (${exited.code ?? exited.signal}) before it was ready`);
			try {
				const res = await fetch(`${this.baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) });
				if (res.status === 200) return;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		await this.stop();
		throw this.failure(`e2e: n8n start was not ready at ${this.baseUrl}/healthz/readiness within ${this.timeouts.startMs / 1000} s`);
	}

	/** SIGTERM, then SIGKILL (whole process group) after `timeouts.stopMs`. Safe to call when not running. */
	async stop(): Promise<void> {
		const child = this.server;
		const exit = this.serverExit;
		if (!child || !exit) return;
		if (child.exitCode === null && child.signalCode === null) {
			try {
				child.kill('SIGTERM');
			} catch {
				// gone
			}
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), this.timeouts.stopMs);
			await exit;
			clearTimeout(timer);
		} else {
			await exit;
		}
		this.server = undefined;
		this.serverExit = undefined;
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	// ----- REST ---------------------------------------------------------------------------------------------------

	/**
	 * Owner set-up (`POST /rest/owner/setup`; skipped when already done) then `POST /rest/login`; keeps the cookie
	 * for rest(). Needs start().
	 */
	async setupOwnerAndLogin(owner: { email?: string; password?: string } = {}): Promise<OwnerLogin> {
		const email = owner.email ?? 'owner@e2e.test';
		const password = owner.password ?? 'E2e-Passw0rd';
		const setup = await this.fetchRest('POST', '/rest/owner/setup', { email, firstName: 'E2E', lastName: 'Owner', password });
		if (!setup.ok && setup.status !== 400) {
			throw this.failure(`e2e: POST /rest/owner/setup answered ${setup.status}: ${await setup.text()}`);
		}
		const login = await this.fetchRest('POST', '/rest/login', { emailOrLdapLoginId: email, password });
		if (!login.ok) throw this.failure(`e2e: POST /rest/login answered ${login.status}: ${await login.text()}`);
		const cookie = login.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (!cookie) throw this.failure('e2e: POST /rest/login set no n8n-auth cookie');
		this.owner = { email, password, cookie };
		return this.owner;
	}

	private async fetchRest(method: string, urlPath: string, body?: unknown): Promise<Response> {
		if (!this.server) throw new Error(`e2e: ${method} ${urlPath} needs a running n8n: call start() first`);
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
		if (!res.ok) throw this.failure(`e2e: ${method} ${urlPath} answered ${res.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? (JSON.parse(text) as any) : undefined;
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
	 * `nodeOutput(execution, nodeName)`. Other fields: id, workflowId, mode ('trigger' for polls, 'cli', 'manual'), status,
	 * finished, startedAt, stoppedAt, workflowData.
	 */
	async getExecution(id: string): Promise<any> {
		const execution = await this.rest('GET', `/rest/executions/${encodeURIComponent(id)}`);
		if (execution && typeof execution.data === 'string') execution.data = parseFlatted(execution.data);
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
			opts.predicate ?? ((list: any[]) => list.filter((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting').length >= count);
		const deadline = Date.now() + timeoutMs;
		let last: any[] = [];
		while (Date.now() < deadline) {
			last = await this.listExecutions(workflowId);
			if (predicate(last)) return last;
			await new Promise((r) => setTimeout(r, 500));
		}
		throw this.failure(`e2e: workflow ${workflowId} did not reach the expected executions within ${timeoutMs / 1000} s (has ${last.length})`);
	}

	// ----- tear-down ----------------------------------------------------------------------------------------------

	/** Stops n8n and deletes the temp root (kept when KEYWORD_COM_E2E_KEEP=1, for debugging). */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		await this.stop();
		// CLI commands of this instance still running (a caller gave up on them)
		for (const child of this.children) killGroup(child, 'SIGKILL');
		this.disposed = true;
		if (process.env.KEYWORD_COM_E2E_KEEP === '1') return;
		fs.rmSync(this.rootDir, { recursive: true, force: true, maxRetries: 3 });
	}
}
