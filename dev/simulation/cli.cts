/**
 * npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all]
 *                 [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn]
 *                 [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--journal file] [--dry-run]
 *                 [--trace A..B]
 *
 * Runs account-life simulations through n8n's engine (dev/simulation/README.md), prints each report and the totals.
 * A mode or an event is one name, `all`, or several separated by commas. `--shrink` shrinks every failing one to the
 * fewest world events that still fail the same way and prints them (with `--out`, writes the shrunk plans as JSON,
 * ready for a regression test). `--jobs N` runs them in N processes side by side, each taking the next simulation when
 * it is free (one long simulation holds up one process, not a share of the list). `--journal file` writes each
 * finished simulation's numbers (and shrunk plan) to the file and, run again with the same file, skips the ones it
 * holds and counts them: a soak longer than a sitting goes on where it stopped, on the same code and settings only.
 * `--dry-run` checks the flags and prints what would run. `--trace A..B` prints polls A to B as they run: each HTTP
 * request with its answer's status, and the stored state the poll left (to read why a poll did what it did). Exit
 * code 1 when a simulation failed, 3 when a process of `--jobs` died (what finished is kept in the journal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type { Scheduler } from './plan.cjs';
import { DEFAULT_BEHAVIOUR, type DrawnBehaviour } from './run.cjs';
import {
	addTotals,
	emptyTotals,
	keyOf,
	runOne,
	type Shrunk,
	type SoakEvent,
	type SoakRun,
	type Totals,
} from './soakRun.cjs';

const SCHEDULERS: Scheduler[] = ['in-memory', 'durable', 'durable-cursors'];
const EVENTS: SoakEvent[] = ['newAlert', 'keywordUpdated', 'aiVisibilityUpdated'];

interface Args {
	days: number;
	seeds: string[];
	modes: Scheduler[];
	events: SoakEvent[];
	interval: number;
	shrink: boolean;
	out?: string;
	/** 'all': every project, whatever the seed draws. */
	scope: 'all' | 'drawn';
	behaviour?: DrawnBehaviour;
	/** Child processes running the simulations side by side (default 1). */
	jobs: number;
	/** Where finished simulations are written, and read back to skip them. */
	journal?: string;
	/** Check the flags, print what would run, run nothing. */
	dryRun: boolean;
	/** This process is a child of `--jobs`, taking simulations from its parent. */
	child: boolean;
	/** Polls whose requests and stored state are printed (to stderr). */
	trace?: { from: number; to: number };
}

function usage(message: string): never {
	process.stderr.write(
		`${message}\nusage: npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all] [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn] [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--journal file] [--dry-run] [--trace A..B]\n`,
	);
	process.exit(2);
}

/** `all`, one name, or names separated by commas (`newAlert,keywordUpdated`), in the order of `known`. */
function listOf<T extends string>(flag: string, value: string, known: T[]): T[] {
	if (value === 'all') return known;
	const names = value.split(',');
	for (const name of names)
		if (!(known as string[]).includes(name)) usage(`unknown ${flag} ${name}`);
	return known.filter((name) => names.includes(name));
}

function parseArgs(argv: string[]): Args {
	const args: Args = {
		days: 90,
		seeds: ['1'],
		modes: ['in-memory'],
		events: ['keywordUpdated'],
		interval: 5,
		shrink: false,
		scope: 'drawn',
		jobs: 1,
		dryRun: false,
		child: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => {
			const v = argv[++i];
			if (v === undefined) usage(`${flag} needs a value`);
			return v;
		};
		switch (flag) {
			case '--days':
				args.days = Number(value());
				if (!(args.days > 0)) usage('--days must be a positive number');
				break;
			case '--seed':
				args.seeds = [value()];
				break;
			case '--seeds': {
				const match = /^(\d+)\.\.(\d+)$/.exec(value());
				if (!match) usage('--seeds takes A..B');
				args.seeds = [];
				for (let n = Number(match[1]); n <= Number(match[2]); n++) args.seeds.push(String(n));
				break;
			}
			case '--mode':
				args.modes = listOf('mode', value(), SCHEDULERS);
				break;
			case '--event':
				args.events = listOf('event', value(), EVENTS);
				break;
			case '--interval':
				args.interval = Number(value());
				if (!(args.interval >= 1)) usage('--interval is in minutes, at least 1');
				break;
			case '--shrink':
				args.shrink = true;
				break;
			case '--scope': {
				const v = value();
				if (v !== 'all' && v !== 'drawn') usage('--scope takes all or drawn');
				args.scope = v;
				break;
			}
			case '--behaviour':
				try {
					args.behaviour = { ...DEFAULT_BEHAVIOUR, ...(JSON.parse(value()) as object) };
				} catch {
					usage("--behaviour takes a JSON object of the fake's switches");
				}
				break;
			case '--out':
				args.out = value();
				break;
			case '--jobs':
				args.jobs = Number(value());
				if (!Number.isInteger(args.jobs) || args.jobs < 1) usage('--jobs takes a positive integer');
				break;
			case '--journal':
				args.journal = value();
				break;
			case '--dry-run':
				args.dryRun = true;
				break;
			case '--trace': {
				const match = /^(\d+)\.\.(\d+)$/.exec(value());
				if (!match) usage('--trace takes A..B (poll numbers)');
				args.trace = { from: Number(match[1]), to: Number(match[2]) };
				break;
			}
			case '--child':
				args.child = true;
				break;
			default:
				usage(`unknown flag ${flag}`);
		}
	}
	return args;
}

/** One simulation per seed × scheduler × event, in that order. */
function runsOf(args: Args): SoakRun[] {
	const runs: SoakRun[] = [];
	for (const seed of args.seeds)
		for (const scheduler of args.modes)
			for (const event of args.events) runs.push({ seed, scheduler, event });
	return runs;
}

/** What a finished simulation gives the soak: its numbers and, shrunk with `--shrink`, its failure. */
interface Finished {
	totals: Totals;
	shrunk?: Shrunk;
	/** Its own wall time (ms): with --jobs, simulations overlap; a journal adds them up over its sittings. */
	ms?: number;
}

async function runTimed(args: Args, run: SoakRun): Promise<Finished> {
	const started = performance.now();
	const finished = await runOne(args, run);
	return { ...finished, ms: Math.round(performance.now() - started) };
}

/** What a child of `--jobs` and its parent say to each other. */
type ChildMessage = { type: 'next' } | ({ type: 'done'; index: number } & Finished);
type ParentMessage = { index: number | null };

/** A child of `--jobs`: asks its parent for the next simulation until there is none. */
async function runChild(args: Args): Promise<void> {
	const send = (message: ChildMessage) => process.send!(message);
	const next = async () =>
		await new Promise<number | null>((resolve) => {
			process.once('message', (message: ParentMessage) => resolve(message.index));
			send({ type: 'next' });
		});
	const runs = runsOf(args);
	for (let index = await next(); index !== null; index = await next())
		send({ type: 'done', index, ...(await runTimed(args, runs[index])) });
	process.disconnect();
}

/**
 * `--jobs N`: N child processes, each taking the next simulation when free; `done` gets each one finished. A child that
 * dies stops the others (their simulations in progress are not counted): what went wrong, or undefined.
 */
async function runJobs(
	args: Args,
	argv: string[],
	todo: number[],
	done: (index: number, finished: Finished) => void,
): Promise<string | undefined> {
	const queue = [...todo];
	const children: ChildProcess[] = [];
	let broken: string | undefined;
	const stop = (why: string) => {
		broken ??= why;
		for (const child of children) child.kill();
	};
	await Promise.all(
		Array.from({ length: Math.min(args.jobs, queue.length) }, async (_, n) => {
			const child = spawn(process.execPath, [__filename, ...argv, '--child'], {
				stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
			});
			children.push(child);
			let buffered = '';
			child.stdout!.setEncoding('utf8');
			child.stdout!.on('data', (chunk: string) => {
				buffered += chunk;
				const lines = buffered.split('\n');
				buffered = lines.pop() ?? '';
				for (const line of lines) process.stdout.write(`${line}\n`);
			});
			child.on('message', (message: ChildMessage) => {
				if (message.type === 'done') done(message.index, message);
				else child.send({ index: broken ? null : (queue.shift() ?? null) } satisfies ParentMessage);
			});
			child.on('error', (error) => stop(`process ${n}: ${error.message}`));
			const end = await new Promise<string | undefined>((resolve) =>
				child.on('close', (code, signal) =>
					resolve(code === 0 ? undefined : (signal ?? `code ${code}`)),
				),
			);
			if (end) stop(`process ${n} ended with ${end}`);
		}),
	);
	return broken;
}

/**
 * A digest of the code this process loaded: the compiled modules of the build (the nodes, the fake API, the simulation
 * and the harness it runs the trigger with; not this command line, which only chooses what runs and adds up) and the
 * version of each package they loaded (n8n's engine among them). A journal goes on only where it began, so its totals
 * are one code's.
 */
function codeDigest(): string {
	const build = join(__dirname, '..', '..');
	const hash = createHash('sha256');
	const loaded = Object.keys(require.cache);
	for (const file of loaded
		.filter((path) => path.startsWith(`${build}${sep}`) && path !== __filename)
		.map((path) => relative(build, path))
		.sort())
		hash.update(`${file}\0`).update(readFileSync(join(build, file)));
	const modules = `${sep}node_modules${sep}`;
	const packages = new Set<string>();
	for (const path of loaded) {
		const at = path.lastIndexOf(modules);
		if (at < 0) continue;
		const [scope, name] = path.slice(at + modules.length).split(sep);
		packages.add(
			join(path.slice(0, at + modules.length), scope.startsWith('@') ? join(scope, name) : scope),
		);
	}
	for (const dir of [...packages].sort()) {
		const manifest = join(dir, 'package.json');
		if (!existsSync(manifest)) continue;
		const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>;
		hash.update(`${name}@${version}\0`);
	}
	return hash.digest('hex').slice(0, 16);
}

/** The settings a journal's simulations share; the seeds, modes and events may differ from one run to the next. */
function journalHeader(args: Args) {
	return {
		code: codeDigest(),
		days: args.days,
		interval: args.interval,
		scope: args.scope,
		behaviour: args.behaviour ?? null,
	};
}

/** Reads a journal (or starts one): the simulations it holds, by key. */
function openJournal(args: Args, file: string): Map<string, Finished> {
	const header = journalHeader(args);
	const held = new Map<string, Finished>();
	const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
	if (text.trim() === '') {
		if (!args.dryRun) writeFileSync(file, `${JSON.stringify(header)}\n`);
		return held;
	}
	// A line cut short by a killed run is not a finished simulation; cut, the next one starts on a line of its own.
	const whole = text.slice(0, text.lastIndexOf('\n') + 1);
	if (whole.length < text.length && !args.dryRun) truncateSync(file, Buffer.byteLength(whole));
	const [first, ...lines] = whole.split('\n').filter(Boolean);
	let began: Partial<typeof header> = {};
	try {
		began = JSON.parse(first ?? '') as typeof header;
	} catch {
		usage(`${file} does not begin with a journal's first line: start a new journal`);
	}
	for (const key of Object.keys(header) as Array<keyof typeof header>) {
		if (JSON.stringify(began[key]) === JSON.stringify(header[key])) continue;
		usage(
			key === 'code'
				? `${file} was begun on other code (digest ${began.code}, this build ${header.code}): start a new journal`
				: `${file} was begun with ${key} ${JSON.stringify(began[key])}, not ${JSON.stringify(header[key])}`,
		);
	}
	for (const line of lines) {
		const { key, ...finished } = JSON.parse(line) as { key: string } & Finished;
		held.set(key, finished);
	}
	return held;
}

function formatTotals(t: Totals, wallMs?: number): string {
	const time = wallMs === undefined ? '' : ` (${(wallMs / 60_000).toFixed(1)} minutes)`;
	return [
		`${t.failed} of ${t.simulations} simulations failed${time}`,
		`  events ${t.events} (owed ${t.owed}), emitted ${t.emitted}; lost ${t.lost}, duplicated ${t.duplicated}, out of scope ${t.outOfScope}, late ${t.late}, filtered out but emitted ${t.filteredOutEmitted}, emitted again after a move ${t.movedEmittedAgain}`,
		`  worst delay ${t.worstDelay} polls; ${t.polls} polls; requests per poll max ${t.requestsMax} (idle max ${t.idleRequestsMax}); state max ${t.stateBytesMax} bytes`,
		...(t.failures.length > 0 ? [`  failed: ${t.failures.join('; ')}`] : []),
	].join('\n');
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const args = parseArgs(argv);
	const started = performance.now();
	if (args.child) return await runChild(args);
	const runs = runsOf(args);
	const held = args.journal ? openJournal(args, args.journal) : new Map<string, Finished>();
	const todo = runs.flatMap((run, index) => (held.has(keyOf(run)) ? [] : [index]));
	const fromJournal = runs.length - todo.length;
	const totals = emptyTotals();
	for (const run of runs) {
		const kept = held.get(keyOf(run));
		if (kept) addTotals(totals, kept.totals);
	}
	if (args.dryRun) {
		process.stdout.write(
			`${runs.length} simulations of ${args.days} days: seeds ${args.seeds[0]}..${args.seeds[args.seeds.length - 1]}, ${args.modes.join(', ')}; ${args.events.join(', ')}; ${args.jobs} job(s)${args.journal ? `; ${fromJournal} already in ${args.journal}` : ''}\n`,
		);
		// What a soak in progress has found so far, from its journal, and the time its simulations took.
		if (fromJournal > 0) {
			const ms = runs.reduce((sum, run) => sum + (held.get(keyOf(run))?.ms ?? 0), 0);
			process.stdout.write(
				`${formatTotals(totals)}\n  simulation time ${(ms / 3_600_000).toFixed(1)} hours (each simulation's own, added up)\n`,
			);
		}
		return;
	}
	const finished = new Map<number, Finished>();
	const done = (index: number, one: Finished) => {
		addTotals(totals, one.totals);
		finished.set(index, one);
		if (args.journal)
			appendFileSync(args.journal, `${JSON.stringify({ key: keyOf(runs[index]), ...one })}\n`);
	};
	let broken: string | undefined;
	if (args.jobs > 1 && todo.length > 1) broken = await runJobs(args, argv, todo, done);
	else for (const index of todo) done(index, await runTimed(args, runs[index]));
	if (args.out) {
		// Every shrunk failure of the simulations asked for, in their order: this run's and the journal's.
		const shrunk = runs.flatMap((run, index) => {
			const one = finished.get(index)?.shrunk ?? held.get(keyOf(run))?.shrunk;
			return one ? [one] : [];
		});
		writeFileSync(args.out, `${JSON.stringify(shrunk, null, '\t')}\n`);
	}
	if (fromJournal > 0)
		process.stdout.write(`${fromJournal} of ${runs.length} simulations from ${args.journal}\n`);
	process.stdout.write(`${formatTotals(totals, performance.now() - started)}\n`);
	if (broken) process.stderr.write(`soak stopped: ${broken}\n`);
	process.exitCode = broken ? 3 : totals.failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
