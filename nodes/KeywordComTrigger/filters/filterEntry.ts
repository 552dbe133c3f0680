/**
 * What a trigger filter is: the fields it adds to the Filters collection, the events it serves, how its setting is
 * read from those fields (checked before any request), and how it judges an event (its `matched` reason). The list of
 * them is triggerFilters.ts; everything else about filters is derived from that list. Pure.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../shared/validation';

export type TriggerEvent = 'newAlert' | 'keywordUpdated' | 'aiVisibilityUpdated';

/** Fields of the Filters collection and the setting they give. */
export interface FilterField<Key extends string, Setting> {
	/** The setting's name, in the settings the polls get (MovementFilters, AiFilters). */
	readonly key: Key;
	/** The events it serves: its fields show for these only, and only these read it. */
	readonly events: readonly TriggerEvent[];
	/** Its fields in the Filters collection, without displayOptions (derived from `events`); the first names it. */
	readonly fields: readonly INodeProperties[];
	/** Its setting, from the collection's values; undefined when unset. A bad value is an InputError. */
	read(raw: IDataObject): Setting | undefined;
}

/** A filter: a field whose setting lets an event through, or not, and says why. */
export interface TriggerFilter<Key extends string, Setting, Subject>
	extends FilterField<Key, Setting> {
	/** The reasons it gives in `matched`; `{n}` stands for a number. */
	readonly reasons: readonly string[];
	/**
	 * The events in which checking it costs requests (New Alert's Tags, Keyword Updated's Ranking URL Changed): there,
	 * it is checked only for the events the filters that cost none let through.
	 */
	readonly costsRequestsIn?: readonly TriggerEvent[];
	/** Why `subject` passes (its `matched` reason), or undefined when it fails. */
	match(subject: Subject, setting: Setting): string | undefined;
}

/** Whether a setting is set: undefined, false and an empty list are not (a filter left as "off"). */
export function isSet(setting: unknown): boolean {
	return (
		setting !== undefined && setting !== false && !(Array.isArray(setting) && setting.length === 0)
	);
}

/** A whole number of positions, 1–100, or an InputError naming the field. */
export function positions(field: string, value: unknown): number {
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1 || number > 100)
		throw new InputError(field, 'must be a whole number from 1 to 100.');
	return number;
}

/** One of `allowed`, or an InputError naming the field. */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
	if (!allowed.includes(value as T))
		throw new InputError(field, `must be one of ${allowed.join(', ')}.`);
	return value as T;
}
