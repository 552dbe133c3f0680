/**
 * Keyword Updated: the projects and groups that left `groups/active` since the last poll, and those whose read ended in
 * this poll after they left, looked up (#2) (what becomes of each: departures.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent } from '../../shared/paging';
import { toContainers } from '../polling/containers';
import { departedWindow, givenUp, markPastDeparture, settleDeparture } from './departures';
import { type DepartureJob, type KeywordState, type ListJob } from './plan';
import type { JobRun } from './listReads';
import { GONE } from '../polling/pollContract';
import {
	isOutOfTime,
	messageOf,
	statusOf,
	type PollLimits,
	type PollProblem,
	type RequestAllowance,
	type TriggerApi,
} from '../polling/pollContract';

/**
 * The containers that left groups/active, looked up (#2): an archived one (the same project_id, where the API gives
 * one) has its window read up to its last update; a deleted one (404/410) is forgotten; one whose lookup fails is
 * parked, and one not reached (time, requests) waits for the next poll.
 */
export async function lookUpDepartures(
	api: TriggerApi,
	now: number | undefined,
	plan: { departures: DepartureJob[]; next: KeywordState },
	limits: PollLimits,
	allowance: RequestAllowance,
	problems: PollProblem[],
): Promise<ListJob[]> {
	const windows: ListJob[] = [];
	await mapConcurrent(plan.departures, 4, async (departure) => {
		if (!limits.budget.mayStart() || allowance.grant(1) === 0) {
			settleDeparture(plan.next, departure);
			return;
		}
		let body: unknown;
		try {
			body = await limits.budget.timed(
				async () =>
					await api.container(departure.name, departure.parked ? { tries: 1 } : undefined),
			);
		} catch (error) {
			const status = statusOf(error);
			if (status !== null && GONE.has(status)) {
				problems.push({ container: departure.name, status, message: messageOf(error), gone: true });
				return;
			}
			if (isOutOfTime(error)) settleDeparture(plan.next, departure);
			else {
				const gaveUp = settleDeparture(plan.next, departure, { status });
				const polls = (departure.parked?.polls ?? 0) + 1;
				problems.push({
					container: departure.name,
					status,
					message: messageOf(error),
					polls,
					...(gaveUp ? { text: givenUp(departure.name, polls, messageOf(error)) } : {}),
				});
			}
			return;
		}
		const record = (body as IDataObject | undefined)?.data;
		const [found] = toContainers({ data: record ? [record] : [] });
		const sameContainer =
			found !== undefined && (!departure.key.startsWith('id:') || found.key === departure.key);
		const window = departedWindow(
			departure,
			found ? { updatedAt: found.updatedAt, count: found.count, sameContainer } : undefined,
			now,
		);
		if (window) windows.push(window);
		else if (found?.updatedAt !== undefined && sameContainer)
			markPastDeparture(plan.next, found.updatedAt, now);
	});
	return windows;
}

/**
 * The departed containers whose read ended in this poll, their last update unknown (the read began before they left):
 * looked up now rather than at the next poll, which would otherwise be idle and spend a request on each. Each is
 * marked `lookedUp`: its lookup settles it, not its read (plan.ts, settleJob).
 */
export async function lookUpEndedReads(
	api: TriggerApi,
	now: number | undefined,
	runs: readonly JobRun[],
	next: KeywordState,
	limits: PollLimits,
	allowance: RequestAllowance,
	problems: PollProblem[],
): Promise<ListJob[]> {
	const ended = runs.filter(
		({ job, outcome }) =>
			job.departed && !job.dropped && job.until === undefined && outcome.read === 'done',
	);
	if (ended.length === 0 || !limits.budget.mayStart()) return [];
	for (const { job } of ended) job.lookedUp = true;
	const departures = ended.map(({ job }) => ({
		key: job.key,
		name: job.name,
		reportedUpTo: job.read.windowEnd,
	}));
	return await lookUpDepartures(api, now, { departures, next }, limits, allowance, problems);
}
