/**
 * Keyword Updated: the items of a poll's list reads, and each read's outcome settled into the next state.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../../shared/paging';
import { compareIds } from '../polling/windowCursor';
import { hasFilters, matchFilters } from '../filters/triggerFilters';
import { keywordItem } from './updateItem';
import { uniqueOldestFirst, type KeywordEvent } from './windowEvents';
import { settleJob, type Failure, type KeywordState, type ListResult } from './plan';
import { givenUp } from './departures';
import { GONE } from '../polling/pollContract';
import { keywordMove, rankChange } from '../polling/rankHistory';
import {
	messageOf,
	statusOf,
	type PollLimits,
	type PollProblem,
	type PollSettings,
} from '../polling/pollContract';
import type { JobRun } from './listReads';
import type { RankingUrlHistory } from './rankingUrlHistory';

/**
 * Shapes the events of each read and settles its outcome into `next`, read by read. One that cannot be shaped
 * before the hard deadline is left as it stood (read again by the next poll), and so is every later one, and a later
 * window of the same list. A read of a list that is out of scope now (renamed out of it) emits nothing. One item per
 * keyword per poll: its latest crawl (two lists holding it, or two windows of its list read). Items oldest first.
 */
export function emitRuns(
	runs: readonly JobRun[],
	found: readonly KeywordEvent[][],
	next: KeywordState,
	settings: PollSettings,
	order: ListOrder | undefined,
	limits: PollLimits,
	urls?: RankingUrlHistory,
): { items: IDataObject[]; problems: PollProblem[]; complete: boolean } {
	const latest = new Map<string, number>();
	for (const event of found.flat())
		latest.set(event.id, Math.max(latest.get(event.id) ?? 0, event.at));
	const shaped: Array<{ event: KeywordEvent; item: IDataObject }> = [];
	const seen = new Set<string>();
	const left = new Set<string>();
	const problems: PollProblem[] = [];
	const saidParked = new Set<string>();
	let complete = true;
	runs.forEach((run, index) => {
		const { job, outcome } = run;
		if (job.dropped) return;
		// However far the poll got, a parked list it leaves for later is said to be failing still: whether a failure is
		// reported must not depend on how fast the machine was.
		const leftParked = () => {
			if (!job.parked || saidParked.has(job.key)) return;
			saidParked.add(job.key);
			problems.push(untried(run.name, job.parked, 'its time or requests ran out first'));
		};
		if (left.has(job.key)) return leftParked();
		const events = uniqueOldestFirst(found[index]).filter(
			(event) => event.at === latest.get(event.id) && !seen.has(event.id),
		);
		const items = left.size > 0 ? undefined : shape(events, settings, order, limits, urls);
		if (!items) {
			complete = false;
			left.add(job.key);
			settleJob(next, job, { kind: 'untried' });
			return leftParked();
		}
		for (const event of events) seen.add(event.id);
		shaped.push(...items);
		const result = resultOf(run);
		if (result.kind !== 'done') complete = false;
		// A departed container failing too many polls in a row is given up by settleJob: said so, once.
		const gaveUp = settleJob(next, job, result);
		if (result.kind === 'failed' || result.kind === 'gone') {
			const polls = (job.parked?.polls ?? 0) + 1;
			const text = gaveUp ? givenUp(run.name, polls, messageOf(outcome.error)) : undefined;
			problems.push({
				container: run.name,
				status: statusOf(outcome.error),
				message: messageOf(outcome.error),
				...(result.kind === 'gone' ? { gone: true } : { polls }),
				...(text ? { text } : {}),
			});
		}
		if (result.kind === 'untried') leftParked();
	});
	shaped.sort((a, b) => a.event.at - b.event.at || compareIds(a.event.id, b.event.id));
	return { items: shaped.map(({ item }) => item), problems, complete };
}

/** A parked list not tried this poll: still failing as far as anyone knows, and said so (every poll while it lasts). */
export function untried(name: string, parked: Failure, why: string): PollProblem {
	return {
		container: name,
		status: parked.status,
		message: `not tried again this poll (${why}); it is tried first at the next poll's end`,
		polls: parked.polls,
	};
}

/**
 * The items of one read's events, those the filters let through, each with why (`matched`); undefined when the hard
 * deadline came first. Every event counts as read, filtered or not (the window moves past it). Ranking URL Changed
 * reads the verdicts the read looked up page by page (rankingUrlHistory.ts).
 */
function shape(
	events: readonly KeywordEvent[],
	settings: PollSettings,
	order: ListOrder | undefined,
	limits: PollLimits,
	urls: RankingUrlHistory | undefined,
): Array<{ event: KeywordEvent; item: IDataObject }> | undefined {
	const filters = settings.filters ?? {};
	const filtered = hasFilters(filters);
	const items: Array<{ event: KeywordEvent; item: IDataObject }> = [];
	for (const [n, event] of events.entries()) {
		if (n % 500 === 0 && limits.budget.pastHardDeadline()) return undefined;
		const attributes = (event.record.attributes ?? {}) as IDataObject;
		if (settings.onlyRankChanges && rankChange(attributes, order).rank_changed === false) continue;
		let matched: string[] | undefined;
		if (filtered) {
			const urlChanged = filters.rankingUrlChanged ? urls?.verdict(event) : undefined;
			matched = matchFilters(keywordMove(attributes, order, urlChanged), filters);
			if (!matched) continue;
		}
		const item = keywordItem(event.record, settings.output, settings.token, order);
		items.push({ event, item: matched ? { ...item, matched } : item });
	}
	return items;
}

function resultOf({ job, outcome, answered }: JobRun): ListResult {
	if (outcome.read === 'done') return { kind: 'done' };
	if (outcome.error === undefined && answered === 0) return { kind: 'untried' };
	if (outcome.error === undefined) return { kind: 'reading', read: outcome.read };
	const status = statusOf(outcome.error);
	if (job.departed && status !== null && GONE.has(status)) return { kind: 'gone' };
	return { kind: 'failed', read: outcome.read, status };
}
