import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { flattenRecord, readerOf, type RecordKind } from './records';
import { catalogueOf } from './recordKinds';
import { orNull, type SimplifyField } from './recordKinds/catalogue';
import { checkOneOf, InputError } from './validation';

/**
 * The Output choice of node version 2 (n8n's UX guidelines): Simplified (at most 10 fields a record, named for a sheet
 * row or an AI agent), Raw (the record as the API sent it, token removed) or Selected Fields (the fields the user
 * picks from the record). Version 1 keeps its Simplify toggle and shapes so saved workflows are unchanged. The fields
 * and shapes of each record kind are in recordKinds/.
 */
export type OutputMode = 'simplified' | 'raw' | 'selected';

export interface OutputChoice {
	/** Node version: 1 shapes with the Simplify toggle, 2 with the Output choice. */
	version: number;
	/** Version 1's Simplify toggle. */
	simplify: boolean;
	mode: OutputMode;
	/** Selected Fields: names of the record's fields (as a flat record has them: `id` plus the attributes). */
	fields: string[];
	/** Keep the account record's `api_token` (the user asked for it). */
	revealToken?: boolean;
}

/** The most fields a simplified record holds (n8n's UX guidelines). */
export const MAX_SIMPLIFIED_FIELDS = 10;

/** Node versions from which the Output choice replaces Simplify. */
export const OUTPUT_CHOICE_VERSIONS = [{ _cnd: { gte: 2 } }];

/** Records without a shape of their own are small: Simplified keeps their first 10 fields, lists cut to 10. */
function simplifyPlain(record: unknown): IDataObject {
	const flat = flattenRecord(record);
	const result: IDataObject = {};
	for (const key of Object.keys(flat).slice(0, MAX_SIMPLIFIED_FIELDS)) {
		const value = flat[key];
		result[key] = Array.isArray(value)
			? (value.slice(0, MAX_SIMPLIFIED_FIELDS) as IDataObject[])
			: value;
	}
	return result;
}

function without(object: IDataObject, key: string): IDataObject {
	const copy = { ...object };
	delete copy[key];
	return copy;
}

/** The account record with no `api_token` key at all (version 2, unless the user asked for the token). */
function withoutAccountToken(record: IDataObject): IDataObject {
	const attributes = record.attributes as IDataObject | undefined;
	if (attributes && typeof attributes === 'object' && 'api_token' in attributes) {
		return { ...record, attributes: without(attributes, 'api_token') };
	}
	return 'api_token' in record ? without(record, 'api_token') : record;
}

/** Version 1's Simplify: the kind's fields read straight from the record (no flat copy first). */
function simplifyV1(record: IDataObject, fields: SimplifyField[]): IDataObject {
	const read = readerOf(record);
	const result: IDataObject = {};
	for (const field of fields) {
		if (typeof field === 'string') {
			const value = read(field);
			if (value !== undefined) result[field] = value as IDataObject[string];
		} else {
			result[field[0]] = field[1](read) as IDataObject[string];
		}
	}
	return result;
}

/** Version 1: with Simplify, the kind's simplified record; else (or a kind it did not simplify) the record as sent. */
export function shapeRecord(record: unknown, kind: RecordKind, simplify: boolean): IDataObject {
	const fields = catalogueOf(kind)?.simplifyV1;
	if (!simplify || !fields) {
		return record && typeof record === 'object' && !Array.isArray(record)
			? (record as IDataObject)
			: { value: record as never };
	}
	if (!record || typeof record !== 'object' || Array.isArray(record))
		return simplifyV1(flattenRecord(record), fields);
	return simplifyV1(record as IDataObject, fields);
}

/** One record as the user chose to see it. */
export function shapeForOutput(
	record: unknown,
	kind: RecordKind,
	choice: OutputChoice,
): IDataObject {
	if (choice.version < 2) return shapeRecord(record, kind, choice.simplify);
	const object =
		record && typeof record === 'object' && !Array.isArray(record)
			? (record as IDataObject)
			: ({ value: record } as IDataObject);
	const raw = kind === 'account' && !choice.revealToken ? withoutAccountToken(object) : object;
	if (choice.mode === 'raw') return raw;
	if (choice.mode === 'selected') {
		const read = readerOf(raw);
		const picked: IDataObject = {};
		for (const field of choice.fields) picked[field] = orNull(read(field));
		return picked;
	}
	const simplify = catalogueOf(kind)?.simplified;
	const simplified = simplify ? simplify(readerOf(raw)) : simplifyPlain(raw);
	// Nine fields of their own, so the token the user asked for is the tenth.
	if (kind === 'account' && choice.revealToken)
		simplified.api_token = orNull(readerOf(object)('api_token'));
	return simplified;
}

const onVersion2 = { '@version': OUTPUT_CHOICE_VERSIONS };

/**
 * The Output and Fields parameters. `selectable` lists the record's keys for the multi-select; without a list
 * (records whose shape the document does not give) the names are typed, comma-separated.
 */
export function outputFields(selectable?: string[]): INodeProperties[] {
	const output: INodeProperties = {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		displayOptions: { show: { ...onVersion2 } },
		options: [
			{ name: 'Raw', value: 'raw', description: 'Every field as the API returns it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you pick' },
			{
				name: 'Simplified',
				value: 'simplified',
				description: `At most ${MAX_SIMPLIFIED_FIELDS} fields per record, named for a sheet row or an AI agent`,
			},
		],
		description: 'How much of each record to return',
	};
	const show = { ...onVersion2, output: ['selected'] };
	const selected: INodeProperties = selectable
		? {
				displayName: 'Fields',
				name: 'fields',
				type: 'multiOptions',
				default: [],
				required: true,
				displayOptions: { show },
				options: selectable.map((key) => ({ name: key, value: key })),
				description: 'The fields of the record to return',
			}
		: {
				displayName: 'Fields',
				name: 'fields',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. name, url',
				displayOptions: { show },
				description: 'Names of the fields to return, separated by commas',
			};
	return [output, selected];
}

/** The Fields parameter as a list of names (a multi-select gives an array, the text form a comma-separated string). */
export function fieldList(value: unknown): string[] {
	const names = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))];
}

/** The node's version (1 when it does not say). */
export function versionOf(node: INode): number {
	return Number(node.typeVersion) || 1;
}

/**
 * How the user chose to see records, checked before any request: version 1's Simplify, version 2's Output and
 * Fields. `offered` says which of them the node or operation has (an operation without records has neither).
 */
export function readOutputChoice(
	version: number,
	get: (name: string, fallback: unknown) => unknown,
	offered: { simplify: boolean; output: boolean },
): OutputChoice {
	if (version < 2) {
		const simplify = offered.simplify && get('simplify', true) === true;
		return { version, simplify, mode: 'raw', fields: [] };
	}
	if (!offered.output) return { version, simplify: false, mode: 'raw', fields: [] };
	const mode = checkOneOf('Output', get('output', 'simplified'), [
		'simplified',
		'raw',
		'selected',
	]) as OutputMode;
	const fields = mode === 'selected' ? fieldList(get('fields', [])) : [];
	if (mode === 'selected' && fields.length === 0) {
		throw new InputError('Fields', 'pick at least one field to return (Output: Selected Fields)');
	}
	return { version, simplify: false, mode, fields };
}
