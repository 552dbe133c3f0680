/**
 * Every operation whose output is records offers the three outputs of version 2 (Simplified, Raw, Selected Fields),
 * read from the node's description as n8n shows it: a new operation cannot miss one. The operations without an
 * Output choice are named below, each with what it returns instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { KeywordCom } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordCom/KeywordCom.node';

/** Operations that return no records: a confirmation, the answer as one item, or an AI report. */
const WITHOUT_RECORDS: Record<string, string> = {
	'project archive': 'confirmation',
	'project delete': 'confirmation',
	'project refresh': 'the API message',
	'project restore': 'confirmation',
	'keyword delete': 'confirmation',
	'keyword deleteMany': 'confirmation',
	'keyword updateMany': 'confirmation',
	'aiMetric getDashboard': 'report',
	'aiMetric getSentiment': 'report',
	'aiMetric getCitations': 'report',
};

const description = new KeywordCom().description;

/** Every resource/operation pair of the node. */
function operations(): Array<{ resource: string; operation: string }> {
	const pairs: Array<{ resource: string; operation: string }> = [];
	for (const property of description.properties) {
		if (property.name !== 'operation') continue;
		const resource = String(property.displayOptions?.show?.resource?.[0]);
		for (const option of property.options ?? []) {
			pairs.push({ resource, operation: String((option as { value: unknown }).value) });
		}
	}
	return pairs;
}

/** The property `name` as n8n displays it for the operation in node version 2 (undefined when not shown). */
function shownProperty(name: string, values: INodeParameters): INodeProperties | undefined {
	return description.properties.find(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter(values, property, { typeVersion: 2 }, description),
	);
}

describe('Output choice of version 2 on every operation returning records', () => {
	const pairs = operations();

	it('the node has operations, and every operation named below exists', () => {
		assert.ok(pairs.length >= 28, `${pairs.length} operations`);
		const labels = new Set(pairs.map(({ resource, operation }) => `${resource} ${operation}`));
		for (const label of Object.keys(WITHOUT_RECORDS)) assert.ok(labels.has(label), label);
	});

	for (const { resource, operation } of pairs) {
		const label = `${resource} ${operation}`;
		if (label in WITHOUT_RECORDS) {
			it(`${label}: no Output choice (${WITHOUT_RECORDS[label]})`, () => {
				assert.equal(shownProperty('output', { resource, operation }), undefined);
			});
			continue;
		}
		it(`${label}: Output offers Simplified, Raw and Selected Fields, and Fields follows Selected`, () => {
			const output = shownProperty('output', { resource, operation });
			assert.ok(output, 'an Output parameter is shown');
			// The three choices, whatever their order (the panel lists them by name: community-rules.test.ts).
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
