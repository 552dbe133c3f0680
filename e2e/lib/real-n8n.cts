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
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installN8nHost } from './host.cjs';
import { N8nInstance, n8nProcessEnv, n8nVersionOf, newEncryptionKey } from './n8n-instance.cjs';
import { LogSink, ManagedProcess, freePort, freePorts, killGroup } from './processes.cjs';

export { stableId, type CliResult, type OwnerLogin, type Timeouts } from './n8n-instance.cjs';
export { freePort } from './processes.cjs';

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
export function nodeOutput(
	run: any,
	nodeName: string,
	outputIndex = 0,
	runIndex = 0,
): any[] | undefined {
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

/** One n8n process on sqlite: a fresh user folder, free ports, CLI commands and `n8n start`, one log for all of it. */
export class RealN8n extends N8nInstance {
	/** N8N_USER_FOLDER (holds `.n8n/` with the sqlite database and the community packages). */
	readonly userFolder: string;
	/** Everything n8n printed: every CLI command and every `start`, with a header line each. */
	readonly logFile: string;
	readonly port: number;
	readonly baseUrl: string;

	private readonly env: NodeJS.ProcessEnv;
	private readonly cliBrokerPort: number;
	private readonly log: LogSink;
	private server: ManagedProcess | undefined;

	private constructor(args: {
		hostDir: string;
		rootDir: string;
		port: number;
		serverBrokerPort: number;
		cliBrokerPort: number;
		opts: RealN8nOptions;
	}) {
		const { hostDir, rootDir, port, serverBrokerPort, cliBrokerPort, opts } = args;
		super({ hostDir, rootDir, encryptionKey: newEncryptionKey() });
		this.userFolder = path.join(rootDir, 'user');
		this.logFile = path.join(rootDir, 'n8n.log');
		this.log = new LogSink(this.logFile);
		this.port = port;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.cliBrokerPort = cliBrokerPort;
		this.env = n8nProcessEnv({
			userFolder: this.userFolder,
			encryptionKey: this.encryptionKey,
			port,
			brokerPort: serverBrokerPort,
			n8nVersion: n8nVersionOf(hostDir),
			extra: {
				...(opts.customExtensionsDir ? { N8N_CUSTOM_EXTENSIONS: opts.customExtensionsDir } : {}),
				...(opts.env ?? {}),
			},
		});
	}

	/** A fresh n8n: new user folder, free ports, optionally our package installed as a community package. */
	static async create(opts: RealN8nOptions = {}): Promise<RealN8n> {
		const hostDir = installN8nHost();
		const label = (opts.name ?? 'n8n').replace(/[^A-Za-z0-9_-]/g, '-');
		const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${label}-`));
		const port = opts.port ?? (await freePort());
		const [serverBrokerPort, cliBrokerPort] = await freePorts(2, [port]);
		const n8n = new RealN8n({ hostDir, rootDir, port, serverBrokerPort, cliBrokerPort, opts });
		fs.mkdirSync(path.join(n8n.userFolder, '.n8n'), { recursive: true });
		n8n.log.append(
			`# RealN8n ${label}: host ${hostDir}, user folder ${n8n.userFolder}, port ${port}\n`,
		);
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
		return this.server?.running ?? false;
	}

	protected isServing(): boolean {
		return this.running;
	}

	protected cliEnv(): NodeJS.ProcessEnv {
		return { ...this.env, N8N_RUNNERS_BROKER_PORT: String(this.cliBrokerPort) };
	}

	protected cliLog(): LogSink {
		return this.log;
	}

	protected cliUserFolder(): string {
		return this.userFolder;
	}

	// ----- logs ---------------------------------------------------------------------------------------------------

	/** Everything n8n printed (stdout and stderr of every command and of `start`), plus command headers. */
	logs(): string {
		return this.log.text();
	}

	/** The last `lines` lines of logs(). */
	logTail(lines = 60): string {
		return this.log.tail(lines);
	}

	/**
	 * The workflows of `ids` whose activation n8n logged in logs() from `offset` on. n8n logs it once the activation's
	 * poll has returned (it awaits it): "Activated workflow … (ID: …)" (info), or with n8n 2.x's workflow publication
	 * service "Activated trigger node … for workflow …" (debug only: start n8n with N8N_LOG_LEVEL=debug).
	 */
	activatedSince(offset: number, ids: string[]): string[] {
		const lines = this.logs()
			.slice(offset)
			.split('\n')
			.filter(
				(line) => line.includes('Activated workflow') || line.includes('Activated trigger node'),
			);
		return ids.filter((id) =>
			lines.some((line) => line.includes(`(ID: ${id})`) || line.includes(`"id": "${id}"`)),
		);
	}

	// ----- activation ---------------------------------------------------------------------------------------------

	/**
	 * `n8n publish:workflow --id=…` (n8n 2.x's activation: the active version is what triggers run). n8n reads it at
	 * start-up, so a running instance is restarted; a polling trigger then polls once at activation.
	 */
	async publish(workflowId: string): Promise<void> {
		await this.publishInDatabase(workflowId);
		if (this.running) await this.restart();
	}

	/** `n8n unpublish:workflow --id=…` (deactivation); restarts a running instance. */
	async unpublish(workflowId: string): Promise<void> {
		await this.unpublishInDatabase(workflowId);
		if (this.running) await this.restart();
	}

	// ----- headless execution -------------------------------------------------------------------------------------

	/**
	 * `n8n execute --id=… --rawOutput`: runs a workflow that starts with a Manual Trigger. The run is parsed from what
	 * n8n prints (on success and on failure). Works while `start` runs (the CLI uses its own runners broker port).
	 */
	async execute(workflowId: string, opts: { timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			timeoutMs: opts.timeoutMs,
		});
		const output =
			parseExecuteOutput(result.stdout) ?? parseExecuteOutput(result.stdout + '\n' + result.stderr);
		const ok = result.code === 0 && output !== undefined && !output?.data?.resultData?.error;
		return {
			ok,
			output,
			stdout: result.stdout,
			stderr: result.stderr,
			exitCode: result.code,
			durationMs: result.durationMs,
		};
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
		if (this.running) return;
		this.server = await this.startProcess(
			'n8n start',
			['start'],
			{ ...this.env },
			this.log,
			`${this.baseUrl}/healthz/readiness`,
		);
	}

	/** SIGTERM, then SIGKILL (whole process group) after `timeouts.stopMs`. Safe to call when not running. */
	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		await server.stop({ timeoutMs: this.timeouts.stopMs });
		if (this.server === server) this.server = undefined;
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	// ----- tear-down ----------------------------------------------------------------------------------------------

	/** Stops n8n and deletes the temp root (kept when KEYWORD_COM_E2E_KEEP=1, for debugging). */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		await this.stop();
		// CLI commands of this instance still running (a caller gave up on them)
		for (const child of this.cliChildren) killGroup(child, 'SIGKILL');
		this.disposed = true;
		if (process.env.KEYWORD_COM_E2E_KEEP === '1') return;
		fs.rmSync(this.rootDir, { recursive: true, force: true, maxRetries: 3 });
	}
}
