/**
 * One simulation of a soak (cli.cts) and the numbers it adds to the soak's totals: what runs for a seed, a scheduler
 * mode and an event, and what counts as failed. Part of the code a soak's journal is bound to (cli.cts keeps a digest of
 * every module it loaded, itself excepted): a change here starts a new journal.
 */
import type { Summary } from './checker.cjs';
import { formatAiReport, simulateAiVisibility } from './aiVisibilityRun.cjs';
import { describeEvent, type Scheduler } from './plan.cjs';
import { describeRun, formatReport } from './report.cjs';
import { simulate, type DrawnBehaviour, type SimulationConfig, type TriggerEvent } from './run.cjs';
import { shrink } from './shrink.cjs';

/** AI Visibility Updated has a world of its own (aiVisibilityRun.cts). */
export type SoakEvent = TriggerEvent | 'aiVisibilityUpdated';

/** What every simulation of a soak shares. */
export interface SoakSettings {
	days: number;
	/** Minutes between polls. */
	interval: number;
	/** 'all': every project, whatever the seed draws. */
	scope: 'all' | 'drawn';
	behaviour?: DrawnBehaviour;
	/** Shrink a failing simulation to the fewest world events that still fail the same way. */
	shrink: boolean;
	/** Polls whose requests and stored state are printed. */
	trace?: { from: number; to: number };
}

/** One simulation of a soak. */
export interface SoakRun {
	seed: string;
	scheduler: Scheduler;
	event: SoakEvent;
}

export const keyOf = (run: SoakRun) => `${run.seed} ${run.scheduler} ${run.event}`;

/** The checker's numbers a soak adds up over its simulations. */
const SUMMED = [
	'events',
	'owed',
	'emitted',
	'lost',
	'late',
	'duplicated',
	'outOfScope',
	'filteredOutEmitted',
	'movedEmittedAgain',
	'polls',
] as const satisfies ReadonlyArray<keyof Summary>;

/** The checker's numbers a soak keeps the largest of. */
const MAXED = [
	'worstDelay',
	'requestsMax',
	'idleRequestsMax',
	'stateBytesMax',
] as const satisfies ReadonlyArray<keyof Summary>;

/** What every simulation adds to the totals of a soak. */
export type Totals = Record<(typeof SUMMED)[number] | (typeof MAXED)[number], number> & {
	simulations: number;
	failed: number;
	/** Seeds of the failed simulations (`seed scheduler event`). */
	failures: string[];
};

export function emptyTotals(): Totals {
	const totals = { simulations: 0, failed: 0, failures: [] } as unknown as Totals;
	for (const key of [...SUMMED, ...MAXED]) totals[key] = 0;
	return totals;
}

export function addTotals(into: Totals, from: Totals): void {
	into.simulations += from.simulations;
	into.failed += from.failed;
	into.failures.push(...from.failures);
	for (const key of SUMMED) into[key] += from[key];
	for (const key of MAXED) into[key] = Math.max(into[key], from[key]);
}

/** One simulation's numbers as totals (`label` names it when it failed). */
export function totalsOf(s: Summary, failed: boolean, label: string): Totals {
	const totals = emptyTotals();
	totals.simulations = 1;
	totals.failed = failed ? 1 : 0;
	if (failed) totals.failures.push(label);
	for (const key of [...SUMMED, ...MAXED]) totals[key] = s[key];
	return totals;
}

/** A failing simulation shrunk (`--shrink`), as test/simulation/regressions.json holds it. */
export type Shrunk = Record<string, unknown>;

/** Runs one simulation and prints its report; with `shrink`, a failing one is shrunk too. */
export async function runOne(
	settings: SoakSettings,
	run: SoakRun,
): Promise<{ totals: Totals; shrunk?: Shrunk }> {
	const { seed, scheduler, event } = run;
	process.stderr.write(`seed ${seed}, ${scheduler}, ${event}: ${settings.days} days\n`);
	if (event === 'aiVisibilityUpdated') {
		const ai = await simulateAiVisibility({
			seed,
			days: settings.days,
			intervalMinutes: settings.interval,
			scheduler,
		});
		process.stdout.write(`${formatAiReport(ai)}\n`);
		return { totals: totalsOf(ai.summary, ai.violations.length > 0, keyOf(run)) };
	}
	const config: SimulationConfig = {
		seed,
		days: settings.days,
		intervalMinutes: settings.interval,
		scheduler,
		event,
		scope: settings.scope === 'all' ? {} : undefined,
		behaviour: settings.behaviour,
		tracePolls: settings.trace,
		log: (line) => process.stderr.write(`  ${line}\n`),
	};
	const result = await simulate(config);
	process.stdout.write(`${formatReport(result)}\n`);
	const totals = totalsOf(result.summary, result.violations.length > 0, keyOf(run));
	if (result.violations.length === 0 || !settings.shrink) return { totals };
	process.stderr.write(`shrinking ${describeRun(result)}\n`);
	const small = await shrink(config, result, {
		log: (line) => process.stderr.write(`${line}\n`),
	});
	process.stdout.write(
		`shrunk to ${small.plan.events.length} events (${small.runs} runs), still ${small.kind}:\n`,
	);
	for (const e of small.plan.events) process.stdout.write(`  ${describeEvent(e)}\n`);
	process.stdout.write(`${formatReport(small.result, { violations: 3 })}\n`);
	return {
		totals,
		shrunk: {
			name: `seed ${seed}, ${scheduler}, ${event}: ${small.kind}`,
			seed,
			scheduler,
			event,
			intervalMinutes: settings.interval,
			scope: small.result.scope,
			options: small.result.options,
			behaviour: small.result.behaviour,
			kind: small.kind,
			detail: small.result.context?.violation.detail,
			plan: small.plan,
		},
	};
}
