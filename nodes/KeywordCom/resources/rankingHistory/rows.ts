import type { IDataObject } from 'n8n-workflow';

import { splitName } from '../../../shared/groupName';
import { OUTSIDE, rankDifference, rankValue } from '../../../shared/ranks';
import { readerOf, tagNames } from '../../../shared/records';
import type { OperationRuntime } from '../../operation/types';
import { dateOf } from './days';

/**
 * The rows of Get Many: one per keyword per day, from the keyword list and the keyword's chart. Their fields, and
 * which Simplified keeps, are the catalogue `rankingRow` (shared/recordKinds/rankingHistory.ts).
 */

/** A chosen keyword, as the list gave it: what every row of it repeats. */
export interface ListedKeyword {
	id: string;
	keyword: string;
	category: string;
	region: unknown;
	language: unknown;
	url: unknown;
	tags: string[];
}

export function listedKeyword(record: unknown): ListedKeyword {
	const read = readerOf((record ?? {}) as IDataObject);
	return {
		id: String(read('id')),
		keyword: String(read('kw') ?? ''),
		category: String(read('category') ?? ''),
		region: read('region') ?? null,
		language: read('language') ?? null,
		url: read('url') ?? null,
		tags: tagNames(read('tags')) ?? [],
	};
}

/** A row in both forms: every field it has (`full`), and the chart's day as sent with its kwid (`raw`). */
export interface Row {
	full: IDataObject;
	raw: IDataObject;
}

/** One day of a keyword's chart (E of the #14 answer): `{date, rank, rankingurl}`. */
type ChartDay = IDataObject & { date: string };

/** A rank as a user reads it: null outside the top results (null or 0) or when it is not a rank. */
function rankOrNull(value: unknown): number | null {
	const rank = rankValue(value);
	return rank === undefined || rank === OUTSIDE ? null : rank;
}

/** The days of a chart entry by date (E of the positional answer), whatever order they come in. */
function daysOf(entry: IDataObject | undefined): Map<string, ChartDay> {
	const parts = Array.isArray(entry?.data) ? (entry.data as unknown[]) : [];
	const details = parts[4] as IDataObject | undefined;
	const days = Array.isArray(details?.rankingurls) ? (details.rankingurls as IDataObject[]) : [];
	const byDate = new Map<string, ChartDay>();
	for (const day of days) {
		if (day && typeof day.date === 'string' && /^\d{4}-\d\d-\d\d$/.test(day.date))
			byDate.set(day.date, day as ChartDay);
	}
	return byDate;
}

/**
 * The rows of one keyword, oldest day first. `change` is previous_rank − rank with outside the top results counting
 * as 101 (positive = moved up), from the day before, which the chart holds for the first day of the range too when
 * its history reaches back that far; null when it does not.
 */
export function rowsOf(
	keyword: ListedKeyword,
	entry: IDataObject | undefined,
	range: { from: number; to: number },
): Row[] {
	const days = daysOf(entry);
	const { project, group } = splitName(keyword.category);
	const rows: Row[] = [];
	for (let day = range.from; day <= range.to; day++) {
		const today = days.get(dateOf(day));
		if (!today) continue;
		const before = days.get(dateOf(day - 1));
		const rankingUrl = today.rankingurl;
		const full: IDataObject = {
			date: today.date,
			keyword_id: keyword.id,
			keyword: keyword.keyword,
			project: project === '' ? null : project,
			group,
			region: keyword.region as IDataObject[string],
			language: keyword.language as IDataObject[string],
			url: keyword.url as IDataObject[string],
			tags: keyword.tags,
			rank: rankOrNull(today.rank),
			previous_rank: before ? rankOrNull(before.rank) : null,
			change: before ? rankDifference(before.rank, today.rank) : null,
			ranking_url:
				typeof rankingUrl === 'string' && rankingUrl !== '' && rankingUrl !== 'NOT FOUND'
					? rankingUrl
					: null,
		};
		rows.push({ full, raw: { kwid: entry?.kwid ?? null, ...today } });
	}
	return rows;
}

/** A row as the user chose to see it: Simplified and Selected Fields from its fields, Raw the chart's day as sent. */
export function rowShaper(runtime: OperationRuntime): (row: Row) => IDataObject {
	return ({ full, raw }) =>
		runtime.shape(runtime.input.get('output', 'simplified') === 'raw' ? raw : full, 'rankingRow');
}
