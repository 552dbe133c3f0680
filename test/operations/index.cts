/**
 * The operation registry of the tests: every resource × operation the Keyword.com node offers, read from the node's
 * description at run time, joined with its row of test data in `FIXTURES` (`test/operations/fixtures.cts`). Suites that
 * cover every operation iterate `OPERATIONS` instead of keeping their own lists, and count nothing by hand: a new
 * operation is in every one of them once its row is written. An operation without a row is left out of them and
 * fails `test/unit/operation-registry.test.cts`, which names the row to add.
 *
 * Imports only the node class (and its description), so it loads anywhere: the engine suites, the unit tests and the
 * e2e tests of a real n8n.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { FIXTURES, type OperationFixture } from './fixtures.cjs';

export * from './fixtures.cjs';

/** Where the fixture rows are, as a newcomer should read it in a failure message. */
export const FIXTURES_FILE = 'test/operations/fixtures.cts';

/** One operation as the node's description offers it. */
export interface NodeOperation {
	/** The values saved in a workflow, e.g. `keyword` and `getMany`. */
	resource: string;
	operation: string;
	/** `'<resource> <operation>'`: the key of its row in FIXTURES and its name in test titles. */
	label: string;
	/** As the editor shows them, e.g. `Keyword` and `Get Many`. */
	resourceName: string;
	name: string;
	/** The request the description routes to: its method and URL template (`/api/v2/groups/{target}/keywords/`). */
	method: string;
	path: string;
}

/** An operation of the node with its row of test data. */
export type RegisteredOperation = NodeOperation & OperationFixture;

const description: INodeTypeDescription = new KeywordCom().description;

/** The options of the node's Resource field. */
function resourceOptions(): INodePropertyOptions[] {
	return (description.properties.find((property) => property.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
}

/** Every resource × operation of the node, in the description's order. */
export function nodeOperations(): NodeOperation[] {
	const resources = resourceOptions();
	const operations: NodeOperation[] = [];
	for (const property of description.properties) {
		if (property.name !== 'operation') continue;
		const resource = String(property.displayOptions?.show?.resource?.[0]);
		const resourceName = resources.find((option) => option.value === resource)?.name ?? resource;
		for (const option of (property.options ?? []) as INodePropertyOptions[]) {
			const operation = String(option.value);
			operations.push({
				resource,
				operation,
				label: `${resource} ${operation}`,
				resourceName,
				name: option.name,
				method: String(option.routing?.request?.method ?? 'GET'),
				path: String(option.routing?.request?.url),
			});
		}
	}
	return operations;
}

/** The resources of the node (the values of its Resource field). */
export function nodeResources(): string[] {
	return resourceOptions().map((option) => String(option.value));
}

/** The operations of the node that have a row in FIXTURES, in the order of the rows (see fixtures.cts). */
export const OPERATIONS: readonly RegisteredOperation[] = (() => {
	const offered = new Map(nodeOperations().map((operation) => [operation.label, operation]));
	return Object.entries(FIXTURES).flatMap(([label, fixture]) => {
		const operation = offered.get(label);
		return operation ? [{ ...operation, ...fixture }] : [];
	});
})();

/** The node's operations that have no row in FIXTURES (test/unit/operation-registry.test.cts fails on them). */
export function missingFixtures(): NodeOperation[] {
	return nodeOperations().filter((operation) => !(operation.label in FIXTURES));
}

/** Rows of FIXTURES that name no operation of the node (a renamed or removed operation). */
export function unknownFixtures(): string[] {
	const labels = new Set(nodeOperations().map((operation) => operation.label));
	return Object.keys(FIXTURES).filter((label) => !labels.has(label));
}

/** The registered operation `label` (`'keyword getMany'`); throws when there is none. */
export function registered(label: string): RegisteredOperation {
	const found = OPERATIONS.find((operation) => operation.label === label);
	if (!found)
		throw new Error(
			`no registered operation "${label}": the node has no such operation or ${FIXTURES_FILE} no row for it`,
		);
	return found;
}

/** Whether n8n shows parameter `name` for the operation in node version `typeVersion`. */
export function showsParameter(
	operation: Pick<NodeOperation, 'resource' | 'operation'>,
	name: string,
	typeVersion: number,
	values: INodeParameters = {},
): boolean {
	const parameters = { resource: operation.resource, operation: operation.operation, ...values };
	return description.properties.some(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter(parameters, property, { typeVersion }, description),
	);
}
