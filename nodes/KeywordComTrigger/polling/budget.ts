/**
 * How long one poll may run. n8n (2.37+, durable scheduler) abandons a poll that runs past its timeout and keeps
 * nothing of it; n8n 2.41 tells a poll its budget (`getPollBudgetMs()`, a margin under that timeout). A poll here
 * stops starting requests when the next ones could not be answered within the budget, keeps time to shape what it
 * has read, and keeps what it has read.
 *
 * Three moments, from the poll's start:
 * - the **budget**: requests end by it (less the time needed to shape the items in hand);
 * - the **hard deadline**, between the budget and n8n's timeout: shaping stops there, and what is not shaped yet is
 *   left to the next poll (a poll never throws away work it can keep);
 * - n8n's **timeout**: a poll still running then may have been abandoned, and keeps nothing.
 */

/** The budget where n8n does not tell one (older n8n): well inside the durable scheduler's default 45 s timeout. */
export const DEFAULT_POLL_BUDGET_MS = 30_000;

/**
 * Never more than this, whatever n8n allows: without a timeout (n8n's in-memory scheduler says 5 minutes) a poll
 * running past the next minute's poll would overlap it (see pollLock.ts).
 */
export const MAX_POLL_BUDGET_MS = 40_000;

/**
 * Kept free before the hard deadline: handing the items to n8n. Not taken from the requests' time: shaping goes on
 * past the budget up to the hard deadline, and a short budget (2.5 s at a 5 s timeout) needs all of it for a second
 * round of requests at 1 s each, without which a poll under the durable scheduler keeps nothing.
 */
export const BUDGET_RESERVE_MS = 250;

/**
 * What shaping one item costs at most (ms): its record shaped for the Output choice and searched for the token.
 * Measured on a 2-core machine at 0.018–0.034 ms for a keyword list's record; counted three to five times over.
 */
export const ITEM_COST_MS = 0.1;

/**
 * What one page costs this machine once it is in (ms): its body parsed (about 6 ms for 250 keywords, measured on a
 * 2-core machine), read, and its records shaped (about 7 ms for 250). A batch of pages all answered at once is worked
 * through one after another; a busier machine shows a larger cost, measured in each poll (PollBudget.timed).
 */
export const PAGE_WORK_MS = 15;

/**
 * A batch of requests starts only when this many times the slowest request so far still fits. Low on purpose: n8n
 * keeps a poll's progress only when it emits (durable scheduler without durable cursors), so a poll that spent its
 * budget on `groups/active` alone would start from scratch every time.
 */
export const EXPECTED_TIME_FACTOR = 1.2;

/** Requests started within this many ms of each other are one batch (PollBudget.timed). */
const BATCH_SPREAD_MS = 5;

/** Below this much time left, no request starts (the transport's own floor, see MIN_REQUEST_TIME_MS). */
const MIN_START_MS = 250;

/** Requests in flight at once, across every list a poll reads, when a poll needs more than the usual few. */
export const MAX_IN_FLIGHT = 16;

/** The budget of this poll: n8n's where it says (capped), the default where it does not. */
export function pollBudgetMs(fromN8n: number | undefined): number {
	const budget = isBudget(fromN8n) ? fromN8n : DEFAULT_POLL_BUDGET_MS;
	return Math.min(budget, MAX_POLL_BUDGET_MS);
}

function isBudget(value: number | undefined): value is number {
	return value !== undefined && Number.isFinite(value) && value > 0;
}

/**
 * n8n's poll timeout behind the budget it told: n8n 2.41 keeps a margin of 20 % of the timeout, at least 5 s and at
 * most half (`trigger-execution-context.factory.js`): 36 s → 45 s, 5 s → 10 s, 2.5 s → 5 s.
 */
export function timeoutBehind(budgetMs: number): number {
	if (budgetMs >= 20_000) return budgetMs / 0.8;
	if (budgetMs >= 5_000) return budgetMs + 5_000;
	return budgetMs * 2;
}

/** Time kept clear of n8n's timeout: a poll this close to it may already be abandoned. */
function abandonMarginMs(timeoutMs: number, budgetMs: number): number {
	return Math.min(1_000, (timeoutMs - budgetMs) / 4);
}

/**
 * Whether n8n may have abandoned this poll: it told a budget and the poll ran to its timeout. n8n does not cancel an
 * abandoned poll, and without durable cursors it keeps the workflow's static data in memory, so a late poll that
 * wrote its state there would move the cursor past items n8n threw away. Such a poll keeps nothing and emits nothing
 * (the next poll reads the same again). Requests end at the budget and shaping at the hard deadline, so only a
 * stalled machine gets here.
 */
export function mayHaveBeenAbandoned(fromN8n: number | undefined, elapsedMs: number): boolean {
	if (!isBudget(fromN8n)) return false;
	const timeout = timeoutBehind(fromN8n);
	return elapsedMs > timeout - abandonMarginMs(timeout, fromN8n);
}

/** Milliseconds after the start by which a poll's work must be done (see the top of this file). */
export function hardDeadlineMs(fromN8n: number | undefined, budgetMs: number): number {
	if (!isBudget(fromN8n)) return budgetMs + 5_000;
	const timeout = timeoutBehind(fromN8n);
	const latest = timeout - 2 * abandonMarginMs(timeout, fromN8n);
	return Math.max(budgetMs, Math.min(latest, budgetMs + 10_000));
}

/** What a poll measured of the API and of this machine, kept for the next poll (with the state, storedState.ts). */
export interface Measured {
	/** The slowest request, ms. */
	requestMs: number;
	/** What a page cost once in, ms (0: not measured). */
	pageWorkMs: number;
}

function positive(value: number | undefined): number {
	return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

export class PollBudget {
	private readonly started: number;

	private slowest = 0;

	/** Items read and not shaped yet: their shaping is kept out of the time left for requests. */
	itemsInHand = 0;

	/**
	 * @param totalMs the budget
	 * @param now the clock
	 * @param hardMs the hard deadline, from the start (default: the budget plus 5 s)
	 * @param lastPoll what the last poll measured (so the first requests are planned as well as the later ones)
	 * @param startedAt when the poll started (default: now); n8n's timeout runs from there, not from this budget
	 */
	constructor(
		readonly totalMs: number,
		private readonly now: () => number = Date.now,
		readonly hardMs: number = totalMs + 5_000,
		lastPoll?: Measured,
		startedAt?: number,
	) {
		this.started = startedAt ?? now();
		this.hint = positive(lastPoll?.requestMs);
		this.pageWorkHint = positive(lastPoll?.pageWorkMs);
	}

	/** What a request is expected to take before one was timed in this poll (from the last poll). */
	private readonly hint: number;

	/** The slowest request of this poll (else the one expected from the last poll), in ms; 0 when none. */
	get slowestMs(): number {
		return this.slowest || this.hint;
	}

	/** What this poll measured (else what the last one did), for the next one. */
	measured(): Measured {
		return { requestMs: this.slowestMs, pageWorkMs: this.pageWork || this.pageWorkHint };
	}

	/** Time (ms since the epoch) every request must be over by: the budget, less the time to shape what is in hand. */
	get deadline(): number {
		return this.started + this.totalMs - this.itemsInHand * ITEM_COST_MS;
	}

	/** Time (ms since the epoch) the poll's work must be over by (shaping stops here). */
	get hardDeadline(): number {
		return this.started + Math.max(this.totalMs, this.hardMs) - BUDGET_RESERVE_MS;
	}

	/** Whether the poll's work must stop now (what is not shaped is left to the next poll). */
	pastHardDeadline(): boolean {
		return this.now() >= this.hardDeadline;
	}

	elapsedMs(): number {
		return this.now() - this.started;
	}

	remainingMs(): number {
		return this.deadline - this.now();
	}

	/** Remembers how long a request took (the next ones are assumed to take as long as the slowest so far). */
	observe(durationMs: number): void {
		this.slowest = Math.max(this.slowest, durationMs);
	}

	private expectedMs(): number {
		return Math.max(MIN_START_MS, this.slowest * EXPECTED_TIME_FACTOR);
	}

	/**
	 * Whether a batch of requests started now can be expected to be answered within the budget. Before any request
	 * of this poll was timed, one starts whenever there is time for a request at all (it is cut at the budget anyway):
	 * what the last poll saw only sizes the batches, it never stops a poll from trying.
	 */
	mayStart(): boolean {
		return this.remainingMs() > this.expectedMs();
	}

	/** What one page costs this machine once it is in (ms): PAGE_WORK_MS, or more as measured in this poll. */
	get pageWorkMs(): number {
		return Math.max(PAGE_WORK_MS, this.pageWork || this.pageWorkHint);
	}

	/**
	 * Of `wanted` pages requested together now, how many can be answered and worked through within the budget: the
	 * wait (with its margin, EXPECTED_TIME_FACTOR) must fit, and so must the wait plus each page's own work. 0 when not
	 * even one.
	 */
	affordable(wanted: number): number {
		const remaining = this.remainingMs();
		if (remaining <= this.expectedMs()) return 0;
		// Nothing timed in this poll yet: what the last poll saw sizes the batch, but at least one request goes.
		if (this.slowestMs === 0) return wanted;
		const forWork = Math.floor((remaining - this.slowestMs) / this.pageWorkMs);
		return Math.max(this.slowest === 0 ? 1 : 0, Math.min(wanted, forWork));
	}

	/** Batches of `size` requests, one after another, that still fit (Infinity before any request was timed). */
	roundsLeft(size = 1): number {
		const request = this.slowestMs * EXPECTED_TIME_FACTOR;
		if (request === 0) return Number.POSITIVE_INFINITY;
		const round = Math.max(MIN_START_MS, request, this.slowestMs + size * this.pageWorkMs);
		return Math.max(0, Math.floor(this.remainingMs() / round));
	}

	/**
	 * Requests to send at once for `pages` pages still to read: `usual`, or more (up to MAX_IN_FLIGHT) when the batches
	 * that still fit in the budget could not read them all `usual` at a time. n8n keeps nothing of a poll that emits
	 * nothing (durable scheduler without durable cursors), so what one poll can read decides whether a long read ever
	 * ends.
	 */
	concurrencyFor(pages: number, usual: number): number {
		const rounds = this.roundsLeft(usual);
		if (!Number.isFinite(rounds) || pages <= usual * rounds) return usual;
		return Math.min(MAX_IN_FLIGHT, Math.max(usual, Math.ceil(pages / Math.max(1, rounds))));
	}

	/** Measured cost of a page once in, in this poll (see timed). */
	private pageWork = 0;

	/** What a page cost at the last poll. */
	private readonly pageWorkHint: number;

	/** Requests started together (within a few ms): their answers' spread tells what a page costs this machine. */
	private batch: { started: number; open: number; durations: number[] } | undefined;

	/**
	 * Runs `request` and times it. Requests started together are a batch: answered together, they are worked through
	 * one after another, so the last one's time exceeds the first one's by the work of the others (more when the
	 * machine is busy with other things too).
	 */
	async timed<T>(request: () => Promise<T>): Promise<T> {
		const start = this.now();
		if (!this.batch || this.batch.open === 0 || start - this.batch.started > BATCH_SPREAD_MS)
			this.batch = { started: start, open: 0, durations: [] };
		const batch = this.batch;
		batch.open++;
		try {
			return await request();
		} finally {
			const duration = this.now() - start;
			this.observe(duration);
			batch.open--;
			batch.durations.push(duration);
			if (batch.open === 0 && batch.durations.length > 1) {
				const spread = Math.max(...batch.durations) - Math.min(...batch.durations);
				this.pageWork = Math.max(this.pageWork, spread / (batch.durations.length - 1));
			}
		}
	}
}
