/**
 * Keyword Updated: the items of a poll's list reads, and each read's outcome settled into the next state.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../../shared/paging';
import { compareIds } from '../logic/cursor';
import { hasFilters, keywordMove, matchFilters } from '../logic/filters';
import { keywordItem } from '../logic/keywordItem';
import { uniqueOldestFirst, type KeywordEvent } from '../logic/keywordEvents';
import { GONE, settleJob, type KeywordState, type ListResult } from '../logic/keywords';
import { rankChange } from '../logic/ranks';
import { rankingUrlChanged, rankingUrlOf, rememberRankingUrl } from '../logic/rankingUrls';
import {
	messageOf,
	statusOf,
	type PollLimits,
	type PollProblem,
	type PollSettings,
} from './common';
import type { JobRun } from './listReads';

/**
 * Shapes the events of each read and settles its outcome into `next`, read by read. One that cannot be shaped
 * before the hard deadline is left as it stood (read again by the next poll), and so is every later one, and a later
 * window of the same list. One item per keyword per poll: its latest crawl (two lists holding it, or two windows of
 * its list read). Items oldest first.
 */
export function emitRuns(
	runs: readonly JobRun[],
	found: readonly KeywordEvent[][],
	next: KeywordState,
	settings: PollSettings,
	order: ListOrder | undefined,
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
				...(result.kind === 'gone' ? { gone: true } : { polls: (job.parked?.polls ?? 0) + 1 }),
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
	order: ListOrder | undefined,
	limits: PollLimits,
	next: KeywordState,
): Array<{ event: KeywordEvent; item: IDataObject }> | undefined {
	const filters = settings.filters ?? {};
	const filtered = hasFilters(filters);
	const urls = filters.rankingUrlChanged ? (next.rankingUrls ??= new Map()) : undefined;
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
