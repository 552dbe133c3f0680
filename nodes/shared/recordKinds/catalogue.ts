import type { IDataObject } from 'n8n-workflow';

import { splitName as splitGroupName } from '../groupName';
import { isoTime } from '../time';

/** Reads a key of a record as its flat form holds it (`readerOf` in records.ts). */
export type Read = (key: string) => unknown;

/** One field as the user sees it, worked out from the record as the API sent it. */
export type FieldReader = (read: Read) => unknown;

/**
 * What the node knows of one kind of record, in one place: every field under the name the user sees (Output
 * Simplified and Selected Fields alike, one name per field), and which of them Simplified keeps. The API's own keys
 * appear only in Output Raw. The README lists the simplified shapes.
 */
export interface RecordCatalogue {
	/** Every field a user may pick, by name. */
	fields: Readonly<Record<string, FieldReader>>;
	/** Output "Simplified": at most 10 of `fields`, in this order (named for a sheet row or an AI agent). */
	simplified: readonly string[];
	/**
	 * The document does not show this record: when none of the fields Simplified reads is in it, Simplified gives the
	 * record as sent rather than a row of nulls (the fields were guessed; the data must not vanish).
	 */
	undocumented?: true;
}

export const orNull = (value: unknown): IDataObject[string] =>
	value === undefined ? null : (value as IDataObject[string]);

/** A project or group name as its two parts (both null when there is no name). */
export function partsOf(name: unknown): { project: string | null; group: string | null } {
	return typeof name === 'string' && name !== ''
		? splitGroupName(name)
		: { project: null, group: null };
}

/** The field read as sent (null when absent). */
export const key =
	(name: string): FieldReader =>
	(read) =>
		orNull(read(name));

/** A date-time field as ISO 8601 (Unix seconds or a date string in the record). */
export const isoKey =
	(name: string): FieldReader =>
	(read) =>
		isoTime(read(name));

/** A field of a nested object (`path[0]`, then `path[1]`…), null when any step is missing. */
export const nestedKey =
	(...path: string[]): FieldReader =>
	(read) => {
		let value: unknown = read(path[0]);
		for (const step of path.slice(1)) {
			if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
			value = (value as IDataObject)[step];
		}
		return orNull(value);
	};

/** Fields a record holds under the names the user sees already (records the node builds itself). */
export function sameNames(names: readonly string[]): Record<string, FieldReader> {
	return Object.fromEntries(names.map((name) => [name, key(name)]));
}

/** The names Selected Fields offers, sorted as a user looks them up. */
export function fieldNames(catalogue: RecordCatalogue): string[] {
	return Object.keys(catalogue.fields).sort((a, b) => a.localeCompare(b));
}
