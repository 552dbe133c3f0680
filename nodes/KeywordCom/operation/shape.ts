import type { IDataObject } from 'n8n-workflow';

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
			// The report's shape is not shown: `data` alone when nothing but links comes beside it, else everything.
			const data = object.data;
			const beside = Object.keys(object).filter((key) => key !== 'data' && key !== 'links');
			if (data && typeof data === 'object' && !Array.isArray(data) && beside.length === 0)
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

/** The Output chosen, for operations whose `select` or `run` builds the records itself (ranking chart and rows). */
export function outputModeOf(input: OperationInput): string {
	return String(input.get('output', 'simplified'));
}
