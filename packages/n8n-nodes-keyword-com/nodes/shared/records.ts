import type { IDataObject } from 'n8n-workflow';

import { isGroupName } from './groupName';

/**
 * Record shaping for Simplify. The API wraps most records as `{type, id, attributes}`: Simplify turns one into a flat
 * object (`id` plus the attributes a workflow usually maps), leaving out bulky internals (rank history arrays, SERP
 * feature counters, auth keys). With Simplify off the record is returned as the API sent it (token removed).
 */
export type RecordKind =
	| 'group'
	| 'keyword'
	| 'alert'
	| 'account'
	| 'searchTerm'
	| 'metrics'
	| 'plain';

export function flattenRecord(record: unknown): IDataObject {
	if (!record || typeof record !== 'object' || Array.isArray(record))
		return { value: record as never };
	const { id, type, attributes } = record as IDataObject;
	if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
		return {
			id,
			...(attributes as IDataObject),
			...(type !== undefined ? { record_type: type } : {}),
		};
	}
	return { ...(record as IDataObject) };
}

/** The names of a record's tags (tag records or plain names); undefined when it has no tag list. */
export function tagNames(tags: unknown): string[] | undefined {
	if (!Array.isArray(tags)) return undefined;
	return tags.map((tag) =>
		tag && typeof tag === 'object' ? String((tag as IDataObject).name) : String(tag),
	);
}

/**
 * One field of a simplified record: copied under its own name when present, or computed from the record. Reading
 * fields straight from `{id, attributes}` (instead of flattening first) spares a full copy of every record: on
 * Return All that is 50,000 short-lived objects.
 */
type Field = string | [name: string, compute: (read: (key: string) => unknown) => unknown];

/** Reads a key as `flattenRecord` would hold it. None of the keys read is an Object.prototype name. */
export function readerOf(record: IDataObject): (key: string) => unknown {
	const { attributes } = record;
	if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes))
		return (key) => record[key];
	const attrs = attributes as IDataObject;
	return (key) => (attrs[key] !== undefined ? attrs[key] : key === 'id' ? record.id : undefined);
}

function simplifier(fields: Field[]): (record: IDataObject) => IDataObject {
	return (record) => {
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
	};
}

const tags: Field = ['tags', (read) => tagNames(read('tags'))];

const SIMPLIFIERS: Record<
	Exclude<RecordKind, 'plain' | 'metrics'>,
	(record: IDataObject) => IDataObject
> = {
	group: simplifier([
		'id',
		'project_id',
		'name',
		'keywords_count',
		'tags_count',
		tags,
		'keywords_last_updated_at',
		'crawled_at',
		'url',
		'currency_code',
		'shortkey',
		'updated_at',
		['is_group', (read) => isGroupName(read('id'))],
	]),
	keyword: simplifier([
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
		'trends',
		'ms',
		'cpc',
		'competition',
		'near',
		'gmb',
		'isfav',
		'notes',
		tags,
		'crawled_at',
		'updated_at',
	]),
	alert: simplifier([
		'id',
		'category',
		'keyword_id',
		'kw',
		'url',
		'region',
		'language',
		'prevrank',
		'result',
		[
			'change',
			(read) => {
				const before = read('prevrank');
				const after = read('result');
				return typeof before === 'number' && typeof after === 'number' ? before - after : null;
			},
		],
		'ms',
		'time',
		'created_at',
		'read',
	]),
	account: simplifier([
		'id',
		'user_id',
		'name',
		'access_level',
		'package',
		'used',
		'refreshes',
		'daily_added',
		['plan', (read) => (read('package_info') as IDataObject | undefined)?.title],
		'currency_code',
		'gsc_connected',
		'is_free_plan',
		'serp_and_ranking_history_limit_date',
		'api_token',
	]),
	searchTerm: simplifier([
		'id',
		'term',
		'status',
		'interval',
		'region',
		'aiSearchEngines',
		'websearch',
		'executionsAmount',
		['topic', (read) => (read('searchTermTopicRef') as IDataObject | undefined)?.name ?? null],
		'tags',
		'createdAt',
		'lastExecutionTime',
		'nextScheduledExecutionTime',
	]),
};

export function shapeRecord(record: unknown, kind: RecordKind, simplify: boolean): IDataObject {
	// Version 1 had no simplified metrics record: they come as sent, like other plain records.
	if (!simplify || kind === 'plain' || kind === 'metrics') {
		return record && typeof record === 'object' && !Array.isArray(record)
			? (record as IDataObject)
			: { value: record as never };
	}
	if (!record || typeof record !== 'object' || Array.isArray(record))
		return SIMPLIFIERS[kind](flattenRecord(record));
	return SIMPLIFIERS[kind](record as IDataObject);
}
