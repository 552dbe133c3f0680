/**
 * Unit tests of polling/budget.ts: the poll budget, and the time kept to shape what is in hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	DEFAULT_POLL_BUDGET_MS,
	MAX_POLL_BUDGET_MS,
	PollBudget,
	hardDeadlineMs,
	mayHaveBeenAbandoned,
	pollBudgetMs,
	timeoutBehind,
} from '../../nodes/KeywordComTrigger/polling/budget';

describe('poll budget', () => {
	it("n8n's budget where n8n gives one, capped below a minute; a default where it does not", () => {
		assert.equal(pollBudgetMs(36_000), 36_000);
		assert.equal(pollBudgetMs(2_500), 2_500);
		assert.equal(
			pollBudgetMs(300_000),
			MAX_POLL_BUDGET_MS,
			"n8n's in-memory 5 minutes would overlap the next poll",
		);
		assert.equal(pollBudgetMs(undefined), DEFAULT_POLL_BUDGET_MS);
		assert.ok(DEFAULT_POLL_BUDGET_MS < 45_000 && MAX_POLL_BUDGET_MS < 60_000);
	});
	it('starts a request only when one as slow as the slowest so far still fits', async () => {
		let now = 0;
		const budget = new PollBudget(2_500, () => now);
		assert.ok(budget.mayStart(), 'the first request');
		await budget.timed(async () => {
			now += 1_000;
		});
		assert.ok(budget.mayStart(), '1.5 s left of 2.5 s fits another 1 s request (with its margin)');
		await budget.timed(async () => {
			now += 1_000;
		});
		assert.equal(budget.mayStart(), false, '0.5 s left does not fit a third');
		const roomy = new PollBudget(36_000, () => now);
		assert.ok(roomy.mayStart());
		assert.equal(roomy.deadline, now + 36_000, 'requests may take the whole budget');
		assert.equal(roomy.hardDeadline, now + 36_000 + 5_000 - 250, 'handing over is kept free');
	});
});

describe("budget: the time to shape what is in hand, n8n's timeout behind its budget", () => {
	it('the time left for requests shrinks with the items read and not yet shaped', () => {
		const now = 0;
		const budget = new PollBudget(36_000, () => now);
		const empty = budget.deadline;
		budget.itemsInHand = 30_000;
		assert.ok(
			empty - budget.deadline >= 30_000 * 0.05,
			'at least 0.05 ms an item kept for shaping',
		);
	});

	it('shaping may run past the budget up to a hard deadline well before n8n abandons the poll', () => {
		for (const fromN8n of [2_500, 5_000, 36_000]) {
			const budgetMs = pollBudgetMs(fromN8n);
			const hard = hardDeadlineMs(fromN8n, budgetMs);
			assert.ok(hard > budgetMs, `${fromN8n}: past the budget`);
			assert.ok(!mayHaveBeenAbandoned(fromN8n, hard), `${fromN8n}: not abandoned there`);
			assert.ok(hard < timeoutBehind(fromN8n), `${fromN8n}: before the timeout`);
		}
	});

	it('a poll with no request timed yet starts one with as little as 0.3 s left; what the last poll measured sizes its first batch', () => {
		let now = 0;
		const fresh = new PollBudget(550, () => now);
		assert.ok(fresh.mayStart(), 'an untimed poll tries');
		const measured = new PollBudget(36_000, () => now, undefined, {
			requestMs: 1_000,
			pageWorkMs: 40,
		});
		// Each page's own work, as the last poll measured it.
		assert.equal(measured.affordable(1_000), Math.floor((36_000 - 1_000) / 40));
		now = 35_000;
		assert.equal(measured.affordable(100), 1, 'the last poll only sizes: one request still goes');
	});
});
