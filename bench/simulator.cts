/**
 * npm run bench:simulator -- [--seeds N] [--days D]
 *
 * How long the account-life simulation (dev/simulation) takes, the tool a wide soak runs 1,800 times: seeds 1..N of
 * Keyword Updated and New Alert under the durable scheduler, D simulated days each (defaults 4 and 3), alone, one after
 * another. Prints the median milliseconds a poll (the whole simulation's wall time over its polls: n8n-core's poll
 * context, the fake's HTTP, the checker) and the median per simulated day times 30, beside the figure of the last wide
 * soak (1,200 simulations of 30 days on ee14147: 57 s each, 7 ms a poll).
 */
import { performance } from 'node:perf_hooks';

import { simulate } from '../dev/simulation/run.cjs';

/** The last wide soak's figures (dev/simulation/README.md). */
const BEFORE = { msPer30Days: 57_000, msPerPoll: 7 };

function flag(name: string, fallback: number): number {
	const at = process.argv.indexOf(name);
	const value = at < 0 ? fallback : Number(process.argv[at + 1]);
	if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive integer`);
	return value;
}

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
	const seeds = flag('--seeds', 4);
	const days = flag('--days', 3);
	const perPoll: number[] = [];
	const perDay: number[] = [];
	for (let seed = 1; seed <= seeds; seed++)
		for (const event of ['keywordUpdated', 'newAlert'] as const) {
			const started = performance.now();
			const result = await simulate({
				seed: String(seed),
				days,
				intervalMinutes: 5,
				scheduler: 'durable',
				event,
			});
			const wallMs = performance.now() - started;
			const polls = Math.max(1, result.summary.polls);
			perPoll.push(wallMs / polls);
			perDay.push(wallMs / days);
			process.stdout.write(
				`seed ${seed} ${event}: ${(wallMs / 1000).toFixed(1)} s, ${polls} polls, ${(wallMs / polls).toFixed(2)} ms a poll, ${result.violations.length} violations\n`,
			);
		}
	const msPerPoll = median(perPoll);
	const msPer30Days = median(perDay) * 30;
	process.stdout.write(
		`median: ${msPerPoll.toFixed(2)} ms a poll (before: ${BEFORE.msPerPoll}), ${(msPer30Days / 1000).toFixed(1)} s a 30-day simulation (before: ${BEFORE.msPer30Days / 1000}): ${(BEFORE.msPer30Days / msPer30Days).toFixed(2)}× the last wide soak's speed\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
