import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { shapeRecord } from '../../nodes/shared/output';
import { flattenRecord, type RecordKind } from '../../nodes/shared/records';
import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';

/**
 * Simplify reads fields straight from `{id, type, attributes}` records. The reference below is the plain definition
 * it must agree with: flatten the record (`{id, ...attributes, record_type}`), then take the fields of the kind's
 * catalogue in order: a key when present, a computed field always (computed here as this test expects it).
 */
const tagNames = (tags: unknown) =>
	Array.isArray(tags)
		? tags.map((tag) =>
				tag && typeof tag === 'object' ? String((tag as IDataObject).name) : String(tag),
			)
		: undefined;

const COMPUTED: Record<string, (flat: IDataObject) => unknown> = {
	tags: (flat) => tagNames(flat.tags),
	is_group: (flat) => typeof flat.id === 'string' && flat.id.includes('[sub]'),
	change: (flat) =>
		typeof flat.prevrank === 'number' && typeof flat.result === 'number'
			? flat.prevrank - flat.result
			: null,
	plan: (flat) => (flat.package_info as IDataObject | undefined)?.title,
	topic: (flat) => (flat.searchTermTopicRef as IDataObject | undefined)?.name ?? null,
};

type SimplifiedKind = Exclude<RecordKind, 'plain' | 'metrics'>;
const KINDS: SimplifiedKind[] = ['group', 'keyword', 'alert', 'account', 'searchTerm'];

function reference(kind: SimplifiedKind, flat: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const field of RECORD_CATALOGUE[kind].simplifyV1 ?? []) {
		if (typeof field !== 'string') result[field[0]] = COMPUTED[field[0]](flat) as never;
		else if (flat[field] !== undefined) result[field] = flat[field];
	}
	return result;
}

// Every key a simplifier reads or writes, plus keys it must leave out.
const KEYS = [
	...new Set([
		...KINDS.flatMap((kind) =>
			(RECORD_CATALOGUE[kind].simplifyV1 ?? []).map((field) =>
				typeof field === 'string' ? field : field[0],
			),
		),
		'package_info',
		'searchTermTopicRef',
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
	for (const kind of KINDS) {
		it(`${kind}: the same fields, values and key order as flatten-then-pick`, () => {
			fc.assert(
				fc.property(record, (input) => {
					const snapshot = JSON.stringify(input);
					const simplified = shapeRecord(input, kind, true);
					assert.equal(
						JSON.stringify(simplified),
						JSON.stringify(reference(kind, flattenRecord(input))),
					);
					assert.deepEqual(simplified, reference(kind, flattenRecord(input)));
					assert.equal(JSON.stringify(input), snapshot, 'the API record is left as it came');
				}),
				{ numRuns: 400 },
			);
		});
	}

	it('a value that is not a record keeps going through the flat form', () => {
		assert.deepEqual(shapeRecord('x', 'keyword', true), reference('keyword', flattenRecord('x')));
		assert.deepEqual(shapeRecord([1], 'alert', true), reference('alert', flattenRecord([1])));
	});
});
