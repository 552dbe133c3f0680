import type {
	FunctionsBase,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { accessOf } from './credentials';
import { describeFailure, type ApiFailure } from './errors';
import { redactTokenPieces } from './redact';

/**
 * The one place every request of both nodes goes through (n8n's httpRequestWithAuthentication underneath).
 * It owns the retry policy and turns every failure into a NodeApiError with a plain message and no token.
 *
 * Retry policy:
 * - 429 is retried for every method (the API refused the request, so nothing happened), after Retry-After
 *   (seconds or an HTTP date; exponential back-off from `baseDelayMs` when absent), at most `maxAttempts` tries.
 *   No wait is longer than `maxDelayMs`: when Retry-After asks for more, the node stops at once with an error that
 *   says how long Keyword.com asked to wait, instead of waiting the cap and being refused again.
 * - Other failures (5xx, dropped connection, time-out, unreadable body) are retried only for reads (GET, and the
 *   chart POST #14) (5xx after its
 *   Retry-After when it sends one): a create, change or delete that failed ambiguously may have been applied, and
 *   repeating it could add or delete twice. Its error says so.
 * - Everything else (4xx) is answered at once.
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

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 1000,
	maxDelayMs: 60_000,
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

/**
 * Thrown by the request runner; carries the HTTP status (`httpCode`) for callers (the trigger) that need it.
 * Its message and description are exactly the ones `describeFailure` wrote: NodeApiError would otherwise replace
 * them with n8n's generic text for common statuses and network codes (or for any message that merely contains a
 * code such as "EPERM", e.g. a project called "Keeperman").
 */
export class KeywordComApiError extends NodeApiError {
	/**
	 * The request ran into its caller's deadline (see apiRequest's `deadline`): it timed out at the deadline, or a
	 * retry would have gone past it. A poll that has made progress keeps it instead of failing.
	 */
	outOfTime = false;

	/** Sets message, description and httpCode after NodeApiError's own rewriting. */
	pin(message: string, description: string, httpCode: string | null): this {
		this.message = message;
		this.description = description;
		this.httpCode = httpCode;
		return this;
	}
}

/**
 * The one way the node builds its API errors: message, description and HTTP code exactly as given (already redacted),
 * and nothing else: never the request options or the transport error, which hold the token and the raw answer.
 */
export function keywordComError(
	context: Pick<FunctionsBase, 'getNode'>,
	facts: { message: string; description: string; httpCode: string | null },
	itemIndex?: number,
): KeywordComApiError {
	const { message, description, httpCode } = facts;
	return new KeywordComApiError(context.getNode(), { message, httpCode } as JsonObject, {
		message,
		description,
		httpCode: httpCode ?? undefined,
		itemIndex,
	}).pin(message, description, httpCode);
}

/** Below this much time left before a deadline, no request is started (it could not get an answer in time). */
export const MIN_REQUEST_TIME_MS = 250;

/**
 * A copy of `error` (a KeywordComApiError or any error) with `extra` appended to its description, keeping its
 * message and HTTP code as they are. For callers that add context (e.g. how many chunks were already accepted):
 * re-wrapping in a plain NodeApiError would let n8n replace the message again.
 */
export function withDescription(
	context: Pick<FunctionsBase, 'getNode'>,
	error: unknown,
	extra: string,
	itemIndex?: number,
): KeywordComApiError {
	const source = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
	};
	const message = source?.message ?? String(error);
	const description = `${source?.description ?? ''} ${extra}`.trim();
	return keywordComError(
		context,
		{ message, description, httpCode: source?.httpCode ?? null },
		itemIndex,
	);
}

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

/** POST endpoints that only read (#14 ranking chart): as safe to repeat as a GET. */
const READ_ONLY_POSTS = /\/keywords\/chart\/?$/;

/** A path segment that URL parsing would resolve away: ".", "..", or the same with %2E. */
function hasDotSegment(url: string): boolean {
	return url
		.split('?')[0]
		.split('/')
		.some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

/** Network failures where the request never reached Keyword.com (nothing can have been applied). */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Seconds (`"3"`) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, nowMs = Date.now()): number | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	// An HTTP date names its day or month ("Thu, 15 Jan 2026 12:00:00 GMT"); Date.parse alone takes "-5" for a year.
	if (!/[A-Za-z]{3}/.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
	const wanted = retryAfterMs ?? policy.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(Math.max(0, wanted), policy.maxDelayMs);
}

function headerValue(headers: unknown, name: string): unknown {
	if (!headers || typeof headers !== 'object') return undefined;
	for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
		if (key.toLowerCase() === name) return value;
	}
	return undefined;
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

export function toApiError(
	context: Pick<FunctionsBase, 'getNode'>,
	failure: ApiFailure,
	token: string | undefined,
	itemIndex?: number,
	what?: string,
): KeywordComApiError {
	return keywordComError(context, describeFailure(failure, token, what), itemIndex);
}

/** URL parsing resolves "." and ".." (also as %2E): `DELETE …/groups/..` would reach another endpoint. */
async function dotSegmentError(
	context: RequestContext,
	what: string,
	itemIndex?: number,
): Promise<KeywordComApiError> {
	const message = redactTokenPieces(
		`A project, group or id named "." or ".." cannot be used: the request ${what} would reach another address`,
		await getToken(context),
	);
	const description =
		'Rename the project or group in Keyword.com, or check the value the expression gives.';
	return keywordComError(context, { message, description, httpCode: null }, itemIndex);
}

/**
 * One pause shared by the requests of one operation (the pages of a Return All fetched side by side): when one of
 * them is told to slow down (429), the others wait too instead of running into the same limit.
 */
export class SharedPause {
	private until = 0;

	hold(ms: number): void {
		this.until = Math.max(this.until, Date.now() + ms);
	}

	async wait(): Promise<void> {
		for (let left = this.until - Date.now(); left > 0; left = this.until - Date.now())
			await sleep(left);
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
}

/** One attempt's outcome: the parsed answer, or what went wrong. */
type Attempt =
	| { response: ApiResponse }
	| { failure: ApiFailure; headers?: unknown; network?: true };

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

/**
 * Whether a failed attempt is tried again, and after how long Keyword.com asked to wait (see the retry policy at the
 * top). A wait longer than the policy allows is not retried: the failure then says how long was asked.
 */
function classify(
	attempt: Exclude<Attempt, { response: ApiResponse }>,
	safeToRepeat: boolean,
	policy: RetryPolicy,
): { retryable: boolean; retryAfterMs?: number } {
	const { failure } = attempt;
	if (attempt.network) {
		return {
			retryable:
				safeToRepeat &&
				failure.status === undefined &&
				RETRYABLE_NETWORK_CODES.has(failure.code ?? ''),
		};
	}
	const status = failure.status ?? 0;
	if (status >= 200 && status < 300) return { retryable: safeToRepeat }; // an unreadable or empty answer
	if (!(status === 429 || (safeToRepeat && status >= 500))) return { retryable: false };
	// 429 and 503 carry Retry-After; any server error that sends one gets it honoured.
	const retryAfterMs = parseRetryAfter(headerValue(attempt.headers, 'retry-after'));
	if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) {
		failure.retryAfterMs = retryAfterMs;
		failure.maxWaitMs = policy.maxDelayMs;
		return { retryable: false };
	}
	return { retryable: true, retryAfterMs };
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
	const refused = failure.status !== undefined && failure.status >= 400 && failure.status < 500;
	if (!facts.safeToRepeat && !refused && !NEVER_SENT_CODES.has(failure.code ?? ''))
		failure.mayHaveApplied = true;
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
	const safeToRepeat = method === 'GET' || (method === 'POST' && READ_ONLY_POSTS.test(path));
	const what = `${request.method ?? 'GET'} ${path}`;
	if (hasDotSegment(request.url)) throw await dotSegmentError(context, what, options.itemIndex);
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
		if (outcome.failure.status === 429) options.pause?.hold(delay);
		await sleep(delay);
	}
}
