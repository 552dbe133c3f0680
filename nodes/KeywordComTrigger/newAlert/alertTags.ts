/**
 * New Alert, filter Tags: the tags of the keywords of this poll's alerts. An alert names its keyword (`keyword_id`)
 * and its project or group (`category`) but not the keyword's tags; they are in the keyword's record, so the
 * project's keyword list (#13) is read until every keyword asked for is found, with pages that overlap as Keyword
 * Updated reads them (a keyword deleted or added between two page requests shifts nothing out of sight) — only for
 * the projects of alerts that passed the other filters, only when there are some. One the whole list did not show
 * (moved within a list in rank order while it was read, or gone) is asked for alone (#11), and, where the alert names
 * only a project (§2.6), in each of the project's groups (their names from groups/active). A keyword whose tags
 * cannot be told is **unknown**, and its alert is emitted marked `tags_unknown` rather than dropped or held back
 * (holding it would stall every other project's alerts behind it): a list that cannot be read (an error after its
 * tries, the poll's time or request cap), a list that is gone (404/410: the project was renamed, or deleted, since
 * its alert named it), or a keyword none of the lists holds (deleted, moved to another group, or in an archived
 * group: #11 answers 404), which the poll says in n8n's log.
 */
import type { IDataObject } from 'n8n-workflow';

import { composeName, isGroupName } from '../../shared/groupName';
import { mapConcurrent } from '../../shared/paging';
import { alertCategory, alertKeywordId, alertMove } from './alertRecords';
import { GroupNames, lookUpKeyword } from './alertKeywordLookup';
import {
	filtersWithoutRequests,
	matchFilters,
	type MovementFilters,
} from '../filters/triggerFilters';
import { tagsOf } from '../filters/tags';
import {
	GONE,
	isOutOfTime,
	messageOf,
	RequestAllowance,
	servedList,
	statusOf,
	type PollLimits,
	type PollProblem,
	type TriggerApi,
} from '../polling/pollContract';
import { keywordId } from '../polling/listReadState';
import { readKeywordList } from '../polling/keywordListRead';

/** Lists read side by side. */
const CONCURRENCY = 2;
/** Pages of one list asked at once. */
const PAGES_AT_ONCE = 4;

export interface AlertTags {
	/** Keyword id → its tags (names and ids); [] when it has none. */
	tags: Map<string, string[]>;
	/** Keyword ids whose tags could not be told. */
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
	known: ReadonlyMap<string, string[]> = new Map(),
	groups = new GroupNames(api, limits, allowance),
): Promise<AlertTags | undefined> {
	if (!filters?.tags || filters.tags.length === 0) return undefined;
	const others = filtersWithoutRequests(filters, 'newAlert');
	const wanted = new Map<string, Set<string>>();
	for (const record of records) {
		const keywordId = alertKeywordId(record);
		if (keywordId === undefined || !matchFilters(alertMove(record), others)) continue;
		// Looked up already, in the list that holds it (alertScope.ts).
		if (known.has(keywordId)) continue;
		const category = alertCategory(record);
		const ids = wanted.get(category) ?? new Set<string>();
		wanted.set(category, ids.add(keywordId));
	}
	const read =
		wanted.size === 0
			? { tags: new Map<string, string[]>(), unknown: new Set<string>(), problems: [] }
			: await readAlertTags(api, wanted, limits, allowance, groups);
	for (const [id, tags] of known) read.tags.set(id, tags);
	return read.tags.size === 0 && read.unknown.size === 0 && read.problems.length === 0
		? undefined
		: read;
}

/** Ends a list's read once every keyword asked for is found (not a failure: nothing else is needed from it). */
function allFound(): Error {
	return Object.assign(new Error('every keyword asked for was found'), { outOfTime: true });
}

/**
 * Asks for each keyword of `left` alone (#11), one after another: one found leaves `left` with its tags; a 404 or 410
 * (the list no longer holds it) leaves it unknown. Returns what stopped the lookups: an error, or time or requests
 * running out.
 */
async function lookUpAlone(
	api: TriggerApi,
	name: string,
	left: Set<string>,
	tags: Map<string, string[]>,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<unknown> {
	for (const id of [...left]) {
		const answer = await lookUpKeyword(api, name, id, limits, allowance);
		if ('failed' in answer) return answer.failed;
		if (!answer.record) continue;
		left.delete(id);
		tags.set(id, tagsOf((answer.record.attributes ?? {}) as IDataObject) ?? []);
	}
	return undefined;
}

/**
 * Asks for each keyword of `left` in each group of `project` (#11), one after another: one found leaves `left` with
 * its tags. Returns what stopped the lookups: an error, or time or requests running out.
 */
async function lookInGroups(
	api: TriggerApi,
	project: string,
	left: Set<string>,
	tags: Map<string, string[]>,
	limits: PollLimits,
	allowance: RequestAllowance,
	groups: GroupNames,
): Promise<unknown> {
	let names: string[];
	try {
		names = await groups.of(project);
	} catch (error) {
		return error;
	}
	for (const group of names) {
		if (left.size === 0) break;
		const error = await lookUpAlone(
			api,
			composeName(project, group),
			left,
			tags,
			limits,
			allowance,
		);
		if (error !== undefined) return error;
	}
	return undefined;
}

/** The tags of the keywords `wanted` (project or group name → keyword ids). */
export async function readAlertTags(
	api: TriggerApi,
	wanted: ReadonlyMap<string, ReadonlySet<string>>,
	limits: PollLimits,
	allowance: RequestAllowance,
	// The account's groups, asked once a poll (groups/active) when an alert naming only its project needs them.
	groups = new GroupNames(api, limits, allowance),
): Promise<AlertTags> {
	const found: AlertTags = { tags: new Map(), unknown: new Set(), problems: [] };
	await mapConcurrent([...wanted], CONCURRENCY, async ([name, ids]) => {
		const left = new Set(ids);
		const fetch = async (page: number, perPage: number) => {
			if (left.size === 0) throw allFound();
			const served = servedList(
				await limits.budget.timed(async () => await api.keywordPage(name, page, perPage)),
			);
			for (const record of served.records as IDataObject[]) {
				const id = keywordId(record);
				if (id === undefined || !left.delete(id)) continue;
				found.tags.set(id, tagsOf((record.attributes ?? {}) as IDataObject) ?? []);
			}
			return served;
		};
		const outcome = await readKeywordList(
			fetch,
			{ windowEnd: Number.MAX_SAFE_INTEGER, lastIndex: -1, listLength: 0 },
			limits,
			allowance,
			PAGES_AT_ONCE,
		);
		const whole = outcome.read === 'done' && outcome.error === undefined;
		// A list read whole may still have moved a keyword from its unread part to its read part meanwhile (a list in
		// rank order, crawled while it was read): each one left is asked for alone.
		let error =
			whole && left.size > 0
				? await lookUpAlone(api, name, left, found.tags, limits, allowance)
				: outcome.error;
		// An alert that names only its project (§2.6) may be about a keyword of one of its groups.
		if (whole && error === undefined && left.size > 0 && !isGroupName(name))
			error = await lookInGroups(api, name, left, found.tags, limits, allowance, groups);
		// What none showed (deleted, moved to another group, or not reached) cannot be told.
		for (const id of left) found.unknown.add(id);
		if (left.size === 0) return;
		if (whole && error === undefined) {
			found.problems.push({
				status: null,
				message: 'the keyword is in none of its lists',
				text: `${left.size} alerted keyword(s) of "${name}" are in none of its lists that groups/active shows (deleted, or in an archived group), so their tags are unknown; their alerts are emitted with "tags_unknown" in "matched"`,
			});
			return;
		}
		const status = error === undefined ? null : statusOf(error);
		const why =
			error === undefined || isOutOfTime(error)
				? "within the poll's budget"
				: status !== null && GONE.has(status)
					? '(it is gone: renamed or deleted since the alert named it)'
					: `(${messageOf(error)})`;
		found.problems.push({
			status,
			message: error === undefined ? 'out of time or requests' : messageOf(error),
			text: `the keyword list of "${name}" could not be read ${why}, so the tags of ${left.size} alerted keyword(s) are unknown; their alerts are emitted with "tags_unknown" in "matched"`,
		});
	});
	return found;
}
