import type { IDataObject } from 'n8n-workflow';

/**
 * Record shaping for Simplify. The API wraps most records as `{type, id, attributes}`: Simplify turns one into a flat
 * object (`id` plus the attributes a workflow usually maps), leaving out bulky internals (rank history arrays, SERP
 * feature counters, auth keys). With Simplify off the record is returned as the API sent it (token removed).
 */
export type RecordKind = 'group' | 'keyword' | 'alert' | 'account' | 'searchTerm' | 'plain';

export function flattenRecord(record: unknown): IDataObject {
	if (!record || typeof record !== 'object' || Array.isArray(record)) return { value: record as never };
	const { id, type, attributes } = record as IDataObject;
	if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
		return { id, ...(attributes as IDataObject), ...(type !== undefined ? { record_type: type } : {}) };
	}
	return { ...(record as IDataObject) };
}

function tagNames(tags: unknown): string[] | undefined {
	if (!Array.isArray(tags)) return undefined;
	return tags.map((tag) => (tag && typeof tag === 'object' ? String((tag as IDataObject).name) : String(tag)));
}

function pick(source: IDataObject, keys: string[]): IDataObject {
	const result: IDataObject = {};
	for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
	return result;
}

const SIMPLIFIERS: Record<Exclude<RecordKind, 'plain'>, (flat: IDataObject) => IDataObject> = {
	group: (flat) => ({
		...pick(flat, ['id', 'project_id', 'name', 'keywords_count', 'tags_count']),
		tags: tagNames(flat.tags),
		...pick(flat, ['keywords_last_updated_at', 'crawled_at', 'url', 'currency_code', 'shortkey', 'updated_at']),
		is_group: typeof flat.id === 'string' && flat.id.includes('[sub]'),
	}),
	keyword: (flat) => ({
		...pick(flat, [
			'id', 'project_id', 'category', 'kw', 'url', 'region', 'language', 'type', 'status',
			'grank', 'grank_int', 'best', 'start', 'gpage', 'rankingurl', 'trends', 'ms', 'cpc', 'competition',
			'near', 'gmb', 'isfav', 'notes',
		]),
		tags: tagNames(flat.tags),
		...pick(flat, ['crawled_at', 'updated_at']),
	}),
	alert: (flat) => ({
		...pick(flat, ['id', 'category', 'keyword_id', 'kw', 'url', 'region', 'language', 'prevrank', 'result']),
		change: typeof flat.prevrank === 'number' && typeof flat.result === 'number' ? flat.prevrank - flat.result : null,
		...pick(flat, ['ms', 'time', 'created_at', 'read']),
	}),
	account: (flat) => ({
		...pick(flat, ['id', 'user_id', 'name', 'access_level', 'package', 'used', 'refreshes', 'daily_added']),
		plan: (flat.package_info as IDataObject | undefined)?.title,
		...pick(flat, ['currency_code', 'gsc_connected', 'is_free_plan', 'serp_and_ranking_history_limit_date', 'api_token']),
	}),
	searchTerm: (flat) => ({
		...pick(flat, ['id', 'term', 'status', 'interval', 'region', 'aiSearchEngines', 'websearch', 'executionsAmount']),
		topic: (flat.searchTermTopicRef as IDataObject | undefined)?.name ?? null,
		...pick(flat, ['tags', 'createdAt', 'lastExecutionTime', 'nextScheduledExecutionTime']),
	}),
};

export function shapeRecord(record: unknown, kind: RecordKind, simplify: boolean): IDataObject {
	if (!simplify || kind === 'plain') {
		return record && typeof record === 'object' && !Array.isArray(record)
			? (record as IDataObject)
			: { value: record as never };
	}
	return SIMPLIFIERS[kind](flattenRecord(record));
}
