/**
 * Keyword Updated: the keyword lists of one poll, read side by side as they come (plan.ts says which, and
 * from where; polling/keywordListRead.ts reads one).
 */
import { windowEvents, type KeywordEvent } from './windowEvents';
import type { ListJob } from './plan';
import {
	READ_CONCURRENCY as USUAL_LIST_CONCURRENCY,
	servedList,
	type PollLimits,
	type RequestAllowance,
	type TriggerApi,
} from '../polling/pollContract';
import type { ListOutcome } from '../polling/listReadState';
import { pagesLeft, readKeywordList } from '../polling/keywordListRead';

/** Requests in flight at once, usually: two lists, four pages each. */
const USUAL_IN_FLIGHT = 2 * USUAL_LIST_CONCURRENCY;

export interface JobRun {
	job: ListJob;
	/** The name the list was read by. */
	name: string;
	outcome: ListOutcome;
	/** Pages that answered (0: the read never reached the API, for want of time or requests). */
	answered: number;
}

/** Work done on each page's events before the read goes past it (the ranking history of Ranking URL Changed). */
export type PageHook = (events: readonly KeywordEvent[]) => Promise<void>;

/**
 * Reads the lists of a poll, two side by side with four pages each as a rule (more when the budget is short, see
 * PollBudget.concurrencyFor), taking them as they come: reads in progress first, then what the plan adds.
 */
export class ListReads {
	private readonly queue: ListJob[] = [];

	private readonly workers: Array<Promise<void>> = [];

	private planned = false;

	private busy = 0;

	private inFlight = USUAL_IN_FLIGHT;

	private wake: () => void = () => {};

	private more = new Promise<void>((resolve) => (this.wake = resolve));

	readonly runs: JobRun[] = [];

	constructor(
		private readonly api: TriggerApi,
		private readonly limits: PollLimits,
		private readonly allowance: RequestAllowance,
		private readonly onPage?: PageHook,
	) {}

	/** Queues lists to read; `final`: nothing more will be added. */
	add(jobs: readonly ListJob[], final: boolean): void {
		this.queue.push(...jobs);
		const pages = this.queue.reduce((sum, job) => sum + pagesLeft(job.read), 0);
		this.inFlight = Math.max(
			this.inFlight,
			this.limits.budget.concurrencyFor(pages, USUAL_IN_FLIGHT),
		);
		const lists = Math.max(2, Math.floor(this.inFlight / USUAL_LIST_CONCURRENCY));
		while (this.workers.length < lists) this.workers.push(this.worker());
		if (final) this.planned = true;
		this.wake();
		this.more = new Promise<void>((resolve) => (this.wake = resolve));
	}

	/** Resolves once every list queued, and every one added later, has been read as far as this poll goes. */
	async done(): Promise<void> {
		for (let n = 0; n < this.workers.length; n++) await this.workers[n];
	}

	private async worker(): Promise<void> {
		for (;;) {
			const job = this.queue.shift();
			if (job) {
				this.busy++;
				try {
					this.runs.push(await this.read(job));
				} finally {
					this.busy--;
				}
				continue;
			}
			if (this.planned) return;
			await this.more;
		}
	}

	private async read(job: ListJob): Promise<JobRun> {
		const { api, limits } = this;
		const name = job.name;
		const mode = job.parked ? { tries: 1 } : undefined;
		let answered = 0;
		const fetch = async (page: number, perPage: number) => {
			const served = servedList(
				await limits.budget.timed(async () => await api.keywordPage(name, page, perPage, mode)),
			);
			answered++;
			const events = windowEvents(served.records, job.reportedUpTo, job.read.windowEnd, name);
			// What each page needs before the read goes past it; a page it cannot finish is read again next poll.
			if (this.onPage && events.length > 0) await this.onPage(events);
			// Their items will have to be shaped: time is kept for it (PollBudget.itemsInHand).
			limits.budget.itemsInHand += events.length;
			return served;
		};
		// The usual four pages at once; when the budget asks for more, the lists being read share them.
		const sharing = Math.max(1, Math.min(this.workers.length, this.busy + this.queue.length));
		const concurrency =
			this.inFlight <= USUAL_IN_FLIGHT
				? USUAL_LIST_CONCURRENCY
				: Math.max(USUAL_LIST_CONCURRENCY, Math.floor(this.inFlight / sharing));
		const outcome = await readKeywordList(fetch, job.read, limits, this.allowance, concurrency);
		return { job, name, outcome, answered };
	}
}
