import type { INodeProperties } from 'n8n-workflow';

import { concurrencyOption, returnAllFields } from '../../shared/fields';
import { outputFields } from '../../shared/output';
import { catalogueOf } from '../../shared/recordKinds';
import type { RecordCatalogue } from '../../shared/recordKinds/catalogue';
import { TOOL_DEFAULT_LIMIT } from './tool';
import type { OperationConfig } from './types';

/**
 * The parameters of an operation's panel: its own, then those every operation of its kind gets the same way (Return
 * All / Limit, Output and Fields, Concurrency), each shown only for its resource and operation.
 */

/** The catalogue of the records the operation returns; undefined for one that returns none (no Output choice). */
export function recordCatalogueOf(config: OperationConfig): RecordCatalogue | undefined {
	const { output } = config;
	if (output.type === 'records' || output.type === 'record') return catalogueOf(output.kind);
	return output.type === 'body' && output.holds ? catalogueOf(output.holds) : undefined;
}

/** A list answered whole (no paging): Return All / Limit, applied to what came back. */
export function isWholeList(config: OperationConfig): boolean {
	return !config.paged && config.output.type === 'records' && config.output.whole !== true;
}

function scope(field: INodeProperties, resource: string, operation: string): INodeProperties {
	const show = {
		...(field.displayOptions?.show ?? {}),
		resource: [resource],
		operation: [operation],
	};
	return { ...field, displayOptions: { ...(field.displayOptions ?? {}), show } };
}

/** Shown only where n8n runs the node as an AI tool (`@tool`), or only where it does not. */
const asToolOnly = { '@tool': [true] };

/**
 * Return All and Limit. As an AI tool the node shows only a Limit with a small default: an agent's context fills
 * fast (the runtime ignores Return All there too, for nodes saved before).
 */
function listSizeFields(): INodeProperties[] {
	const [returnAll, limit] = returnAllFields();
	return [
		{ ...returnAll, displayOptions: { hide: { ...asToolOnly } } },
		{ ...limit, displayOptions: { show: { returnAll: [false] }, hide: { ...asToolOnly } } },
		{
			...limit,
			default: TOOL_DEFAULT_LIMIT,
			description: `Max number of results to return (an AI agent's context is small: ${TOOL_DEFAULT_LIMIT} by default)`,
			displayOptions: { show: { ...asToolOnly } },
		},
	];
}

/** The operation's parameters, scoped to it. */
export function operationFields(config: OperationConfig): INodeProperties[] {
	const fields = [...(config.fields ?? [])];
	if (config.paged || isWholeList(config)) fields.push(...listSizeFields());
	const catalogue = recordCatalogueOf(config);
	if (catalogue) fields.push(...outputFields(catalogue));
	if (config.paged) {
		const existing = fields.find(
			(field) => field.name === 'options' && field.type === 'collection',
		);
		if (existing)
			existing.options = [...(existing.options ?? []), concurrencyOption()] as INodeProperties[];
		else
			fields.push({
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [concurrencyOption()],
			});
	}
	return fields.map((field) => scope(sortedCollection(field), config.resource, config.value));
}

/** A collection's fields in alphabetical order of their names, as n8n lists them (Concurrency joins in place). */
function sortedCollection(field: INodeProperties): INodeProperties {
	if (field.type !== 'collection' || !field.options) return field;
	const options = [...(field.options as INodeProperties[])].sort((a, b) =>
		a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' }),
	);
	return { ...field, options };
}
