/**
 * Every operation whose output is records offers the three outputs (Simplified, Raw, Selected Fields),
 * read from the node's description as n8n shows it. What each operation returns is its `returns` in the operation
 * registry (test/operations/fixtures.cts, which every operation of the node must have a row in): records, or what
 * it returns instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { OPERATIONS, type Returns } from '../operations/index.cjs';

/** What an operation without records returns instead (its `returns` in test/operations/fixtures.cts). */
const INSTEAD: Record<Exclude<Returns, 'records'>, string> = {
	confirmation: 'confirmation',
	message: 'the API message',
	report: 'report',
};

const description = new KeywordCom().description;

/** The property `name` as n8n displays it for the operation (undefined when not shown). */
function shownProperty(name: string, values: INodeParameters): INodeProperties | undefined {
	return description.properties.find(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter(values, property, { typeVersion: 1 }, description),
	);
}

describe('Output choice on every operation returning records', () => {
	for (const { label, resource, operation, returns } of OPERATIONS) {
		if (returns !== 'records') {
			it(`${label}: no Output choice (${INSTEAD[returns]})`, () => {
				assert.equal(shownProperty('output', { resource, operation }), undefined);
			});
			continue;
		}
		it(`${label}: Output offers Simplified, Raw and Selected Fields, and Fields follows Selected`, () => {
			const output = shownProperty('output', { resource, operation });
			assert.ok(output, 'an Output parameter is shown');
			// The three choices, whatever their order (the panel lists them by name: community-rules.test.cts).
			assert.deepEqual(
				(output.options ?? []).map((option) => String((option as { value: unknown }).value)).sort(),
				['raw', 'selected', 'simplified'],
			);
			const fields = shownProperty('fields', { resource, operation, output: 'selected' });
			assert.ok(fields, 'Fields is shown for Selected Fields');
			assert.equal(fields.required, true);
			assert.equal(
				shownProperty('fields', { resource, operation, output: 'simplified' }),
				undefined,
				'Fields is hidden for Simplified',
			);
		});
	}
});
