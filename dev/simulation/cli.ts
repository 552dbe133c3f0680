/**
 * npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all]
 *                 [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] (modes and events: one, all, or a,b) [--interval 5] [--scope all|drawn]
 *                 [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--journal file] [--dry-run]
 *
 * Runs account-life simulations through n8n's engine (dev/simulation/README.md), prints each report and the totals.
 * `--shrink` shrinks every failing one to the fewest world events that still fail the same way and prints them (with
 * `--out`, writes the shrunk plans as JSON, ready for a regression test). `--jobs N` runs them in N processes side
 * by side, each taking the next simulation when it is free (one long simulation holds up one process, not a share of
 * the list). `--journal file` writes each finished simulation's numbers to the file and, run again with the same file,
 * skips the ones it holds and counts them in the totals: a soak longer than a sitting goes on where it stopped, on the
 * same code only (the journal keeps a digest of the compiled code it began on). `--dry-run` checks the flags and
 * prints what would run. Exit code 1 when any simulation failed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type { Scheduler } from './plan';
import { describeEvent } from './plan';
import { describeRun, formatReport } from './report';
import {
	DEFAULT_BEHAVIOUR,
	simulate,
	type DrawnBehaviour,
	type SimulationConfig,
	type TriggerEvent,
} from './run';
import { shrink } from './shrink';
import type { Summary } from './checker';
import { formatAiReport, simulateAiVisibility } from './aiVisibility';

const SCHEDULERS: Scheduler[] = ['in-memory', 'durable', 'durable-cursors'];
/** AI Visibility Updated has a world of its own (aiVisibility.ts). */
type SoakEvent = TriggerEvent | 'aiVisibilityUpdated';
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
	/** This process is child `index` of `--jobs`, taking simulations from its parent. */
	child?: number;
}

function usage(message: string): never {
	process.stderr.write(
		`${message}\nusage: npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all] [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn] [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--journal file] [--dry-run]\n`,
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
			case '--child':
				args.child = Number(value());
				break;
			default:
				usage(`unknown flag ${flag}`);
		}
	}
	return args;
}

/** What every simulation adds to the totals of a soak. */
interface Totals {
	simulations: number;
	failed: number;
	events: number;
	owed: number;
	emitted: number;
	lost: number;
	late: number;
	duplicated: number;
	outOfScope: number;
	filteredOutEmitted: number;
	movedEmittedAgain: number;
	worstDelay: number;
	polls: number;
	requestsMax: number;
	idleRequestsMax: number;
	stateBytesMax: number;
	/** Seeds of the failed simulations (`seed scheduler event`). */
	failures: string[];
}

function emptyTotals(): Totals {
	return {
		simulations: 0,
		failed: 0,
		events: 0,
		owed: 0,
		emitted: 0,
		lost: 0,
		late: 0,
		duplicated: 0,
		outOfScope: 0,
		filteredOutEmitted: 0,
		movedEmittedAgain: 0,
		worstDelay: 0,
		polls: 0,
		requestsMax: 0,
		idleRequestsMax: 0,
		stateBytesMax: 0,
		failures: [],
	};
}

function addTotals(into: Totals, from: Totals): void {
	for (const key of Object.keys(into) as Array<keyof Totals>) {
		if (key === 'failures') into.failures.push(...from.failures);
		else if (key.endsWith('Max') || key === 'worstDelay')
			into[key] = Math.max(into[key], from[key]);
		else into[key] += from[key];
	}
}

/** One simulation's numbers as totals (`label` names it when it failed). */
function totalsOf(s: Summary, failed: boolean, label: string): Totals {
	return {
		...emptyTotals(),
		simulations: 1,
		failed: failed ? 1 : 0,
		events: s.events,
		owed: s.owed,
		emitted: s.emitted,
		lost: s.lost,
		late: s.late,
		duplicated: s.duplicated,
		outOfScope: s.outOfScope,
		filteredOutEmitted: s.filteredOutEmitted,
		movedEmittedAgain: s.movedEmittedAgain,
		worstDelay: s.worstDelay,
		polls: s.polls,
		requestsMax: s.requestsMax,
		idleRequestsMax: s.idleRequestsMax,
		stateBytesMax: s.stateBytesMax,
		failures: failed ? [label] : [],
	};
}

/** One simulation of a soak. */
interface SoakRun {
	seed: string;
	scheduler: Scheduler;
	event: SoakEvent;
}

/** One simulation per seed × scheduler × event, in that order. */
function runsOf(args: Args): SoakRun[] {
	const runs: SoakRun[] = [];
	for (const seed of args.seeds)
		for (const scheduler of args.modes)
			for (const event of args.events) runs.push({ seed, scheduler, event });
	return runs;
}

const keyOf = (run: SoakRun) => `${run.seed} ${run.scheduler} ${run.event}`;

/** Runs one simulation, prints its report; a failing one is shrunk into `shrunk` with `--shrink`. */
async function runOne(args: Args, run: SoakRun, shrunk: unknown[]): Promise<Totals> {
	const { seed, scheduler, event } = run;
	process.stderr.write(`seed ${seed}, ${scheduler}, ${event}: ${args.days} days\n`);
	if (event === 'aiVisibilityUpdated') {
		const ai = await simulateAiVisibility({
			seed,
			days: args.days,
			intervalMinutes: args.interval,
			scheduler,
		});
		process.stdout.write(`${formatAiReport(ai)}\n`);
		return totalsOf(ai.summary, ai.violations.length > 0, keyOf(run));
	}
	const config: SimulationConfig = {
		seed,
		days: args.days,
		intervalMinutes: args.interval,
		scheduler,
		event,
		scope: args.scope === 'all' ? {} : undefined,
		behaviour: args.behaviour,
		log: (line) => process.stderr.write(`  ${line}\n`),
	};
	const result = await simulate(config);
	process.stdout.write(`${formatReport(result)}\n`);
	const totals = totalsOf(result.summary, result.violations.length > 0, keyOf(run));
	if (result.violations.length === 0 || !args.shrink) return totals;
	process.stderr.write(`shrinking ${describeRun(result)}\n`);
	const small = await shrink(config, result, {
		log: (line) => process.stderr.write(`${line}\n`),
	});
	process.stdout.write(
		`shrunk to ${small.plan.events.length} events (${small.runs} runs), still ${small.kind}:\n`,
	);
	for (const e of small.plan.events) process.stdout.write(`  ${describeEvent(e)}\n`);
	process.stdout.write(`${formatReport(small.result, { violations: 3 })}\n`);
	shrunk.push({
		name: `seed ${seed}, ${scheduler}, ${event}: ${small.kind}`,
		seed,
		scheduler,
		event,
		intervalMinutes: args.interval,
		scope: small.result.scope,
		options: small.result.options,
		behaviour: small.result.behaviour,
		kind: small.kind,
		detail: small.result.context?.violation.detail,
		plan: small.plan,
	});
	return totals;
}

/** What a child of `--jobs` and its parent say to each other. */
type ChildMessage = { type: 'next' } | { type: 'done'; index: number; totals: Totals };
type ParentMessage = { index: number | null };

/** A child of `--jobs`: asks its parent for the next simulation until there is none. */
async function runChild(args: Args, child: number): Promise<void> {
	const send = (message: ChildMessage) => process.send!(message);
	const next = async () =>
		await new Promise<number | null>((resolve) => {
			process.once('message', (message: ParentMessage) => resolve(message.index));
			send({ type: 'next' });
		});
	const runs = runsOf(args);
	const shrunk: unknown[] = [];
	for (let index = await next(); index !== null; index = await next())
		send({ type: 'done', index, totals: await runOne(args, runs[index], shrunk) });
	if (args.out)
		writeFileSync(`${args.out}.part${child}`, `${JSON.stringify(shrunk, null, '\t')}\n`);
	process.disconnect();
}

/** `--jobs N`: N child processes, each taking the next simulation when free; `done` gets each one's numbers. */
async function runJobs(
	args: Args,
	argv: string[],
	todo: number[],
	done: (index: number, totals: Totals) => void,
): Promise<void> {
	const queue = [...todo];
	const children = Math.min(args.jobs, Math.max(queue.length, 1));
	await Promise.all(
		Array.from({ length: children }, async (_, child) => {
			const process_ = spawn(process.execPath, [__filename, ...argv, '--child', String(child)], {
				stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
			});
			let buffered = '';
			process_.stdout!.setEncoding('utf8');
			process_.stdout!.on('data', (chunk: string) => {
				buffered += chunk;
				const lines = buffered.split('\n');
				buffered = lines.pop() ?? '';
				for (const line of lines) process.stdout.write(`${line}\n`);
			});
			process_.on('message', (message: ChildMessage) => {
				if (message.type === 'done') done(message.index, message.totals);
				else process_.send({ index: queue.shift() ?? null } satisfies ParentMessage);
			});
			const code = await new Promise<number | null>((resolve) => process_.on('close', resolve));
			if (code !== 0) throw new Error(`soak child ${child} ended with code ${code}`);
		}),
	);
	if (args.out) {
		const merged: unknown[] = [];
		for (let child = 0; child < children; child++) {
			const file = `${args.out}.part${child}`;
			if (!existsSync(file)) continue;
			merged.push(...(JSON.parse(readFileSync(file, 'utf8')) as unknown[]));
			rmSync(file);
		}
		writeFileSync(args.out, `${JSON.stringify(merged, null, '\t')}\n`);
	}
}

/**
 * A digest of the compiled code this process loaded (the nodes, the fake API, the simulation and the harness it runs
 * the trigger with; not this command line): a journal goes on only where it began, so its totals are one code's.
 */
function codeDigest(): string {
	const build = join(__dirname, '..', '..');
	const hash = createHash('sha256');
	const loaded = Object.keys(require.cache)
		.filter((file) => file.startsWith(`${build}${sep}`) && file !== __filename)
		.map((file) => relative(build, file))
		.sort();
	for (const file of loaded) hash.update(`${file}\0`).update(readFileSync(join(build, file)));
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

/** Reads a journal (or starts one): the numbers of the simulations it holds, by key. */
function openJournal(args: Args, file: string): Map<string, Totals> {
	const header = journalHeader(args);
	const held = new Map<string, Totals>();
	if (!existsSync(file) || readFileSync(file, 'utf8').trim() === '') {
		if (!args.dryRun) writeFileSync(file, `${JSON.stringify(header)}\n`);
		return held;
	}
	const [first, ...lines] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
	const began = JSON.parse(first) as typeof header;
	for (const key of Object.keys(header) as Array<keyof typeof header>) {
		if (JSON.stringify(began[key]) === JSON.stringify(header[key])) continue;
		usage(
			key === 'code'
				? `${file} was begun on other code (digest ${began.code}, this build ${header.code}): start a new journal`
				: `${file} was begun with ${key} ${JSON.stringify(began[key])}, not ${JSON.stringify(header[key])}`,
		);
	}
	for (const line of lines) {
		// A line cut short by a killed run is not a finished simulation.
		try {
			const { key, totals } = JSON.parse(line) as { key: string; totals: Totals };
			held.set(key, totals);
		} catch {
			continue;
		}
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
	if (args.child !== undefined) return await runChild(args, args.child);
	const runs = runsOf(args);
	const held = args.journal ? openJournal(args, args.journal) : new Map<string, Totals>();
	const todo = runs.flatMap((run, index) => (held.has(keyOf(run)) ? [] : [index]));
	const fromJournal = runs.length - todo.length;
	const journalNote = args.journal ? `; ${fromJournal} already in ${args.journal}` : '';
	const totals = emptyTotals();
	for (const run of runs) {
		const kept = held.get(keyOf(run));
		if (kept) addTotals(totals, kept);
	}
	if (args.dryRun) {
		process.stdout.write(
			`${runs.length} simulations of ${args.days} days: seeds ${args.seeds[0]}..${args.seeds[args.seeds.length - 1]}, ${args.modes.join(', ')}; ${args.events.join(', ')}; ${args.jobs} job(s)${journalNote}\n`,
		);
		// What a soak in progress has found so far, from its journal.
		if (fromJournal > 0) process.stdout.write(`${formatTotals(totals)}\n`);
		return;
	}
	const done = (index: number, one: Totals) => {
		addTotals(totals, one);
		if (args.journal)
			appendFileSync(args.journal, `${JSON.stringify({ key: keyOf(runs[index]), totals: one })}\n`);
	};
	if (args.jobs > 1) await runJobs(args, argv, todo, done);
	else {
		const shrunk: unknown[] = [];
		for (const index of todo) done(index, await runOne(args, runs[index], shrunk));
		if (args.out) writeFileSync(args.out, `${JSON.stringify(shrunk, null, '\t')}\n`);
	}
	if (fromJournal > 0)
		process.stdout.write(`${fromJournal} of ${runs.length} simulations from ${args.journal}\n`);
	process.stdout.write(`${formatTotals(totals, performance.now() - started)}\n`);
	process.exitCode = totals.failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
