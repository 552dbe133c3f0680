/**
 * A real n8n 2.x in queue mode — the way teams run it in production: one main (`n8n start`: editor, REST, webhooks,
 * triggers and pollers) and N workers (`n8n worker`: they take the executions from a Bull queue in Redis), all on one
 * Postgres database, all with the same encryption key and the community package installed from its tarball.
 * Several clusters can run side by side on one PostgresServer and one RedisServer (services.cts): each has its own
 * database, Redis database index and key prefixes, ports and temp folder. Node built-ins only.
 *
 *   const pg = await PostgresServer.start(); const redis = await RedisServer.start();
 *   const cluster = await QueueN8n.create({ postgres: pg, redis, packageTarball, scheduler: 'durable-cursors' });
 *   await cluster.importCredentials([...]); await cluster.importWorkflow(workflow); await cluster.publish(id);
 *   await cluster.recordExecutionCreations();     // the database records each execution's data as n8n creates it
 *   await cluster.start();                        // main, then the workers (in parallel); each until it is ready
 *   await cluster.triggerEmissions(id, 'New alert'); // every execution with the trigger's items at its creation
 *   await cluster.setupOwnerAndLogin(); await cluster.waitForExecutions(id, 1);
 *   cluster.kill('worker-1', 'SIGKILL'); await cluster.startWorker(1); await cluster.restartMain();
 *   cluster.logs('worker-0'); cluster.executionsRunBy('worker-0'); cluster.memory();
 *   await cluster.dispose();                      // every process stopped by pid, database dropped, temp folder removed
 *
 * Each process has its own user folder (`<root>/<process>/`; n8n keeps a crash journal and event log there, which
 * processes must not share) with the package installed, and its own complete log (`<root>/<process>.log`, appended
 * across restarts); CLI commands have theirs too (`<root>/cli/`, `<root>/cli.log`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { parseFlatted } from './flatted.cjs';
import { installN8nHost } from './host.cjs';
import { N8nInstance, n8nProcessEnv, newEncryptionKey } from './n8n-instance.cjs';
import {
	LogSink,
	freePorts,
	killGroup,
	makeTempDir,
	processMemory,
	removeAtExit,
	removeTempDir,
	type ExitInfo,
	type ManagedProcess,
	type ProcessMemory,
} from './processes.cjs';
import type { PostgresServer, RedisServer } from './services.cjs';
import { waitUntil } from './waits.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * How n8n schedules polling triggers:
 * - `in-memory`: n8n's default (cron jobs in the main process; the poller's static data is saved when a poll emits);
 * - `durable`: the durable scheduler takes over poll triggers (N8N_SCHEDULER_ENABLED, N8N_USE_WORKFLOW_PUBLICATION_SERVICE,
 *   N8N_SCHEDULER_POLL_TRIGGERS_ENABLED): each poll time is a row of `scheduled_job`, each poll one of `scheduled_task`;
 * - `durable-cursors`: the same plus N8N_POLLER_DURABLE_CURSORS_ENABLED: the poller's cursor lives in `poller_state`,
 *   committed in one transaction with the execution the poll produced.
 */
export type SchedulerMode = 'in-memory' | 'durable' | 'durable-cursors';

export const SCHEDULER_MODES: readonly SchedulerMode[] = [
	'in-memory',
	'durable',
	'durable-cursors',
];

/** The environment that selects a scheduler mode (plus N8N_SCHEDULER_POLL_TIMEOUT when given, in seconds). */
export function schedulerEnv(
	mode: SchedulerMode,
	pollTimeoutSeconds?: number,
): Record<string, string> {
	const env: Record<string, string> = {};
	if (mode !== 'in-memory') {
		env.N8N_SCHEDULER_ENABLED = 'true';
		env.N8N_USE_WORKFLOW_PUBLICATION_SERVICE = 'true';
		env.N8N_SCHEDULER_POLL_TRIGGERS_ENABLED = 'true';
	}
	if (mode === 'durable-cursors') env.N8N_POLLER_DURABLE_CURSORS_ENABLED = 'true';
	if (pollTimeoutSeconds !== undefined) env.N8N_SCHEDULER_POLL_TIMEOUT = String(pollTimeoutSeconds);
	return env;
}

/** The task type of a poll in the durable scheduler's tables. */
export const POLL_TRIGGER_TASK_TYPE = 'workflow:poll-trigger';

/** `main` or `worker-<i>` (i from 0). */
export type QueueProcessName = 'main' | `worker-${number}`;

export interface QueueN8nOptions {
	postgres: PostgresServer;
	redis: RedisServer;
	/** Installed as a community package into every process's `~/.n8n/nodes` (and the CLI's). */
	packageTarball?: string;
	/** Number of workers. Default 2. */
	workers?: number;
	/** Default `in-memory`. */
	scheduler?: SchedulerMode;
	/** N8N_SCHEDULER_POLL_TIMEOUT (s) for the durable modes. */
	pollTimeoutSeconds?: number;
	/** `n8n worker --concurrency` (N8N_CONCURRENCY_PRODUCTION_LIMIT wins when set). Default 10 (n8n's). */
	workerConcurrency?: number;
	/** Extra environment for every process of the cluster, CLI included (wins over the defaults and the scheduler mode). */
	env?: Record<string, string>;
	/** Extra environment for the main process only. */
	mainEnv?: Record<string, string>;
	/** Extra environment for the workers only. */
	workerEnv?: Record<string, string>;
	/** Label: temp folder, database name (`n8n_<name>`), Redis key prefixes, log headers. */
	name?: string;
}

/**
 * The name of the side table in which the cluster's database records every execution n8n creates (see
 * QueueN8n.recordExecutionCreations).
 */
export const EXECUTION_CREATIONS_TABLE = 'kwc_e2e_execution_creation';

/**
 * One execution of a triggered workflow and what its trigger emitted into it (QueueN8n.triggerEmissions): the items as
 * they were when n8n created the execution, whatever became of it afterwards.
 */
export interface TriggerEmission {
	id: string;
	/** n8n's execution status now: success, error, crashed, new, running, waiting, canceled; `deleted` when the row is gone. */
	status: string;
	mode: string;
	createdAt: string | null;
	startedAt: string | null;
	stoppedAt: string | null;
	/** The trigger's output items (their `json`), read from the data n8n inserted when it created the execution. */
	items: any[];
}

/** What an execution's data holds now (QueueN8n.executionNow), e.g. after n8n's crash recovery rewrote it. */
export interface ExecutionNow {
	id: string;
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
	/** Per node that has run data: `<n> items`, `artificial item` (n8n's crash recovery), or its execution status. */
	nodes: Record<string, string>;
	/** Items still on the start stack (an execution no worker ran), per node. */
	queued: Record<string, number>;
	/** The execution's error message, if any. */
	error?: string;
}

/** What the database says about the durable scheduler and poller cursors (see verifySchedulerMode). */
export interface SchedulerEvidence {
	/** `scheduled_job` rows of poll triggers (the durable scheduler's poll times; `ownerId` = workflow, `ownerMemberId` = node). */
	pollJobs: any[];
	/** `scheduled_task` rows of poll triggers (one per poll the durable scheduler ran or queued), by status. */
	pollTasks: Record<string, number>;
	/** `poller_state` rows (durable cursors: `workflowId`, `nodeId`, `cursor` = the node's static data, `consecutiveErrors`, `backoffUntil`). */
	pollerStates: any[];
}

interface ProcessSlot {
	name: QueueProcessName;
	userFolder: string;
	log: LogSink;
	brokerPort: number;
	/** main: N8N_PORT; worker: QUEUE_HEALTH_CHECK_PORT (its health/readiness server). */
	httpPort: number;
	proc: ManagedProcess | undefined;
}

let clusterCounter = 0;

export class QueueN8n extends N8nInstance {
	readonly name: string;
	readonly scheduler: SchedulerMode;
	readonly postgres: PostgresServer;
	readonly redis: RedisServer;
	/** The cluster's Postgres database. */
	readonly database: string;
	/** The cluster's Redis database index (QUEUE_BULL_REDIS_DB). */
	readonly redisDatabase: number;
	/** QUEUE_BULL_PREFIX and N8N_REDIS_KEY_PREFIX (pub/sub channels are not per database). */
	readonly redisPrefix: string;
	/** The main process's HTTP port (editor, REST, webhooks). */
	readonly port: number;
	readonly baseUrl: string;
	readonly workerCount: number;

	private readonly slots = new Map<QueueProcessName, ProcessSlot>();
	private readonly cliSlot: { userFolder: string; log: LogSink; brokerPort: number };
	private readonly sharedEnv: Record<string, string>;
	private readonly opts: QueueN8nOptions;

	private constructor(args: {
		hostDir: string;
		rootDir: string;
		name: string;
		database: string;
		ports: number[];
		opts: QueueN8nOptions;
	}) {
		const { hostDir, rootDir, name, database, ports, opts } = args;
		super({ hostDir, rootDir, encryptionKey: newEncryptionKey() });
		this.opts = opts;
		this.name = name;
		this.scheduler = opts.scheduler ?? 'in-memory';
		this.postgres = opts.postgres;
		this.redis = opts.redis;
		this.database = database;
		this.redisDatabase = opts.redis.allocateDatabase();
		this.redisPrefix = `kwc-${name}`;
		this.workerCount = opts.workers ?? 2;
		const [mainPort, mainBroker, cliBroker, ...workerPorts] = ports;
		this.port = mainPort;
		this.baseUrl = `http://127.0.0.1:${mainPort}`;
		const slot = (
			procName: QueueProcessName,
			httpPort: number,
			brokerPort: number,
		): ProcessSlot => ({
			name: procName,
			userFolder: path.join(rootDir, procName),
			log: new LogSink(path.join(rootDir, `${procName}.log`)),
			brokerPort,
			httpPort,
			proc: undefined,
		});
		this.slots.set('main', slot('main', mainPort, mainBroker));
		for (let i = 0; i < this.workerCount; i++)
			this.slots.set(
				`worker-${i}`,
				slot(`worker-${i}`, workerPorts[2 * i], workerPorts[2 * i + 1]),
			);
		this.cliSlot = {
			userFolder: path.join(rootDir, 'cli'),
			log: new LogSink(path.join(rootDir, 'cli.log')),
			brokerPort: cliBroker,
		};
		this.sharedEnv = {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: opts.postgres.host,
			DB_POSTGRESDB_PORT: String(opts.postgres.port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: opts.postgres.user,
			DB_POSTGRESDB_PASSWORD: opts.postgres.password,
			QUEUE_BULL_REDIS_HOST: opts.redis.host,
			QUEUE_BULL_REDIS_PORT: String(opts.redis.port),
			QUEUE_BULL_REDIS_DB: String(this.redisDatabase),
			QUEUE_BULL_PREFIX: `${this.redisPrefix}-bull`,
			N8N_REDIS_KEY_PREFIX: this.redisPrefix,
			N8N_WEBHOOK_URL: `${this.baseUrl}/`,
			...schedulerEnv(this.scheduler, opts.pollTimeoutSeconds),
			...(opts.env ?? {}),
		};
	}

	/**
	 * A fresh cluster (not started): its database on `postgres`, free ports, user folders with the package installed.
	 * The CLI runs the database migrations on the first import; start() does it otherwise (main first).
	 */
	static async create(opts: QueueN8nOptions): Promise<QueueN8n> {
		const hostDir = installN8nHost();
		const name = (opts.name ?? `q${++clusterCounter}`).replace(/[^A-Za-z0-9_-]/g, '-');
		const rootDir = removeAtExit(makeTempDir(os.tmpdir(), `n8n-e2e-queue-${name}-`));
		const workers = opts.workers ?? 2;
		const ports = await freePorts(3 + 2 * workers, [opts.postgres.port, opts.redis.port]);
		let database: string | undefined;
		let cluster: QueueN8n | undefined;
		try {
			database = await opts.postgres.createDatabase(`n8n_${name}_${process.pid}`);
			cluster = new QueueN8n({ hostDir, rootDir, name, database, ports, opts });
			for (const folder of [
				cluster.cliSlot.userFolder,
				...[...cluster.slots.values()].map((s) => s.userFolder),
			]) {
				fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true });
			}
			cluster.cliSlot.log.append(
				`# QueueN8n ${name}: host ${hostDir}, database ${database} on 127.0.0.1:${opts.postgres.port}, redis db ${cluster.redisDatabase} ` +
					`prefix ${cluster.redisPrefix} on 127.0.0.1:${opts.redis.port}, main port ${cluster.port}, scheduler ${cluster.scheduler}\n`,
			);
			if (opts.packageTarball) {
				// Installed once with npm (the CLI's folder), then copied: every process has its own `.n8n/nodes`, as every
				// container of a real deployment has.
				await cluster.installCommunityPackage(opts.packageTarball, cluster.cliSlot.userFolder);
				const nodesDir = path.join(cluster.cliSlot.userFolder, '.n8n', 'nodes');
				for (const slot of cluster.slots.values())
					fs.cpSync(nodesDir, path.join(slot.userFolder, '.n8n', 'nodes'), { recursive: true });
			}
		} catch (error) {
			if (cluster) await cluster.dispose();
			else {
				if (database) await opts.postgres.dropDatabase(database).catch(() => undefined);
				removeTempDir(rootDir);
			}
			throw error;
		}
		return cluster;
	}

	// ----- N8nInstance --------------------------------------------------------------------------------------------

	protected isServing(): boolean {
		return this.isRunning('main');
	}

	protected cliEnv(): NodeJS.ProcessEnv {
		return n8nProcessEnv({
			userFolder: this.cliSlot.userFolder,
			encryptionKey: this.encryptionKey,
			port: this.port,
			brokerPort: this.cliSlot.brokerPort,
			extra: this.sharedEnv,
		});
	}

	protected cliLog(): LogSink {
		return this.cliSlot.log;
	}

	protected cliUserFolder(): string {
		return this.cliSlot.userFolder;
	}

	// ----- processes ----------------------------------------------------------------------------------------------

	/** `main`, `worker-0`, …: every process of the cluster. */
	get processNames(): QueueProcessName[] {
		return [...this.slots.keys()];
	}

	private slot(name: QueueProcessName): ProcessSlot {
		const slot = this.slots.get(name);
		if (!slot)
			throw new Error(
				`e2e: cluster ${this.name} has no process "${name}" (it has ${this.processNames.join(', ')})`,
			);
		return slot;
	}

	/** The environment a process of the cluster runs with (copy). */
	processEnv(name: QueueProcessName): NodeJS.ProcessEnv {
		const slot = this.slot(name);
		const extra: Record<string, string> =
			name === 'main'
				? { ...this.sharedEnv, ...(this.opts.mainEnv ?? {}) }
				: {
						...this.sharedEnv,
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(slot.httpPort),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
						...(this.opts.workerEnv ?? {}),
					};
		return n8nProcessEnv({
			userFolder: slot.userFolder,
			encryptionKey: this.encryptionKey,
			port: this.port,
			brokerPort: slot.brokerPort,
			extra,
		});
	}

	/** The process's user folder (N8N_USER_FOLDER). */
	userFolder(name: QueueProcessName): string {
		return this.slot(name).userFolder;
	}

	/** Ports a process listens on: HTTP (main: N8N_PORT; worker: its health server) and its task-runner broker. */
	ports(name: QueueProcessName): { http: number; broker: number } {
		const slot = this.slot(name);
		return { http: slot.httpPort, broker: slot.brokerPort };
	}

	isRunning(name: QueueProcessName): boolean {
		return this.slot(name).proc?.running ?? false;
	}

	/** The pid of a running process (undefined when it is not running). */
	pid(name: QueueProcessName): number | undefined {
		const proc = this.slot(name).proc;
		return proc?.running ? proc.pid : undefined;
	}

	/** How the last run of a process ended (undefined while it runs or before it ran). */
	lastExit(name: QueueProcessName): ExitInfo | undefined {
		return this.slot(name).proc?.exit;
	}

	/** Main, then every worker in parallel; each until its readiness endpoint answers 200. */
	async start(): Promise<void> {
		await this.startMain();
		await Promise.all(
			this.processNames
				.filter((n) => n !== 'main')
				.map(async (n) => await this.startProcessNamed(n)),
		);
	}

	/** `n8n start` (main): until `/healthz/readiness` answers 200. No-op when it runs. */
	async startMain(): Promise<void> {
		await this.startProcessNamed('main');
	}

	/** `n8n worker` number `index` (0-based): until its `/healthz/readiness` answers 200. No-op when it runs. */
	async startWorker(index: number): Promise<void> {
		await this.startProcessNamed(`worker-${index}`);
	}

	private async startProcessNamed(name: QueueProcessName): Promise<void> {
		const slot = this.slot(name);
		if (slot.proc?.running) return;
		const isMain = name === 'main';
		const args = isMain
			? ['start']
			: [
					'worker',
					...(this.opts.workerConcurrency ? [`--concurrency=${this.opts.workerConcurrency}`] : []),
				];
		slot.proc = await this.startProcess(
			`${this.name}/${name}`,
			args,
			this.processEnv(name),
			slot.log,
			`http://127.0.0.1:${slot.httpPort}/healthz/readiness`,
		);
	}

	/** Stops one process by pid: SIGTERM (n8n's graceful shutdown), SIGKILL of its group after `timeouts.stopMs`. */
	async stop(
		name: QueueProcessName,
		opts: { signal?: NodeJS.Signals; timeoutMs?: number } = {},
	): Promise<ExitInfo | undefined> {
		const proc = this.slot(name).proc;
		if (!proc) return undefined;
		return await proc.stop({
			signal: opts.signal,
			timeoutMs: opts.timeoutMs ?? this.timeouts.stopMs,
		});
	}

	async stopMain(
		opts: { signal?: NodeJS.Signals; timeoutMs?: number } = {},
	): Promise<ExitInfo | undefined> {
		return await this.stop('main', opts);
	}

	async stopWorker(
		index: number,
		opts: { signal?: NodeJS.Signals; timeoutMs?: number } = {},
	): Promise<ExitInfo | undefined> {
		return await this.stop(`worker-${index}`, opts);
	}

	/** Stop (SIGTERM) then start the main process. */
	async restartMain(): Promise<void> {
		await this.stopMain();
		await this.startMain();
	}

	async restartWorker(index: number): Promise<void> {
		await this.stopWorker(index);
		await this.startWorker(index);
	}

	/**
	 * Sends `signal` to a process by pid, at once, without waiting (SIGKILL: to its whole group, task runner included —
	 * a crash). waitForExit() waits for it to be gone; start it again with startMain()/startWorker().
	 */
	kill(name: QueueProcessName, signal: NodeJS.Signals = 'SIGKILL'): void {
		this.slot(name).proc?.kill(signal);
	}

	/** Resolves when the process has exited (at once when it is not running). */
	async waitForExit(name: QueueProcessName): Promise<ExitInfo | undefined> {
		const proc = this.slot(name).proc;
		return proc ? await proc.exited : undefined;
	}

	/** Every process, workers first, then main, each by pid (SIGTERM, SIGKILL after `timeouts.stopMs`), in parallel for the workers. */
	async stopAll(): Promise<void> {
		await Promise.all(
			this.processNames.filter((n) => n !== 'main').map(async (n) => await this.stop(n)),
		);
		await this.stop('main');
		for (const child of this.cliChildren) killGroup(child, 'SIGKILL');
	}

	/** RSS of each running process (and of its task runner: `treeRssMb`). */
	memory(): Partial<Record<QueueProcessName, ProcessMemory>> {
		const out: Partial<Record<QueueProcessName, ProcessMemory>> = {};
		for (const name of this.processNames) {
			const memory = processMemory(this.pid(name));
			if (memory) out[name] = memory;
		}
		return out;
	}

	// ----- logs ---------------------------------------------------------------------------------------------------

	/** One process's log lines (across its restarts), each with the time it arrived. */
	timedLogLines(name: QueueProcessName): Array<{ at: number; line: string }> {
		return this.slot(name).log.timedLines();
	}

	/** One process's complete log (`main`, `worker-<i>`, or `cli`), or all of them, each under a header line. */
	logs(name?: QueueProcessName | 'cli'): string {
		if (name === 'cli') return this.cliSlot.log.text();
		if (name) return this.slot(name).log.text();
		return ['cli' as const, ...this.processNames]
			.map((n) => `##### ${this.name}/${n}\n${this.logs(n)}`)
			.join('\n');
	}

	/** The log file of a process (`<root>/<name>.log`). */
	logFile(name: QueueProcessName | 'cli'): string {
		return name === 'cli' ? this.cliSlot.log.file : this.slot(name).log.file;
	}

	/** The last `lines` lines of every log. */
	logTail(lines = 40): string {
		return ['cli' as const, ...this.processNames]
			.map(
				(n) =>
					`##### ${this.name}/${n} (${this.logFile(n)})\n${(n === 'cli' ? this.cliSlot.log : this.slot(n).log).tail(lines)}`,
			)
			.join('\n');
	}

	/** Ids of the executions a worker ran, from its log ("Worker started execution <id> (job <job>)"). */
	executionsRunBy(name: QueueProcessName): string[] {
		return [...this.logs(name).matchAll(/Worker started execution (\S+) \(job/g)].map((m) => m[1]);
	}

	/** Ids of the executions the main process put on the queue, from its log ("Enqueued execution <id> (job <job>)"). */
	executionsEnqueued(): string[] {
		return [...this.logs('main').matchAll(/Enqueued execution (\S+) \(job/g)].map((m) => m[1]);
	}

	/** The worker whose log says it ran execution `id`, or undefined. */
	workerThatRan(executionId: string): QueueProcessName | undefined {
		return this.processNames.find(
			(n) => n !== 'main' && this.executionsRunBy(n).includes(String(executionId)),
		);
	}

	// ----- activation ---------------------------------------------------------------------------------------------

	/** `n8n publish:workflow` in the cluster's database; a running main is restarted to read it (workers need nothing). */
	async publish(workflowId: string): Promise<void> {
		await this.publishInDatabase(workflowId);
		if (this.isRunning('main')) await this.restartMain();
	}

	async unpublish(workflowId: string): Promise<void> {
		await this.unpublishInDatabase(workflowId);
		if (this.isRunning('main')) await this.restartMain();
	}

	// ----- database -----------------------------------------------------------------------------------------------

	/** Rows of a SELECT on the cluster's database (tables as n8n names them: `execution_entity`, `"workflowId"`, …). */
	async sql(query: string): Promise<any[]> {
		return await this.postgres.query(this.database, query);
	}

	/** Runs statements (no result) on the cluster's database. */
	async sqlExec(statements: string): Promise<void> {
		await this.postgres.exec(this.database, statements);
	}

	/**
	 * Makes the cluster's database record every execution at the moment n8n creates it: an AFTER INSERT trigger on
	 * n8n's `execution_data` copies each inserted row (execution id, workflow, the flatted `data`) into
	 * EXECUTION_CREATIONS_TABLE, inside n8n's own transaction. n8n 2.41.1 inserts that row once per execution, in the
	 * transaction that inserts the execution (ExecutionPersistence.create); the data is then the trigger's items on the
	 * execution's start stack, before any process picks it up. Every later write (the worker's result, crash
	 * recovery, the main's "stalled job" error) updates the row (an upsert that conflicts, or an UPDATE), which the
	 * trigger does not see. So what the table holds cannot race with what happens to the execution afterwards.
	 *
	 * Call it after n8n created its tables (the CLI's first import runs the migrations) and before any execution:
	 * before start(). Idempotent. triggerEmissions() refuses to read an execution the table did not record.
	 */
	async recordExecutionCreations(): Promise<void> {
		const [table] = await this.sql(`select to_regclass('execution_data')::text as name`);
		if (!table?.name)
			throw new Error(
				`e2e: ${this.name}: n8n has not created its tables yet (run a CLI import first, e.g. importCredentials)`,
			);
		await this.sqlExec(`
			CREATE TABLE IF NOT EXISTS ${EXECUTION_CREATIONS_TABLE} (
				seq bigserial PRIMARY KEY,
				"executionId" text NOT NULL,
				"workflowId" text,
				mode text,
				data text,
				"recordedAt" timestamptz NOT NULL DEFAULT clock_timestamp()
			);
			CREATE OR REPLACE FUNCTION ${EXECUTION_CREATIONS_TABLE}_record() RETURNS trigger LANGUAGE plpgsql AS $fn$
			BEGIN
				INSERT INTO ${EXECUTION_CREATIONS_TABLE} ("executionId", "workflowId", mode, data)
				SELECT NEW."executionId"::text, e."workflowId", e.mode, NEW.data
				FROM (SELECT 1) one LEFT JOIN execution_entity e ON e.id = NEW."executionId";
				RETURN NULL;
			END
			$fn$;
			DROP TRIGGER IF EXISTS ${EXECUTION_CREATIONS_TABLE}_record ON execution_data;
			CREATE TRIGGER ${EXECUTION_CREATIONS_TABLE}_record AFTER INSERT ON execution_data
				FOR EACH ROW EXECUTE FUNCTION ${EXECUTION_CREATIONS_TABLE}_record();
		`);
	}

	/**
	 * Every execution of a workflow, oldest first, with the items its trigger node `nodeName` emitted into it, as n8n
	 * inserted them when it created the execution (recordExecutionCreations; whatever became of the execution later:
	 * run, crashed with its worker, rewritten by n8n's crash recovery) and the execution's status now.
	 * Throws when an execution of the workflow was not recorded at its creation, was recorded twice, or was created
	 * without the trigger's items: the observation would not be complete.
	 */
	async triggerEmissions(workflowId: string, nodeName: string): Promise<TriggerEmission[]> {
		const id = workflowId.replace(/'/g, "''");
		const rows = await this.sql(
			`select c."executionId" as id, c.data, e.status, coalesce(e.mode, c.mode) as mode, e."createdAt", e."startedAt", e."stoppedAt" ` +
				`from ${EXECUTION_CREATIONS_TABLE} c left join execution_entity e on e.id::text = c."executionId" ` +
				`where c."workflowId" = '${id}' order by c.seq`,
		);
		const unrecorded = await this.sql(
			`select e.id from execution_entity e where e."workflowId" = '${id}' ` +
				`and not exists (select 1 from ${EXECUTION_CREATIONS_TABLE} c where c."executionId" = e.id::text) order by e.id`,
		);
		const problems: string[] = [];
		if (unrecorded.length > 0)
			problems.push(
				`execution(s) ${unrecorded.map((r) => String(r.id)).join(', ')} not recorded at creation (recordExecutionCreations() after an execution was created?)`,
			);
		const seen = new Set<string>();
		const emissions = rows.map((row): TriggerEmission => {
			const executionId = String(row.id);
			if (seen.has(executionId)) problems.push(`execution ${executionId} inserted twice`);
			seen.add(executionId);
			const data: any =
				typeof row.data === 'string' && row.data ? parseFlatted(row.data) : undefined;
			const ran = data?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[0];
			const stack: any[] = data?.executionData?.nodeExecutionStack ?? [];
			const queued = stack.find((entry) => entry?.node?.name === nodeName)?.data?.main?.[0];
			const items = ran ?? queued;
			if (!Array.isArray(items))
				problems.push(`execution ${executionId} was created without ${nodeName}'s items`);
			return {
				id: executionId,
				status: row.status === null || row.status === undefined ? 'deleted' : String(row.status),
				mode: String(row.mode),
				createdAt: row.createdAt ?? null,
				startedAt: row.startedAt ?? null,
				stoppedAt: row.stoppedAt ?? null,
				items: ((items ?? []) as any[]).map((item) => item?.json ?? item),
			};
		});
		if (problems.length > 0)
			throw new Error(`e2e: ${this.name}: workflow ${workflowId}: ${problems.join('; ')}`);
		return emissions;
	}

	/** What an execution's data holds now (after a crash: what n8n's recovery made of it). */
	async executionNow(executionId: string): Promise<ExecutionNow | undefined> {
		const id = String(Number(executionId));
		const [row] = await this.sql(
			`select e.id, e.status, e."startedAt", e."stoppedAt", d.data from execution_entity e ` +
				`left join execution_data d on d."executionId" = e.id where e.id = ${id}`,
		);
		if (!row) return undefined;
		const data: any = typeof row.data === 'string' && row.data ? parseFlatted(row.data) : undefined;
		const nodes: Record<string, string> = {};
		for (const [name, runs] of Object.entries<any>(data?.resultData?.runData ?? {})) {
			const run = runs?.[0];
			const items: any[] | undefined = run?.data?.main?.[0];
			nodes[name] = items?.some((item) => item?.json?.isArtificialRecoveredEventItem === true)
				? 'artificial item'
				: Array.isArray(items)
					? `${items.length} items`
					: String(run?.executionStatus ?? 'no data');
		}
		const queued: Record<string, number> = {};
		for (const entry of data?.executionData?.nodeExecutionStack ?? [])
			if (entry?.node?.name) queued[entry.node.name] = entry?.data?.main?.[0]?.length ?? 0;
		const error = data?.resultData?.error?.message;
		return {
			id: String(row.id),
			status: String(row.status),
			startedAt: row.startedAt ?? null,
			stoppedAt: row.stoppedAt ?? null,
			nodes,
			queued,
			...(typeof error === 'string' ? { error } : {}),
		};
	}

	/** The durable scheduler's and durable cursors' rows (for one workflow, or all). */
	async schedulerEvidence(workflowId?: string): Promise<SchedulerEvidence> {
		const id = workflowId?.replace(/'/g, "''");
		// scheduled_job names its owner generically since n8n 2.40: ownerType 'workflow', ownerId = workflow, ownerMemberId = node.
		const pollJobs = await this.sql(
			`select * from scheduled_job where "taskType" = '${POLL_TRIGGER_TASK_TYPE}'${id ? ` and "ownerId" = '${id}'` : ''} order by id`,
		);
		const jobIds = pollJobs.map((job) => Number(job.id));
		const tasks = jobIds.length
			? await this.sql(
					`select status, count(*)::int as n from scheduled_task where "taskType" = '${POLL_TRIGGER_TASK_TYPE}' and "jobId" in (${jobIds.join(',')}) group by status`,
				)
			: [];
		const pollTasks: Record<string, number> = {};
		for (const row of tasks) pollTasks[row.status] = row.n;
		const pollerStates = await this.sql(
			`select * from poller_state${id ? ` where "workflowId" = '${id}'` : ''}`,
		);
		return { pollJobs, pollTasks, pollerStates };
	}

	/**
	 * Proves the scheduler mode is the configured one, for a published workflow with a polling trigger whose main
	 * process runs: the main's log says "Scheduler started" exactly in the durable modes, and the database shows
	 * - `in-memory`: no poll job in `scheduled_job` and no `poller_state` row (checked after `settleMs`);
	 * - `durable`: the workflow's poll times are rows of `scheduled_job`, and no `poller_state` row appears (checked
	 *   once a poll task has finished: `scheduled_task` status succeeded or failed);
	 * - `durable-cursors`: poll jobs in `scheduled_job`, and a `poller_state` row for the workflow (created by its first
	 *   poll, the activation poll included).
	 * Waits up to `timeoutMs` (a durable poll runs at the next poll time: up to a minute with "every minute").
	 */
	async verifySchedulerMode(
		workflowId: string,
		opts: { timeoutMs?: number; settleMs?: number } = {},
	): Promise<SchedulerEvidence> {
		const ranPolls = (e: SchedulerEvidence): number =>
			(e.pollTasks.succeeded ?? 0) + (e.pollTasks.failed ?? 0);
		if (this.schedulerStarted() !== (this.scheduler !== 'in-memory')) {
			throw this.failure(
				`e2e: ${this.name} (scheduler ${this.scheduler}) ${this.schedulerStarted() ? 'started' : 'did not start'} the durable scheduler ("Scheduler started" in the main's log)`,
			);
		}
		let evidence = await this.schedulerEvidence(workflowId);
		if (this.scheduler === 'in-memory') {
			await new Promise((r) => setTimeout(r, opts.settleMs ?? 3_000));
			evidence = await this.schedulerEvidence(workflowId);
			if (evidence.pollJobs.length === 0 && evidence.pollerStates.length === 0) return evidence;
			throw this.failure(
				`e2e: ${this.name} should schedule polls in memory, but the database has ${JSON.stringify(evidence)}`,
			);
		}
		return await waitUntil(
			`${this.name} (scheduler ${this.scheduler}) showing its mode in the database`,
			async () => {
				evidence = await this.schedulerEvidence(workflowId);
				const jobsOk = evidence.pollJobs.length > 0;
				if (this.scheduler === 'durable' && evidence.pollerStates.length > 0) {
					throw this.failure(
						`e2e: ${this.name} runs the durable scheduler without durable cursors, but poller_state has ${JSON.stringify(evidence.pollerStates)}`,
					);
				}
				if (jobsOk && this.scheduler === 'durable' && ranPolls(evidence) > 0) return evidence;
				if (jobsOk && this.scheduler === 'durable-cursors' && evidence.pollerStates.length > 0)
					return evidence;
				return undefined;
			},
			{
				timeoutMs: opts.timeoutMs ?? 90_000,
				everyMs: 1_000,
				explain: () => JSON.stringify(evidence),
				error: (message) => this.failure(message),
			},
		);
	}

	/** Whether the main's log says the durable scheduler started ("Scheduler started": N8N_SCHEDULER_ENABLED took effect). */
	schedulerStarted(): boolean {
		return /^Scheduler started/m.test(this.logs('main'));
	}

	/** Warnings n8n logs at start when scheduler settings do not take effect (e.g. a missing companion setting). */
	schedulerWarnings(): string[] {
		return this.logs('main')
			.split('\n')
			.filter((line) =>
				/N8N_SCHEDULER_ENABLED is set but|N8N_POLLER_DURABLE_CURSORS_ENABLED requires/.test(line),
			);
	}

	// ----- tear-down ----------------------------------------------------------------------------------------------

	/**
	 * Stops every process (stopAll), drops the cluster's database and removes the temp folder (both kept with
	 * KEYWORD_COM_E2E_KEEP=1). The Postgres and Redis servers are the caller's.
	 */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		await this.stopAll();
		this.disposed = true;
		if (process.env.KEYWORD_COM_E2E_KEEP === '1') return;
		if (this.postgres.running)
			await this.postgres.dropDatabase(this.database).catch(() => undefined);
		removeTempDir(this.rootDir);
	}
}
