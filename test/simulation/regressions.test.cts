/**
 * Failing simulations found so far, shrunk to the few world events that still fail (`npm run soak -- ... --shrink
 * --out file.json`), replayed exactly (their plan, scope and API behaviour are stored, not drawn again) through n8n's
 * engine. Each must pass: the checker finds nothing. `found` says what the checker said when the seed was found.
 * Add one by appending an entry of a `--out` file to regressions.json.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { ScopeSetting } from '../../dev/simulation/checker.cjs';
import type { Plan, Scheduler } from '../../dev/simulation/plan.cjs';
import { formatReport } from '../../dev/simulation/report.cjs';
import { simulate, type DrawnBehaviour, type TriggerEvent } from '../../dev/simulation/run.cjs';
import type { TriggerOptions } from '../../dev/simulation/settings.cjs';

interface Regression {
	name: string;
	seed: string;
	scheduler: Scheduler;
	event: TriggerEvent;
	intervalMinutes: number;
	scope: ScopeSetting;
	/** Filters and output; absent: node version 2, Output Raw, no filter. */
	options?: TriggerOptions;
	behaviour: DrawnBehaviour;
	kind: string;
	detail?: string;
	plan: Plan;
}

const REGRESSIONS = JSON.parse(
	readFileSync(join(__dirname, '..', '..', '..', 'test', 'simulation', 'regressions.json'), 'utf8'),
) as Regression[];

describe('simulation regressions (shrunk failing seeds)', { timeout: 10 * 60_000 }, () => {
	for (const r of REGRESSIONS) {
		it(`${r.name} (found: ${r.kind}${r.detail ? `, ${r.detail}` : ''})`, async () => {
			const result = await simulate({
				seed: r.seed,
				days: r.plan.days,
				intervalMinutes: r.intervalMinutes,
				scheduler: r.scheduler,
				event: r.event,
				scope: r.scope,
				options: r.options ?? {},
				behaviour: r.behaviour,
				plan: r.plan,
			});
			assert.equal(result.violations.length, 0, formatReport(result));
		});
	}
});
