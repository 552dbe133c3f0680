import type {
	FunctionsBase,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { describeFailure, type ApiFailure } from './errors';

/**
 * The one place every request of both nodes goes through (n8n's httpRequestWithAuthentication underneath).
 * It owns the retry policy and turns every failure into a NodeApiError with a plain message and no token.
 *
 * Retry policy:
 * - 429 is retried for every method (the API refused the request, so nothing happened), after Retry-After
 *   (seconds or an HTTP date; a default when absent), at most `maxAttempts` tries, each wait capped.
 * - Other failures (5xx, dropped connection, time-out, unreadable body) are retried only for GET: a create or delete
 *   that failed ambiguously may have been applied, and repeating it could add or delete twice.
 */
export type RequestContext = Pick<FunctionsBase, 'getNode' | 'getCredentials'> & {
	helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
};

export interface RetryPolicy {
	maxAttempts: number;
	/** Wait used for a 429 without Retry-After, and the base of the back-off for retried reads. */
	baseDelayMs: number;
	/** No single wait is longer than this, whatever Retry-After says. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

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

/** Thrown by the request runner; carries the HTTP status for callers (the trigger) that need it. */
export class KeywordComApiError extends NodeApiError {}

const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Seconds (`"3"`) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, nowMs = Date.now()): number | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
	const wanted = retryAfterMs ?? policy.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(Math.max(0, wanted), policy.maxDelayMs);
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
		if (!status && node.response && typeof node.response.status === 'number') status = node.response.status;
		if (body === undefined && node.response) body = node.response.data;
		current = node.cause;
	}
	if (!code && error instanceof Error && /timeout/i.test(error.message)) code = 'ETIMEDOUT';
	if (!code && error instanceof Error && /socket hang up/i.test(error.message)) code = 'ECONNRESET';
	return { code, status, body, rawMessage: error instanceof Error ? error.message : String(error) };
}

async function getToken(context: RequestContext): Promise<string | undefined> {
	try {
		const credentials = await context.getCredentials(CREDENTIAL_TYPE);
		return typeof credentials?.apiToken === 'string' ? credentials.apiToken : undefined;
	} catch {
		return undefined;
	}
}

export function toApiError(
	context: Pick<FunctionsBase, 'getNode'>,
	failure: ApiFailure,
	token: string | undefined,
	itemIndex?: number,
	what?: string,
): KeywordComApiError {
	const described = describeFailure(failure, token, what);
	// Only the described (redacted) facts go into the error: never the request options, which hold the token.
	const error = new KeywordComApiError(
		context.getNode(),
		{ message: described.message, httpCode: described.httpCode },
		{ message: described.message, description: described.description, httpCode: described.httpCode, itemIndex },
	);
	return error;
}

/** Sends one logical request (with its retries) and returns the parsed answer, or throws KeywordComApiError. */
export async function apiRequest(
	context: RequestContext,
	request: ApiRequest,
	options: { policy?: RetryPolicy; itemIndex?: number; onAttempt?: () => void } = {},
): Promise<ApiResponse> {
	const policy = options.policy ?? DEFAULT_RETRY_POLICY;
	const safeToRepeat = (request.method ?? 'GET') === 'GET';
	const what = `${request.method ?? 'GET'} ${request.url.split('?')[0]}`;
	let token: string | undefined;
	for (let attempt = 1; ; attempt++) {
		const httpOptions: IHttpRequestOptions = {
			...(request.base ?? {}),
			method: request.method,
			url: request.url,
			qs: request.qs,
			body: request.body as IHttpRequestOptions['body'],
			json: true,
			arrayFormat: 'brackets',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		if (httpOptions.body === undefined) delete httpOptions.body;
		let failure: ApiFailure;
		let retryAfterMs: number | undefined;
		let retryable: boolean;
		try {
			options.onAttempt?.();
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context as never,
				CREDENTIAL_TYPE,
				httpOptions,
			)) as IN8nHttpFullResponse;
			const status = response.statusCode;
			const parsed = parseBody(response.body);
			if (status >= 200 && status < 300) {
				if (parsed.ok && (parsed.value !== undefined || request.allowEmpty)) {
					return { status, body: parsed.value, headers: response.headers ?? {} };
				}
				failure = { status, body: parsed.ok ? undefined : response.body };
				retryable = safeToRepeat;
			} else {
				failure = { status, body: parsed.ok ? parsed.value : response.body };
				if (status === 429) {
					retryable = true;
					retryAfterMs = parseRetryAfter((response.headers ?? {})['retry-after']);
				} else {
					retryable = safeToRepeat && status >= 500;
				}
			}
		} catch (error) {
			failure = networkFailure(error);
			retryable = safeToRepeat && failure.status === undefined && RETRYABLE_NETWORK_CODES.has(failure.code ?? '');
		}
		if (!retryable || attempt >= policy.maxAttempts) {
			token ??= await getToken(context);
			const suffix =
				attempt > 1 ? `after ${attempt} attempts, ${what}` : what;
			throw toApiError(context, failure, token, options.itemIndex, suffix);
		}
		await sleep(retryDelay(policy, attempt, retryAfterMs));
	}
}
