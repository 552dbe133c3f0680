import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_PAGE_CONCURRENCY } from '../../shared/constants';
import { accessOf } from '../../shared/credentials';
import { readOutputChoice, shapeForOutput, type OutputChoice } from '../../shared/output';
import { catalogueOf } from '../../shared/recordKinds';
import { collectPages, identityOf, ListChangedError, orderOfList } from '../../shared/paging';
import { redactDeep } from '../../shared/redact';
import { SharedPause } from '../../shared/retryPolicy';
import { apiRequest } from '../../shared/transport';
import { checkInteger, InputError } from '../../shared/validation';
import { isWholeList, recordCatalogueOf } from './description';
import {
	KEYWORD_ID_PARAMETER,
	keywordTextToLookUp,
	lookUpKeywordId,
	STAND_IN_KEYWORD_ID,
	withKeywordId,
} from './keywordLookup';
import { lookUpProjectId, STAND_IN_PROJECT_ID, withProjectId } from './projectIdLookup';
import { shapeAnswer } from './shape';
import { readTarget } from './target';
import { capToolResult, isToolNode, TOOL_DEFAULT_LIMIT } from './tool';
import type { OperationConfig, OperationInput, OperationRuntime, PreparedRequest } from './types';

/**
 * The runner: n8n hands each item's routing request to the `operations.pagination` hook instead of sending it (see
 * ARCHITECTURE.md), so validation happens before any request, and retries, paging, chunking, error mapping and token
 * redaction live here once instead of in each operation.
 */
type RoutingHook = (
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

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

/** The Output choice of the item, checked before any request. */
function outputChoiceOf(config: OperationConfig, input: OperationInput): OutputChoice {
	const choice = readOutputChoice(input.get, recordCatalogueOf(config));
	return { ...choice, revealToken: config.revealToken?.(input) ?? false };
}

/** Return All / Limit of the item. A tool never returns all: an agent's context is small. */
function readListSize(
	context: IExecutePaginationFunctions,
	config: OperationConfig,
	input: OperationInput,
	asTool: boolean,
): { returnAll: boolean; limit: number } {
	const sized = config.paged !== undefined || isWholeList(config);
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
 * `run`, wrapped for Continue On Fail: the item's error comes back as an item holding the message and the hint
 * (n8n's own error item keeps the message only, and the hint is what says how to fix it). `details`: an item of only
 * error, message and details is what n8n sends down the error output ("Continue (using error output)").
 */
export function withErrorItems(run: RoutingHook): RoutingHook {
	return async function (this, requestData) {
		try {
			return await run.call(this, requestData);
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

/** Runs one item: checks every parameter, sends, shapes; its errors are thrown (see withErrorItems). */
export function runItem(config: OperationConfig): RoutingHook {
	return async function (this, requestData) {
		let input = inputFor(this);
		const { itemIndex, node } = input;
		const asTool = isToolNode(node);
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const { token, baseUrl } = accessOf(credentials);
		// The request sent is the one the description's routing names: its method, its path with the placeholders
		// filled by the checked values.
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
			// A keyword text and a project ID are looked up after everything else is checked (with stand-ins): a bad
			// value sends nothing.
			const checked = config.projectId ? withProjectId(input, STAND_IN_PROJECT_ID) : input;
			({ parts: prepared, url } = prepare(
				keywordText === undefined ? checked : withKeywordId(checked, STAND_IN_KEYWORD_ID),
			));
		} catch (error) {
			throw toOperationError(node, error, itemIndex, token);
		}
		const method = (requestData.options.method ?? config.method) as IHttpRequestMethods;
		const base = baseOptions(requestData.options, baseUrl);
		const pause = new SharedPause();
		const send: OperationRuntime['send'] = async (request, hooks) =>
			await apiRequest(this, { ...request, base }, { itemIndex, pause, credentials, hooks });
		if (keywordText !== undefined || config.projectId) {
			try {
				if (keywordText !== undefined)
					input = withKeywordId(input, await lookUpKeywordId(send, readTarget(input), keywordText));
				if (config.projectId)
					input = withProjectId(input, await lookUpProjectId(send, readTarget(input)));
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
			shape: (record, kind) => shapeForOutput(record, catalogueOf(kind), choice),
			size,
		};

		// The token is taken out of every result (unless the user asked for the account's own token).
		const keepAccountToken = choice.revealToken ?? false;
		const clean = (json: IDataObject) => redactDeep(json, token, keepAccountToken);
		const toError = (error: unknown) => toOperationError(node, error, itemIndex, token);

		let results = await sendAndShape(this, config, runtime, clean, toError);
		if (asTool) results = capToolResult(results);
		return results.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};
}

/** The item's results: from the operation's own `run`, the pages of a paged list, or its one request. */
async function sendAndShape(
	context: IExecutePaginationFunctions,
	config: OperationConfig,
	runtime: OperationRuntime,
	clean: (json: IDataObject) => IDataObject,
	toError: (error: unknown) => Error,
): Promise<IDataObject[]> {
	const { prepared, url, method } = runtime;
	const { returnAll, limit } = runtime.size;
	if (config.run) {
		let results: IDataObject[];
		try {
			results = (await config.run(runtime)).map(clean);
		} catch (error) {
			throw toError(error);
		}
		return returnAll ? results : results.slice(0, limit);
	}
	if (config.paged) {
		const concurrency =
			Number(context.getNodeParameter('options.concurrency', DEFAULT_PAGE_CONCURRENCY)) || 1;
		const kind = config.output.type === 'records' ? config.output.kind : undefined;
		try {
			return await collectPages(
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
				(records) => shapeAnswer(config, { data: records }, runtime).map(clean),
			);
		} catch (error) {
			throw toError(error);
		}
	}
	const response = await runtime.send({
		method,
		url,
		qs: prepared.qs,
		body: prepared.body,
		allowEmpty: config.output.type === 'confirmation',
	});
	const results = shapeAnswer(config, response.body, runtime).map(clean);
	return returnAll ? results : results.slice(0, limit);
}
