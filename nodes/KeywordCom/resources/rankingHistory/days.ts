import { MAX_CHART_DAYS } from '../../../shared/constants';
import { InputError } from '../../../shared/validation';

/** The date window of Get Many's rows: days as whole numbers since the epoch (UTC), as Keyword.com counts them. */
export const DAY_MS = 86_400_000;

/** Days since the epoch of a checked `YYYY-MM-DD`. */
export const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
export const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The API's day (UTC) from its `Date` header; the n8n host's clock when the answer has none. */
export function apiDay(headers: Record<string, unknown>): number {
	const date = headers.date ?? headers.Date;
	const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
	return Math.floor((Number.isNaN(ms) ? Date.now() : ms) / DAY_MS);
}

/** The range with its defaults (the API's last 30 days), checked against the history the API keeps. */
export function resolveRange(
	settings: { start?: string; end?: string },
	today: number,
): { from: number; to: number } {
	const to = settings.end ? dayNumber(settings.end) : today;
	const from = settings.start ? dayNumber(settings.start) : to - 29;
	const oldest = today - (MAX_CHART_DAYS - 1);
	if (from > to) {
		throw new InputError(
			'Start Date',
			`${dateOf(from)} is after the end of the range, ${dateOf(to)} (Keyword.com's today)`,
		);
	}
	if (from < oldest) {
		throw new InputError(
			settings.start ? 'Start Date' : 'End Date',
			`${dateOf(from)} is more than ${MAX_CHART_DAYS} days back (Keyword.com's today is ${dateOf(today)}); the first day it can give is ${dateOf(oldest)}`,
		);
	}
	return { from, to };
}
