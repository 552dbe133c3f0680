/**
 * Shrinking a failing simulation to the fewest world events that still fail the same way (the same kind of
 * violation): cut everything after the first failure, close the quiet stretches between events, then drop events
 * (delta debugging: halves, quarters, ... then one at a time) and re-run after each drop.
 */
import type { ViolationKind } from './checker.cjs';
import { DAY, SIM_EPOCH, type Plan, type WorldEvent } from './plan.cjs';
import { simulate, type SimulationConfig, type SimulationResult } from './run.cjs';

export interface ShrinkOptions {
	/** Most re-runs (default 300). */
	maxRuns?: number;
	/** Stop after this long (ms, default 20 minutes). */
	maxMs?: number;
	log?: (line: string) => void;
}

export interface ShrinkResult {
	kind: ViolationKind;
	plan: Plan;
	result: SimulationResult;
	runs: number;
}

/** Longest quiet stretch kept between two events when closing gaps. */
const GAP_MS = 30 * 60_000;

function withEvents(plan: Plan, events: WorldEvent[]): Plan {
	const last = events.reduce(
		(max, e) => Math.max(max, e.at, 'until' in e ? e.until : 0),
		SIM_EPOCH,
	);
	// The run goes on a little after the last event, then has its quiet polls.
	const days = Math.max(1 / 24, (last - SIM_EPOCH) / DAY + 1 / 24);
	return { ...plan, days, events };
}

/** The events with every quiet stretch longer than GAP_MS (after activation) shortened to it. */
function closeGaps(events: WorldEvent[]): WorldEvent[] {
	const out: WorldEvent[] = [];
	let shift = 0;
	let previous = SIM_EPOCH;
	for (const event of events) {
		if (event.at >= SIM_EPOCH) {
			const gap = event.at - previous;
			if (gap > GAP_MS) shift += gap - GAP_MS;
			previous = event.at;
		}
		const moved = {
			...event,
			at: event.at >= SIM_EPOCH ? event.at - shift : event.at,
		} as WorldEvent;
		if ('until' in moved && event.at >= SIM_EPOCH) (moved as { until: number }).until -= shift;
		out.push(moved);
	}
	return out;
}

export async function shrink(
	config: SimulationConfig,
	failing: SimulationResult,
	options: ShrinkOptions = {},
): Promise<ShrinkResult> {
	const first = failing.context?.violation ?? failing.violations[0];
	if (!first) throw new Error('shrink: the simulation did not fail');
	const kind = first.kind;
	const log = options.log ?? (() => {});
	const maxRuns = options.maxRuns ?? 300;
	const deadline = Date.now() + (options.maxMs ?? 20 * 60_000);
	const base: SimulationConfig = {
		...config,
		scope: failing.scope,
		stopAtFirstViolation: true,
		log: undefined,
	};
	let runs = 0;
	let best = { plan: failing.plan, result: failing };

	const attempt = async (plan: Plan): Promise<SimulationResult | undefined> => {
		if (runs >= maxRuns || Date.now() > deadline) return undefined;
		runs++;
		const result = await simulate({ ...base, plan, days: plan.days });
		return result.violations.some((v) => v.kind === kind) ? result : undefined;
	};
	const keep = (plan: Plan, result: SimulationResult) => {
		best = { plan, result };
		log(`  ${plan.events.length} events still fail (${kind}), run ${runs}`);
	};

	// 1. Nothing after the first failure matters.
	const at = first.at;
	let events = failing.plan.events.filter((e) => e.at <= at);
	let plan = withEvents(failing.plan, events);
	let result = await attempt(plan);
	if (result) keep(plan, result);
	else events = failing.plan.events;

	// 2. Quiet stretches closed.
	const closed = closeGaps(best.plan.events);
	result = await attempt((plan = withEvents(best.plan, closed)));
	if (result) keep(plan, result);

	// 3. Delta debugging over the events.
	events = best.plan.events;
	let chunks = 2;
	while (events.length > 1 && runs < maxRuns && Date.now() < deadline) {
		const size = Math.ceil(events.length / chunks);
		let dropped = false;
		for (let start = 0; start < events.length; start += size) {
			const candidate = [...events.slice(0, start), ...events.slice(start + size)];
			result = await attempt((plan = withEvents(best.plan, candidate)));
			if (result) {
				keep(plan, result);
				events = candidate;
				chunks = Math.max(2, chunks - 1);
				dropped = true;
				break;
			}
		}
		if (!dropped) {
			if (size === 1) break;
			chunks = Math.min(events.length, chunks * 2);
		}
	}

	// 4. And the stretches between what is left.
	result = await attempt((plan = withEvents(best.plan, closeGaps(best.plan.events))));
	if (result) keep(plan, result);
	return { kind, plan: best.plan, result: best.result, runs };
}
