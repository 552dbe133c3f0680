/**
 * How long one poll may run. n8n (2.37+, durable scheduler) abandons a poll that runs past its timeout and keeps
 * nothing of it; n8n 2.41 tells a poll its budget (`getPollBudgetMs()`, a margin under that timeout). A poll here
 * stops starting requests when the next ones could not be answered within the budget, and keeps what it has read.
 */

/** The budget where n8n does not tell one (older n8n): well inside the durable scheduler's default 45 s timeout. */
export const DEFAULT_POLL_BUDGET_MS = 30_000;

/**
 * Never more than this, whatever n8n allows: without a timeout (n8n's in-memory scheduler says 5 minutes) a poll
 * running past the next minute's poll would overlap it, and both would report the same events.
 */
export const MAX_POLL_BUDGET_MS = 40_000;

/** Kept free at the end of the budget: parsing, shaping the items and handing them to n8n. */
export const BUDGET_RESERVE_MS = 250;

/**
 * A batch of requests starts only when this many times the slowest request so far still fits. Low on purpose: n8n
 * keeps a poll's progress only when it emits (durable scheduler without durable cursors), so a poll that spent its
 * budget on `groups/active` alone would start from scratch every time; at 1 s a request and a 2.5 s budget (n8n's
 * at a 5 s timeout), `groups/active` and one batch of pages must both fit.
 */
export const EXPECTED_TIME_FACTOR = 1.2;

/** What a request is assumed to take before one has been timed. */
const FIRST_GUESS_MS = 1_000;

/** The budget of this poll: n8n's where it says (capped), the default where it does not. */
export function pollBudgetMs(fromN8n: number | undefined): number {
	const budget =
		fromN8n !== undefined && Number.isFinite(fromN8n) && fromN8n > 0
			? fromN8n
			: DEFAULT_POLL_BUDGET_MS;
	return Math.min(budget, MAX_POLL_BUDGET_MS);
}

/**
 * Whether n8n may have abandoned this poll: it told a budget and the poll ran longer. n8n does not cancel an abandoned
 * poll, and without durable cursors it keeps the workflow's static data in memory, so a late poll that wrote its
 * state there would move the cursor past items n8n threw away. Such a poll keeps nothing and emits nothing (the next
 * poll reads the same again). Requests end at the budget, so only a stalled machine or an answer trickling in byte by
 * byte (a time-out counts idle time only) gets here.
 */
export function mayHaveBeenAbandoned(fromN8n: number | undefined, elapsedMs: number): boolean {
	return fromN8n !== undefined && Number.isFinite(fromN8n) && fromN8n > 0 && elapsedMs > fromN8n;
}

export class PollBudget {
	private readonly started: number;

	private slowest = 0;

	constructor(
		readonly totalMs: number,
		private readonly now: () => number = Date.now,
	) {
		this.started = now();
	}

	/** Time (ms since the epoch) every request must be over by. */
	get deadline(): number {
		return this.started + this.totalMs - BUDGET_RESERVE_MS;
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

	/** Whether a batch of requests started now can be expected to be answered within the budget. */
	mayStart(): boolean {
		const expected = this.slowest > 0 ? this.slowest * EXPECTED_TIME_FACTOR : FIRST_GUESS_MS;
		return this.remainingMs() > expected;
	}

	/** Runs `request` and times it. */
	async timed<T>(request: () => Promise<T>): Promise<T> {
		const start = this.now();
		try {
			return await request();
		} finally {
			this.observe(this.now() - start);
		}
	}
}
