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
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_PAGE_CONCURRENCY } from '../../shared/constants';
import { accessOf } from '../../shared/credentials';
import { concurrencyOption, returnAllFields, simplifyField } from '../../shared/fields';
import {
	OUTPUT_CHOICE_VERSIONS,
	outputFields,
	readOutputChoice,
	versionOf,
	RECORD_FIELDS,
	shapeForOutput,
	type OutputChoice,
} from '../../shared/output';
import { identityOf, orderOfList } from '../../shared/listOrder';
import { collectPages, ListChangedError, type PageStyle } from '../../shared/paging';
import type { RecordKind } from '../../shared/records';
import { redactDeep } from '../../shared/redact';
import { SharedPause } from '../../shared/retryPolicy';
import {
	apiRequest,
	type ApiRequest,
	type ApiResponse,
	type AttemptHooks,
} from '../../shared/transport';
import {
	KEYWORD_ID_PARAMETER,
	keywordTextToLookUp,
	lookUpKeywordId,
	STAND_IN_KEYWORD_ID,
	withKeywordId,
} from './keywordLookup';
import { readTarget } from './target';
import { capToolResult, isToolNode, TOOL_DEFAULT_LIMIT } from './tool';
import { checkInteger, InputError } from '../../shared/validation';

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

/**
 * Field names Selected Fields offers. Without a list, the record kind's (output.ts), or typed names for records whose
 * shape the document does not give. Every operation returning records offers Selected Fields: there is no opting out.
 */
type SelectableFields = { fields?: string[] };

export type OutputSpec =
	/** `data` is a list: one item per record. */
	| ({
			type: 'records';
			kind: RecordKind;
			select?: (body: IDataObject, input: OperationInput) => unknown[];
	  } & SelectableFields)
	/** `data` is one record: one item. */
	| ({ type: 'record'; kind: RecordKind } & SelectableFields)
	/** The whole answer as one item (answers whose shape has no records), without `links`. */
	| { type: 'body' }
	/**
	 * A report (AI visibility metrics): the content of `data`, or the whole answer without `links` when it has no
	 * `data`. Version 1 kept each report's first shape (`legacy`): saved workflows read it so.
	 */
	| { type: 'report'; legacy: 'record' | 'body' }
	/** Operations whose answer body is not documented: a confirmation item, plus the answer when there is one. */
	| {
			type: 'confirmation';
			result: (input: OperationInput, prepared: PreparedRequest) => IDataObject;
	  };

export interface OperationRuntime {
	input: OperationInput;
	prepared: PreparedRequest;
	url: string;
	method: IHttpRequestMethods;
	send(request: Omit<ApiRequest, 'base'>, hooks?: AttemptHooks): Promise<ApiResponse>;
	/** One record as the user chose to see it (version 1: Simplify; version 2: Output). */
	shape(record: unknown, kind: RecordKind): IDataObject;
	/** Return All / Limit of the item, checked (a `run` that reads lists stops once it has enough). */
	size: { returnAll: boolean; limit: number };
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
	/** Adds version 1's Simplify toggle (version 2 offers the Output choice on every operation returning records). */
	simplify?: boolean;
	/** Replaces the default single request (chunked adds, lists derived from another record). */
	run?: (runtime: OperationRuntime) => Promise<IDataObject[]>;
	/** Keep the account record's `api_token` (the user opted in). */
	revealToken?: (input: OperationInput) => boolean;
	/** As an AI tool, Keyword ID may be the keyword's text: looked up in the project first (keywordLookup.ts). */
	keywordByText?: boolean;
}

export interface OperationDefinition {
	option: INodePropertyOptions;
	fields: INodeProperties[];
}

function scope(field: INodeProperties, resource: string, operation: string): INodeProperties {
	const show = {
		...(field.displayOptions?.show ?? {}),
		resource: [resource],
		operation: [operation],
	};
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
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: error.description,
		});
	}
	return error as Error;
}

/**
 * The options of a request: the credential's base URL, and what the declarative routing carries (time-out, headers,
 * proxy, allowed domains…).
 */
function baseOptions(
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	baseURL: string,
): Partial<IHttpRequestOptions> {
	const { timeout, proxy, skipSslCertificateValidation, allowedDomains, headers } =
		options as IHttpRequestOptions;
	const base: Partial<IHttpRequestOptions> = { baseURL, timeout, headers };
	if (proxy) base.proxy = proxy;
	if (skipSslCertificateValidation)
		base.skipSslCertificateValidation = skipSslCertificateValidation;
	if (allowedDomains) base.allowedDomains = allowedDomains;
	return base;
}

function withoutLinks(body: IDataObject): IDataObject {
	const rest = { ...body };
	delete rest.links;
	return rest;
}

function shapeOutput(
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

/** Whether the operation offers the Output choice (version 2): every operation that returns records. */
function hasOutputChoice(config: OperationConfig): boolean {
	return (
		config.simplify === true || config.output.type === 'records' || config.output.type === 'record'
	);
}

/** A list answered whole (no paging): version 2 adds Return All / Limit, applied to what came back. */
function isWholeList(config: OperationConfig): boolean {
	return !config.paged && config.output.type === 'records';
}

/**
 * Whether records come simplified: version 1's Simplify toggle, version 2's Output "Simplified". For operations
 * whose `select` shapes the records itself (the ranking chart).
 */
export function wantsSimplified(input: OperationInput): boolean {
	return versionOf(input.node) >= 2
		? input.get('output', 'simplified') === 'simplified'
		: input.get('simplify', true) === true;
}

/** The Output choice of the item, checked before any request. */
function outputChoiceOf(config: OperationConfig, input: OperationInput): OutputChoice {
	const offered = { simplify: config.simplify === true, output: hasOutputChoice(config) };
	const choice = readOutputChoice(versionOf(input.node), input.get, offered);
	return { ...choice, revealToken: config.revealToken?.(input) ?? false };
}

/** Return All / Limit of the item. A tool never returns all: an agent's context is small. */
function readListSize(
	context: IExecutePaginationFunctions,
	config: OperationConfig,
	input: OperationInput,
	asTool: boolean,
): { returnAll: boolean; limit: number } {
	const sized = config.paged !== undefined || (isWholeList(config) && versionOf(input.node) >= 2);
	if (!sized) return { returnAll: true, limit: 0 };
	const returnAll = asTool ? false : (context.getNodeParameter('returnAll', false) as boolean);
	if (returnAll) return { returnAll, limit: 0 };
	const fallback = asTool ? TOOL_DEFAULT_LIMIT : 50;
	return {
		returnAll,
		limit: checkInteger(
			'Limit',
			context.getNodeParameter('limit', fallback),
			1,
			Number.MAX_SAFE_INTEGER,
		),
	};
}

/**
 * With Continue On Fail the item's error comes back as an item holding the message and the hint (n8n's own error
 * item keeps the message only, and the hint is what says how to fix it). `details`: an item of only error, message
 * and details is what n8n sends down the error output ("Continue (using error output)").
 */
function runOperation(config: OperationConfig) {
	const execute = executeOperation(config);
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		try {
			return await execute.call(this, requestData);
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, this.getItemIndex());
			const { message, description } = error as { message?: unknown; description?: unknown };
			const json: IDataObject = { error: String(message ?? error) };
			if (typeof description === 'string' && description !== '') json.details = description;
			return [{ json, pairedItem: { item: this.getItemIndex() } }];
		}
	};
}

/**
 * The node's errors are NodeApiError / NodeOperationError already; anything else is wrapped as one, with the item it
 * failed on (n8n shows it with the error and pairs the error item with it).
 */
function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(node, error as Error, { itemIndex });
}

function executeOperation(config: OperationConfig) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		let input = inputFor(this);
		const { itemIndex, node } = input;
		const asTool = isToolNode(node);
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const { token, baseUrl } = accessOf(credentials);
		// The request sent is the one the description's routing names: its method, its path with the placeholders
		// filled by the checked values. (n8n hands the routing to this hook instead of sending it: see ARCHITECTURE.md.)
		const prepare = (checked: OperationInput) => {
			const parts = config.prepare?.(checked) ?? {};
			return { parts, url: fillPath(String(requestData.options.url ?? config.path), parts.path) };
		};
		let prepared: PreparedRequest;
		let url: string;
		let choice: OutputChoice;
		let size: { returnAll: boolean; limit: number };
		let keywordText: string | undefined;
		try {
			choice = outputChoiceOf(config, input);
			size = readListSize(this, config, input, asTool);
			keywordText = config.keywordByText
				? keywordTextToLookUp(input.get(KEYWORD_ID_PARAMETER), asTool)
				: undefined;
			// A keyword text is looked up after everything else is checked (with a stand-in ID): a bad value sends nothing.
			({ parts: prepared, url } = prepare(
				keywordText === undefined ? input : withKeywordId(input, STAND_IN_KEYWORD_ID),
			));
		} catch (error) {
			throw toOperationError(node, error, itemIndex, token);
		}
		const { returnAll, limit } = size;
		const method = (requestData.options.method ?? config.method) as IHttpRequestMethods;
		const base = baseOptions(requestData.options, baseUrl);
		const pause = new SharedPause();
		const send: OperationRuntime['send'] = async (request, hooks) =>
			await apiRequest(this, { ...request, base }, { itemIndex, pause, credentials, hooks });
		if (keywordText !== undefined) {
			try {
				input = withKeywordId(input, await lookUpKeywordId(send, readTarget(input), keywordText));
				({ parts: prepared, url } = prepare(input));
			} catch (error) {
				throw toOperationError(node, error, itemIndex, token);
			}
		}
		const runtime: OperationRuntime = {
			input,
			prepared,
			url,
			method,
			send,
			shape: (record, kind) => shapeForOutput(record, kind, choice),
			size,
		};

		// The token is taken out of every result (unless the user asked for the account's own token).
		const keepAccountToken = choice.revealToken ?? false;
		const clean = (json: IDataObject) => redactDeep(json, token, keepAccountToken);

		let results: IDataObject[];
		if (config.run) {
			try {
				results = (await config.run(runtime)).map(clean);
			} catch (error) {
				throw toOperationError(node, error, itemIndex, token);
			}
			if (!returnAll) results = results.slice(0, limit);
		} else if (config.paged) {
			const concurrency =
				Number(this.getNodeParameter('options.concurrency', DEFAULT_PAGE_CONCURRENCY)) || 1;
			const kind = config.output.type === 'records' ? config.output.kind : 'plain';
			try {
				results = await collectPages(
					config.paged,
					async (page, perPage, hooks) =>
						(
							await runtime.send(
								{ method, url, qs: { ...(prepared.qs ?? {}), page, per_page: perPage } },
								hooks,
							)
						).body,
					{
						returnAll,
						limit,
						concurrency,
						order: orderOfList(kind, prepared.qs),
						identity: identityOf,
					},
					// Shaped page by page while later pages are in flight (one result per record: paged lists have no `select`).
					(records) => shapeOutput(config, { data: records }, runtime).map(clean),
				);
			} catch (error) {
				throw toOperationError(node, error, itemIndex, token);
			}
		} else {
			const response = await runtime.send({
				method,
				url,
				qs: prepared.qs,
				body: prepared.body,
				allowEmpty: config.output.type === 'confirmation',
			});
			results = shapeOutput(config, response.body, runtime).map(clean);
			if (!returnAll) results = results.slice(0, limit);
		}

		if (asTool) results = capToolResult(results);
		return results.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};
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

export function defineOperation(config: OperationConfig): OperationDefinition {
	if (config.paged && (config.output.type !== 'records' || config.output.select)) {
		// Pages are shaped as they arrive (collectPages), which needs one result per record.
		throw new Error(
			`${config.resource} ${config.value}: a paged list needs a 'records' output without select`,
		);
	}
	const fields = [...(config.fields ?? [])];
	if (config.paged) fields.push(...listSizeFields());
	else if (isWholeList(config)) fields.push(...listSizeFields(OUTPUT_CHOICE_VERSIONS));
	if (config.simplify)
		fields.push({ ...simplifyField(), displayOptions: { show: { '@version': [1] } } });
	if (hasOutputChoice(config)) {
		const { output } = config;
		const listed =
			output.type === 'records' || output.type === 'record' ? output.fields : undefined;
		const kind = output.type === 'records' || output.type === 'record' ? output.kind : 'plain';
		fields.push(...outputFields(listed ?? RECORD_FIELDS[kind]));
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
