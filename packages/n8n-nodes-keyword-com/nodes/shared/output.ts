import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { isGroupName, splitName as splitGroupName } from './groupName';
import { currentRank, rankDifference } from './ranks';
import { flattenRecord, readerOf, shapeRecord, tagNames, type RecordKind } from './records';
import { apiTimeMs } from './time';
import { checkOneOf, InputError } from './validation';

/**
 * The Output choice of node version 2 (n8n's UX guidelines): Simplified (at most 10 fields a record, named for a sheet
 * row or an AI agent), Raw (the record as the API sent it, token removed) or Selected Fields (the fields the user
 * picks from the record). Version 1 keeps its Simplify toggle and shapes (records.ts) so saved workflows are unchanged.
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

type Read = (key: string) => unknown;

const orNull = (value: unknown): IDataObject[string] =>
	value === undefined ? null : (value as IDataObject[string]);

/** A project or group name as its two parts (both null when there is no name). */
function partsOf(name: unknown): { project: string | null; group: string | null } {
	return typeof name === 'string' && name !== ''
		? splitGroupName(name)
		: { project: null, group: null };
}

/** Epoch seconds or a date string as ISO 8601 (null when absent or unreadable). */
export function isoTime(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value))
		return new Date(value * 1000).toISOString();
	if (typeof value === 'string' && value !== '') {
		const parsed = apiTimeMs(value);
		return parsed === undefined ? value : new Date(parsed).toISOString();
	}
	return null;
}

function keywordCount(counts: unknown): number | null {
	if (typeof counts === 'number') return counts;
	if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
		return Object.values(counts as IDataObject).reduce<number>(
			(sum, value) => sum + (Number(value) || 0),
			0,
		);
	}
	return Array.isArray(counts) ? 0 : null;
}

/** Simplified shapes of version 2, one per record kind. The README lists them. */
const SIMPLIFIED: Partial<Record<RecordKind, (read: Read) => IDataObject>> = {
	keyword: (read) => ({
		id: orNull(read('id')),
		keyword: orNull(read('kw')),
		...partsOf(read('category')),
		region: orNull(read('region')),
		rank: currentRank({ grank: read('grank'), grank_int: read('grank_int') } as IDataObject),
		best_rank: orNull(read('best')),
		ranking_url: orNull(read('rankingurl')),
		search_volume: orNull(read('ms')),
		crawled_at: isoTime(read('crawled_at')),
	}),
	alert: (read) => ({
		id: orNull(read('id')),
		keyword: orNull(read('kw')),
		...partsOf(read('category')),
		region: orNull(read('region')),
		url: orNull(read('url')),
		previous_rank: orNull(read('prevrank')),
		rank: orNull(read('result')),
		change: rankDifference(read('prevrank'), read('result')),
		created_at: isoTime(read('created_at') ?? read('time')),
	}),
	group: (read) => ({
		id: orNull(read('id')),
		name: orNull(read('name')),
		is_group: isGroupName(read('id')),
		url: orNull(read('url')),
		keywords: keywordCount(read('keywords_count')),
		tags: tagNames(read('tags')) ?? [],
		currency_code: orNull(read('currency_code')),
		keywords_last_updated_at: isoTime(read('keywords_last_updated_at')),
		crawled_at: isoTime(read('crawled_at')),
		project_id: orNull(read('project_id')),
	}),
	account: (read) => ({
		id: orNull(read('id')),
		name: orNull(read('name')),
		plan: orNull((read('package_info') as IDataObject | undefined)?.title),
		keywords_used: orNull(read('used')),
		keywords_limit: orNull(read('package')),
		refreshes: orNull(read('refreshes')),
		daily_added: orNull(read('daily_added')),
		currency_code: orNull(read('currency_code')),
		history_limit_date: orNull(read('serp_and_ranking_history_limit_date')),
	}),
	searchTerm: (read) => ({
		id: orNull(read('id')),
		term: orNull(read('term')),
		topic: orNull((read('searchTermTopicRef') as IDataObject | null | undefined)?.name),
		status: orNull(read('status')),
		interval: orNull(read('interval')),
		region: orNull(read('region')),
		engines: orNull(read('aiSearchEngines')),
		tags: orNull(read('tags')),
		last_run: isoTime(read('lastExecutionTime')),
		next_run: isoTime(read('nextScheduledExecutionTime')),
	}),
	metrics: (read) => {
		const timeframe = typeof read('timeframe') === 'string' ? String(read('timeframe')) : 'monthly';
		const movement = ((read('movements') as IDataObject | undefined)?.[timeframe] ??
			{}) as IDataObject;
		const ranges = Array.isArray(read('ranges')) ? (read('ranges') as IDataObject[]) : [];
		return {
			id: orNull(read('id')),
			timeframe,
			total: orNull(read('total')),
			moved_up: orNull(movement.up),
			moved_down: orNull(movement.down),
			unchanged: orNull(movement.tie),
			ranges: ranges.map((range) => {
				const period = (range[timeframe] ?? {}) as IDataObject;
				return {
					title: orNull(range.title),
					count: orNull(period.count ?? range.count),
					change: orNull(period.change),
				};
			}),
		};
	},
};

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
	const simplify = SIMPLIFIED[kind];
	const simplified = simplify ? simplify(readerOf(raw)) : simplifyPlain(raw);
	// Nine fields of their own, so the token the user asked for is the tenth.
	if (kind === 'account' && choice.revealToken)
		simplified.api_token = orNull(readerOf(object)('api_token'));
	return simplified;
}

/** Field names offered by Selected Fields, per record kind (a flat record: `id` plus the attributes). */
export const RECORD_FIELDS: Partial<Record<RecordKind, string[]>> = {
	keyword: [
		'id',
		'project_id',
		'category',
		'kw',
		'url',
		'region',
		'language',
		'type',
		'status',
		'grank',
		'grank_int',
		'best',
		'start',
		'gpage',
		'rankingurl',
		'ms',
		'cpc',
		'competition',
		'clicks',
		'impressions',
		'ctr',
		'near',
		'gmb',
		'isfav',
		'notes',
		'tags',
		'tag',
		'features',
		'trends',
		'grankhistory',
		'search_intents',
		'updated_at',
		'crawled_at',
	],
	alert: [
		'id',
		'category',
		'keyword_id',
		'kw',
		'url',
		'region',
		'language',
		'prevrank',
		'result',
		'ms',
		'time',
		'created_at',
		'read',
	],
	group: [
		'id',
		'project_id',
		'name',
		'url',
		'keywords_count',
		'tags_count',
		'tags',
		'keywords_last_updated_at',
		'crawled_at',
		'updated_at',
		'currency_code',
		'shortkey',
		'notes_count',
		'company_name',
		'project_overview_settings',
	],
	account: [
		'id',
		'user_id',
		'name',
		'access_level',
		'package',
		'package_info',
		'used',
		'refreshes',
		'daily_added',
		'currency_code',
		'gsc_connected',
		'is_free_plan',
		'serp_and_ranking_history_limit_date',
		'country',
		'created_at',
		'last_login_at',
	],
	searchTerm: [
		'id',
		'term',
		'status',
		'interval',
		'region',
		'aiSearchEngines',
		'websearch',
		'executionsAmount',
		'searchTermTopicRef',
		'tags',
		'createdAt',
		'lastExecutionTime',
		'nextScheduledExecutionTime',
	],
	metrics: ['id', 'timeframe', 'total', 'ranges', 'movements', 'chart'],
};

const onVersion2 = { '@version': OUTPUT_CHOICE_VERSIONS };

/**
 * The Output and Fields parameters. `fields` lists the record's field names for the multi-select; without a list
 * (records whose shape the document does not give) the names are typed, comma-separated.
 */
export function outputFields(fields?: string[]): INodeProperties[] {
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
	const selected: INodeProperties = fields
		? {
				displayName: 'Fields',
				name: 'fields',
				type: 'multiOptions',
				default: [],
				required: true,
				displayOptions: { show },
				options: fields.map((field) => ({ name: field, value: field })),
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
