/**
 * Keyword Updated, one poll: ask `groups/active`, read the keyword lists of the projects and groups whose ranks moved
 * past the mark (reads in progress go on meanwhile), look up those that left `groups/active`, and emit the keywords
 * crawled in each one's window, oldest first. Each project and group stands alone (plan.ts): one whose list
 * fails is parked and reported, and never holds back the others' events. Returns the items and the next state; never
 * touches static data.
 */
import type { IDataObject } from 'n8n-workflow';

import { inScope } from '../../shared/groupName';
import { mapConcurrent, type ListOrder } from '../../shared/paging';
import { toContainers, type Container } from '../polling/containers';
import { filtersWithoutRequests, hasFilters, matchFilters } from '../filters/triggerFilters';
import { windowEvents } from './windowEvents';
import { crawledAt, keywordItem } from './updateItem';
import {
	firstState,
	nextWindow,
	planKeywordPoll,
	readsInProgress,
	type KeywordState,
	type ListJob,
	type SeenContainer,
} from './plan';
import { KEYWORD_PAGE_SIZE } from '../polling/listReadState';
import { keywordMove, learnHistoryOrder, rankChange } from '../polling/rankHistory';
import {
	MAX_REQUESTS_PER_POLL,
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
} from '../polling/pollContract';
import { lookUpDepartures, lookUpEndedReads } from './departureLookups';
import { emitRuns, untried } from './emit';
import { ListReads, type JobRun, type PageHook } from './listReads';
import { HISTORY_CHUNK, RankingUrlHistory, unknownUrls, urlHistoryOf } from './rankingUrlHistory';
import { PollBudget } from '../polling/budget';

export async function pollKeywordUpdates(
	api: TriggerApi,
	state: KeywordState | undefined,
	settings: PollSettings,
	limits: PollLimits,
	seen?: ReadonlyMap<string, SeenContainer>,
): Promise<PollOutcome<KeywordState>> {
	const allowance =
		limits.allowance ?? new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	allowance.grant(1);
	const listing = limits.budget.timed(async () => await api.activeGroups());
	if (!state) {
		const { body, serverTime } = await listing;
		const first = firstState(toContainers(body), settings.scope, serverTime);
		return { items: [], state: first, complete: true, problems: [] };
	}

	const urls = settings.filters?.rankingUrlChanged
		? urlHistoryOf(api, limits, allowance, listing, state.historyOrder)
		: undefined;
	const onPage = urls ? urlLookup(urls, settings, state.historyOrder) : undefined;
	const read = await readLists(api, state, settings, limits, allowance, listing, onPage, seen);
	const { runs, listed, listingError } = read;
	const progress = runs.some(
		({ outcome }) => outcome.read === 'done' || outcome.records.length > 0,
	);
	// groups/active failed and nothing else went on: the poll fails (n8n records it), unless only its time ran out.
	if (listingError !== undefined && !progress && !isOutOfTime(listingError)) throw listingError;

	const found = runs.map(({ job, name, outcome }) =>
		windowEvents(outcome.records, job.reportedUpTo, job.read.windowEnd, name),
	);
	const order = learnHistoryOrder(
		state.historyOrder,
		found.flat().map((event) => (event.record.attributes ?? {}) as IDataObject),
	);
	const next = read.next;
	if (order === 'descending' || order === 'ascending') next.historyOrder = order;

	const emitted = emitRuns(runs, found, next, settings, order, limits, urls);
	const problems = [...read.problems, ...emitted.problems, ...unknownUrls(emitted.items)];
	if (listingError !== undefined)
		problems.unshift({ status: statusOf(listingError), message: messageOf(listingError) });
	// Complete: nothing left that the next poll would read, given the same groups/active.
	let complete = emitted.complete && listed !== undefined;
	if (complete && listed) {
		const again = planKeywordPoll(next, read.containers, settings.scope, listed.serverTime);
		complete = again.jobs.length === 0 && again.departures.length === 0;
	}
	return { items: emitted.items, state: next, complete, problems };
}

/**
 * Ranking URL Changed: each page's updated keywords that the other filters let through have their ranking history
 * looked up before the read goes past the page (by the history order known so far; all of them while it is not).
 */
function urlLookup(
	urls: RankingUrlHistory,
	settings: PollSettings,
	order: ListOrder | undefined,
): PageHook {
	const others = filtersWithoutRequests(settings.filters, 'keywordUpdated');
	const known = order === 'descending' || order === 'ascending' ? order : undefined;
	return async (events) => {
		const candidates = events.filter((event) => {
			const attributes = (event.record.attributes ?? {}) as IDataObject;
			if (!known) return true;
			if (settings.onlyRankChanges && rankChange(attributes, known).rank_changed === false)
				return false;
			return (
				!hasFilters(others) || matchFilters(keywordMove(attributes, known), others) !== undefined
			);
		});
		await urls.lookUp(candidates);
	};
}

interface ListsRead {
	runs: JobRun[];
	/** The next state, before the runs' outcomes are settled into it. */
	next: KeywordState;
	containers: Container[];
	listed?: { body: unknown; serverTime: number };
	listingError?: unknown;
	/** Lookups of departed containers that failed. */
	problems: PollProblem[];
}

/**
 * The reads of one poll: reads in progress while groups/active is asked, then the lists it shows moved; a read whose
 * project was renamed meanwhile again under its new name (what was read by the old name may be another's list: that
 * name may have been taken); the containers that left groups/active looked up (those whose read ended in this poll
 * too), and the window of an archived one read; and the next window of a list whose read ended behind the mark while
 * its ranks moved on, time allowing.
 */
async function readLists(
	api: TriggerApi,
	state: KeywordState,
	settings: PollSettings,
	limits: PollLimits,
	allowance: RequestAllowance,
	listing: Promise<{ body: unknown; serverTime: number }>,
	onPage: PageHook | undefined,
	seen: ReadonlyMap<string, SeenContainer> | undefined,
): Promise<ListsRead> {
	const reads = new ListReads(api, limits, allowance, onPage);
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
		? planKeywordPoll(state, containers, settings.scope, listed.serverTime, started, seen)
		: {
				jobs: [],
				departures: [],
				next: {
					...state,
					containers: new Map(state.containers),
					known: new Map(state.known),
				},
			};
	reads.add(plan.jobs, true);
	await reads.done();
	const runs = reads.runs;
	const more = async (jobs: ListJob[]) => {
		if (jobs.length === 0) return;
		const again = new ListReads(api, limits, allowance, onPage);
		again.add(jobs, true);
		await again.done();
		runs.push(...again.runs);
	};

	const renamed = runs.filter(
		({ job, name }) => job.name !== name && !job.departed && !job.dropped,
	);
	for (const run of renamed) runs.splice(runs.indexOf(run), 1);
	await more(renamed.map(({ job }) => job));

	const problems: PollProblem[] = [];
	// Parked lists wait for groups/active (whether they are still there); without it they are not tried, but said.
	if (!listed)
		for (const entry of state.containers.values())
			if (entry.failure) problems.push(untried(entry.name, entry.failure, 'groups/active failed'));
	if (listed) {
		const windows = await lookUpDepartures(
			api,
			listed.serverTime,
			plan,
			limits,
			allowance,
			problems,
		);
		await more(windows);
		await more(
			await lookUpEndedReads(api, listed.serverTime, runs, plan.next, limits, allowance, problems),
		);
	}

	if (listed && limits.budget.mayStart()) {
		const byKey = new Map(containers.map((container) => [container.key, container]));
		const windows: ListJob[] = [];
		for (const { job, outcome } of runs) {
			const container = byKey.get(job.key);
			if (outcome.read !== 'done' || !container || job.departed || job.dropped) continue;
			const window = nextWindow(container, job, plan.next.mark);
			if (window) windows.push(window);
		}
		await more(windows);
	}
	return { runs, next: plan.next, containers, listed, listingError, problems };
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
		.filter(
			(container) => container.updatedAt !== undefined && inScope(container.name, settings.scope),
		)
		.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
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
	let order: ListOrder | undefined;
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
		// Ranking URL Changed: the ranking history of the keywords shown (one request).
		const urls = settings.filters?.rankingUrlChanged
			? await sampleUrls(api, pool.slice(0, HISTORY_CHUNK))
			: undefined;
		// The filters' reasons, for the keywords that pass.
		const passing = pool.flatMap((record) => {
			const filters = settings.filters;
			if (!filters || !hasFilters(filters)) return [];
			const attributes = (record.attributes ?? {}) as IDataObject;
			const changed = urls?.verdict({ id: String(record.id), at: crawledAt(record) ?? 0, record });
			const matched = matchFilters(keywordMove(attributes, order, changed), filters);
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

/** The ranking history of a test run's keywords (one request; none when it fails: they then do not pass). */
async function sampleUrls(
	api: TriggerApi,
	records: readonly IDataObject[],
): Promise<RankingUrlHistory | undefined> {
	const history = new RankingUrlHistory(
		api,
		{ budget: new PollBudget(10_000) },
		new RequestAllowance(1),
	);
	try {
		await history.lookUp(
			records.map((record) => ({ id: String(record.id), at: crawledAt(record) ?? 0, record })),
		);
		return history;
	} catch {
		return undefined;
	}
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
