/**
 * New Alert: which alerts are in the trigger's scope, and in which list each one's keyword is. The document gives an
 * alert's `category` as its project's name (§2.6) and a keyword's as its project or group (§2.4), so an API may name
 * either. A category with a group part (`Project[sub]Group`) says where the keyword is. One that names a project only
 * says enough unless the scope tells a project from its groups (one group chosen, or a project without Include
 * Groups) and that project has groups: then the keyword is looked up
 * (#11) in the project's groups (the chosen one first) and last in the project, at most once a keyword a poll, and
 * the record found gives its tags too. Only alerts that pass the movement filters are looked up (the others are not
 * emitted anyway). An alert that cannot be placed (a lookup failed, the poll ran out first, or its keyword is gone) is
 * emitted rather than lost, and the poll says so in n8n's log.
 */
import type { IDataObject } from 'n8n-workflow';

import { composeName, groupsOf, inScope, isGroupName, type Scope } from '../../shared/groupName';
import { alertCategory, alertKeywordId, alertMove } from './alertRecords';
import { GroupNames, lookUpKeyword } from './alertKeywordLookup';
import {
	filtersWithoutRequests,
	matchFilters,
	type MovementFilters,
} from '../filters/triggerFilters';
import { tagsOf } from '../filters/tags';
import {
	messageOf,
	statusOf,
	type PollLimits,
	type PollProblem,
	type RequestAllowance,
	type TriggerApi,
} from '../polling/pollContract';

/** What the warning of alerts that could not be placed says (the simulation's checker reads it). */
export const UNPLACED = 'the group of their keyword could not be told';

export interface ScopedAlerts {
	/** The alerts in scope (those the movement filters drop left out), in their order. */
	records: IDataObject[];
	/** Keyword id → its tags, for the keywords looked up (#11). */
	tags: Map<string, string[]>;
	problems: PollProblem[];
}

/**
 * The records of `records` in `scope` that may pass the filters. Sends nothing unless a category names only a project
 * that must be told from its groups.
 */
export async function alertsInScope(
	api: TriggerApi,
	records: readonly IDataObject[],
	scope: Scope,
	filters: MovementFilters | undefined,
	limits: PollLimits,
	allowance: RequestAllowance,
	names = new GroupNames(api, limits, allowance),
): Promise<ScopedAlerts> {
	const movement = filtersWithoutRequests(filters, 'newAlert');
	const passing = records.filter((record) => matchFilters(alertMove(record), movement));
	const found: ScopedAlerts = { records: [], tags: new Map(), problems: [] };
	// Where the category alone says: true/false; 'ask': a project-only name that must be told from its groups.
	const toldApart = scope.project !== '' && (scope.group !== '' || !scope.includeGroups);
	const places = passing.map((record): boolean | 'ask' => {
		const category = alertCategory(record);
		if (isGroupName(category)) return inScope(category, scope);
		if (scope.project && category !== scope.project) return false;
		return toldApart ? 'ask' : true;
	});
	if (!places.includes('ask')) {
		found.records = passing.filter((_, n) => places[n] === true);
		return found;
	}

	// The projects' groups, from groups/active (a failure leaves every alert to be asked about unplaced).
	let groups: string[] | undefined;
	let failure: unknown;
	try {
		groups = await names.all();
	} catch (error) {
		failure = error;
	}

	// Keyword id → the name of the list holding it; null: none does (gone); undefined: it could not be told.
	const located = new Map<string, string | null | undefined>();
	const locate = async (project: string, id: string): Promise<string | null | undefined> => {
		if (located.has(id)) return located.get(id);
		let where: string | null | undefined;
		if (groups !== undefined) {
			const own = groupsOf(project, groups);
			// A project listed without groups holds its keywords itself. One not listed (archived, renamed or deleted
			// since its alert) may have groups no list shows: asked in the project only, its keywords may not be placed.
			if (own.length === 0 && groups.includes(project)) where = project;
			else {
				const first = project === scope.project && scope.group ? [scope.group] : [];
				const names = [...first, ...own.filter((group) => !first.includes(group))]
					.map((group) => composeName(project, group))
					.concat(project);
				where = null;
				for (const name of names) {
					const answer = await lookUpKeyword(api, name, id, limits, allowance);
					if ('failed' in answer) {
						failure ??= answer.failed;
						where = undefined;
						break;
					}
					if (!answer.record) continue;
					where = name;
					found.tags.set(id, tagsOf((answer.record.attributes ?? {}) as IDataObject) ?? []);
					break;
				}
			}
		}
		located.set(id, where);
		return where;
	};

	let unplaced = 0;
	for (const [n, record] of passing.entries()) {
		const place = places[n];
		if (place !== 'ask') {
			if (place) found.records.push(record);
			continue;
		}
		const id = alertKeywordId(record);
		const where = id === undefined ? undefined : await locate(alertCategory(record), id);
		if (typeof where === 'string') {
			if (inScope(where, scope)) found.records.push(record);
			continue;
		}
		// Not placed: emitted (a lost alert cannot be told afterwards; one of another group can).
		unplaced++;
		found.records.push(record);
	}
	if (unplaced > 0)
		found.problems.push({
			status: failure === undefined ? null : statusOf(failure),
			message: failure === undefined ? 'the keyword is in none of its lists' : messageOf(failure),
			text: `${unplaced} alert(s) name only their project and ${UNPLACED} (${failure === undefined ? 'the keyword is gone' : messageOf(failure)}): they are emitted, so none is lost; some may be of a group outside the trigger's scope`,
		});
	return found;
}
