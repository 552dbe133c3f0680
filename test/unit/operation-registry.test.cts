/**
 * The operation registry (test/operations/): every operation of the node has its row of test data, and every row
 * belongs to an operation of the node. The suites that cover every operation leave out one without a row: this is
 * the test that says so, and what to add.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	FIXTURES_FILE,
	OPERATIONS,
	missingFixtures,
	nodeOperations,
	unknownFixtures,
	type E2eSeed,
	type EngineSeed,
	type NodeOperation,
} from '../operations/index.cjs';

/** The row a new operation needs, with what to fill in. */
function rowToAdd(operation: NodeOperation): string {
	const { resource, operation: value } = operation;
	return [
		`Keyword.com → ${operation.resourceName} → ${operation.name} (${operation.method} ${operation.path}) has no test data.`,
		`Add its row to FIXTURES in ${FIXTURES_FILE} (copy the row of a similar operation; reads go before the writes):`,
		`  '${resource} ${value}': {`,
		`    endpoints: [/* its number(s) in the API document, as in the README's Operations table */],`,
		`    returns: 'records', // or 'confirmation', 'message', 'report'`,
		`    mutates: false, // true when it creates, changes or deletes something`,
		`    parameters: (seed) => ({ resource: '${resource}', operation: '${value}' /* , the fields it needs against the fake's demo seed */ }),`,
		`    e2e: [{ node: '<a node name of its own>', parameters: () => ({ resource: '${resource}', operation: '${value}' /* , … */ }) }],`,
		`  },`,
		`Then the secret, error-path, redaction, output, AI-tool and e2e suites run it.`,
	].join('\n');
}

const ENGINE_SEED: EngineSeed = { acmeId: 1, acmeKeywords: ['1', '2', '3'], domainId: 'd' };
const E2E_SEED: E2eSeed = { domainId: 'd' };

describe('operation registry (test/operations/)', () => {
	it('every operation of the node has its row of test data', () => {
		const missing = missingFixtures();
		assert.ok(nodeOperations().length > 0, 'the node description lists operations');
		assert.equal(missing.length, 0, `\n${missing.map(rowToAdd).join('\n\n')}\n`);
	});

	it('every row of test data belongs to an operation of the node', () => {
		const unknown = unknownFixtures();
		assert.deepEqual(
			unknown,
			[],
			`rows of FIXTURES in ${FIXTURES_FILE} for operations the node does not have (renamed or removed? rename or remove the row): ${unknown.join(', ')}`,
		);
	});

	it("each row's parameters, engine and e2e, are for its own operation", () => {
		for (const { label, resource, operation, ...fixture } of OPERATIONS) {
			const runs = [
				fixture.parameters(ENGINE_SEED),
				...fixture.e2e.map((node) => node.parameters(E2E_SEED)),
			];
			for (const parameters of runs)
				assert.deepEqual(
					[parameters.resource, parameters.operation],
					[resource, operation],
					`${label} in ${FIXTURES_FILE}`,
				);
			assert.ok(fixture.e2e.length > 0, `${label}: at least one e2e node`);
			assert.ok(fixture.endpoints.length > 0, `${label}: its endpoint number(s)`);
		}
	});

	it('the e2e nodes have names of their own', () => {
		const names = OPERATIONS.flatMap((operation) => operation.e2e.map((node) => node.node));
		assert.deepEqual(
			names.filter((name, index) => names.indexOf(name) !== index),
			[],
		);
	});

	it('the writes come after the reads (the suites run the rows in order)', () => {
		const firstWrite = OPERATIONS.findIndex((operation) => operation.mutates);
		const lateReads = OPERATIONS.slice(firstWrite).filter((operation) => !operation.mutates);
		assert.deepEqual(
			lateReads.map((operation) => operation.label),
			[],
		);
	});
});
