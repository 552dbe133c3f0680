/**
 * Child processes of the end-to-end tier (n8n, Postgres, Redis): spawned with their complete output kept in a log,
 * stopped by pid, killed with the test process if it exits first, measured (RSS). Shared by RealN8n, QueueN8n and the
 * services of the queue-mode tier. Node built-ins only.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { waitUntil } from './waits.cjs';

/** Every live child of this file's spawnLogged(), killed (with its process group when detached) at exit. */
const liveChildren = new Set<ChildProcess>();
/** Temp folders removed at exit when their owner could not dispose (not with KEYWORD_COM_E2E_KEEP=1). */
const exitTempDirs = new Set<string>();
let exitHookInstalled = false;

/** Signals `child`'s process group (it was spawned detached), or the child alone when it has no group. Never throws. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
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

/** Signals one process by pid. False when it is gone. */
export function signalPid(pid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(pid, signal);
		return true;
	} catch {
		return false;
	}
}

export function keepTempFolders(): boolean {
	return process.env.KEYWORD_COM_E2E_KEEP === '1';
}

function killEverything(): void {
	for (const child of liveChildren) killGroup(child, 'SIGKILL');
	if (keepTempFolders()) return;
	for (const dir of exitTempDirs) {
		try {
			fs.rmSync(dir, { recursive: true, force: true });
		} catch {
			// best effort
		}
	}
}

/** Installs (once) the hook that SIGKILLs every live child when the test process exits or is interrupted. */
export function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on('exit', killEverything);
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		const handler = (): void => {
			killEverything();
			process.removeListener(signal, handler);
			process.kill(process.pid, signal);
		};
		process.on(signal, handler);
	}
}

/** Registers a temp folder to remove if the test process exits before its owner removed it; returns it. */
export function removeAtExit(dir: string): string {
	installExitHook();
	exitTempDirs.add(dir);
	return dir;
}

/** Removes a temp folder now (unless KEYWORD_COM_E2E_KEEP=1) and forgets it. */
export function removeTempDir(dir: string): void {
	exitTempDirs.delete(dir);
	if (keepTempFolders()) return;
	fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * The ports freePort() chooses from: below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range).
 * The kernel hands ports of that range to every `listen(0)` and to the local end of every outgoing connection, so a
 * port of it that is free now may be taken before the process it was chosen for binds it (a queue-mode cluster
 * chooses its ports, then runs the n8n CLI for half a minute before its main binds its broker port). Below the range
 * only a process told the port uses it.
 */
function portRange(): { low: number; high: number } {
	try {
		const [ephemeralLow] = fs
			.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(ephemeralLow) && ephemeralLow > 12_000)
			return { low: 10_000, high: ephemeralLow - 1 };
	} catch {
		// not Linux: fall back to 20000-29999 (macOS's ephemeral range starts at 49152)
	}
	return { low: 20_000, high: 29_999 };
}

const PORT_RANGE = portRange();

/** Ports this process has handed out: never twice, though one was not bound yet when the next was chosen. */
const handedOut = new Set<number>();

async function canListen(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * A loopback port nothing listens on and that nothing will take unasked (see portRange), not handed out before by
 * this process. The search starts at a random port, so concurrent test processes rarely meet.
 */
export async function freePort(): Promise<number> {
	const { low, high } = PORT_RANGE;
	const size = high - low + 1;
	const start = randomInt(size);
	for (let step = 0; step < size; step++) {
		const port = low + ((start + step) % size);
		if (handedOut.has(port)) continue;
		handedOut.add(port);
		if (await canListen(port)) return port;
	}
	throw new Error(`e2e: no free port in ${low}-${high}`);
}

/** `count` free loopback ports, all different (and different from `avoid`). */
export async function freePorts(count: number, avoid: number[] = []): Promise<number[]> {
	for (const port of avoid) handedOut.add(port);
	const ports: number[] = [];
	while (ports.length < count) ports.push(await freePort());
	return ports;
}

/** A process's complete output, in memory and in a file (appended, so it survives the process and a restart). */
export class LogSink {
	private readonly chunks: string[] = [];

	/** When each chunk arrived (ms since the epoch): n8n's text log has no timestamps. */
	private readonly arrivals: number[] = [];

	constructor(readonly file: string) {}

	append(text: string): void {
		this.chunks.push(text);
		this.arrivals.push(Date.now());
		try {
			fs.appendFileSync(this.file, text);
		} catch {
			// the temp folder may be gone after dispose()
		}
	}

	text(): string {
		return this.chunks.join('');
	}

	tail(lines = 60): string {
		return this.text().split('\n').slice(-lines).join('\n');
	}

	/** Every line with the time it arrived (that of the chunk that ended it). */
	timedLines(): Array<{ at: number; line: string }> {
		const out: Array<{ at: number; line: string }> = [];
		let partial = '';
		this.chunks.forEach((chunk, i) => {
			const lines = (partial + chunk).split('\n');
			partial = lines.pop() ?? '';
			for (const line of lines) out.push({ at: this.arrivals[i], line });
		});
		if (partial) out.push({ at: this.arrivals[this.arrivals.length - 1], line: partial });
		return out;
	}
}

export interface ExitInfo {
	code: number | null;
	signal: NodeJS.Signals | null;
}

/**
 * A long-running child (n8n start/worker, Postgres, Redis): its pid, whether it runs, its exit, stop by pid.
 * `exited` resolves when the process closed (never rejects).
 */
export class ManagedProcess {
	exit: ExitInfo | undefined;
	readonly exited: Promise<ExitInfo>;
	readonly startedAt = Date.now();

	constructor(
		readonly label: string,
		readonly child: ChildProcess,
		readonly log: LogSink,
	) {
		this.exited = new Promise<ExitInfo>((resolve) => {
			child.once('close', (code, signal) => {
				this.exit = { code, signal };
				log.append(`\n===== ${new Date().toISOString()} ${label} exited (${code ?? signal})\n`);
				resolve(this.exit);
			});
			child.once('error', (error) => {
				log.append(`\n===== ${label}: could not spawn: ${error.message}\n`);
				if (child.pid === undefined) {
					this.exit = { code: null, signal: null };
					resolve(this.exit);
				}
			});
		});
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	get running(): boolean {
		return (
			this.exit === undefined && this.child.exitCode === null && this.child.signalCode === null
		);
	}

	/** Sends `signal` to the process itself (by pid); SIGKILL goes to its whole group (task runners, backends). */
	kill(signal: NodeJS.Signals): void {
		if (!this.running || this.pid === undefined) return;
		if (signal === 'SIGKILL') killGroup(this.child, signal);
		else signalPid(this.pid, signal);
	}

	/**
	 * Sends `signal` (default SIGTERM) by pid and waits for the exit; SIGKILL to the whole group after `timeoutMs`.
	 * Whatever the process left in its group is killed once it is gone. Safe to call when it has exited.
	 */
	async stop(opts: { signal?: NodeJS.Signals; timeoutMs?: number } = {}): Promise<ExitInfo> {
		if (this.running) {
			this.kill(opts.signal ?? 'SIGTERM');
			const timer = setTimeout(() => killGroup(this.child, 'SIGKILL'), opts.timeoutMs ?? 20_000);
			await this.exited;
			clearTimeout(timer);
		}
		const exit = await this.exited;
		killGroup(this.child, 'SIGKILL'); // strays of its group, if any
		return exit;
	}
}

export interface SpawnLoggedOptions extends Pick<SpawnOptions, 'cwd' | 'env' | 'uid' | 'gid'> {
	log: LogSink;
	/** Written to the log before the process starts (a line of its own). */
	header: string;
	/** Own process group (default true): a group SIGKILL reaches what the process spawned. */
	detached?: boolean;
}

/** Spawns `bin args`, appends everything it prints to `log`, and kills it (group) should the test process exit first. */
export function spawnLogged(bin: string, args: string[], opts: SpawnLoggedOptions): ChildProcess {
	installExitHook();
	opts.log.append(`\n===== ${new Date().toISOString()} ${opts.header}\n`);
	const child = spawn(bin, args, {
		cwd: opts.cwd,
		env: opts.env,
		uid: opts.uid,
		gid: opts.gid,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: opts.detached ?? true,
	});
	liveChildren.add(child);
	child.once('exit', () => liveChildren.delete(child));
	child.once('error', () => liveChildren.delete(child));
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => opts.log.append(chunk));
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => opts.log.append(chunk));
	return child;
}

/**
 * Polls `url` until it answers 200, the process exits (rejects), or `timeoutMs` passes (rejects). Errors say which.
 */
export async function waitForHttpOk(
	url: string,
	proc: ManagedProcess,
	timeoutMs: number,
): Promise<void> {
	await waitUntil(
		`${proc.label} answering 200 at ${url}`,
		async () => {
			if (!proc.running)
				throw new Error(
					`e2e: ${proc.label} exited (${proc.exit?.code ?? proc.exit?.signal}) before ${url} answered`,
				);
			try {
				const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
				await res.arrayBuffer();
				return res.status === 200;
			} catch {
				return false; // not listening yet
			}
		},
		{ timeoutMs, everyMs: 250 },
	);
}

// ----- memory ---------------------------------------------------------------------------------------------------

export interface ProcessMemory {
	pid: number;
	/** Resident set of the process itself, MB. */
	rssMb: number;
	/** Resident set of the process and all its descendants (n8n: with its task runner; Postgres: with its backends), MB. */
	treeRssMb: number;
	/** The pids of the process and its descendants. */
	treePids: number[];
}

function rssKb(pid: number): number {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
}

function parentOf(pid: number): number | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return undefined;
	}
}

/** RSS of a process and of its descendants, read from /proc (Linux). Undefined when the process is gone. */
export function processMemory(pid: number | undefined): ProcessMemory | undefined {
	if (pid === undefined) return undefined;
	const own = rssKb(pid);
	if (own === 0) return undefined;
	const children = new Map<number, number[]>();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const parent = parentOf(Number(entry));
		if (parent === undefined) continue;
		children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
	}
	const treePids: number[] = [];
	const queue = [pid];
	while (queue.length > 0) {
		const next = queue.shift() as number;
		treePids.push(next);
		queue.push(...(children.get(next) ?? []));
	}
	const mb = (kb: number): number => Math.round(kb / 102.4) / 10;
	return {
		pid,
		rssMb: mb(own),
		treeRssMb: mb(treePids.reduce((sum, p) => sum + (p === pid ? own : rssKb(p)), 0)),
		treePids,
	};
}

/** `mkdtemp` under `parent` with a label (safe characters only). */
export function makeTempDir(parent: string, prefix: string): string {
	fs.mkdirSync(parent, { recursive: true });
	return fs.mkdtempSync(path.join(parent, prefix.replace(/[^A-Za-z0-9_.-]/g, '-')));
}
