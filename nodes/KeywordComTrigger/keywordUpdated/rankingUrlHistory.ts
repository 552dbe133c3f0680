/**
 * Keyword Updated, filter Ranking URL Changed: the ranking history (#14) of the keywords a read finds updated, asked
 * page by page as the read goes, so that a read stops (and goes on at the next poll) before a page whose keywords
 * could not be told apart; rankingUrls.ts compares.
 *
 * How far back to ask: the document gives `limit` as "days of history" without saying from when (the API's today,
 * the keyword's last crawl) or whether it counts entries. The first request asks from the API's today (its `Date`
 * header) back past the update's own day by a week and a day, which holds the crawl before on a daily or weekly plan
 * whichever way `limit` counts; a keyword whose crawl before is not in that answer is asked again as far as the API
 * goes (180 days).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	rankingUrlChanged,
	chartUrls,
	rankingUrlOf,
	type PreviousRank,
	type UrlEntry,
	type UrlVerdict,
} from './rankingUrls';
import type { KeywordEvent } from './windowEvents';
import type { ListOrder } from '../../shared/paging';
import { historyOrderEvidence, rankChange } from '../polling/rankHistory';
import {
	statusOf,
	type PollLimits,
	type PollProblem,
	type RequestAllowance,
	type TriggerApi,
} from '../polling/pollContract';

/** Keywords per history request (the API bounds none in its document; the action node's default chunk). */
export const HISTORY_CHUNK = 100;
/** Days asked past an update's own day at first: a weekly plan's crawl before, and a day for time zones. */
export const LOOKBACK_DAYS = 8;
/** The most history the API gives (spec §8). */
export const MAX_HISTORY_DAYS = 180;

const DAY_S = 86_400;

/** An error that ends a page's read for want of time or requests: the read goes on from before that page. */
function outOfTime(): Error {
	return Object.assign(new Error('no time or requests left for the ranking history'), {
		outOfTime: true,
	});
}

/** An update's key in the verdicts: a keyword crawled again is another update. */
const keyOf = (event: KeywordEvent) => `${event.id}@${event.at}`;

/** A history request the API refused (404). */
const REFUSED = Symbol('refused');

/** Days from the update's own day to `today` (Unix seconds), both counted. */
const daysSince = (at: number, today: number) =>
	Math.max(1, Math.floor(today / DAY_S) - Math.floor(at / DAY_S) + 1);

export class RankingUrlHistory {
	/** Keyword id@crawl → its verdict (rankingUrls.ts); absent: not asked yet. */
	private readonly changed = new Map<string, Exclude<UrlVerdict, 'further'>>();

	/**
	 * @param today The API's clock now (Unix seconds), once known; else the newest update asked about stands for it.
	 * @param order The rank history's order as far as it is known (the rank before an update).
	 */
	constructor(
		private readonly api: TriggerApi,
		private readonly limits: PollLimits,
		private readonly allowance: RequestAllowance,
		private readonly today: () => number | undefined = () => undefined,
		private readonly order: () => ListOrder | undefined = () => undefined,
	) {}

	/** The verdict of an event looked up before (undefined: no crawl before it, or never asked). */
	verdict(event: KeywordEvent): boolean | 'unknown' | undefined {
		return this.changed.get(keyOf(event));
	}

	/** Whether every one of `events` has been looked up. */
	has(events: readonly KeywordEvent[]): boolean {
		return events.every((event) => this.changed.has(keyOf(event)));
	}

	/**
	 * Looks up the ranking history of `events` (those not looked up yet), in chunks. Throws an out-of-time error when
	 * the poll's time or requests end first: the page they came from is then read again at the next poll.
	 */
	async lookUp(events: readonly KeywordEvent[]): Promise<void> {
		const wanted = events.filter((event) => !this.changed.has(keyOf(event)));
		// The crawl before outside the top results: its URL was "NOT FOUND", nothing to ask.
		const asking: KeywordEvent[] = [];
		for (const event of wanted) {
			const previous = this.previousOf(event);
			if (previous === 'none' || previous === 'outside')
				this.changed.set(
					keyOf(event),
					rankingUrlChanged([], event.at, rankingUrlOf(event.record), previous) as
						| boolean
						| undefined,
				);
			else asking.push(event);
		}
		if (asking.length === 0) return;
		const today = Math.max(this.today() ?? 0, ...asking.map((event) => event.at));
		const further = await this.ask(asking, (chunk) =>
			Math.min(
				MAX_HISTORY_DAYS,
				Math.max(...chunk.map((event) => daysSince(event.at, today))) + LOOKBACK_DAYS,
			),
		);
		if (further.length > 0) await this.ask(further, () => MAX_HISTORY_DAYS);
	}

	/** The rank of the crawl before an update, from its record's rank history. */
	private previousOf(event: KeywordEvent): PreviousRank {
		const attributes = (event.record.attributes ?? {}) as IDataObject;
		const history = attributes.grankhistory;
		// A keyword's first update has no URL before it, whatever the chart shows for the days before it was tracked.
		if (Array.isArray(history) && history.length <= 1) return 'none';
		// The order known for the account, else what this keyword's own history shows.
		const move = rankChange(attributes, this.order() ?? historyOrderEvidence(attributes));
		if (move.change === null) return 'unknown';
		return move.previous_rank === null ? 'outside' : move.previous_rank;
	}

	/** Asks the history of `events` in chunks, `daysFor` each; returns those whose crawl before it did not reach. */
	private async ask(
		events: readonly KeywordEvent[],
		daysFor: (chunk: readonly KeywordEvent[]) => number,
	): Promise<KeywordEvent[]> {
		const further: KeywordEvent[] = [];
		const done = (event: KeywordEvent) => this.changed.has(keyOf(event)) || further.includes(event);
		let wanted = events.filter((event) => !done(event));
		let chunk = HISTORY_CHUNK;
		// The most the API charts at once, as far as it has shown.
		let cap = HISTORY_CHUNK;
		while (wanted.length > 0) {
			if (!this.limits.budget.mayStart() || this.allowance.grant(1) === 0) throw outOfTime();
			const asked = wanted.slice(0, chunk);
			const days = daysFor(asked);
			// A keyword deleted since its list was read: an API may refuse the whole request for it (404). Asked in
			// halves, the others are charted; the one refused alone cannot tell (its update goes with it).
			const body = await this.limits.budget
				.timed(
					async () =>
						await this.api.chart(
							asked.map((event) => event.id),
							days,
						),
				)
				.catch(async (error: unknown) =>
					statusOf(error) === '404' ? REFUSED : await Promise.reject(error),
				);
			if (body === REFUSED) {
				if (asked.length > 1) chunk = Math.ceil(asked.length / 2);
				else {
					this.changed.set(keyOf(asked[0]), undefined);
					chunk = cap;
				}
				wanted = wanted.filter((event) => !done(event));
				continue;
			}
			const urls = chartUrls(body);
			const served = asked.filter((event) => urls.has(event.id));
			for (const event of served) {
				const verdict = this.settle(event, urls.get(event.id) as UrlEntry[], days);
				if (verdict === 'further') further.push(event);
			}
			if (served.length === 0) {
				// Nothing of these came back (deleted meanwhile, or an API that charts none): they cannot tell.
				for (const event of asked) this.changed.set(keyOf(event), undefined);
			} else if (served.length < asked.length) {
				// A lower cap: ask the rest in that size.
				cap = served.length;
				chunk = cap;
			} else chunk = Math.min(cap, chunk * 2); // back up after halves asked around a deleted keyword
			wanted = wanted.filter((event) => !done(event));
		}
		return further;
	}

	private settle(event: KeywordEvent, entries: UrlEntry[], days: number): UrlVerdict {
		const verdict = rankingUrlChanged(
			entries,
			event.at,
			rankingUrlOf(event.record),
			this.previousOf(event),
			days < MAX_HISTORY_DAYS,
		);
		if (verdict !== 'further') this.changed.set(keyOf(event), verdict);
		return verdict;
	}
}

/** A poll's ranking history, asked from the API's today once groups/active (`listing`) has answered. */
export function urlHistoryOf(
	api: TriggerApi,
	limits: PollLimits,
	allowance: RequestAllowance,
	listing: Promise<{ serverTime: number }>,
	order: ListOrder | undefined,
): RankingUrlHistory {
	let apiNow: number | undefined;
	listing.then(
		({ serverTime }) => (apiNow = serverTime),
		() => undefined,
	);
	return new RankingUrlHistory(
		api,
		limits,
		allowance,
		() => apiNow,
		() => order,
	);
}

/** The warning for updates passed on with `ranking_url_unknown` (none: nothing to say). */
export function unknownUrls(items: readonly IDataObject[]): PollProblem[] {
	const count = items.filter(
		(item) =>
			Array.isArray(item.matched) && (item.matched as unknown[]).includes('ranking_url_unknown'),
	).length;
	if (count === 0) return [];
	return [
		{
			status: null,
			message: 'the ranking history does not show the crawl before',
			text: `${count} keyword update(s) passed on with "ranking_url_unknown" in "matched": the ranking history (#14) does not show the crawl before them (it keeps one entry a day and a later crawl of that day replaced it, or the rank before is not known yet), so whether their ranking URL changed cannot be told`,
		},
	];
}
