/**
 * npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all]
 *                 [--event newAlert|keywordUpdated|all] [--interval 5] [--scope all|drawn]
 *                 [--behaviour '<json>'] [--shrink] [--out file.json]
 *
 * Runs account-life simulations through n8n's engine (dev/simulation/README.md) and prints each report. `--shrink`
 * shrinks every failing one to the fewest world events that still fail the same way and prints them (with `--out`,
 * writes the shrunk plans as JSON, ready for a regression test). Exit code 1 when any simulation failed.
 */
import { writeFileSync } from 'node:fs';

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

const SCHEDULERS: Scheduler[] = ['in-memory', 'durable', 'durable-cursors'];
const EVENTS: TriggerEvent[] = ['newAlert', 'keywordUpdated'];

interface Args {
	days: number;
	seeds: string[];
	modes: Scheduler[];
	events: TriggerEvent[];
	interval: number;
	shrink: boolean;
	out?: string;
	/** 'all': every project, whatever the seed draws. */
	scope: 'all' | 'drawn';
	behaviour?: DrawnBehaviour;
}

function usage(message: string): never {
	process.stderr.write(
		`${message}\nusage: npm run soak -- [--days 90] [--seed N | --seeds A..B] [--mode in-memory|durable|durable-cursors|all] [--event newAlert|keywordUpdated|all] [--interval 5] [--scope all|drawn] [--behaviour '<json>'] [--shrink] [--out file.json]\n`,
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
				else if ((EVENTS as string[]).includes(v)) args.events = [v as TriggerEvent];
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
			default:
				usage(`unknown flag ${flag}`);
		}
	}
	return args;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	let failed = 0;
	const shrunk: unknown[] = [];
	for (const seed of args.seeds)
		for (const scheduler of args.modes)
			for (const event of args.events) {
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
				if (result.violations.length === 0) continue;
				failed++;
				if (!args.shrink) continue;
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
					behaviour: small.result.behaviour,
					kind: small.kind,
					detail: small.result.context?.violation.detail,
					plan: small.plan,
				});
			}
	if (args.out) writeFileSync(args.out, `${JSON.stringify(shrunk, null, '\t')}\n`);
	process.stdout.write(
		`${failed} of ${args.seeds.length * args.modes.length * args.events.length} simulations failed\n`,
	);
	process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
