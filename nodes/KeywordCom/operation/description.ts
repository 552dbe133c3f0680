import type { INodeProperties } from 'n8n-workflow';

import { concurrencyOption, returnAllFields, simplifyField } from '../../shared/fields';
import { OUTPUT_CHOICE_VERSIONS, outputFields } from '../../shared/output';
import { catalogueOf } from '../../shared/recordKinds';
import { TOOL_DEFAULT_LIMIT } from './tool';
import type { OperationConfig } from './types';

/**
 * The parameters of an operation's panel: its own, then those every operation of its kind gets the same way (Return
 * All / Limit, Simplify, Output and Fields, Concurrency), each shown only for its resource and operation.
 */

/** Whether the operation offers the Output choice (version 2): every operation that returns records. */
export function hasOutputChoice(config: OperationConfig): boolean {
	return (
		config.simplify === true || config.output.type === 'records' || config.output.type === 'record'
	);
}

/** A list answered whole (no paging): version 2 adds Return All / Limit, applied to what came back. */
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
function listSizeFields(versions?: typeof OUTPUT_CHOICE_VERSIONS): INodeProperties[] {
	const [returnAll, limit] = returnAllFields();
	const onVersions = versions ? { '@version': versions } : {};
	return [
		{ ...returnAll, displayOptions: { show: { ...onVersions }, hide: { ...asToolOnly } } },
		{
			...limit,
			displayOptions: { show: { ...onVersions, returnAll: [false] }, hide: { ...asToolOnly } },
		},
		{
			...limit,
			default: TOOL_DEFAULT_LIMIT,
			description: `Max number of results to return (an AI agent's context is small: ${TOOL_DEFAULT_LIMIT} by default)`,
			displayOptions: { show: { ...onVersions, ...asToolOnly } },
		},
	];
}

/** The operation's parameters, scoped to it. */
export function operationFields(config: OperationConfig): INodeProperties[] {
	const fields = [...(config.fields ?? [])];
	if (config.paged) fields.push(...listSizeFields());
	else if (isWholeList(config)) fields.push(...listSizeFields(OUTPUT_CHOICE_VERSIONS));
	if (config.simplify)
		fields.push({ ...simplifyField(), displayOptions: { show: { '@version': [1] } } });
	if (hasOutputChoice(config)) {
		const { output } = config;
		const listed =
			output.type === 'records' || output.type === 'record' ? output.selectable : undefined;
		const kind = output.type === 'records' || output.type === 'record' ? output.kind : 'plain';
		fields.push(...outputFields(listed ?? catalogueOf(kind)?.selectable));
	}
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
	return fields.map((field) => scope(field, config.resource, config.value));
}
