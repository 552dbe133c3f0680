import { sleep } from 'n8n-workflow';

import type { ApiFailure } from './errors';

/**
 * When a failed request is sent again, and after how long (transport.ts sends; this decides).
 *
 * - 429 is retried for every method (the API refused the request, so nothing happened), after Retry-After
 *   (seconds or an HTTP date; exponential back-off from `baseDelayMs` when absent), at most `maxAttempts` tries.
 *   No wait is longer than `maxDelayMs`: when Retry-After asks for more, the node stops at once with an error that
 *   says how long Keyword.com asked to wait, instead of waiting the cap and being refused again.
 * - Other failures (5xx, dropped connection, time-out, unreadable body) are retried only for reads (GET, and the
 *   chart POST #14) (5xx after its Retry-After when it sends one): a create, change or delete that failed
 *   ambiguously may have been applied, and repeating it could add or delete twice. Its error says so.
 * - Everything else (4xx) is answered at once.
 */
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

/** Network failures where the request never reached Keyword.com (nothing can have been applied). */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** A read (GET, or a POST that only reads): sending it twice changes nothing. */
export function isSafeToRepeat(method: string, path: string): boolean {
	return method === 'GET' || (method === 'POST' && READ_ONLY_POSTS.test(path));
}

/** A write that failed without a refusal (4xx) once it was on its way may have been carried out. */
export function mayHaveBeenApplied(failure: ApiFailure, safeToRepeat: boolean): boolean {
	const refused = failure.status !== undefined && failure.status >= 400 && failure.status < 500;
	return !safeToRepeat && !refused && !NEVER_SENT_CODES.has(failure.code ?? '');
}

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

/** An attempt that got no usable answer: an HTTP failure (with its headers) or a network one. */
export interface FailedAttempt {
	failure: ApiFailure;
	headers?: unknown;
	network?: true;
}

/**
 * Whether a failed attempt is tried again, and after how long Keyword.com asked to wait. A wait longer than the
 * policy allows is not retried: the failure then says how long was asked.
 */
export function classify(
	attempt: FailedAttempt,
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
