/**
 * AI Visibility Updated's account-life simulation (dev/simulation/aiVisibilityRun.cts) through n8n's engine, in each
 * scheduler mode: a week of two seeded worlds (days revised, late, missing, without the brand; domains added, hidden
 * and back, removed; one domain failing, the API failing, restarts, killed polls) must leave the checker nothing to
 * say. Then the checker is checked: a trigger made to repeat, drop or emit a day in progress is caught.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	formatAiReport,
	simulateAiVisibility,
	type AiSimulationConfig,
} from '../../dev/simulation/aiVisibilityRun.cjs';
import type { Scheduler } from '../../dev/simulation/plan.cjs';

const SCHEDULERS: Scheduler[] = ['in-memory', 'durable', 'durable-cursors'];

describe(
	'AI Visibility Updated: a simulated week',
	{ concurrency: true, timeout: 10 * 60_000 },
	() => {
		for (const scheduler of SCHEDULERS)
			for (const seed of ['ai-week-1', 'ai-week-2']) {
				it(`${scheduler} scheduler (seed ${seed})`, async () => {
					const result = await simulateAiVisibility({ seed, days: 7, scheduler });
					assert.equal(result.violations.length, 0, formatAiReport(result));
					assert.ok(result.summary.emitted > 0, 'days were emitted');
					assert.ok(result.summary.idleRequestsMax <= 1);
				});
			}
	},
);

describe(
	'AI Visibility Updated: the checker catches a broken trigger',
	{ concurrency: true },
	() => {
		// Every domain, no filter: a day of each domain is emitted after each midnight.
		const base: AiSimulationConfig = {
			seed: 'ai-week-1',
			days: 3,
			scheduler: 'in-memory',
			settings: { filters: {}, scopeIndex: undefined },
		};
		const kinds = async (tamper: AiSimulationConfig['tamper']) =>
			new Set((await simulateAiVisibility({ ...base, tamper })).violations.map((v) => v.kind));

		it('a day emitted twice: duplicate', async () => {
			assert.ok((await kinds((items) => [...items, ...items.slice(0, 1)])).has('duplicate'));
		});

		it('a poll’s days dropped: late, then lost', async () => {
			let dropped = false;
			const found = await kinds((items) => {
				if (items.length === 0 || dropped) return items;
				dropped = true;
				return [];
			});
			assert.ok(found.has('late') && found.has('lost'), [...found].join());
		});

		it('the day in progress emitted: caught as a day not over', async () => {
			const found = await kinds((items, at) =>
				items.length === 0
					? items
					: [
							...items,
							{ ...items[0], date: new Date(at).toISOString().slice(0, 10) } as IDataObject,
						],
			);
			assert.ok(found.has('unknown'), [...found].join());
		});
	},
);
