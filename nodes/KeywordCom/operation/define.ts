import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from './description';
import { runItem, withErrorItems } from './execute';
import type { OperationConfig, OperationDefinition } from './types';

/**
 * An operation is data (types.ts): its endpoint (method and path template), its parameters, a pure `prepare` that
 * checks them and builds the request parts, and how to shape the answer. `defineOperation` turns that into the
 * declarative pieces n8n's routing engine runs: an option whose routing hands the request to the runner (execute.ts),
 * and the parameters scoped by displayOptions (description.ts).
 */
export function defineOperation(config: OperationConfig): OperationDefinition {
	if (config.paged && (config.output.type !== 'records' || config.output.select)) {
		// Pages are shaped as they arrive (collectPages), which needs one result per record.
		throw new Error(
			`${config.resource} ${config.value}: a paged list needs a 'records' output without select`,
		);
	}
	return {
		option: {
			name: config.name,
			value: config.value,
			action: config.action,
			description: config.description,
			routing: {
				request: { method: config.method, url: config.path },
				send: { paginate: true },
				operations: { pagination: withErrorItems(runItem(config)) },
			},
		},
		fields: operationFields(config),
	};
}

/** The `operation` selector and the fields of one resource. */
export function describeResource(
	resource: string,
	operations: OperationDefinition[],
	defaultOperation: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map((operation) => operation.option),
			default: defaultOperation,
		},
		...operations.flatMap((operation) => operation.fields),
	];
}
