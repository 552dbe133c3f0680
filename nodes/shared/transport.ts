import type {
	FunctionsBase,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { accessOf } from './credentials';
import { dotSegmentError, toApiError, type ApiFailure, type KeywordComApiError } from './errors';
import {
	classify,
	DEFAULT_RETRY_POLICY,
	isSafeToRepeat,
	mayHaveBeenApplied,
	retryDelay,
	type FailedAttempt,
	type RetryPolicy,
	type SharedPause,
} from './retryPolicy';

/**
 * The one place every request of both nodes goes through (n8n's httpRequestWithAuthentication underneath): it sends,
 * retries as retryPolicy.ts decides, and turns every failure into a KeywordComApiError (errors.ts) with no token.
 */
export type RequestContext = Pick<FunctionsBase, 'getNode' | 'getCredentials'> & {
	helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
};

export interface ApiRequest {
	method: IHttpRequestOptions['method'];
	url: string;
	qs?: IDataObject;
	body?: unknown;
	/** Extra request options carried over from the declarative routing (baseURL, timeout, proxy…). */
	base?: Partial<IHttpRequestOptions>;
	/** An empty 2xx body is an answer here (endpoints whose response body the API does not document). */
	allowEmpty?: boolean;
}

export interface ApiResponse {
	status: number;
	body: unknown;
	headers: Record<string, unknown>;
}

/** Below this much time left before a deadline, no request is started (it could not get an answer in time). */
export const MIN_REQUEST_TIME_MS = 250;

/** A path segment that URL parsing would resolve away: ".", "..", or the same with %2E. */
function hasDotSegment(url: string): boolean {
	return url
		.split('?')[0]
		.split('/')
		.some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof body !== 'string') return { ok: true, value: body };
	const text = body.trim();
	if (text === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

function networkFailure(error: unknown): ApiFailure {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let code: string | undefined;
	let status: number | undefined;
	let body: unknown;
	// n8n wraps the transport error (NodeApiError → cause → axios error → cause): walk the chain for the facts.
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const node = current as IDataObject & { cause?: unknown; response?: IDataObject };
		if (!code && typeof node.code === 'string' && /^E[A-Z_]+$/.test(node.code)) code = node.code;
		if (!status && node.response && typeof node.response.status === 'number')
			status = node.response.status;
		if (body === undefined && node.response) body = node.response.data;
		current = node.cause;
	}
	if (!code && error instanceof Error && /timeout/i.test(error.message)) code = 'ETIMEDOUT';
	if (!code && error instanceof Error && /socket hang up/i.test(error.message)) code = 'ECONNRESET';
	return { code, status, body, rawMessage: error instanceof Error ? error.message : String(error) };
}

async function getToken(context: RequestContext): Promise<string | undefined> {
	try {
		return accessOf(await context.getCredentials(CREDENTIAL_TYPE)).token;
	} catch {
		return undefined;
	}
}

/**
 * What the caller of a request learns between attempts (paging: a page's request slot, see paging/slots.ts). The transport
 * knows nothing of slots or pages.
 */
export interface AttemptHooks {
	/** Before a retry (a page takes its slot again). */
	beforeRetry?(): Promise<void>;
	/** A 2xx answer is in, its body not yet parsed (a page gives its slot to the next page). */
	onAnswer?(): Promise<void>;
}

export interface RequestOptions {
	policy?: RetryPolicy;
	itemIndex?: number;
	onAttempt?: () => void;
	pause?: SharedPause;
	/**
	 * The credential, read once by the caller. Without it n8n reads (and decrypts) the credential again for every
	 * request, which is most of the client's work per page of a large Return All.
	 */
	credentials?: ICredentialDataDecryptedObject;
	hooks?: AttemptHooks;
	/**
	 * Time (ms since the epoch) the request and its retries must be over by: each attempt times out at it, and no
	 * retry starts that could not finish before it. What fails that way is a KeywordComApiError with `outOfTime` set.
	 */
	deadline?: number;
	/**
	 * Asked before each retry: false when the caller cannot afford another try (the trigger counts every HTTP try
	 * against a poll's requests); the request then ends as out of time, as at a deadline.
	 */
	mayRetry?: () => boolean;
}

/** One attempt's outcome: the parsed answer, or what went wrong. */
type Attempt = { response: ApiResponse } | FailedAttempt;

/** Sends the request once and parses its answer. Never throws for HTTP or network failures: they are outcomes. */
async function sendOnce(
	context: RequestContext,
	request: ApiRequest,
	options: RequestOptions,
	timeoutMs: number | undefined,
): Promise<Attempt> {
	const base = request.base ?? {};
	const httpOptions: IHttpRequestOptions = {
		...base,
		method: request.method,
		url: request.url,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		json: true,
		// The body comes as text and is parsed below: a page's slot is freed between its arrival and its parsing.
		encoding: 'text',
		arrayFormat: 'brackets',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (httpOptions.body === undefined) delete httpOptions.body;
	// An attempt never outlives the deadline: it times out at it (and counts as a dropped connection).
	if (timeoutMs !== undefined) {
		httpOptions.timeout = Math.max(
			1,
			Math.min(base.timeout ?? Number.POSITIVE_INFINITY, Math.floor(timeoutMs)),
		);
	}
	const credentialsDecrypted = options.credentials
		? {
				credentialsDecrypted: {
					id: '',
					name: '',
					type: CREDENTIAL_TYPE,
					data: options.credentials,
				},
			}
		: undefined;
	let response: IN8nHttpFullResponse;
	try {
		options.onAttempt?.();
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context as never,
			CREDENTIAL_TYPE,
			httpOptions,
			credentialsDecrypted,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return { failure: networkFailure(error), network: true };
	}
	const status = response.statusCode;
	const success = status >= 200 && status < 300;
	if (success) await options.hooks?.onAnswer?.();
	const parsed = parseBody(response.body);
	if (success && parsed.ok && (parsed.value !== undefined || request.allowEmpty)) {
		return { response: { status, body: parsed.value, headers: response.headers ?? {} } };
	}
	const body = parsed.ok ? parsed.value : response.body;
	return {
		failure: { status, body: success && parsed.ok ? undefined : body },
		headers: response.headers,
	};
}

/** The error a request ends with: its facts described, and whether a failed write may have been applied. */
async function finalError(
	context: RequestContext,
	failure: ApiFailure,
	facts: {
		attempts: number;
		safeToRepeat: boolean;
		what: string;
		itemIndex?: number;
		outOfTime: boolean;
	},
): Promise<KeywordComApiError> {
	failure.attempts = facts.attempts;
	if (mayHaveBeenApplied(failure, facts.safeToRepeat)) failure.mayHaveApplied = true;
	const error = toApiError(context, failure, await getToken(context), facts.itemIndex, facts.what);
	error.outOfTime = facts.outOfTime;
	return error;
}

/** Sends one logical request (with its retries) and returns the parsed answer, or throws KeywordComApiError. */
export async function apiRequest(
	context: RequestContext,
	request: ApiRequest,
	options: RequestOptions = {},
): Promise<ApiResponse> {
	const policy = options.policy ?? DEFAULT_RETRY_POLICY;
	const method = (request.method ?? 'GET').toUpperCase();
	const path = request.url.split('?')[0];
	const safeToRepeat = isSafeToRepeat(method, path);
	const what = `${request.method ?? 'GET'} ${path}`;
	if (hasDotSegment(request.url))
		throw dotSegmentError(context, what, await getToken(context), options.itemIndex);
	const timeLeft = () =>
		options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - Date.now();
	const facts = (attempts: number, outOfTime: boolean) => ({
		attempts,
		safeToRepeat,
		what,
		itemIndex: options.itemIndex,
		outOfTime,
	});
	let lastFailure: ApiFailure | undefined;
	for (let attempt = 1; ; attempt++) {
		if (attempt > 1) await options.hooks?.beforeRetry?.();
		if (options.pause) await options.pause.wait();
		if (timeLeft() < MIN_REQUEST_TIME_MS) {
			const failure = lastFailure ?? {
				code: 'ETIMEDOUT',
				rawMessage: 'no time left before the deadline',
			};
			throw await finalError(context, failure, { ...facts(attempt - 1, true), safeToRepeat: true });
		}
		const outcome = await sendOnce(
			context,
			request,
			options,
			options.deadline === undefined ? undefined : timeLeft(),
		);
		if ('response' in outcome) return outcome.response;
		const { retryable, retryAfterMs } = classify(outcome, safeToRepeat, policy);
		const delay = retryDelay(policy, attempt, retryAfterMs);
		// A retry that could not be answered before the deadline is not started.
		const outOfTime = retryable && timeLeft() < delay + MIN_REQUEST_TIME_MS;
		if (!retryable || attempt >= policy.maxAttempts || outOfTime) {
			throw await finalError(
				context,
				outcome.failure,
				facts(attempt, outOfTime && attempt < policy.maxAttempts),
			);
		}
		lastFailure = outcome.failure;
		if (options.mayRetry && !options.mayRetry())
			throw await finalError(context, outcome.failure, facts(attempt, true));
		if (outcome.failure.status === 429) options.pause?.hold(delay);
		await sleep(delay);
	}
}
