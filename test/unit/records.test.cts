/**
 * The record catalogues (nodes/shared/recordKinds/): every kind names its fields once, Simplified keeps at most 10 of
 * them, and Simplified and Selected Fields read a field the same way, whatever the record holds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { MAX_SIMPLIFIED_FIELDS, shapeForOutput } from '../../nodes/shared/output';
import { RECORD_CATALOGUE, type RecordKind } from '../../nodes/shared/recordKinds';
import { fieldNames } from '../../nodes/shared/recordKinds/catalogue';

const KINDS = Object.keys(RECORD_CATALOGUE) as RecordKind[];

// Keys the API sends (spec §2), some of which a catalogue reads, plus keys none reads.
const KEYS = [
	'id',
	'kw',
	'category',
	'grank',
	'grank_int',
	'best',
	'rankingurl',
	'ms',
	'crawled_at',
	'tags',
	'type',
	'source',
	'prevrank',
	'result',
	'created_at',
	'time',
	'keywords_count',
	'package_info',
	'searchTermTopicRef',
	'movements',
	'ranges',
	'timeframe',
	'url',
	'features',
	'serp_features',
	'exact',
	'url_tracking_method',
	'domain',
	'entries',
	'date',
	'extra',
];
const value = fc.oneof(
	fc.integer({ min: -5, max: 200 }),
	fc.string({ maxLength: 8 }),
	fc.constantFrom(null, true, false, 'p[sub]g', 'NOT FOUND', '2026-01-15T12:00:00+00:00'),
	fc.array(
		fc.oneof(fc.string({ maxLength: 4 }), fc.record({ name: fc.string({ maxLength: 4 }) })),
		{ maxLength: 3 },
	),
	fc.record({ title: fc.string({ maxLength: 5 }), name: fc.string({ maxLength: 5 }) }),
);
const attributes = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 20 });
const record = fc.oneof(
	fc.record({ type: fc.constant('x'), id: fc.oneof(fc.integer(), fc.string()), attributes }),
	attributes,
);

describe('record catalogues', () => {
	for (const kind of KINDS) {
		const catalogue = RECORD_CATALOGUE[kind];
		it(`${kind}: Simplified keeps at most ${MAX_SIMPLIFIED_FIELDS} of its fields, each once`, () => {
			assert.ok(catalogue.simplified.length <= MAX_SIMPLIFIED_FIELDS);
			assert.equal(new Set(catalogue.simplified).size, catalogue.simplified.length);
			for (const name of catalogue.simplified) assert.ok(name in catalogue.fields, name);
			assert.deepEqual(
				fieldNames(catalogue),
				[...fieldNames(catalogue)].sort((a, b) => a.localeCompare(b)),
			);
		});

		it(`${kind}: Simplified and Selected Fields give the same values, and the record is left as it came`, () => {
			fc.assert(
				fc.property(record, (input) => {
					const snapshot = JSON.stringify(input);
					const simplified = shapeForOutput(input, catalogue, { mode: 'simplified', fields: [] });
					const selected = shapeForOutput(input, catalogue, {
						mode: 'selected',
						fields: [...catalogue.simplified],
					});
					const fellBack =
						catalogue.undocumented && Object.values(selected).every((v) => v === null);
					if (!fellBack) assert.deepEqual(simplified, selected);
					const all = fieldNames(catalogue);
					const every = shapeForOutput(input, catalogue, { mode: 'selected', fields: all });
					assert.deepEqual(Object.keys(every), all);
					for (const field of all) assert.notEqual(every[field], undefined, field);
					assert.equal(JSON.stringify(input), snapshot);
				}),
				{ numRuns: 200 },
			);
		});
	}

	it('the account token comes only when asked for', () => {
		const account = { type: 'user', id: '1', attributes: { name: 'A', api_token: 'secret-token' } };
		for (const mode of ['simplified', 'raw', 'selected'] as const) {
			const fields = mode === 'selected' ? ['name'] : [];
			const hidden = shapeForOutput(account, RECORD_CATALOGUE.account, { mode, fields });
			assert.doesNotMatch(JSON.stringify(hidden), /secret-token/, mode);
			const shown = shapeForOutput(account, RECORD_CATALOGUE.account, {
				mode,
				fields,
				revealToken: true,
			});
			assert.match(JSON.stringify(shown), /secret-token/, mode);
		}
	});
});
