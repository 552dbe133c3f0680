/** docs/operations.md's table of the endpoints (#1–#28) and the node's operations agree, row for row. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { FIXTURES_FILE, OPERATIONS } from '../operations/index.cjs';

/** One row per (endpoint, resource, operation), from the Operations table of docs/operations.md or from the node itself. */
interface Row {
	number?: number;
	method: string;
	path: string;
	resource: string;
	operation: string;
}

const normalise = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const key = (row: Row) =>
	`${row.method} ${normalise(row.path)} → ${row.resource} / ${row.operation}`;

function readmeRows(): Row[] {
	const readme = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'operations.md'), 'utf8');
	const section = readme.split('## Operations')[1].split('\n## ')[0];
	return [...section.matchAll(/^\| (\d+) \| `(\w+) ([^`]+)` \| ([^|]+) \| ([^|]+) \|$/gm)].map(
		(match) => ({
			number: Number(match[1]),
			method: match[2],
			path: match[3],
			resource: match[4].trim(),
			operation: match[5].trim(),
		}),
	);
}

function nodeRows(): Row[] {
	const { properties } = new KeywordCom().description;
	const resources = (properties.find((p) => p.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	const rows: Row[] = [];
	for (const property of properties.filter((p: INodeProperties) => p.name === 'operation')) {
		const resourceValue = property.displayOptions?.show?.resource?.[0];
		const resource =
			resources.find((r) => r.value === resourceValue)?.name ?? String(resourceValue);
		for (const option of (property.options ?? []) as INodePropertyOptions[]) {
			const request = option.routing?.request;
			rows.push({
				method: String(request?.method),
				path: String(request?.url),
				resource,
				operation: option.name,
			});
		}
	}
	return rows;
}

describe('the Operations table of docs/operations.md', () => {
	it('lists every endpoint of the API document, #1 to the last one an operation calls', () => {
		const numbers = new Set(readmeRows().map((row) => row.number));
		// The endpoint numbers of the operation registry (test/operations/fixtures.cts).
		const called = new Set(OPERATIONS.flatMap((operation) => operation.endpoints));
		const last = Math.max(...called);
		for (let n = 1; n <= last; n++) {
			assert.ok(called.has(n), `no operation in ${FIXTURES_FILE} calls endpoint #${n}`);
			assert.ok(numbers.has(n), `endpoint #${n} is missing from the table`);
		}
		assert.ok(
			[...numbers].every((n) => n !== undefined && called.has(n)),
			`the table numbers endpoints no operation calls: ${[...numbers].filter((n) => !called.has(n!)).join(', ')}`,
		);
	});

	it("gives each operation the number it has in the registry's test data", () => {
		for (const operation of OPERATIONS) {
			const row = readmeRows().find(
				(r) => r.resource === operation.resourceName && r.operation === operation.name,
			);
			assert.ok(row?.number, `${operation.label}: a row of the table`);
			assert.ok(
				operation.endpoints.includes(row.number),
				`${operation.label}: #${row.number} in the table, ${operation.endpoints.map((n) => `#${n}`).join(' + ')} in ${FIXTURES_FILE}`,
			);
		}
	});

	it('matches the node: same endpoints, resources and operations, nothing more, nothing less', () => {
		const fromReadme = readmeRows().map(key).sort();
		const fromNode = nodeRows().map(key).sort();
		assert.deepEqual(fromNode, fromReadme);
	});

	it('gives every operation an action and a description an AI agent can act on', () => {
		for (const property of new KeywordCom().description.properties.filter(
			(p) => p.name === 'operation',
		)) {
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				assert.ok(option.action && option.action.length > 8, `${option.name}: action`);
				assert.ok(
					option.description && option.description.length > 30,
					`${option.name}: description`,
				);
			}
		}
	});
});
