/**
 * The trigger's filters, one entry each (its own file in this folder), and all that is derived from the list: the
 * Filters collection's fields (in alphabetical order, each shown for its events), the settings' types, reading them
 * (checked before any request), whether any is set, which cost no request, and the verdict on an event with its
 * reasons (`matched`). Pure.
 *
 * Every filter set must pass (they combine with AND); an event that passes carries one reason per filter, in this
 * list's order, so one trigger can feed a Switch node. Adding one: ARCHITECTURE.md, "Adding a trigger filter".
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { engines, topics } from './aiNarrowing';
import { brandPresence } from './brandPresence';
import { competitorOvertook } from './competitorOvertook';
import { crossedTop } from './crossedTop';
import { isSet, type FilterField, type TriggerEvent, type TriggerFilter } from './filterEntry';
import { movedBy } from './movedBy';
import { rankingUrlChanged } from './rankingUrlChanged';
import type { DayComparison, RankMove } from './subjects';
import { tags } from './tags';
import { visibilityChange } from './visibilityChange';

/** New Alert's and Keyword Updated's filters, in the order of their reasons. */
export const RANK_FILTERS = [movedBy, crossedTop, rankingUrlChanged, tags] as const;
/** AI Visibility Updated's filters, in the order of their reasons. */
export const AI_FILTERS = [visibilityChange, brandPresence, competitorOvertook] as const;
/** AI Visibility Updated's Topics and Engines: in the collection, but what the API measures (polling/scope.ts). */
export const AI_NARROWING = [topics, engines] as const;

type SettingsOf<List extends readonly FilterField<string, unknown>[]> = {
	[Entry in List[number] as Entry['key']]?: Exclude<ReturnType<Entry['read']>, undefined>;
};
/** The rank events' filters, as the polls get them. */
export type MovementFilters = SettingsOf<typeof RANK_FILTERS>;
/** AI Visibility Updated's filters, as its poll gets them. */
export type AiFilters = SettingsOf<typeof AI_FILTERS>;
export type RankFilterKey = keyof MovementFilters;
export type AiFilterKey = keyof AiFilters;

type AnyField = FilterField<string, unknown>;
type AnyFilter<Subject> = TriggerFilter<string, unknown, Subject>;

/** The Filters collection: every entry's fields, shown for its events, in alphabetical order. */
export function filterFields(): INodeProperties[] {
	const entries: readonly AnyField[] = [...RANK_FILTERS, ...AI_FILTERS, ...AI_NARROWING];
	const options = entries
		.flatMap((entry) =>
			entry.fields.map(
				(field): INodeProperties => ({
					...field,
					displayOptions: { show: { '/event': [...entry.events] } },
				}),
			),
		)
		.sort((a, b) => a.displayName.localeCompare(b.displayName, 'en'));
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add filter',
			default: {},
			description:
				'Only emit the events that pass every filter set; each item lists the filters it passed in "matched". Filtered-out events are not emitted later either.',
			options,
		},
	];
}

function readAll(entries: readonly AnyField[], raw: IDataObject, event: TriggerEvent) {
	const settings: Record<string, unknown> = {};
	for (const entry of entries) {
		if (!entry.events.includes(event)) continue;
		const setting = entry.read(raw);
		if (isSet(setting)) settings[entry.key] = setting;
	}
	return settings;
}

/** The rank filters the Filters collection sets for `event`; a bad value, or one without what it needs, is an InputError. */
export function readFilters(raw: IDataObject, event: TriggerEvent): MovementFilters {
	return readAll(RANK_FILTERS, raw, event) as MovementFilters;
}

/** AI Visibility Updated's filters; a bad value is an InputError. */
export function readAiFilters(raw: IDataObject): AiFilters {
	return readAll(AI_FILTERS, raw, 'aiVisibilityUpdated') as AiFilters;
}

/** Topics and Engines as the Filters collection gives them (empty: every topic, every engine). */
export function readAiNarrowing(raw: IDataObject): { topics: string[]; engines: string[] } {
	return { topics: topics.read(raw) ?? [], engines: engines.read(raw) ?? [] };
}

function anySet(entries: readonly AnyField[], settings: object | undefined): boolean {
	const values = (settings ?? {}) as Record<string, unknown>;
	return entries.some((entry) => isSet(values[entry.key]));
}

function verdict<Subject>(
	entries: readonly AnyFilter<Subject>[],
	settings: object,
	subject: Subject,
): string[] | undefined {
	const values = settings as Record<string, unknown>;
	const matched: string[] = [];
	for (const entry of entries) {
		const setting = values[entry.key];
		if (!isSet(setting)) continue;
		const reason = entry.match(subject, setting);
		if (reason === undefined) return undefined;
		matched.push(reason);
	}
	return matched;
}

export function hasFilters(filters: MovementFilters | undefined): boolean {
	return anySet(RANK_FILTERS, filters);
}

export function hasAiFilters(filters: AiFilters | undefined): boolean {
	return anySet(AI_FILTERS, filters);
}

/**
 * Why the move passes every filter set (`['moved_up', 'top10_entered', 'tagged']`), or undefined when one of them
 * fails. No filter set: an empty list (everything passes).
 */
export function matchFilters(move: RankMove, filters: MovementFilters): string[] | undefined {
	return verdict<RankMove>(RANK_FILTERS, filters, move);
}

/** Why the day passes every filter set (`['visibility_dropped', 'brand_lost']`), or undefined when one fails. */
export function matchDay(comparison: DayComparison, filters: AiFilters): string[] | undefined {
	return verdict<DayComparison>(AI_FILTERS, filters, comparison);
}

/**
 * The filters set that cost no request in `event`: those that decide which events the costly ones (Tags' keyword
 * lists in New Alert, Ranking URL Changed's history in Keyword Updated) are checked for.
 */
export function filtersWithoutRequests(
	filters: MovementFilters | undefined,
	event: TriggerEvent,
): MovementFilters {
	const values = (filters ?? {}) as Record<string, unknown>;
	const cheap: Record<string, unknown> = {};
	for (const entry of RANK_FILTERS as readonly AnyFilter<RankMove>[])
		if (!entry.costsRequestsIn?.includes(event) && values[entry.key] !== undefined)
			cheap[entry.key] = values[entry.key];
	return cheap as MovementFilters;
}
