/**
 * npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all]
 *                 [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn]
 *                 [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--dry-run]
 *
 * Runs account-life simulations through n8n's engine (dev/simulation/README.md), prints each report and the totals.
 * `--shrink` shrinks every failing one to the fewest world events that still fail the same way and prints them (with
 * `--out`, writes the shrunk plans as JSON, ready for a regression test). `--jobs N` runs them in N processes side
 * by side. `--dry-run` checks the flags and prints what would run. Exit code 1 when any simulation failed.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

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
	/** Check the flags, print what would run, run nothing. */
	dryRun: boolean;
	/** This process is part `index` of `of` (a child of `--jobs`). */
	part?: { index: number; of: number };
}

function usage(message: string): never {
	process.stderr.write(
		`${message}\nusage: npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all] [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn] [--behaviour '<json>'] [--shrink] [--out file.json] [--jobs N] [--dry-run]\n`,
	);
	process.exit(2);
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
			case '--mode': {
				const v = value();
				if (v === 'all') args.modes = SCHEDULERS;
				else if ((SCHEDULERS as string[]).includes(v)) args.modes = [v as Scheduler];
				else usage(`unknown mode ${v}`);
				break;
			}
			case '--event': {
				const v = value();
				if (v === 'all') args.events = EVENTS;
				else if ((EVENTS as string[]).includes(v)) args.events = [v as SoakEvent];
				else usage(`unknown event ${v}`);
				break;
			}
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
			case '--dry-run':
				args.dryRun = true;
				break;
			case '--part': {
				const match = /^(\d+)\/(\d+)$/.exec(value());
				if (!match) usage('--part takes i/N');
				args.part = { index: Number(match[1]), of: Number(match[2]) };
				break;
			}
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

/** The line a part (a child process of `--jobs`) ends with: its totals. */
const TOTALS_MARK = 'SOAK-TOTALS ';

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

/** One simulation per seed × scheduler × event, in that order; a part runs every `of`-th of them. */
async function runPart(args: Args, part: { index: number; of: number }): Promise<Totals> {
	const totals = emptyTotals();
	const shrunk: unknown[] = [];
	let n = -1;
	for (const seed of args.seeds)
		for (const scheduler of args.modes)
			for (const event of args.events) {
				if (++n % part.of !== part.index) continue;
				if (event === 'aiVisibilityUpdated') {
					process.stderr.write(`seed ${seed}, ${scheduler}, ${event}: ${args.days} days\n`);
					const ai = await simulateAiVisibility({
						seed,
						days: args.days,
						intervalMinutes: args.interval,
						scheduler,
					});
					process.stdout.write(`${formatAiReport(ai)}\n`);
					addTotals(
						totals,
						totalsOf(ai.summary, ai.violations.length > 0, `${seed} ${scheduler} ${event}`),
					);
					continue;
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
				process.stderr.write(`seed ${seed}, ${scheduler}, ${event}: ${args.days} days\n`);
				const result = await simulate(config);
				process.stdout.write(`${formatReport(result)}\n`);
				addTotals(
					totals,
					totalsOf(result.summary, result.violations.length > 0, `${seed} ${scheduler} ${event}`),
				);
				if (result.violations.length === 0 || !args.shrink) continue;
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
			}
	const out = part.of > 1 && args.out ? `${args.out}.part${part.index}` : args.out;
	if (out) writeFileSync(out, `${JSON.stringify(shrunk, null, '\t')}\n`);
	return totals;
}

/** `--jobs N`: N child processes, each a part of the simulations; their totals added up. */
async function runJobs(args: Args, argv: string[]): Promise<Totals> {
	const totals = emptyTotals();
	await Promise.all(
		Array.from({ length: args.jobs }, async (_, index) => {
			const child = spawn(
				process.execPath,
				[__filename, ...argv, '--part', `${index}/${args.jobs}`],
				{ stdio: ['ignore', 'pipe', 'inherit'] },
			);
			let buffered = '';
			child.stdout.setEncoding('utf8');
			child.stdout.on('data', (chunk: string) => {
				buffered += chunk;
				const lines = buffered.split('\n');
				buffered = lines.pop() ?? '';
				for (const line of lines) {
					if (line.startsWith(TOTALS_MARK))
						addTotals(totals, JSON.parse(line.slice(TOTALS_MARK.length)) as Totals);
					else process.stdout.write(`${line}\n`);
				}
			});
			const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
			if (code !== 0 && code !== 1) throw new Error(`soak part ${index} ended with code ${code}`);
		}),
	);
	if (args.out) {
		const merged: unknown[] = [];
		for (let index = 0; index < args.jobs; index++) {
			const file = `${args.out}.part${index}`;
			merged.push(...(JSON.parse(readFileSync(file, 'utf8')) as unknown[]));
			rmSync(file);
		}
		writeFileSync(args.out, `${JSON.stringify(merged, null, '\t')}\n`);
	}
	return totals;
}

function formatTotals(t: Totals, wallMs: number): string {
	return [
		`${t.failed} of ${t.simulations} simulations failed (${(wallMs / 60_000).toFixed(1)} minutes)`,
		`  events ${t.events} (owed ${t.owed}), emitted ${t.emitted}; lost ${t.lost}, duplicated ${t.duplicated}, out of scope ${t.outOfScope}, late ${t.late}, filtered out but emitted ${t.filteredOutEmitted}, emitted again after a move ${t.movedEmittedAgain}`,
		`  worst delay ${t.worstDelay} polls; ${t.polls} polls; requests per poll max ${t.requestsMax} (idle max ${t.idleRequestsMax}); state max ${t.stateBytesMax} bytes`,
		...(t.failures.length > 0 ? [`  failed: ${t.failures.join('; ')}`] : []),
	].join('\n');
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const args = parseArgs(argv);
	const started = performance.now();
	if (args.dryRun) {
		const count = args.seeds.length * args.modes.length * args.events.length;
		process.stdout.write(
			`${count} simulations of ${args.days} days: seeds ${args.seeds[0]}..${args.seeds[args.seeds.length - 1]}, ${args.modes.join(', ')}; ${args.events.join(', ')}; ${args.jobs} job(s)\n`,
		);
		return;
	}
	if (args.part) {
		const totals = await runPart(args, args.part);
		process.stdout.write(`${TOTALS_MARK}${JSON.stringify(totals)}\n`);
		process.exitCode = totals.failed > 0 ? 1 : 0;
		return;
	}
	const totals =
		args.jobs > 1 ? await runJobs(args, argv) : await runPart(args, { index: 0, of: 1 });
	process.stdout.write(`${formatTotals(totals, performance.now() - started)}\n`);
	process.exitCode = totals.failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
