import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_PAGE_CONCURRENCY } from './constants';
import { concurrencyOption, returnAllFields, simplifyField } from './fields';
import { identityOf, orderOfList } from './listOrder';
import { collectPages, ListChangedError, type PageStyle, type SlotLease } from './paging';
import { shapeRecord, type RecordKind } from './records';
import { redactDeep } from './redact';
import { apiRequest, SharedPause, type ApiRequest, type ApiResponse } from './transport';
import { checkInteger, InputError } from './validation';

/**
 * An operation is data: its endpoint (method and path template), its fields, a pure `prepare` that validates the
 * parameters and builds the request parts, and how to shape the answer. `defineOperation` turns that into the
 * declarative pieces n8n's routing engine runs: an option with `routing` and fields scoped by displayOptions.
 *
 * The routing hook `operations.pagination` is the one place n8n lets a declarative operation wrap the HTTP exchange.
 * Every operation uses it (`send.paginate: true`), so validation happens before any request, and retries, paging,
 * chunking, error mapping and token redaction live in one place instead of in each operation.
 */
export interface OperationInput {
	node: INode;
	itemIndex: number;
	/** A parameter of the current item (resource locators give their value). */
	get(name: string, fallback?: unknown): unknown;
}

export interface PreparedRequest {
	/** Values for the `{placeholders}` of the path, already URL-encoded. */
	path?: Record<string, string>;
	qs?: IDataObject;
	body?: unknown;
	/** Checked operation settings that are not part of the request (e.g. the chunk size of Add). */
	settings?: IDataObject;
}

export type OutputSpec =
	/** `data` is a list: one item per record. */
	| { type: 'records'; kind: RecordKind; select?: (body: IDataObject, input: OperationInput) => unknown[] }
	/** `data` is one record: one item. */
	| { type: 'record'; kind: RecordKind }
	/** The whole answer as one item (reports whose shape has no records), without `links`. */
	| { type: 'body' }
	/** Operations whose answer body is not documented: a confirmation item, plus the answer when there is one. */
	| { type: 'confirmation'; result: (input: OperationInput, prepared: PreparedRequest) => IDataObject };

export interface OperationRuntime {
	input: OperationInput;
	prepared: PreparedRequest;
	url: string;
	method: IHttpRequestMethods;
	send(request: Omit<ApiRequest, 'base'>, lease?: SlotLease): Promise<ApiResponse>;
	simplify: boolean;
}

export interface OperationConfig {
	resource: string;
	value: string;
	name: string;
	/** Shown in the node list and used as the tool description for AI agents. */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path template, e.g. `/api/v2/groups/{target}/keywords`. */
	path: string;
	fields?: INodeProperties[];
	prepare?: (input: OperationInput) => PreparedRequest;
	output: OutputSpec;
	/** A paged list: adds Return All / Limit and a Concurrency option. */
	paged?: PageStyle;
	/** Adds the Simplify toggle. */
	simplify?: boolean;
	/** Replaces the default single request (chunked adds, lists derived from another record). */
	run?: (runtime: OperationRuntime) => Promise<IDataObject[]>;
	/** Keep the account record's `api_token` (the user opted in). */
	revealToken?: (input: OperationInput) => boolean;
}

export interface OperationDefinition {
	option: INodePropertyOptions;
	fields: INodeProperties[];
}

function scope(field: INodeProperties, resource: string, operation: string): INodeProperties {
	const show = { ...(field.displayOptions?.show ?? {}), resource: [resource], operation: [operation] };
	return { ...field, displayOptions: { ...(field.displayOptions ?? {}), show } };
}

export function fillPath(template: string, values: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (_match, key: string) => {
		if (values[key] === undefined) throw new Error(`Path value "${key}" missing for ${template}`);
		return values[key];
	});
}

function inputFor(context: IExecutePaginationFunctions): OperationInput {
	const itemIndex = context.getItemIndex();
	return {
		node: context.getNode(),
		itemIndex,
		get: (name, fallback) =>
			context.getNodeParameter(name, fallback as never, { extractValue: true }) as unknown,
	};
}

/**
 * The node's own errors for the item. Input errors quote the value: a token pasted into a field (whole or in part)
 * must not come back in the message. A list that kept changing under the read fails the item (with Continue On Fail,
 * an error item) rather than give a list with records missing or twice.
 */
function toOperationError(node: INode, error: unknown, itemIndex: number, token?: string): Error {
	if (error instanceof InputError) {
		return new NodeOperationError(node, `Invalid ${error.render(token)}`, {
			itemIndex,
			description: error.hint,
		});
	}
	if (error instanceof ListChangedError) {
		return new NodeOperationError(node, error.message, { itemIndex, description: error.description });
	}
	return error as Error;
}

/** Options from the declarative routing that the runner keeps (base URL, time-out, proxy, allowed domains…). */
function baseOptions(options: DeclarativeRestApiSettings.HttpRequestOptions): Partial<IHttpRequestOptions> {
	const { baseURL, timeout, proxy, skipSslCertificateValidation, allowedDomains, headers } = options as IHttpRequestOptions;
	const base: Partial<IHttpRequestOptions> = { baseURL, timeout, headers };
	if (proxy) base.proxy = proxy;
	if (skipSslCertificateValidation) base.skipSslCertificateValidation = skipSslCertificateValidation;
	if (allowedDomains) base.allowedDomains = allowedDomains;
	return base;
}

function shapeOutput(config: OperationConfig, body: unknown, runtime: OperationRuntime): IDataObject[] {
	const { output } = config;
	const object = (body && typeof body === 'object' ? body : {}) as IDataObject;
	switch (output.type) {
		case 'records': {
			const records = output.select
				? output.select(object, runtime.input)
				: Array.isArray(object.data)
					? (object.data as unknown[])
					: [];
			return records.map((record) => shapeRecord(record, output.kind, runtime.simplify));
		}
		case 'record':
			return [shapeRecord(object.data ?? body, output.kind, runtime.simplify)];
		case 'body': {
			if (!body || typeof body !== 'object' || Array.isArray(body)) return [{ data: body as never }];
			const rest = { ...object };
			delete rest.links;
			return [rest];
		}
		case 'confirmation': {
			const result = output.result(runtime.input, runtime.prepared);
			const answer = body === undefined || body === '' ? {} : { response: body as never };
			return [{ ...result, ...answer }];
		}
	}
}

function runOperation(config: OperationConfig) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const input = inputFor(this);
		const { itemIndex, node } = input;
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const token = typeof credentials.apiToken === 'string' ? credentials.apiToken : undefined;
		let prepared: PreparedRequest;
		let url: string;
		let limit = 0;
		const returnAll = config.paged ? (this.getNodeParameter('returnAll', false) as boolean) : false;
		try {
			prepared = config.prepare?.(input) ?? {};
			url = fillPath(config.path, prepared.path);
			if (config.paged && !returnAll) {
				limit = checkInteger('Limit', this.getNodeParameter('limit', 50), 1, Number.MAX_SAFE_INTEGER);
			}
		} catch (error) {
			throw toOperationError(node, error, itemIndex, token);
		}
		const base = baseOptions(requestData.options);
		const pause = new SharedPause();
		const runtime: OperationRuntime = {
			input,
			prepared,
			url,
			method: config.method,
			simplify: config.simplify ? (this.getNodeParameter('simplify', true) as boolean) : false,
			send: async (request, lease) =>
				await apiRequest(this, { ...request, base }, { itemIndex, pause, credentials, lease }),
		};

		// The token is taken out of every result (unless the user asked for the account's own token).
		const keepAccountToken = config.revealToken?.(input) ?? false;
		const clean = (json: IDataObject) => redactDeep(json, token, keepAccountToken);

		let results: IDataObject[];
		if (config.run) {
			results = (await config.run(runtime)).map(clean);
		} else if (config.paged) {
			const concurrency = Number(this.getNodeParameter('options.concurrency', DEFAULT_PAGE_CONCURRENCY)) || 1;
			const kind = config.output.type === 'records' ? config.output.kind : 'plain';
			try {
				results = await collectPages(
					config.paged,
					async (page, perPage, lease) =>
						(
							await runtime.send(
								{ method: config.method, url, qs: { ...(prepared.qs ?? {}), page, per_page: perPage } },
								lease,
							)
						).body,
					{ returnAll, limit, concurrency, order: orderOfList(kind, prepared.qs), identity: identityOf },
					// Shaped page by page while later pages are in flight (one result per record: paged lists have no `select`).
					(records) => shapeOutput(config, { data: records }, runtime).map(clean),
				);
			} catch (error) {
				throw toOperationError(node, error, itemIndex, token);
			}
		} else {
			const response = await runtime.send({
				method: config.method,
				url,
				qs: prepared.qs,
				body: prepared.body,
				allowEmpty: config.output.type === 'confirmation',
			});
			results = shapeOutput(config, response.body, runtime).map(clean);
		}

		return results.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};
}

export function defineOperation(config: OperationConfig): OperationDefinition {
	if (config.paged && (config.output.type !== 'records' || config.output.select)) {
		// Pages are shaped as they arrive (collectPages), which needs one result per record.
		throw new Error(`${config.resource} ${config.value}: a paged list needs a 'records' output without select`);
	}
	const fields = [...(config.fields ?? [])];
	if (config.paged) fields.push(...returnAllFields());
	if (config.simplify) fields.push(simplifyField());
	if (config.paged) {
		const existing = fields.find((field) => field.name === 'options' && field.type === 'collection');
		if (existing) existing.options = [...(existing.options ?? []), concurrencyOption()] as INodeProperties[];
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
	return {
		option: {
			name: config.name,
			value: config.value,
			action: config.action,
			description: config.description,
			routing: {
				request: { method: config.method, url: config.path },
				send: { paginate: true },
				operations: { pagination: runOperation(config) },
			},
		},
		fields: fields.map((field) => scope(field, config.resource, config.value)),
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
