/**
 * Keyword Updated, one poll: ask `groups/active`, read the keyword lists of the projects and groups whose ranks moved
 * (reads in progress go on meanwhile), and emit the keywords crawled in each one's window, oldest first. Each project
 * and group stands alone (logic/keywords.ts): one whose list fails is parked and reported, and never holds back the
 * others' events. Returns the items and the next state; never touches static data.
 */
import type { IDataObject } from 'n8n-workflow';

import { inScope } from '../../shared/groupName';
import { mapConcurrent } from '../../shared/paging';
import { toContainers, type Container } from '../logic/containers';
import { compareIds } from '../logic/cursor';
import { crawledAt, keywordItem } from '../logic/keywordItem';
import {
	GONE,
	KEYWORD_PAGE_SIZE,
	nextWindow,
	planKeywordPoll,
	readsInProgress,
	settleJob,
	uniqueOldestFirst,
	windowEvents,
	type KeywordEvent,
	type KeywordState,
	type ListJob,
	type ListResult,
} from '../logic/keywords';
import { hasFilters, keywordMove, matchFilters } from '../logic/filters';
import { learnHistoryOrder, rankChange, type HistoryOrder } from '../logic/ranks';
import { rankingUrlChanged, rankingUrlOf, rememberRankingUrl } from '../logic/rankingUrls';
import {
	MAX_REQUESTS_PER_POLL,
	READ_CONCURRENCY as USUAL_LIST_CONCURRENCY,
	RequestAllowance,
	SAMPLE_SIZE,
	isOutOfTime,
	messageOf,
	servedList,
	statusOf,
	type NoEventYet,
	type PollLimits,
	type PollOutcome,
	type PollProblem,
	type PollSettings,
	type TriggerApi,
} from './common';
import { pagesLeft, readKeywordList, type ListOutcome } from './keywordList';

/** Requests in flight at once, usually: two lists, four pages each. */
const USUAL_IN_FLIGHT = 2 * USUAL_LIST_CONCURRENCY;

interface JobRun {
	job: ListJob;
	/** The name the list was read by. */
	name: string;
	outcome: ListOutcome;
}

function historyOrderOf(state: KeywordState | undefined): HistoryOrder | undefined {
	return state?.o === 'n' ? 'newestFirst' : state?.o === 'o' ? 'oldestFirst' : undefined;
}

/**
 * Reads the lists of a poll, two side by side with four pages each as a rule (more when the budget is short, see
 * PollBudget.concurrencyFor), taking them as they come: reads in progress first, then what the plan adds.
 */
class ListReads {
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
		const fetch = async (page: number, perPage: number) => {
			const served = servedList(
				await limits.budget.timed(async () => await api.keywordPage(name, page, perPage, mode)),
			);
			// Their items will have to be shaped: time is kept for it (PollBudget.itemsInHand).
			limits.budget.itemsInHand += windowEvents(served.records, job.w, job.read.h).length;
			return served;
		};
		// The usual four pages at once; when the budget asks for more, the lists being read share them.
		const sharing = Math.max(1, Math.min(this.workers.length, this.busy + this.queue.length));
		const concurrency =
			this.inFlight <= USUAL_IN_FLIGHT
				? USUAL_LIST_CONCURRENCY
				: Math.max(USUAL_LIST_CONCURRENCY, Math.floor(this.inFlight / sharing));
		const outcome = await readKeywordList(fetch, job.read, limits, this.allowance, concurrency);
		return { job, name, outcome };
	}
}

export async function pollKeywordUpdates(
	api: TriggerApi,
	state: KeywordState | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<KeywordState>> {
	const allowance = new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	allowance.grant(1);
	const listing = limits.budget.timed(async () => await api.activeGroups());
	if (!state) {
		const { body, serverTime } = await listing;
		const { next } = planKeywordPoll(undefined, toContainers(body), settings.scope, serverTime);
		return { items: [], state: next, complete: true, problems: [] };
	}

	const read = await readLists(api, state, settings, limits, allowance, listing);
	const { runs, listed, listingError } = read;
	const progress = runs.some(
		({ outcome }) => outcome.read === 'done' || outcome.records.length > 0,
	);
	// groups/active failed and nothing else went on: the poll fails (n8n records it), unless only its time ran out.
	if (listingError !== undefined && !progress && !isOutOfTime(listingError)) throw listingError;

	const names = new Set(read.containers.map((container) => container.name));
	const found = runs.map((run) => {
		// A list that also holds other listed projects' or groups' keywords leaves those to their own lists.
		const elsewhere = new Set(names);
		elsewhere.delete(run.name);
		return windowEvents(run.outcome.records, run.job.w, run.job.read.h, elsewhere);
	});
	const order = learnHistoryOrder(
		historyOrderOf(state),
		found.flat().map((event) => (event.record.attributes ?? {}) as IDataObject),
	);
	const next = read.next;
	if (order === 'newestFirst' || order === 'oldestFirst')
		next.o = order === 'newestFirst' ? 'n' : 'o';
	// The ranking URLs are kept only while the filter that needs them is on.
	if (!settings.filters?.rankingUrlChanged) delete next.u;

	const emitted = emitRuns(runs, found, next, settings, order, limits);
	const problems = emitted.problems;
	if (listingError !== undefined)
		problems.unshift({ status: statusOf(listingError), message: messageOf(listingError) });
	// Complete: nothing left that the next poll would read, given the same groups/active.
	const complete =
		emitted.complete &&
		listed !== undefined &&
		planKeywordPoll(next, read.containers, settings.scope, listed.serverTime).jobs.length === 0;
	return { items: emitted.items, state: next, complete, problems };
}

interface ListsRead {
	runs: JobRun[];
	/** The next state, before the runs' outcomes are settled into it. */
	next: KeywordState;
	containers: Container[];
	listed?: { body: unknown; serverTime: number };
	listingError?: unknown;
}

/**
 * The reads of one poll: reads in progress while groups/active is asked, then the lists it shows moved; a read that
 * failed because its project was renamed meanwhile again under the new name; and the next window of a list whose
 * read ended while its ranks moved on, time allowing.
 */
async function readLists(
	api: TriggerApi,
	state: KeywordState,
	settings: PollSettings,
	limits: PollLimits,
	allowance: RequestAllowance,
	listing: Promise<{ body: unknown; serverTime: number }>,
): Promise<ListsRead> {
	const reads = new ListReads(api, limits, allowance);
	const started = readsInProgress(state);
	reads.add(started, false);
	let listed: { body: unknown; serverTime: number } | undefined;
	let listingError: unknown;
	try {
		listed = await listing;
	} catch (error) {
		listingError = error;
	}
	const containers = listed ? toContainers(listed.body) : [];
	const plan = listed
		? planKeywordPoll(state, containers, settings.scope, listed.serverTime, started)
		: { jobs: [], next: { ...state, p: new Map(state.p) } };
	reads.add(plan.jobs, true);
	await reads.done();
	const runs = reads.runs;
	const more = async (jobs: ListJob[]) => {
		if (jobs.length === 0) return;
		const again = new ListReads(api, limits, allowance);
		again.add(jobs, true);
		await again.done();
		runs.push(...again.runs);
	};

	const renamed = runs.filter(
		({ job, name, outcome }) => outcome.error !== undefined && job.name !== name && !job.departed,
	);
	for (const run of renamed) runs.splice(runs.indexOf(run), 1);
	await more(renamed.map(({ job }) => job));

	if (listed && limits.budget.mayStart()) {
		const byKey = new Map(containers.map((container) => [container.key, container]));
		const windows: ListJob[] = [];
		for (const { job, outcome } of runs) {
			const container = byKey.get(job.key);
			if (outcome.read !== 'done' || !container || job.departed || job.dropped) continue;
			const window = nextWindow(container, job, listed.serverTime);
			if (window) windows.push(window);
		}
		await more(windows);
	}
	return { runs, next: plan.next, containers, listed, listingError };
}

/**
 * Shapes the events of each read and settles its outcome into `next`, read by read. One that cannot be shaped
 * before the hard deadline is left as it stood (read again by the next poll), and so is every later one, and a later
 * window of the same list. One item per keyword per poll: its latest crawl (two lists holding it, or two windows of
 * its list read). Items oldest first.
 */
function emitRuns(
	runs: readonly JobRun[],
	found: readonly KeywordEvent[][],
	next: KeywordState,
	settings: PollSettings,
	order: HistoryOrder | 'conflict' | undefined,
	limits: PollLimits,
): { items: IDataObject[]; problems: PollProblem[]; complete: boolean } {
	const latest = new Map<string, number>();
	for (const event of found.flat())
		latest.set(event.id, Math.max(latest.get(event.id) ?? 0, event.at));
	const shaped: Array<{ event: KeywordEvent; item: IDataObject }> = [];
	const seen = new Set<string>();
	const left = new Set<string>();
	const problems: PollProblem[] = [];
	let complete = true;
	runs.forEach((run, index) => {
		const { job, outcome } = run;
		if (left.has(job.key)) return;
		const events = uniqueOldestFirst(found[index]).filter(
			(event) => event.at === latest.get(event.id) && !seen.has(event.id),
		);
		const items = left.size > 0 ? undefined : shape(events, settings, order, limits, next);
		if (!items) {
			complete = false;
			left.add(job.key);
			settleJob(next, job, { kind: 'reading', read: job.read });
			return;
		}
		for (const event of events) seen.add(event.id);
		shaped.push(...items);
		const result = resultOf(run);
		if (result.kind !== 'done') complete = false;
		if (result.kind === 'failed' || result.kind === 'gone')
			problems.push({
				container: run.name,
				status: statusOf(outcome.error),
				message: messageOf(outcome.error),
				...(result.kind === 'gone' ? { gone: true } : { polls: (job.parked?.n ?? 0) + 1 }),
			});
		settleJob(next, job, result);
	});
	shaped.sort((a, b) => a.event.at - b.event.at || compareIds(a.event.id, b.event.id));
	return { items: shaped.map(({ item }) => item), problems, complete };
}

/**
 * The items of one read's events, those the filters let through, each with why (`matched`); undefined when the hard
 * deadline came first. Every event counts as read, filtered or not (the window moves past it), and its ranking URL is
 * remembered in `next` while Ranking URL Changed is on.
 */
function shape(
	events: readonly KeywordEvent[],
	settings: PollSettings,
	order: HistoryOrder | 'conflict' | undefined,
	limits: PollLimits,
	next: KeywordState,
): Array<{ event: KeywordEvent; item: IDataObject }> | undefined {
	const filters = settings.filters ?? {};
	const filtered = hasFilters(filters);
	const urls = filters.rankingUrlChanged ? (next.u ??= new Map()) : undefined;
	const items: Array<{ event: KeywordEvent; item: IDataObject }> = [];
	// Ranking URLs are remembered only once the whole read is shaped (a read left for the next poll keeps none).
	const seenUrls: Array<[string, unknown]> = [];
	for (const [n, event] of events.entries()) {
		if (n % 500 === 0 && limits.budget.pastHardDeadline()) return undefined;
		const attributes = (event.record.attributes ?? {}) as IDataObject;
		const url = rankingUrlOf(event.record);
		if (urls) seenUrls.push([event.id, url]);
		if (settings.onlyRankChanges && rankChange(attributes, order).rank_changed === false) continue;
		let matched: string[] | undefined;
		if (filtered) {
			const urlChanged = urls ? rankingUrlChanged(urls, event.id, url) : undefined;
			matched = matchFilters(keywordMove(attributes, order, urlChanged), filters);
			if (!matched) continue;
		}
		const item = keywordItem(event.record, settings.output, settings.token, order);
		items.push({ event, item: matched ? { ...item, matched } : item });
	}
	if (urls) for (const [id, url] of seenUrls) rememberRankingUrl(urls, id, url);
	return items;
}

function resultOf({ job, outcome }: JobRun): ListResult {
	if (outcome.read === 'done') return { kind: 'done' };
	if (outcome.error === undefined) return { kind: 'reading', read: outcome.read };
	const status = statusOf(outcome.error);
	if (job.departed && status !== null && GONE.has(status)) return { kind: 'gone' };
	return { kind: 'failed', read: outcome.read, status };
}

/**
 * A manual run ("Fetch Test Event"): the latest crawled keywords of the most recently updated projects, whatever the
 * state. A project or group whose list cannot be read (of those read here, and `parked`: those the trigger's polls
 * found failing) is returned as a ListFailure, for an error that names it.
 */
export async function sampleKeywordUpdates(
	api: TriggerApi,
	settings: PollSettings,
	parked: readonly string[] = [],
): Promise<IDataObject[] | NoEventYet | ListFailure> {
	const { body } = await api.activeGroups();
	const updated = toContainers(body)
		.filter((container) => container.u !== undefined && inScope(container.name, settings.scope))
		.sort((a, b) => (b.u ?? 0) - (a.u ?? 0));
	const failures: Array<{ name: string; error: unknown }> = [];
	const firstPage = async (name: string) => {
		try {
			return servedList(await api.keywordPage(name, 1, KEYWORD_PAGE_SIZE)).records;
		} catch (error) {
			failures.push({ name, error });
			return undefined;
		}
	};
	let chosen: Array<{ record: IDataObject; matched?: string[] }> | undefined;
	let order: HistoryOrder | 'conflict' | undefined;
	// The most recently updated projects first; the first page of a list is enough to show real keywords.
	for (const container of updated.slice(0, 3)) {
		const records = await firstPage(container.name);
		if (!records || chosen) continue;
		const events = records
			.map((raw) => ({ raw, at: crawledAt(raw as IDataObject) }))
			.filter((entry): entry is { raw: unknown; at: number } => entry.at !== undefined)
			.sort((a, b) => b.at - a.at)
			.map((entry) => entry.raw as IDataObject);
		if (events.length === 0) continue;
		order = learnHistoryOrder(
			undefined,
			events.map((record) => (record.attributes ?? {}) as IDataObject),
		);
		const changed = events.filter(
			(record) =>
				rankChange((record.attributes ?? {}) as IDataObject, order).rank_changed !== false,
		);
		const pool = settings.onlyRankChanges && changed.length > 0 ? changed : events;
		// The filters' reasons, for the keywords that pass (a test run knows no ranking URL before: that one never does).
		const passing = pool.flatMap((record) => {
			const filters = settings.filters;
			if (!filters || !hasFilters(filters)) return [];
			const attributes = (record.attributes ?? {}) as IDataObject;
			const matched = matchFilters(keywordMove(attributes, order), filters);
			return matched ? [{ record, matched }] : [];
		});
		chosen = (passing.length > 0 ? passing : pool.map((record) => ({ record })))
			.slice(0, SAMPLE_SIZE)
			.reverse();
	}
	const checked = new Set(updated.slice(0, 3).map((container) => container.name));
	await mapConcurrent(
		parked.filter((name) => !checked.has(name)),
		2,
		async (name) => await firstPage(name),
	);
	if (failures.length > 0) return new ListFailure(failures);
	if (chosen)
		return chosen.map(({ record, matched }) => {
			const item = keywordItem(record, settings.output, settings.token, order);
			return matched ? { ...item, matched } : item;
		});
	return (
		'No keyword has been updated yet' +
		(settings.scope.project ? ' in the chosen project' : '') +
		". Ranks are filled in after a keyword is added (at the next scheduled update); an on-demand refresh (Keyword.com → Refresh, or the Keyword.com node's Refresh operation) updates them at once."
	);
}

/** Keyword lists a manual run could not read. */
export class ListFailure extends Error {
	constructor(readonly failures: Array<{ name: string; error: unknown }>) {
		const [{ name, error }] = failures;
		const others = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
		super(`The keyword list of "${name}"${others} could not be read: ${messageOf(error)}`);
	}

	/** HTTP status of the first failure, when there was an answer. */
	get status(): string | null {
		return statusOf(this.failures[0].error);
	}
}
