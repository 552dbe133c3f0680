/**
 * New Alert, filter Tags: the tags of the keywords of this poll's alerts. An alert names its keyword (`keyword_id`)
 * and its project or group (`category`) but not the keyword's tags; they are in the keyword's record, so the
 * project's keyword list (#13) is read, pages of 250, until every keyword asked for is found — only for the projects
 * of alerts that passed the other filters, only when there are some. A keyword the list no longer holds (deleted),
 * or a list that is gone (404/410), has no tags. A list that cannot be read (an error after its tries, the poll's
 * time or request cap) leaves its keywords' tags unknown: their alerts are emitted marked `tags_unknown` rather than
 * dropped or held back (holding them would stall every other project's alerts behind them).
 */
import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent } from '../../shared/paging';
import { alertCategory, alertKeywordId, alertMove } from '../logic/alerts';
import { matchFilters, tagsOf, type MovementFilters } from '../logic/filters';
import { GONE } from '../logic/keywords';
import {
	isOutOfTime,
	messageOf,
	RequestAllowance,
	servedList,
	statusOf,
	type PollLimits,
	type PollProblem,
	type TriggerApi,
} from './common';

const PAGE_SIZE = 250;
/** Lists read side by side. */
const CONCURRENCY = 2;

export interface AlertTags {
	/** Keyword id → its tags (names and ids); [] when it has none or is gone. */
	tags: Map<string, string[]>;
	/** Keyword ids whose tags could not be read. */
	unknown: Set<string>;
	problems: PollProblem[];
}

/**
 * With the filter Tags: the tags of the keywords of the alerts that pass the other filters. Nothing is read without
 * that filter or without such alerts.
 */
export async function tagsForAlerts(
	api: TriggerApi,
	records: readonly IDataObject[],
	filters: MovementFilters | undefined,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertTags | undefined> {
	if (!filters?.tags || filters.tags.length === 0) return undefined;
	const others: MovementFilters = { movedBy: filters.movedBy, crossedTop: filters.crossedTop };
	const wanted = new Map<string, Set<string>>();
	for (const record of records) {
		const keywordId = alertKeywordId(record);
		if (keywordId === undefined || !matchFilters(alertMove(record), others)) continue;
		const category = alertCategory(record);
		const ids = wanted.get(category) ?? new Set<string>();
		wanted.set(category, ids.add(keywordId));
	}
	return wanted.size === 0 ? undefined : await readAlertTags(api, wanted, limits, allowance);
}

/** The tags of the keywords `wanted` (project or group name → keyword ids). */
export async function readAlertTags(
	api: TriggerApi,
	wanted: ReadonlyMap<string, ReadonlySet<string>>,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<AlertTags> {
	const found: AlertTags = { tags: new Map(), unknown: new Set(), problems: [] };
	await mapConcurrent([...wanted], CONCURRENCY, async ([name, ids]) => {
		const left = new Set(ids);
		try {
			for (let page = 1; left.size > 0; page++) {
				if (!limits.budget.mayStart() || allowance.grant(1) === 0)
					throw Object.assign(new Error('out of time or requests'), { outOfTime: true });
				const served = servedList(
					await limits.budget.timed(async () => await api.keywordPage(name, page, PAGE_SIZE)),
				);
				for (const record of served.records as IDataObject[]) {
					const id = String(record?.id ?? '');
					if (!left.delete(id)) continue;
					found.tags.set(id, tagsOf((record.attributes ?? {}) as IDataObject) ?? []);
				}
				// The end: the page count, or an empty page (a short page may be an API's lower cap on per_page).
				if (served.records.length === 0 || page >= (served.totalPages ?? Infinity)) break;
			}
			// Not in the list: deleted since its alert; it carries no tag.
			for (const id of left) found.tags.set(id, []);
		} catch (error) {
			const status = statusOf(error);
			if (status !== null && GONE.has(status)) {
				for (const id of left) found.tags.set(id, []);
				return;
			}
			for (const id of left) found.unknown.add(id);
			const why = isOutOfTime(error) ? "within the poll's budget" : `(${messageOf(error)})`;
			found.problems.push({
				status,
				message: messageOf(error),
				text: `the keyword list of "${name}" could not be read ${why}, so the tags of ${left.size} alerted keyword(s) are unknown; their alerts are emitted with "tags_unknown" in "matched"`,
			});
		}
	});
	return found;
}
