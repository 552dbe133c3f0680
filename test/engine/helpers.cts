/**
 * Helpers of the engine tests: every test runs the KeywordCom node through n8n-core's WorkflowExecute (the harness)
 * with real HTTP to an in-process fake of the Keyword.com API, then looks at what the fake received and at the items
 * the node output.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	FakeKeywordApi,
	type FakeKeywordApiOptions,
	type RecordedRequest,
} from '../../dev/fake-api/index.cjs';
import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import {
	runNode,
	type RunNodeError,
	type RunNodeOptions,
	type RunResult,
} from '../harness/index.cjs';

/**
 * The token the fakes accept. It has characters that change under URL encoding (`+`, `/`, `=`), so a leak in an
 * encoded form (the fake's links carry `api_token=<encoded token>`) is caught too.
 */
export const TOKEN = 'kwc_S3cr3t+T0ken/xyz=42';

/** A fixed clock, 2026-01-15T12:00:00Z, so dates in the fake's data are stable. */
export const FIXED_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export const PROJECT = 'Acme Shoes';
export const CAFE = 'Café Zürich';

export interface Fake {
	api: FakeKeywordApi;
	baseUrl: string;
	node: KeywordCom;
}

/**
 * Starts one fake for the enclosing file or `describe` (before/after hooks) and returns a handle whose fields are
 * filled once the hook ran.
 */
export function useFake(options: FakeKeywordApiOptions = {}): Fake {
	const fake = {} as Fake;
	before(async () => {
		// The Date header tells the fixed clock too: Ranking History → Get Many counts days back from the API's today.
		fake.api = new FakeKeywordApi({
			seed: 'demo',
			token: TOKEN,
			now: () => FIXED_NOW,
			dateFromClock: true,
			...options,
		});
		fake.baseUrl = await fake.api.start();
		fake.node = new KeywordCom();
	});
	after(async () => {
		await fake.api?.stop();
	});
	return fake;
}

export interface RunOptions {
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	/** Another token in the credential (a wrong one, for 401 tests). */
	apiToken?: string;
	/** Base URL as typed in the credential; default the fake's with a trailing slash (the node must tolerate it). */
	baseUrl?: string;
	/** Keep the requests recorded before this run. */
	keepRequests?: boolean;
	/**
	 * Node version (the node has one, 1).
	 */
	typeVersion?: number;
	/** Run as n8n's generated AI tool (`keywordComTool`). */
	asTool?: boolean;
	/** n8n's node settings (Retry On Fail, its tries and wait…). */
	nodeSettings?: RunNodeOptions['nodeSettings'];
}

export interface Outcome {
	/** The `json` of every output item. */
	items: IDataObject[];
	/** The output items as n8n produced them (pairedItem, error items...). */
	raw: INodeExecutionData[];
	error?: RunNodeError;
	/** Every request the fake received during the run. */
	requests: RecordedRequest[];
	result: RunResult;
}

export const TOOL_TYPE_NAME = 'n8n-nodes-keyword-com.keywordComTool';

/**
 * The node as n8n generates its AI tool variant (n8n's tool-generation: the description named `…Tool`, whose
 * `@tool` display options then hold): the same node, so the same routing and code.
 */
function asToolNode(node: KeywordCom): KeywordCom {
	const tool = new KeywordCom();
	tool.description = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: 'Keyword.com Tool',
	};
	return tool;
}

/** Clears the fake's request log, runs the node with `parameters`, and returns the output and the requests. */
export async function run(
	fake: Fake,
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<Outcome> {
	if (!options.keepRequests) fake.api.clearRequests();
	const result = await runNode({
		nodeType: fake.node,
		parameters,
		credentials: {
			keywordComApi: {
				apiToken: options.apiToken ?? fake.api.token,
				baseUrl: options.baseUrl ?? `${fake.baseUrl}/`,
			},
		},
		items: options.items,
		continueOnFail: options.continueOnFail,
		nodeSettings: options.nodeSettings,
		typeVersion: options.typeVersion ?? 1,
		...(options.asTool ? { nodeType: asToolNode(fake.node), typeName: TOOL_TYPE_NAME } : {}),
	});
	return {
		items: result.items.map((item) => item.json),
		raw: result.items,
		error: result.error,
		requests: [...fake.api.requests],
		result,
	};
}

/** Runs and fails the test with the node's error when it did not succeed. */
export async function runOk(
	fake: Fake,
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<Outcome> {
	return succeeded(await run(fake, parameters, options));
}

/** The outcome of a run, or the test fails with the node's error when the run did not succeed. */
export function succeeded<T extends { error?: RunNodeError }>(outcome: T): T {
	if (outcome.error) {
		assert.fail(
			`node failed: ${outcome.error.name}: ${outcome.error.message} — ${outcome.error.description ?? ''}`,
		);
	}
	return outcome;
}

/** Keyword → Add on PROJECT with one valid keyword; `extra` replaces any parameter (the bad-input tests). */
export function keywordAddParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'keyword',
		operation: 'add',
		project: rl(PROJECT),
		keywords: ['fine keyword'],
		url: 'acmeshoes.com',
		...extra,
	};
}

/** A resource locator value as the editor saves it. */
export function rl(
	value: string | number,
	mode = 'name',
): { __rl: true; mode: string; value: string | number } {
	return { __rl: true, mode, value };
}

export interface ExpectedRequest {
	method: string;
	/** The path exactly as sent, still percent-encoded. */
	rawPath: string;
	/** The decoded query; `{}` for none. Default: not checked... unless given. */
	query?: Record<string, unknown>;
	/** The JSON body; `null` asserts that no body was sent. */
	body?: unknown;
	/** The token expected in `Authorization: Bearer <token>`; default TOKEN. */
	token?: string;
}

/** Asserts one recorded request: method, raw path, query (decoded, exact), JSON body (exact), bearer token. */
export function assertRequest(
	request: RecordedRequest | undefined,
	expected: ExpectedRequest,
): void {
	assert.ok(request, `expected a ${expected.method} ${expected.rawPath} request, none was sent`);
	assert.equal(request.method, expected.method, 'method');
	assert.equal(request.rawPath, expected.rawPath, 'raw path');
	assert.equal(request.authorization, `Bearer ${expected.token ?? TOKEN}`, 'authorization header');
	if (expected.query !== undefined) assert.deepEqual({ ...request.query }, expected.query, 'query');
	if (expected.body === null) assert.equal(request.bodyText, '', 'no body expected');
	else if (expected.body !== undefined) {
		assert.deepEqual(request.body, expected.body, 'JSON body');
		assert.match(
			request.headers['content-type'] ?? '',
			/application\/json/,
			'content-type of a JSON body',
		);
	}
}

/** Exactly one request was sent, and it is `expected`. */
export function assertSingleRequest(requests: RecordedRequest[], expected: ExpectedRequest): void {
	assert.equal(
		requests.length,
		1,
		`expected exactly one request, got ${requests.length}: ${requests.map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`).join(' | ')}`,
	);
	assertRequest(requests[0], expected);
}

/**
 * The requests of an operation that names its project by ID: one read of the project or group record (#2, at its
 * encoded name), then exactly the one request expected, with the ID the record gave.
 */
export function assertProjectLookupThen(
	requests: RecordedRequest[],
	encodedName: string,
	expected: ExpectedRequest,
): void {
	assert.equal(
		requests.length,
		2,
		`expected the project's record, then one request: ${requests.map((r) => `${r.method} ${r.rawPath}`).join(' | ')}`,
	);
	assertRequest(requests[0], { method: 'GET', rawPath: `/api/v2/groups/${encodedName}` });
	assertRequest(requests[1], expected);
}

/** Neither the token nor its URL-encoded forms appear anywhere in `value` (items, errors...). */
export function assertNoTokenIn(value: unknown, token: string = TOKEN): void {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	assert.ok(text !== undefined, 'nothing to check');
	for (const form of new Set([
		token,
		encodeURIComponent(token),
		encodeURIComponent(token).replace(/%20/g, '+'),
	])) {
		assert.ok(
			!text.includes(form),
			`the API token (as "${form}") leaked into: ${text.slice(0, 400)}`,
		);
	}
	// `api_token=[redacted]` is fine; any other value after `api_token=` is a leak (of this token or another one).
	assert.ok(
		!/api_token(=|%3D)(?!\[redacted\]|%5Bredacted%5D)/i.test(text),
		`an api_token parameter leaked into: ${text.slice(0, 400)}`,
	);
}

/** Each output item is paired with input item `index`. */
export function assertPaired(raw: INodeExecutionData[], index = 0): void {
	for (const item of raw) {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const at = typeof paired === 'number' ? paired : paired?.item;
		assert.equal(at, index, 'pairedItem');
	}
}

/**
 * The node failed with a NodeOperationError naming `field`, and sent nothing.
 *
 * The node throws NodeOperationError before any request. Without Continue On Fail, n8n's routing engine (which runs
 * declarative operations) re-wraps every error of an operation that is not already a NodeApiError into a NodeApiError
 * with `httpCode: 'none'`, keeping message and description and the original as `cause`: accept exactly that wrapping.
 */
export function assertInputError(outcome: Outcome, field: string | RegExp): void {
	assert.ok(
		outcome.error,
		`expected a NodeOperationError, the node succeeded with ${JSON.stringify(outcome.items).slice(0, 200)}`,
	);
	// What the user reads and what was sent first, so a wrong error class alone is reported as such.
	assert.equal(
		outcome.requests.length,
		0,
		`no request may be sent, got ${outcome.requests.map((r) => `${r.method} ${r.rawPath}`).join(' | ')}`,
	);
	if (typeof field === 'string')
		assert.ok(
			outcome.error.message.includes(field),
			`"${outcome.error.message}" should name ${field}`,
		);
	else assert.match(outcome.error.message, field);
	assertOperationError(outcome.error);
}

/** A NodeOperationError, as thrown or as re-wrapped by n8n's routing engine (see assertInputError). */
export function assertOperationError(error: {
	name: string;
	httpCode?: string | null;
	raw?: Error;
}): void {
	if (error.name === 'NodeOperationError') return;
	// The run data holds the serialised wrapper: its `tags.reWrapped` says it wraps a node error, and `httpCode`
	// 'none' that no HTTP exchange produced it (a NodeApiError from a response carries the status).
	const tags = (error.raw as { tags?: { reWrapped?: boolean } } | undefined)?.tags;
	assert.equal(
		error.name,
		'NodeApiError',
		`a bad value must fail as a NodeOperationError (got ${error.name})`,
	);
	assert.equal(
		tags?.reWrapped,
		true,
		"the routing engine's wrapper must hold the node's own error",
	);
	assert.equal(error.httpCode, 'none', 'no HTTP status: nothing was sent');
}

/** The keyword ids of a container, read straight from the fake's state. */
export function keywordIdsOf(fake: Fake, name: string): string[] {
	const container = fake.api.state.findContainer(name);
	assert.ok(container, `container ${name} exists in the fake`);
	return container.keywordIds.map(String);
}

/** The numeric project id of a container in the fake. */
export function projectIdOf(fake: Fake, name: string): number {
	const container = fake.api.state.findContainer(name);
	assert.ok(container, `container ${name} exists in the fake`);
	return container.projectId;
}

/** `encodeURIComponent`, for building expected raw paths. */
export const enc = encodeURIComponent;
