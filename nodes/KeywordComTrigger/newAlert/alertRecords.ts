/**
 * New Alert: pure parts. The poll reads the alert list (#20) from the cursor's floor towards the newest alert
 * (whichever way the list runs); `advance` (polling/windowCursor.ts) tells which alerts are new; they are emitted oldest first.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Stamped } from '../polling/windowCursor';
import { hasFilters, matchFilters, type MovementFilters } from '../filters/triggerFilters';
import type { RankMove } from '../filters/subjects';
import { OUTSIDE, rankValue } from '../../shared/ranks';
import { alertSecondsOf } from '../../shared/paging';
import { shapeForOutput, type OutputChoice } from '../../shared/output';
import { alertCatalogue } from '../../shared/recordKinds/alert';
import { redactDeep } from '../../shared/redact';

/** Largest page of the alert list. */
export const ALERT_PAGE_SIZE = 250;
/** A late alert stamped up to this many seconds before the newest one seen is still reported. */
export const ALERT_LOOKBACK_SECONDS = 300;
/**
 * Most alert ids the cursor keeps. Below one page, so that an idle poll always finds the floor on page 1
 * (one request), however many alerts share the boundary.
 */
export const ALERT_ID_CAP = 200;

export interface AlertEvent extends Stamped {
	record: IDataObject;
}

function attributesOf(record: IDataObject): IDataObject {
	const attributes = record.attributes;
	return attributes && typeof attributes === 'object' && !Array.isArray(attributes)
		? (attributes as IDataObject)
		: {};
}

/** Whole seconds of an alert: `created_at` (Unix seconds), else its ISO `time`. */
export function alertTime(record: IDataObject): number | undefined {
	const seconds = alertSecondsOf(attributesOf(record));
	return seconds === undefined ? undefined : Math.floor(seconds);
}

/** The alerts of one page as events; records without an id or a time are left out. */
export function toAlertEvents(records: readonly unknown[]): AlertEvent[] {
	const events: AlertEvent[] = [];
	for (const raw of records) {
		const key = alertKey(raw);
		if (key) events.push({ ...key, record: raw as IDataObject });
	}
	return events;
}

/** An alert's key (its created_at and id), or undefined when it has none (it is then not an event). */
export function alertKey(raw: unknown): Stamped | undefined {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const record = raw as IDataObject;
	const at = alertTime(record);
	if (record.id === undefined || record.id === null || at === undefined) return undefined;
	return { id: String(record.id), at };
}

export function alertCategory(record: IDataObject): string {
	const category = attributesOf(record).category;
	return typeof category === 'string' ? category : '';
}

/** The item emitted for one alert: the same item as the action node's Alert → Get Many. The token never appears. */
export function alertItem(
	record: IDataObject,
	output: OutputChoice,
	token: string | undefined,
): IDataObject {
	return redactDeep(shapeForOutput(record, alertCatalogue, output), token);
}

/** The id of an alert's keyword (`keyword_id`), or undefined. */
export function alertKeywordId(record: IDataObject): string | undefined {
	const id = attributesOf(record).keyword_id;
	return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

/** Tags read for the filter Tags (alertTags.ts): by keyword id, and those that could not be read. */
export interface KnownTags {
	tags: ReadonlyMap<string, string[]>;
	unknown: ReadonlySet<string>;
}

/**
 * An alert's move as the filters see it: `prevrank` → `result` (0 or null: outside the top results), and its
 * keyword's tags when they were read.
 */
export function alertMove(record: IDataObject, known?: KnownTags): RankMove {
	const attributes = attributesOf(record);
	const before = rankValue(attributes.prevrank);
	const after = rankValue(attributes.result);
	const asRank = (value: number | undefined) =>
		value === undefined || value === OUTSIDE ? null : value;
	const keywordId = alertKeywordId(record);
	return {
		rank: asRank(after),
		previousRank: asRank(before),
		previousKnown: before !== undefined && after !== undefined,
		tags: keywordId === undefined ? undefined : known?.tags.get(keywordId),
		tagsUnknown: keywordId !== undefined && known?.unknown.has(keywordId) === true,
	};
}

/**
 * The items of the alerts the filters let through, each with why (`matched`) when a filter is set. With `orAll`
 * (a test run), every alert when none passes, so that there is something to map.
 */
export function filteredAlertItems(
	records: readonly IDataObject[],
	filters: MovementFilters | undefined,
	output: OutputChoice,
	token: string | undefined,
	orAll = false,
	known?: KnownTags,
): IDataObject[] {
	if (!filters || !hasFilters(filters))
		return records.map((record) => alertItem(record, output, token));
	const passing = records.flatMap((record) => {
		const matched = matchFilters(alertMove(record, known), filters);
		return matched ? [{ ...alertItem(record, output, token), matched }] : [];
	});
	return passing.length === 0 && orAll
		? records.map((record) => alertItem(record, output, token))
		: passing;
}
