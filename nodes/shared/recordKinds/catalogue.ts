import type { IDataObject } from 'n8n-workflow';

import { splitName as splitGroupName } from '../groupName';

/** Reads a key of a record as its flat form holds it (`readerOf` in records.ts). */
export type Read = (key: string) => unknown;

/**
 * One field of a version 1 simplified record: copied under its own name when present, or computed from the record.
 * Fields are read straight from `{id, attributes}` (instead of flattening first): on Return All that spares 50,000
 * short-lived copies.
 */
export type SimplifyField = string | [name: string, compute: (read: Read) => unknown];

/**
 * What the node knows of one kind of record, in one place: the keys Selected Fields offers and the simplified shape
 * of each node version. The README lists the version 2 shapes.
 */
export interface RecordCatalogue {
	/** Selected Fields (version 2): keys of the flat record (`id` plus the attributes). */
	selectable: string[];
	/** Simplify (version 1), in this order; absent when version 1 returned the record as sent. */
	simplifyV1?: SimplifyField[];
	/** Output "Simplified" (version 2): at most 10 fields, named for a sheet row or an AI agent. */
	simplified: (read: Read) => IDataObject;
}

export const orNull = (value: unknown): IDataObject[string] =>
	value === undefined ? null : (value as IDataObject[string]);

/** A project or group name as its two parts (both null when there is no name). */
export function partsOf(name: unknown): { project: string | null; group: string | null } {
	return typeof name === 'string' && name !== ''
		? splitGroupName(name)
		: { project: null, group: null };
}
