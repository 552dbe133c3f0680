/** The report of a simulation: one line of numbers, and for a failure the seed, the step and what led to it. */
import type { ScopeSetting } from './checker.cjs';
import { describeBehaviour, type SimulationResult } from './run.cjs';
import { describeOptions } from './settings.cjs';

export function describeScope(scope: ScopeSetting): string {
	if (!scope.project) return 'every project';
	if (scope.group) return `group "${scope.group}" of "${scope.project}"`;
	return `project "${scope.project}"${scope.includeGroups === false ? ' without its groups' : ' with its groups'}`;
}

export function describeRun(result: SimulationResult): string {
	const c = result.config;
	const big = c.bigProject ? `, a project of ${c.bigProject} keywords` : '';
	return `seed ${c.seed}, ${c.days} days, every ${c.intervalMinutes ?? 5} min, ${c.scheduler}, ${c.event}, ${describeScope(result.scope)}, ${describeOptions(result.options)}${big}; API: ${describeBehaviour(result.behaviour)}`;
}

export function formatReport(
	result: SimulationResult,
	options: { violations?: number } = {},
): string {
	const s = result.summary;
	const lines: string[] = [];
	const verdict = result.violations.length === 0 ? 'PASS' : 'FAIL';
	lines.push(`${verdict} ${describeRun(result)}`);
	lines.push(
		`  events ${s.events} (owed ${s.owed}), emitted ${s.emitted}, lost ${s.lost}, late ${s.late}, duplicated ${s.duplicated}, ` +
			`out of scope ${s.outOfScope}, filtered out but emitted ${s.filteredOutEmitted}, before activation ${s.beforeActivation}, ` +
			`unknown ${s.unknown}, rank errors ${s.rankErrors}, released ${s.released}, emitted again after a move ${s.movedEmittedAgain}`,
	);
	lines.push(
		`  worst delay ${s.worstDelay} polls; ${s.polls} polls, requests per poll max ${s.requestsMax} (p95 ${s.requestsP95}, idle max ${s.idleRequestsMax}, at the cap ${s.pollsAtCap}); ` +
			`state max ${s.stateBytesMax} bytes; slowest poll ${s.wallMsMax} ms, ${s.slowPolls} over 300 ms, ${(s.wallMsTotal / 1000).toFixed(1)} s in polls; ${result.eventsApplied} world events applied ` +
			`(${result.eventsSkipped} did nothing); ${(result.wallMs / 1000).toFixed(1)} s`,
	);
	lines.push(
		`  polls: ${Object.entries(result.pollKinds)
			.map(([k, n]) => `${k} ${n}`)
			.join(', ')}`,
	);
	if (result.violations.length > 0) {
		const byKind = new Map<string, number>();
		for (const v of result.violations) byKind.set(v.kind, (byKind.get(v.kind) ?? 0) + 1);
		lines.push(`  violations: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
		for (const v of result.violations.slice(0, options.violations ?? 8))
			lines.push(`    [${v.kind}] poll ${v.poll} at ${new Date(v.at).toISOString()}: ${v.detail}`);
		const context = result.context;
		if (context) {
			lines.push(
				`  first failure: seed ${c(result)}, poll ${context.violation.poll} at ${new Date(context.violation.at).toISOString()}`,
			);
			lines.push('  world events before it:');
			for (const e of context.events) lines.push(`    ${e}`);
			lines.push('  polls before it:');
			for (const p of context.polls)
				lines.push(
					`    #${p.index} ${new Date(p.at).toISOString().slice(5, 19)} ${p.label}: ${p.items} items, ${p.requests} requests, ${p.wallMs} ms${p.error ? `, error: ${p.error}` : ''}`,
				);
		}
	}
	return lines.join('\n');
}

function c(result: SimulationResult): string {
	return result.config.seed;
}
