/**
 * Keyword Updated, filter Ranking URL Changed: the ranking history (#14) of the keywords a read finds updated, asked
 * page by page as the read goes, so that a read stops (and goes on at the next poll) before a page whose keywords
 * could not be told apart; rankingUrls.ts compares.
 */
import { rankingUrlChanged, chartUrls, rankingUrlOf, type UrlEntry } from './rankingUrls';
import type { KeywordEvent } from './windowEvents';
import {
	statusOf,
	type PollLimits,
	type RequestAllowance,
	type TriggerApi,
} from '../shared/pollContract';

/** Keywords per history request (the API bounds none in its document; the action node's default chunk). */
export const HISTORY_CHUNK = 100;
/** Days of history asked: the update's own date and the ones before it. */
export const HISTORY_DAYS = 3;

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

export class RankingUrlHistory {
	/** Keyword id → whether its last update's ranking URL changed (undefined: the history does not tell). */
	private readonly changed = new Map<string, boolean | undefined>();

	constructor(
		private readonly api: TriggerApi,
		private readonly limits: PollLimits,
		private readonly allowance: RequestAllowance,
	) {}

	/** The verdict of an event looked up before (undefined: unknown, or never asked). */
	verdict(event: KeywordEvent): boolean | undefined {
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
		let wanted = events.filter((event) => !this.changed.has(keyOf(event)));
		let chunk = HISTORY_CHUNK;
		// The most the API charts at once, as far as it has shown.
		let cap = HISTORY_CHUNK;
		while (wanted.length > 0) {
			if (!this.limits.budget.mayStart() || this.allowance.grant(1) === 0) throw outOfTime();
			const asked = wanted.slice(0, chunk);
			// A keyword deleted since its list was read: an API may refuse the whole request for it (404). Asked in
			// halves, the others are charted; the one refused alone cannot tell (its update goes with it).
			const body = await this.limits.budget
				.timed(
					async () =>
						await this.api.chart(
							asked.map((event) => event.id),
							HISTORY_DAYS,
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
				wanted = wanted.filter((event) => !this.changed.has(keyOf(event)));
				continue;
			}
			const urls = chartUrls(body);
			const served = asked.filter((event) => urls.has(event.id));
			for (const event of served) this.settle(event, urls.get(event.id) as UrlEntry[]);
			if (served.length === 0) {
				// Nothing of these came back (deleted meanwhile, or an API that charts none): they cannot tell.
				for (const event of asked) this.changed.set(keyOf(event), undefined);
			} else if (served.length < asked.length) {
				// A lower cap: ask the rest in that size.
				cap = served.length;
				chunk = cap;
			} else chunk = Math.min(cap, chunk * 2); // back up after halves asked around a deleted keyword
			wanted = wanted.filter((event) => !this.changed.has(keyOf(event)));
		}
	}

	private settle(event: KeywordEvent, entries: UrlEntry[]): void {
		// A keyword's first update has no URL before it, whatever the chart shows for the days before it was tracked
		// (an API may fill them in as "NOT FOUND").
		const verdict = isFirstUpdate(event)
			? undefined
			: rankingUrlChanged(entries, event.at, rankingUrlOf(event.record));
		this.changed.set(keyOf(event), verdict);
	}
}

/** Whether the record's rank history holds this update only (`grankhistory` of one entry). */
function isFirstUpdate(event: KeywordEvent): boolean {
	const history = ((event.record.attributes ?? {}) as { grankhistory?: unknown }).grankhistory;
	return Array.isArray(history) && history.length <= 1;
}
