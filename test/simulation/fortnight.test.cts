/**
 * A simulated fortnight of an agency account (dev/simulation) through n8n's engine, per scheduler mode and event: the
 * Keyword.com Trigger polled every 5 simulated minutes as n8n 2.41.1 polls it, the account living its seeded life
 * (projects and groups created, renamed, archived, restored, deleted; keywords added and deleted in bulk; plan crawls
 * between 00:00 and 12:00 UTC; refreshes; alert bursts), the API's weather (latency, 429 and 5xx bursts, lists moving
 * between pages, one project failing for an hour) and n8n's (restarts, killed polls, tight budgets, overlapping polls).
 * The checker must find nothing: each event emitted once, within 2 polls, nothing before activation or out of scope,
 * ranks right, state and requests bounded.
 *
 * Every trigger here watches every project, the scope with the most to do (the soak draws the scope from the seed;
 * scoped triggers are in checker.test.cts and the regressions). The seeds are fixed, not chosen: a failure here is the
 * trigger's (or the simulation's): the simulation stops there and prints the seed, the step and what led to it;
 * `npm run soak -- --days 14 --seed <seed> --mode <mode> --event <event> --scope all --shrink` shrinks it. The six
 * run side by side in this process (part of their time is the trigger's own waiting): about 1–1½ minutes here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Scheduler } from '../../dev/simulation/plan.cjs';
import { formatReport } from '../../dev/simulation/report.cjs';
import { simulate, type TriggerEvent } from '../../dev/simulation/run.cjs';

const SCHEDULERS: Scheduler[] = ['in-memory', 'durable', 'durable-cursors'];
const EVENTS: TriggerEvent[] = ['newAlert', 'keywordUpdated'];

describe(
	'a simulated fortnight through n8n’s engine',
	{ concurrency: true, timeout: 10 * 60_000 },
	() => {
		for (const event of EVENTS)
			for (const scheduler of SCHEDULERS) {
				const seed = `fortnight-${scheduler}-${event}`;
				it(`${event}, ${scheduler} scheduler (seed ${seed})`, async () => {
					const result = await simulate({
						seed,
						days: 14,
						intervalMinutes: 5,
						scheduler,
						event,
						scope: {},
						// The first failure is the report; the rest of a failing fortnight costs time and says little more.
						stopAtFirstViolation: true,
					});
					const report = formatReport(result);
					console.log(report.replace(/^/gm, '# '));
					assert.equal(result.violations.length, 0, report);
				});
			}
	},
);
