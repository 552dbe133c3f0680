import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	flattenRecord,
	shapeRecord,
	type RecordKind,
} from '../../packages/n8n-nodes-keyword-com/nodes/shared/records';

/**
 * Simplify reads fields straight from `{id, type, attributes}` records. The reference below is the plain definition
 * it must agree with: flatten the record (`{id, ...attributes, record_type}`), then pick the fields in order.
 */
function pick(source: IDataObject, keys: string[]): IDataObject {
	const result: IDataObject = {};
	for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
	return result;
}
const tagNames = (tags: unknown) =>
	Array.isArray(tags)
		? tags.map((tag) =>
				tag && typeof tag === 'object' ? String((tag as IDataObject).name) : String(tag),
			)
		: undefined;

const REFERENCE: Record<
	Exclude<RecordKind, 'plain' | 'metrics'>,
	(flat: IDataObject) => IDataObject
> = {
	group: (flat) => ({
		...pick(flat, ['id', 'project_id', 'name', 'keywords_count', 'tags_count']),
		tags: tagNames(flat.tags),
		...pick(flat, [
			'keywords_last_updated_at',
			'crawled_at',
			'url',
			'currency_code',
			'shortkey',
			'updated_at',
		]),
		is_group: typeof flat.id === 'string' && flat.id.includes('[sub]'),
	}),
	keyword: (flat) => ({
		...pick(flat, [
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
		]),
		tags: tagNames(flat.tags),
		...pick(flat, ['crawled_at', 'updated_at']),
	}),
	alert: (flat) => ({
		...pick(flat, [
			'id',
			'category',
			'keyword_id',
			'kw',
			'url',
			'region',
			'language',
			'prevrank',
			'result',
		]),
		change:
			typeof flat.prevrank === 'number' && typeof flat.result === 'number'
				? flat.prevrank - flat.result
				: null,
		...pick(flat, ['ms', 'time', 'created_at', 'read']),
	}),
	account: (flat) => ({
		...pick(flat, [
			'id',
			'user_id',
			'name',
			'access_level',
			'package',
			'used',
			'refreshes',
			'daily_added',
		]),
		plan: (flat.package_info as IDataObject | undefined)?.title,
		...pick(flat, [
			'currency_code',
			'gsc_connected',
			'is_free_plan',
			'serp_and_ranking_history_limit_date',
			'api_token',
		]),
	}),
	searchTerm: (flat) => ({
		...pick(flat, [
			'id',
			'term',
			'status',
			'interval',
			'region',
			'aiSearchEngines',
			'websearch',
			'executionsAmount',
		]),
		topic: (flat.searchTermTopicRef as IDataObject | undefined)?.name ?? null,
		...pick(flat, ['tags', 'createdAt', 'lastExecutionTime', 'nextScheduledExecutionTime']),
	}),
};

// Every key a simplifier reads, plus keys it must leave out.
const KEYS = [
	...new Set([
		'id',
		'project_id',
		'name',
		'keywords_count',
		'tags_count',
		'tags',
		'keywords_last_updated_at',
		'crawled_at',
		'url',
		'currency_code',
		'shortkey',
		'updated_at',
		'category',
		'kw',
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
		'keyword_id',
		'prevrank',
		'result',
		'time',
		'created_at',
		'read',
		'user_id',
		'access_level',
		'package',
		'used',
		'refreshes',
		'daily_added',
		'package_info',
		'gsc_connected',
		'is_free_plan',
		'serp_and_ranking_history_limit_date',
		'api_token',
		'term',
		'interval',
		'aiSearchEngines',
		'websearch',
		'executionsAmount',
		'searchTermTopicRef',
		'createdAt',
		'lastExecutionTime',
		'nextScheduledExecutionTime',
		'history',
		'extra',
		'record_type',
	]),
];
const value = fc.oneof(
	fc.integer({ min: -5, max: 200 }),
	fc.string({ maxLength: 8 }),
	fc.constantFrom(null, true, false, '[sub]x', 'a[sub]b'),
	fc.array(
		fc.oneof(fc.string({ maxLength: 4 }), fc.record({ name: fc.string({ maxLength: 4 }) })),
		{ maxLength: 3 },
	),
	fc.record({ title: fc.string({ maxLength: 5 }), name: fc.string({ maxLength: 5 }) }),
);
const attributes = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 40 });
const record = fc.oneof(
	fc.record(
		{
			type: fc.constantFrom('keyword', 'group'),
			id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant('p[sub]g')),
			attributes,
		},
		{ requiredKeys: ['attributes'] },
	),
	attributes,
	fc.record({
		id: fc.integer(),
		attributes: fc.oneof(fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.string()),
	}),
);

describe('Simplify', () => {
	for (const kind of Object.keys(REFERENCE) as Array<Exclude<RecordKind, 'plain' | 'metrics'>>) {
		it(`${kind}: the same fields, values and key order as flatten-then-pick`, () => {
			fc.assert(
				fc.property(record, (input) => {
					const snapshot = JSON.stringify(input);
					const simplified = shapeRecord(input, kind, true);
					assert.equal(
						JSON.stringify(simplified),
						JSON.stringify(REFERENCE[kind](flattenRecord(input))),
					);
					assert.deepEqual(simplified, REFERENCE[kind](flattenRecord(input)));
					assert.equal(JSON.stringify(input), snapshot, 'the API record is left as it came');
				}),
				{ numRuns: 400 },
			);
		});
	}

	it('a value that is not a record keeps going through the flat form', () => {
		assert.deepEqual(shapeRecord('x', 'keyword', true), REFERENCE.keyword(flattenRecord('x')));
		assert.deepEqual(shapeRecord([1], 'alert', true), REFERENCE.alert(flattenRecord([1])));
	});
});
