import type { FunctionsBase, IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redactText, redactTokenPieces } from './redact';

/**
 * Turns an HTTP failure into words a user can act on: the status, the API's own message when its body has one
 * (whatever its shape: JSON:API `errors[]`, `{message}`, `{error}`, plain text, HTML or nothing), and what to check.
 */
export interface ApiFailure {
	status?: number;
	body?: unknown;
	/** Network-level failure code such as ECONNRESET or ETIMEDOUT. */
	code?: string;
	rawMessage?: string;
	/**
	 * The request creates, changes or deletes something and failed in a way that does not tell whether it was carried
	 * out (dropped connection, time-out, server error, unreadable answer). It was not repeated; the user is told to check.
	 */
	mayHaveApplied?: boolean;
	/** Retry-After asked for a wait longer than the node's cap, so the node stopped instead of waiting. */
	retryAfterMs?: number;
	/** The longest wait the node accepts (for the message when Retry-After is longer). */
	maxWaitMs?: number;
	/** How many times the request was sent. */
	attempts?: number;
}

const ADVICE: Record<number, string> = {
	400: 'The request was not understood. Check the values of the fields of this operation.',
	401: 'The API token was rejected. Copy it again from Keyword.com → Settings → Account and update the credential.',
	403: "This token may not do this. Check your plan limits (keywords, daily additions, on-demand refreshes) and that the token is the account's master token.",
	404: 'Not found. Check the project or group name (case and spaces matter), the keyword id or the domain id.',
	405: 'Keyword.com does not allow this method here. Check the Base URL of the credential.',
	409: 'The request conflicts with the current state (for example a project that already exists).',
	422: 'Keyword.com refused one of the values. The message above says which.',
	429: "Keyword.com limits how many requests an account may send. Wait a minute before running again, lower the node's Concurrency option, or spread the workflow's runs; check the API limits of your plan.",
};

const STATUS_TITLES: Record<number, string> = {
	400: 'Bad request',
	401: 'Authentication failed',
	403: 'Forbidden',
	404: 'Not found',
	405: 'Method not allowed',
	409: 'Conflict',
	422: 'Invalid value',
	429: 'Rate limit reached',
	500: 'Keyword.com server error',
	502: 'Keyword.com is unreachable (bad gateway)',
	503: 'Keyword.com is unavailable',
	504: 'Keyword.com timed out (gateway)',
};

/**
 * One line of at most `max` characters, with the token removed **before** the cut: clipping first could cut a token
 * in half and leave its first characters in the message, out of reach of the redaction.
 */
function clip(text: string, token: string | undefined, max = 300): string {
	// Line breaks and tabs become one space (a message is one line); runs of ordinary spaces stay, as they may be
	// part of a project or keyword name the message quotes.
	const flat = redactText(text, token)
		.replace(/[ ]*[\t\n\v\f\r]+[\t\n\v\f\r ]*/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The API's own message, from any body shape it may send. */
export function extractApiMessage(body: unknown, token?: string): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '') return undefined;
		if (text.startsWith('{') || text.startsWith('[')) {
			try {
				return extractApiMessage(JSON.parse(text), token);
			} catch {
				return clip(text, token);
			}
		}
		if (/^<!doctype|^<html|<\/?[a-z][\s\S]*>/i.test(text)) {
			const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
			const heading = /<h1[^>]*>([^<]*)<\/h1>/i.exec(text)?.[1];
			return title || heading ? clip(title || heading || '', token) : undefined;
		}
		return clip(text, token);
	}
	if (Buffer.isBuffer(body)) return extractApiMessage(body.toString('utf8'), token);
	if (typeof body !== 'object') return clip(String(body), token);
	const object = body as IDataObject;
	if (Array.isArray(object.errors)) {
		const parts = (object.errors as unknown[]).map((entry) => {
			if (typeof entry === 'string') return entry;
			const error = (entry ?? {}) as IDataObject;
			const detail = error.detail ?? error.message ?? error.title;
			const pointer =
				(error.source as IDataObject | undefined)?.pointer ??
				(error.source as IDataObject | undefined)?.parameter;
			return detail ? `${String(detail)}${pointer ? ` (${String(pointer)})` : ''}` : undefined;
		});
		const text = parts.filter(Boolean).join('; ');
		if (text) return clip(text, token);
	}
	if (object.errors && typeof object.errors === 'object' && !Array.isArray(object.errors)) {
		// Laravel validation style: {errors: {field: [messages]}}
		const text = Object.entries(object.errors as IDataObject)
			.map(
				([field, messages]) =>
					`${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`,
			)
			.join('; ');
		if (text) return clip(text, token);
	}
	for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return clip(value, token);
		if (value && typeof value === 'object') {
			const nested = extractApiMessage(value, token);
			if (nested) return nested;
		}
	}
	return undefined;
}

const NETWORK_MESSAGES: Record<string, string> = {
	ECONNREFUSED:
		'Could not connect to Keyword.com (connection refused). Check the Base URL of the credential.',
	ECONNRESET: 'The connection to Keyword.com was closed before an answer arrived.',
	ENOTFOUND: 'The Keyword.com host could not be found. Check the Base URL of the credential.',
	ETIMEDOUT: 'Keyword.com did not answer in time.',
	ECONNABORTED: 'Keyword.com did not answer in time.',
	EPIPE: 'The connection to Keyword.com was closed while sending.',
};

export interface DescribedFailure {
	message: string;
	description: string;
	/** The HTTP status as text; null when no HTTP answer arrived (the network code is in the description). */
	httpCode: string | null;
}

function seconds(ms: number): string {
	const value = Math.ceil(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}

/** Message and description for a failure, with any trace of the token removed. */
export function describeFailure(
	failure: ApiFailure,
	token?: string,
	context?: string,
): DescribedFailure {
	const { status } = failure;
	const apiMessage = extractApiMessage(failure.body, token);
	let message: string;
	let description: string;
	if (status && status >= 400) {
		const title =
			STATUS_TITLES[status] ?? (status >= 500 ? 'Keyword.com server error' : 'Request failed');
		message = `${title} (HTTP ${status})${apiMessage ? `: ${apiMessage}` : ''}`;
		description =
			ADVICE[status] ??
			(status >= 500
				? 'Keyword.com had a problem answering. Try again later; if it persists, contact Keyword.com support.'
				: 'Check the values of this operation.');
	} else if (failure.code && NETWORK_MESSAGES[failure.code]) {
		message = NETWORK_MESSAGES[failure.code];
		description = `Network error ${failure.code}.`;
	} else if (status && status < 400) {
		message = `Keyword.com answered HTTP ${status} with a body that could not be read${apiMessage ? `: ${apiMessage}` : ''}`;
		description =
			'The answer was empty, cut off or not JSON. Try again; if it persists, contact Keyword.com support.';
	} else {
		message = `The request to Keyword.com failed${failure.rawMessage ? `: ${clip(failure.rawMessage, token, 200)}` : ''}`;
		description = 'Check the Base URL of the credential and the network connection of n8n.';
	}
	if (failure.retryAfterMs !== undefined && failure.maxWaitMs !== undefined) {
		description = `${description} Keyword.com asked to wait ${seconds(failure.retryAfterMs)} before the next request, longer than the node waits (${seconds(failure.maxWaitMs)}), so it stopped instead.`;
	}
	if (failure.mayHaveApplied) {
		description = `${description} This request changes data and may have been carried out before the failure. The node did not send it again: check in Keyword.com before you run it again, so nothing is added or deleted twice.`;
	}
	if (context)
		description = `${description} (${failure.attempts && failure.attempts > 1 ? `after ${failure.attempts} attempts, ` : ''}${context})`;
	return {
		message: redactTokenPieces(message, token),
		description: redactTokenPieces(description, token),
		httpCode: status ? String(status) : null,
	};
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
export function dotSegmentError(
	context: Pick<FunctionsBase, 'getNode'>,
	what: string,
	token: string | undefined,
	itemIndex?: number,
): KeywordComApiError {
	const message = redactTokenPieces(
		`A project, group or id named "." or ".." cannot be used: the request ${what} would reach another address`,
		token,
	);
	const description =
		'Rename the project or group in Keyword.com, or check the value the expression gives.';
	return keywordComError(context, { message, description, httpCode: null }, itemIndex);
}
