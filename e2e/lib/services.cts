/**
 * Postgres and Redis for the queue-mode tier, from Debian's packages (scripts/install-queue-services.sh), each run as
 * a child process of the test on a free loopback port with its data in a fresh temp folder — no system service is
 * used. Several n8n clusters share one server of each: a database per cluster (PostgresServer.createDatabase), a
 * Redis database index and key prefix per cluster (RedisServer.allocateDatabase). Node built-ins only.
 *
 *   const pg = await PostgresServer.start();          // initdb + postgres as the `postgres` user, ~2 s
 *   const redis = await RedisServer.start();          // redis-server, no persistence, ~0.1 s
 *   const db = await pg.createDatabase('n8n_a');
 *   await pg.query(db, 'select 1 as one');            // → [{ one: 1 }]
 *   await pg.restart();                               // stop + start on the same data (fast shutdown)
 *   await pg.dispose(); await redis.dispose();        // stop by pid, temp folders removed
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { repoRoot } from './paths.cjs';
import {
	LogSink,
	ManagedProcess,
	freePort,
	makeTempDir,
	processMemory,
	removeAtExit,
	removeTempDir,
	spawnLogged,
	type ExitInfo,
	type ProcessMemory,
} from './processes.cjs';
import { waitUntil } from './waits.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

let pgBinMemo: string | undefined;

/**
 * Runs scripts/install-queue-services.sh (apt-get install postgresql redis-server when missing; ~10 ms when present)
 * and returns the folder of the PostgreSQL binaries (`/usr/lib/postgresql/<version>/bin`).
 */
export function installQueueServices(): string {
	if (pgBinMemo) return pgBinMemo;
	let out: string;
	try {
		out = execFileSync('bash', [path.join(repoRoot(), 'scripts', 'install-queue-services.sh')], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			timeout: 15 * 60_000,
		});
	} catch (error) {
		throw new Error(`e2e: scripts/install-queue-services.sh failed: ${(error as Error).message}`);
	}
	const bin = out.trim().split('\n').pop() ?? '';
	if (!fs.existsSync(path.join(bin, 'postgres')))
		throw new Error(`e2e: install-queue-services.sh printed "${bin}", which holds no postgres`);
	pgBinMemo = bin;
	return bin;
}

/** uid and gid of a system user, from /etc/passwd. */
function systemUser(name: string): { uid: number; gid: number; home: string } {
	for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
		const [user, , uid, gid, , home] = line.split(':');
		if (user === name) return { uid: Number(uid), gid: Number(gid), home };
	}
	throw new Error(
		`e2e: there is no system user "${name}" (scripts/install-queue-services.sh creates it with the postgresql package)`,
	);
}

function chownRecursive(dir: string, uid: number, gid: number): void {
	fs.chownSync(dir, uid, gid);
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) chownRecursive(full, uid, gid);
		else fs.chownSync(full, uid, gid);
	}
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where the services' temp folders go: os.tmpdir() when the `postgres` user can reach it, else /tmp. */
function servicesTempParent(): string {
	const tmp = os.tmpdir();
	try {
		// every folder on the way must be searchable by others (postgres runs as its own user)
		let dir = tmp;
		for (;;) {
			if ((fs.statSync(dir).mode & 0o001) === 0) return '/tmp';
			const parent = path.dirname(dir);
			if (parent === dir) return tmp;
			dir = parent;
		}
	} catch {
		return '/tmp';
	}
}

// ----- a server run by the test -------------------------------------------------------------------------------

/** What Postgres and Redis have in common here: one child process with its log, started and stopped by the test. */
abstract class LocalServer {
	readonly host = '127.0.0.1';
	/** Temp root of the server (its data, its log). */
	readonly rootDir: string;
	readonly logFile: string;
	protected readonly log: LogSink;
	protected proc: ManagedProcess | undefined;
	protected disposed = false;

	protected constructor(
		readonly port: number,
		rootDir: string,
		logName: string,
	) {
		this.rootDir = rootDir;
		this.logFile = path.join(rootDir, logName);
		this.log = new LogSink(this.logFile);
	}

	/** The server's pid while it runs. */
	get pid(): number | undefined {
		return this.proc?.running ? this.proc.pid : undefined;
	}

	get running(): boolean {
		return this.proc?.running ?? false;
	}

	/** Everything the server printed, over every start. */
	logs(): string {
		return this.log.text();
	}

	/** Sends a signal to the server by pid, at once (SIGKILL: a crash). Does not wait: see stop(). */
	kill(signal: NodeJS.Signals): void {
		this.proc?.kill(signal);
	}

	memory(): ProcessMemory | undefined {
		return processMemory(this.pid);
	}

	/**
	 * Spawns the server and polls `ready` until it says yes; rejects (server killed) when the server exits first or
	 * `timeoutMs` passes.
	 */
	protected async launch(
		label: string,
		bin: string,
		args: string[],
		spawnOpts: { env: NodeJS.ProcessEnv; uid?: number; gid?: number; as?: string },
		ready: () => Promise<boolean>,
		timeoutMs: number,
	): Promise<void> {
		if (this.disposed) throw new Error(`e2e: this ${this.constructor.name} was disposed`);
		const child = spawnLogged(bin, args, {
			cwd: this.rootDir,
			env: spawnOpts.env,
			uid: spawnOpts.uid,
			gid: spawnOpts.gid,
			log: this.log,
			header: `$ ${label} ${args.join(' ')}${spawnOpts.as ? ` (as ${spawnOpts.as})` : ''}`,
		});
		const proc = new ManagedProcess(label, child, this.log);
		this.proc = proc;
		try {
			await waitUntil(
				`${label} ready`,
				async () => {
					if (!proc.running)
						throw new Error(
							`e2e: ${label} exited (${proc.exit?.code ?? proc.exit?.signal}) before it was ready\n${this.log.tail(30)}`,
						);
					return await ready().catch(() => false);
				},
				{ timeoutMs, everyMs: 100, explain: () => this.log.tail(30) },
			);
		} catch (error) {
			await proc.stop({ signal: 'SIGKILL' }); // and whatever it left in its group
			throw error;
		}
	}

	/** Stops the server by pid with `signal`, SIGKILL after `timeoutMs`; waits until it is gone. */
	protected async stopWith(
		signal: NodeJS.Signals,
		timeoutMs: number,
	): Promise<ExitInfo | undefined> {
		const proc = this.proc;
		if (!proc) return undefined;
		const exit = await proc.stop({ signal, timeoutMs });
		if (this.proc === proc) this.proc = undefined;
		return exit;
	}

	protected abstract stopForDispose(): Promise<unknown>;

	/** Stops the server and removes its temp folder (kept with KEYWORD_COM_E2E_KEEP=1). */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		await this.stopForDispose();
		removeTempDir(this.rootDir);
	}
}

// ----- Postgres -------------------------------------------------------------------------------------------------

export interface PostgresOptions {
	/** Label in the temp folder's name and the log header. */
	name?: string;
	/** Fixed port (default: a free one). */
	port?: number;
	/** Extra `-c name=value` settings (win over the defaults: fsync off, 200 connections, loopback only). */
	settings?: Record<string, string>;
	/** initdb + readiness. Default 60 s. */
	startTimeoutMs?: number;
}

/** How Postgres is stopped: `fast` (SIGINT: roll back, checkpoint), `smart` (SIGTERM: wait for clients), `immediate` (SIGQUIT: no checkpoint, recovery at the next start). */
export type PostgresStopMode = 'fast' | 'smart' | 'immediate';
const STOP_SIGNAL: Record<PostgresStopMode, NodeJS.Signals> = {
	fast: 'SIGINT',
	smart: 'SIGTERM',
	immediate: 'SIGQUIT',
};

export class PostgresServer extends LocalServer {
	readonly user = 'postgres';
	/** The `postgres` role's password (TCP logins use scram-sha-256; the unix socket, reachable by root and postgres only, trusts). */
	readonly password: string;
	readonly dataDir: string;
	readonly socketDir: string;
	/** `/usr/lib/postgresql/<version>/bin`. */
	readonly binDir: string;
	/** The databases createDatabase() made and dropDatabase() did not drop. */
	readonly databases: string[] = [];
	private readonly account: { uid: number; gid: number; home: string };

	private constructor(
		port: number,
		binDir: string,
		rootDir: string,
		private readonly opts: PostgresOptions,
	) {
		super(port, rootDir, 'postgres.log');
		this.binDir = binDir;
		this.dataDir = path.join(rootDir, 'data');
		this.socketDir = path.join(rootDir, 'sock');
		this.password = randomBytes(12).toString('hex');
		this.account = systemUser('postgres');
	}

	/** initdb in a fresh temp folder owned by `postgres` (`<tmp>/n8n-e2e-postgres-<name>-*`), then start(). */
	static async start(opts: PostgresOptions = {}): Promise<PostgresServer> {
		const binDir = installQueueServices();
		const label = (opts.name ?? 'pg').replace(/[^A-Za-z0-9_-]/g, '-');
		const rootDir = removeAtExit(makeTempDir(servicesTempParent(), `n8n-e2e-postgres-${label}-`));
		const server = new PostgresServer(opts.port ?? (await freePort()), binDir, rootDir, opts);
		try {
			server.initdb();
			await server.start();
		} catch (error) {
			await server.dispose();
			throw error;
		}
		return server;
	}

	private spawnEnv(): NodeJS.ProcessEnv {
		return {
			PATH: `${this.binDir}:/usr/bin:/bin`,
			HOME: this.rootDir,
			LANG: 'C.UTF-8',
			LC_ALL: 'C.UTF-8',
			TZ: 'UTC',
		};
	}

	private initdb(): void {
		const { uid, gid } = this.account;
		fs.chmodSync(this.rootDir, 0o755);
		fs.mkdirSync(this.socketDir, { mode: 0o700 });
		const pwfile = path.join(this.rootDir, 'pwfile');
		fs.writeFileSync(pwfile, `${this.password}\n`, { mode: 0o600 });
		chownRecursive(this.rootDir, uid, gid);
		const started = Date.now();
		this.log.append(
			`===== ${new Date().toISOString()} $ initdb -D ${this.dataDir} (as postgres)\n`,
		);
		try {
			const out = execFileSync(
				path.join(this.binDir, 'initdb'),
				[
					'-D',
					this.dataDir,
					'-U',
					this.user,
					`--pwfile=${pwfile}`,
					'--auth-local=trust',
					'--auth-host=scram-sha-256',
					'-E',
					'UTF8',
					'--locale=C.UTF-8',
					'--no-sync',
				],
				{
					uid,
					gid,
					cwd: this.rootDir,
					env: this.spawnEnv(),
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'pipe'],
					timeout: this.opts.startTimeoutMs ?? 60_000,
				},
			);
			this.log.append(out);
		} catch (error) {
			const e = error as Error & { stdout?: string; stderr?: string };
			this.log.append(`${e.stdout ?? ''}${e.stderr ?? ''}`);
			throw new Error(`e2e: initdb failed: ${e.message}\n${e.stderr ?? ''}`);
		} finally {
			fs.rmSync(pwfile, { force: true });
		}
		this.log.append(`===== initdb took ${Date.now() - started} ms\n`);
	}

	/** Starts `postgres` (as the `postgres` user) on the existing data folder and waits until it answers a query. */
	async start(): Promise<void> {
		if (this.running) return;
		const settings: Record<string, string> = {
			listen_addresses: this.host,
			unix_socket_directories: this.socketDir,
			fsync: 'off',
			synchronous_commit: 'off',
			full_page_writes: 'off',
			max_connections: '200',
			shared_buffers: '64MB',
			log_destination: 'stderr',
			logging_collector: 'off',
			log_line_prefix: '%m [%p] ',
			...(this.opts.settings ?? {}),
		};
		const args = [
			'-D',
			this.dataDir,
			'-p',
			String(this.port),
			...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
		];
		const { uid, gid } = this.account;
		const ready = async (): Promise<boolean> =>
			(await this.psql('postgres', 'select 1', 5_000)) === '1';
		await this.launch(
			'postgres',
			path.join(this.binDir, 'postgres'),
			args,
			{ env: this.spawnEnv(), uid, gid, as: 'postgres' },
			ready,
			this.opts.startTimeoutMs ?? 60_000,
		);
	}

	/** Stops the postmaster by pid (`fast` by default: SIGINT) and waits until it is gone (its backends follow it). */
	async stop(
		opts: { mode?: PostgresStopMode; timeoutMs?: number } = {},
	): Promise<ExitInfo | undefined> {
		return await this.stopWith(STOP_SIGNAL[opts.mode ?? 'fast'], opts.timeoutMs ?? 30_000);
	}

	/** stop() then start() on the same data and port. Returns how long Postgres was unreachable, in ms. */
	async restart(opts: { mode?: PostgresStopMode; downMs?: number } = {}): Promise<number> {
		const started = Date.now();
		await this.stop({ mode: opts.mode });
		if (opts.downMs) await sleep(opts.downMs);
		await this.start();
		return Date.now() - started;
	}

	protected async stopForDispose(): Promise<unknown> {
		return await this.stop();
	}

	/** Creates a database (name: lower-case letters, digits, `_`) owned by `postgres`; returns its name. */
	async createDatabase(name: string): Promise<string> {
		const db = name
			.toLowerCase()
			.replace(/[^a-z0-9_]/g, '_')
			.slice(0, 60);
		await this.psql('postgres', `CREATE DATABASE "${db}"`);
		this.databases.push(db);
		return db;
	}

	async dropDatabase(name: string): Promise<void> {
		await this.psql('postgres', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
		const index = this.databases.indexOf(name);
		if (index >= 0) this.databases.splice(index, 1);
	}

	/** Rows of a query (any SELECT), as JSON objects: the query is wrapped in `json_agg`. */
	async query(database: string, sql: string): Promise<any[]> {
		const out = await this.psql(
			database,
			`select coalesce(json_agg(q), '[]'::json) from (${sql.trim().replace(/;$/, '')}) q`,
		);
		return JSON.parse(out.trim() || '[]') as any[];
	}

	/** Runs statements (no result) in `database`. */
	async exec(database: string, sql: string): Promise<void> {
		await this.psql(database, sql);
	}

	/** psql over the unix socket (as root: the socket folder is reachable by root and postgres only). Stdout, trimmed. */
	private async psql(database: string, sql: string, timeoutMs = 30_000): Promise<string> {
		const args = [
			'-X',
			'-q',
			'-A',
			'-t',
			'-v',
			'ON_ERROR_STOP=1',
			'-h',
			this.socketDir,
			'-p',
			String(this.port),
			'-U',
			this.user,
			'-d',
			database,
			'-c',
			sql,
		];
		return await new Promise<string>((resolve, reject) => {
			execFile(
				path.join(this.binDir, 'psql'),
				args,
				{ env: this.spawnEnv(), timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 },
				(error, stdout, stderr) => {
					if (error)
						reject(new Error(`e2e: psql -d ${database} failed: ${stderr || error.message}`));
					else resolve(stdout.trim());
				},
			);
		});
	}
}

// ----- Redis ----------------------------------------------------------------------------------------------------

/** One Redis reply: simple string, error (thrown), integer, bulk string (null when nil) or array. */
export type RedisReply = string | number | null | RedisReply[];

/** Parses one RESP reply at `offset`; undefined when `buffer` holds only part of it. */
function parseResp(
	buffer: string,
	offset: number,
): { value: RedisReply | Error; end: number } | undefined {
	const lineEnd = buffer.indexOf('\r\n', offset);
	if (lineEnd < 0) return undefined;
	const type = buffer[offset];
	const line = buffer.slice(offset + 1, lineEnd);
	const next = lineEnd + 2;
	if (type === '+') return { value: line, end: next };
	if (type === '-') return { value: new Error(line), end: next };
	if (type === ':') return { value: Number(line), end: next };
	if (type === '$') {
		const length = Number(line);
		if (length < 0) return { value: null, end: next };
		// Lengths are in bytes; the replies read here are ASCII (keys, counts, INFO).
		if (buffer.length < next + length + 2) return undefined;
		return { value: buffer.slice(next, next + length), end: next + length + 2 };
	}
	if (type === '*') {
		const count = Number(line);
		if (count < 0) return { value: null, end: next };
		const items: RedisReply[] = [];
		let at = next;
		for (let i = 0; i < count; i++) {
			const item = parseResp(buffer, at);
			if (!item) return undefined;
			items.push(item.value instanceof Error ? item.value.message : item.value);
			at = item.end;
		}
		return { value: items, end: at };
	}
	return {
		value: new Error(`unexpected RESP reply: ${buffer.slice(offset, offset + 40)}`),
		end: buffer.length,
	};
}

export interface RedisOptions {
	name?: string;
	port?: number;
	/** Number of databases (one per cluster sharing the server). Default 64. */
	databases?: number;
	startTimeoutMs?: number;
}

export class RedisServer extends LocalServer {
	private nextDatabase = 0;

	private constructor(
		port: number,
		rootDir: string,
		private readonly opts: RedisOptions,
	) {
		super(port, rootDir, 'redis.log');
	}

	/** `redis-server` on a free loopback port, no persistence (no RDB snapshots, no AOF), as a child process. */
	static async start(opts: RedisOptions = {}): Promise<RedisServer> {
		installQueueServices();
		const label = (opts.name ?? 'redis').replace(/[^A-Za-z0-9_-]/g, '-');
		const rootDir = removeAtExit(makeTempDir(os.tmpdir(), `n8n-e2e-redis-${label}-`));
		const server = new RedisServer(opts.port ?? (await freePort()), rootDir, opts);
		try {
			await server.start();
		} catch (error) {
			await server.dispose();
			throw error;
		}
		return server;
	}

	/** A database index of its own for one cluster (QUEUE_BULL_REDIS_DB), 0, 1, 2, … */
	allocateDatabase(): number {
		const databases = this.opts.databases ?? 64;
		if (this.nextDatabase >= databases)
			throw new Error(`e2e: all ${databases} Redis databases are taken`);
		return this.nextDatabase++;
	}

	/** Starts redis-server (again, after stop(): empty, since nothing is persisted) and waits for PING → PONG. */
	async start(): Promise<void> {
		if (this.running) return;
		const args = [
			'--port',
			String(this.port),
			'--bind',
			this.host,
			'--protected-mode',
			'yes',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			this.rootDir,
			'--databases',
			String(this.opts.databases ?? 64),
			'--daemonize',
			'no',
			'--logfile',
			'',
			'--loglevel',
			'notice',
		];
		const ready = async (): Promise<boolean> => (await this.command(['PING'], 0, 2_000)) === 'PONG';
		await this.launch(
			'redis-server',
			'redis-server',
			args,
			{ env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
			ready,
			this.opts.startTimeoutMs ?? 30_000,
		);
	}

	/** One command on a fresh connection (e.g. `['DBSIZE']`, `['KEYS', 'bull:*']`) in database `db`. */
	async command(args: string[], db = 0, timeoutMs = 10_000): Promise<RedisReply> {
		const encode = (parts: string[]): string =>
			`*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
		const commands = db === 0 ? [args] : [['SELECT', String(db)], args];
		return await new Promise<RedisReply>((resolve, reject) => {
			const socket = net.connect({ host: this.host, port: this.port });
			let buffer = '';
			const replies: Array<RedisReply | Error> = [];
			const timer = setTimeout(() => {
				socket.destroy();
				reject(new Error(`e2e: redis ${args[0]} timed out`));
			}, timeoutMs);
			socket.setEncoding('utf8');
			socket.on('connect', () => socket.write(commands.map(encode).join('')));
			socket.on('data', (chunk: string) => {
				buffer += chunk;
				let parsed = parseResp(buffer, 0);
				while (parsed) {
					replies.push(parsed.value);
					buffer = buffer.slice(parsed.end);
					parsed = buffer ? parseResp(buffer, 0) : undefined;
				}
				if (replies.length >= commands.length) {
					clearTimeout(timer);
					socket.end();
					const last = replies[commands.length - 1];
					const failed = replies.find((r) => r instanceof Error);
					if (failed instanceof Error)
						reject(new Error(`e2e: redis ${args[0]}: ${failed.message}`));
					else resolve(last as RedisReply);
				}
			});
			socket.on('error', (error) => {
				clearTimeout(timer);
				reject(error);
			});
		});
	}

	/** SIGTERM by pid (Redis exits at once: nothing to save), SIGKILL after `timeoutMs`. */
	async stop(
		opts: { signal?: NodeJS.Signals; timeoutMs?: number } = {},
	): Promise<ExitInfo | undefined> {
		return await this.stopWith(opts.signal ?? 'SIGTERM', opts.timeoutMs ?? 10_000);
	}

	/** stop() then start(): an empty Redis on the same port (queued jobs are lost, as with a Redis without persistence). */
	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	protected async stopForDispose(): Promise<unknown> {
		return await this.stop();
	}
}
