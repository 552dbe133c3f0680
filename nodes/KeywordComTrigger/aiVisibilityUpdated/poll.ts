/**
 * AI Visibility Updated, one poll: list the AI-visibility domains (#23), and for each domain in scope whose next day
 * is complete by the API's clock (its Date header), read its daily dashboard (#26) from the last day it emitted, and
 * emit each completed day after it, oldest first. Returns the items and the next state; never touches static data.
 *
 * Each domain stands alone: one whose dashboard fails keeps its place, is reported, and is tried again at the next
 * poll while the others flow. A day is complete once the API's clock is past its end; a day is emitted once, when it
 * is first seen complete (a revision of it later is not emitted again). A day missing from the series while a later
 * completed day is there is a gap: it is passed over. A domain that leaves the list is forgotten; one that appears
 * (or comes back) owes the days completed after the poll before.
 */
import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent } from '../../shared/paging';
import {
	MAX_REQUESTS_PER_POLL,
	READ_CONCURRENCY,
	RequestAllowance,
	SAMPLE_SIZE,
	messageOf,
	statusOf,
	type NoEventYet,
	type PollLimits,
	type PollOutcome,
	type PollProblem,
	type PollSettings,
	type TriggerApi,
} from '../polling/pollContract';
import type { AiScope } from '../polling/scope';
import { aiDomainsOf, inScope } from './aiDomains';
import { aiSeriesOf, DAY_SECONDS, type AiDay } from './daySeries';
import { hasAiFilters, matchDay, type AiFilters } from '../filters/triggerFilters';
import { compareDays } from './dayComparison';
import { dayItem, fullDay, type AiDomainRef } from './dayItem';

export interface AiState {
	/** The newest completed day (UTC day number) by the API's clock at the poll this state is from. */
	clockDay: number;
	/** Each domain in scope, by id: every day up to this one (UTC day number) was emitted or passed. */
	domains: Map<string, number>;
}

/** The most days one dashboard request asks for (the API's longest timeframe). */
export const MAX_TIMEFRAME_DAYS = 365;

/** The newest day that is over by the API's clock (Unix seconds). */
export function lastCompleteDay(serverSeconds: number): number {
	return Math.floor(serverSeconds / DAY_SECONDS) - 1;
}

/**
 * The `timeframe` (days back from the API's now) that covers the day after `upTo` up to `lastComplete`, the day
 * before it (for the change) and today: two days more than the days owed, whatever side of a day's start the
 * API's window begins.
 */
export function timeframeFor(upTo: number, lastComplete: number): number {
	return Math.min(MAX_TIMEFRAME_DAYS, Math.max(1, lastComplete - upTo) + 3);
}

/** The dashboard query of a scope. */
export function dashboardQuery(scope: AiScope, days: number): IDataObject {
	const qs: IDataObject = { timeframe: String(days), aggregation: 'daily' };
	if (scope.topics.length > 0) qs.topics = scope.topics;
	if (scope.engines.length > 0) qs.engine = scope.engines;
	return qs;
}

/** The days of a series after `upTo` up to `lastComplete`, each with the day before it in the series. */
export function completedDays(
	days: AiDay[],
	upTo: number,
	lastComplete: number,
): Array<{ day: AiDay; before: AiDay | undefined }> {
	const fresh: Array<{ day: AiDay; before: AiDay | undefined }> = [];
	days.forEach((day, index) => {
		if (day.day <= upTo || day.day > lastComplete) return;
		const previous = index > 0 ? days[index - 1] : undefined;
		// The change is from the calendar day before only: after a gap there is none.
		fresh.push({ day, before: previous?.day === day.day - 1 ? previous : undefined });
	});
	return fresh;
}

/** The items of a domain's fresh days, those the filters let through, each with why (`matched`). */
function itemsOf(
	domain: AiDomainRef,
	fresh: Array<{ day: AiDay; before: AiDay | undefined }>,
	settings: PollSettings,
	filters: AiFilters | undefined,
): IDataObject[] {
	const items: IDataObject[] = [];
	for (const { day, before } of fresh) {
		const comparison = compareDays(day, before);
		let matched: string[] | undefined;
		if (filters && hasAiFilters(filters)) {
			matched = matchDay(comparison, filters);
			if (!matched) continue;
		}
		const full = fullDay(domain, day, before, comparison);
		items.push(dayItem(full, settings.output, settings.token, matched));
	}
	return items;
}

function problemOf(domain: AiDomainRef, error: unknown): PollProblem {
	const status = statusOf(error);
	return {
		status,
		message: messageOf(error),
		text: `the AI visibility of "${domain.name}" could not be read${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}. Every other domain is read as usual; this one is tried again at every poll, from its last emitted day`,
	};
}

export async function pollAiVisibility(
	api: TriggerApi,
	state: AiState | undefined,
	settings: PollSettings,
	limits: PollLimits,
): Promise<PollOutcome<AiState>> {
	const scope = settings.ai ?? { topics: [], engines: [] };
	const allowance =
		limits.allowance ?? new RequestAllowance(limits.maxRequests ?? MAX_REQUESTS_PER_POLL);
	allowance.grant(1);
	const { body, serverTime } = await limits.budget.timed(async () => await api.aiDomains());
	const listed = aiDomainsOf(body);
	if (!listed) throw new Error('The AI visibility domain list (#23) held no list of domains');
	const domains = inScope(listed, scope);
	const lastComplete = lastCompleteDay(serverTime);
	const problems: PollProblem[] = [];
	if (scope.domainId !== undefined && domains.length === 0)
		problems.push({
			status: null,
			message: 'not in the domain list',
			text: `the AI-visibility domain "${scope.domainId}" is not in the account's domain list; nothing is read until it is`,
		});
	// The first poll places "now": the days complete by the API's clock are behind it.
	if (!state) {
		const first = new Map(domains.map((domain) => [domain.id, lastComplete]));
		return {
			items: [],
			state: { clockDay: lastComplete, domains: first },
			complete: true,
			problems,
		};
	}
	const clockDay = Math.max(state.clockDay, lastComplete);
	const next = new Map<string, number>();
	// A domain not known yet (new, or back) owes the days completed after the poll before.
	for (const domain of domains) next.set(domain.id, state.domains.get(domain.id) ?? state.clockDay);
	// None is asked for while its next day is not over by the API's clock; the longest behind first.
	const due = domains
		.filter((domain) => (next.get(domain.id) as number) < lastComplete)
		.sort((a, b) => (next.get(a.id) as number) - (next.get(b.id) as number));
	// Asked just before each request: one that would not be answered within the budget (or past the request cap) is
	// not started, and its domain keeps its place for the next poll.
	const results = await mapConcurrent(due, READ_CONCURRENCY, async (domain) => {
		if (!limits.budget.mayStart() || allowance.grant(1) !== 1) return { domain, skipped: true };
		const upTo = next.get(domain.id) as number;
		try {
			const answer = await limits.budget.timed(
				async () =>
					await api.aiDashboard(domain.id, dashboardQuery(scope, timeframeFor(upTo, lastComplete))),
			);
			const series = aiSeriesOf(answer);
			if (!series.daily)
				return {
					domain,
					problem: problemOf(domain, new Error('the answer held no daily series')),
				};
			return { domain, fresh: completedDays(series.days, upTo, lastComplete) };
		} catch (error) {
			return { domain, problem: problemOf(domain, error) };
		}
	});
	const items: IDataObject[] = [];
	for (const result of results) {
		if (result.skipped) continue;
		if (result.problem) {
			problems.push(result.problem);
			continue;
		}
		const fresh = result.fresh ?? [];
		items.push(...itemsOf(result.domain, fresh, settings, settings.aiFilters));
		// A day not in the series yet keeps the domain where it is: it is asked for again at the next poll.
		if (fresh.length > 0) next.set(result.domain.id, fresh[fresh.length - 1].day.day);
	}
	return {
		items,
		state: { clockDay, domains: next },
		complete: results.every((result) => !result.skipped),
		problems,
	};
}

/** "Fetch Test Event": the latest completed day of each domain in scope (at most five), whatever the state. */
export async function sampleAiVisibility(
	api: TriggerApi,
	settings: PollSettings,
): Promise<IDataObject[] | NoEventYet> {
	const scope = settings.ai ?? { topics: [], engines: [] };
	const { body, serverTime } = await api.aiDomains();
	const domains = inScope(aiDomainsOf(body) ?? [], scope).slice(0, SAMPLE_SIZE);
	if (domains.length === 0)
		return scope.domainId === undefined
			? 'No AI-visibility domain yet. Add one in Keyword.com (AI Visibility), then run this again.'
			: `The AI-visibility domain "${scope.domainId}" is not in the account's domain list.`;
	const lastComplete = lastCompleteDay(serverTime);
	const items: IDataObject[] = [];
	// One domain failing does not fail the others (as in a poll); all failing, the first error is the run's.
	let failure: unknown;
	for (const domain of domains) {
		let answer: unknown;
		try {
			answer = await api.aiDashboard(domain.id, dashboardQuery(scope, 7));
		} catch (error) {
			failure ??= error;
			continue;
		}
		const fresh = completedDays(aiSeriesOf(answer).days, Number.NEGATIVE_INFINITY, lastComplete);
		const latest = fresh[fresh.length - 1];
		if (!latest) continue;
		const matched = hasAiFilters(settings.aiFilters)
			? (matchDay(compareDays(latest.day, latest.before), settings.aiFilters!) ?? [])
			: undefined;
		items.push(
			dayItem(fullDay(domain, latest.day, latest.before), settings.output, settings.token, matched),
		);
	}
	if (items.length > 0) return items;
	if (failure !== undefined) return await Promise.reject(failure);
	return 'No completed day of AI-visibility data yet: the first day of a new domain is complete at midnight (UTC).';
}
