import type { IDataObject } from 'n8n-workflow';

import { versionOf } from '../../shared/output';
import type { OperationConfig, OperationInput, OperationRuntime } from './types';

/** How an answer becomes results (one per output item), as the operation's `output` says. */

function withoutLinks(body: IDataObject): IDataObject {
	const rest = { ...body };
	delete rest.links;
	return rest;
}

/** The results of an answer's body: its records shaped as the user chose, or the body as one result. */
export function shapeAnswer(
	config: OperationConfig,
	body: unknown,
	runtime: OperationRuntime,
): IDataObject[] {
	const { output } = config;
	const object = (body && typeof body === 'object' ? body : {}) as IDataObject;
	switch (output.type) {
		case 'records': {
			const records = output.select
				? output.select(object, runtime.input)
				: Array.isArray(object.data)
					? (object.data as unknown[])
					: [];
			return records.map((record) => runtime.shape(record, output.kind));
		}
		case 'record':
			return [runtime.shape(object.data ?? body, output.kind)];
		case 'body':
			if (!body || typeof body !== 'object' || Array.isArray(body))
				return [{ data: body as never }];
			return [withoutLinks(object)];
		case 'report': {
			if (!body || typeof body !== 'object' || Array.isArray(body))
				return [{ data: body as never }];
			const data = object.data;
			const unwrap = versionOf(runtime.input.node) >= 2 || output.legacy === 'record';
			if (unwrap && data && typeof data === 'object' && !Array.isArray(data))
				return [data as IDataObject];
			return [withoutLinks(object)];
		}
		case 'confirmation': {
			const result = output.result(runtime.input, runtime.prepared);
			const answer = body === undefined || body === '' ? {} : { response: body as never };
			return [{ ...result, ...answer }];
		}
	}
}

/**
 * Whether records come simplified: version 1's Simplify toggle, version 2's Output "Simplified". For operations
 * whose `select` or `run` shapes the records itself (the ranking chart and rows).
 */
export function wantsSimplified(input: OperationInput): boolean {
	return versionOf(input.node) >= 2
		? input.get('output', 'simplified') === 'simplified'
		: input.get('simplify', true) === true;
}
