import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { readerOf } from './records';
import { fieldNames, orNull, type RecordCatalogue } from './recordKinds/catalogue';
import { checkOneOf, InputError, quote, said } from './validation';

/**
 * The Output choice (n8n's UX guidelines): Simplified (at most 10 fields a record, named for a sheet row or an AI
 * agent), Raw (the record as the API sent it, token removed) or Selected Fields (the fields the user picks, under
 * the names Simplified uses). The fields of each kind of record are in recordKinds/.
 */
export type OutputMode = 'simplified' | 'raw' | 'selected';

export interface OutputChoice {
	mode: OutputMode;
	/** Selected Fields: names of the record's fields (its catalogue's). */
	fields: string[];
	/** Keep the account record's `api_token` (the user asked for it). */
	revealToken?: boolean;
}

/** The most fields a simplified record holds (n8n's UX guidelines). */
export const MAX_SIMPLIFIED_FIELDS = 10;

/** The account's own token: never in an item unless the user asks for it (Account → Get, Include API Token). */
const ACCOUNT_TOKEN = 'api_token';

function without(object: IDataObject, key: string): IDataObject {
	const copy = { ...object };
	delete copy[key];
	return copy;
}

/** The record with no `api_token` key at all, at the top or in its attributes. */
function withoutAccountToken(record: IDataObject): IDataObject {
	const attributes = record.attributes as IDataObject | undefined;
	if (attributes && typeof attributes === 'object' && ACCOUNT_TOKEN in attributes) {
		return { ...record, attributes: without(attributes, ACCOUNT_TOKEN) };
	}
	return ACCOUNT_TOKEN in record ? without(record, ACCOUNT_TOKEN) : record;
}

/** The named fields of a record, read through its catalogue. */
function pick(
	catalogue: RecordCatalogue,
	names: readonly string[],
	record: IDataObject,
): IDataObject {
	const read = readerOf(record);
	const picked: IDataObject = {};
	for (const name of names) picked[name] = orNull(catalogue.fields[name]?.(read));
	return picked;
}

/** One record as the user chose to see it. */
export function shapeForOutput(
	record: unknown,
	catalogue: RecordCatalogue,
	choice: OutputChoice,
): IDataObject {
	const object =
		record && typeof record === 'object' && !Array.isArray(record)
			? (record as IDataObject)
			: ({ value: record } as IDataObject);
	const raw = choice.revealToken ? object : withoutAccountToken(object);
	if (choice.mode === 'raw') return raw;
	const names = choice.mode === 'selected' ? choice.fields : catalogue.simplified;
	const shaped = pick(catalogue, names, raw);
	if (
		choice.mode === 'simplified' &&
		catalogue.undocumented &&
		Object.values(shaped).every((value) => value === null)
	)
		return raw;
	// The token the user asked for comes last (an account's Simplified has nine fields of its own).
	if (choice.revealToken && ACCOUNT_TOKEN in flatKeys(object))
		shaped[ACCOUNT_TOKEN] = orNull(readerOf(object)(ACCOUNT_TOKEN));
	return shaped;
}

/** The keys of a record as its flat form has them (`id` plus the attributes). */
function flatKeys(record: IDataObject): IDataObject {
	const attributes = record.attributes;
	return attributes && typeof attributes === 'object' && !Array.isArray(attributes)
		? { ...(attributes as IDataObject), id: record.id }
		: record;
}

/** The Output and Fields parameters for records of this catalogue. */
export function outputFields(catalogue: RecordCatalogue): INodeProperties[] {
	return [outputModeField(), selectedFieldsField(catalogue)];
}

/** The Output parameter. */
export function outputModeField(): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		options: [
			{ name: 'Raw', value: 'raw', description: 'Every field as Keyword.com sends it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you pick' },
			{
				name: 'Simplified',
				value: 'simplified',
				description: `At most ${MAX_SIMPLIFIED_FIELDS} fields per record, named for a sheet row or an AI agent`,
			},
		],
		description: 'How much of each record to return',
	};
}

/** The Fields parameter of Selected Fields: every field of the record, by the name Simplified uses, sorted. */
export function selectedFieldsField(catalogue: RecordCatalogue): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		default: [],
		required: true,
		displayOptions: { show: { output: ['selected'] } },
		options: fieldNames(catalogue).map((name) => ({ name, value: name })),
		description: 'The fields of the record to return',
	};
}

/** The Fields parameter as a list of names (a multi-select gives an array; an expression may give text). */
export function fieldList(value: unknown): string[] {
	const names = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))];
}

/**
 * How the user chose to see records, checked before any request: Output, and for Selected Fields the fields, each
 * one of the record's (a name from an expression may be anything). Without a catalogue (an operation returning no
 * records) there is no choice: the answer as it is.
 */
export function readOutputChoice(
	get: (name: string, fallback: unknown) => unknown,
	catalogue: RecordCatalogue | undefined,
): OutputChoice {
	if (!catalogue) return { mode: 'raw', fields: [] };
	const mode = checkOneOf('Output', get('output', 'simplified'), [
		'simplified',
		'raw',
		'selected',
	]) as OutputMode;
	if (mode !== 'selected') return { mode, fields: [] };
	const fields = fieldList(get('fields', []));
	if (fields.length === 0) {
		throw new InputError('Fields', 'pick at least one field to return (Output: Selected Fields)');
	}
	const unknown = fields.filter(
		(name) => !Object.prototype.hasOwnProperty.call(catalogue.fields, name),
	);
	if (unknown.length > 0) {
		// The name is quoted through said`…`: a token pasted there is never shown.
		throw new InputError(
			'Fields',
			said`${quote(unknown[0])} is not a field of this record`,
			`Pick the fields from the list: ${fieldNames(catalogue).join(', ')}`,
		);
	}
	return { mode, fields };
}
