import { DEFAULT_BASE_URL } from './constants';

/** What the Keyword.com API credential gives a request: the token and the base URL without trailing slashes. */
export interface KeywordComAccess {
	token: string | undefined;
	baseUrl: string;
}

/** The credential's Base URL without trailing slashes (the credential tolerates them). */
export function trimBaseUrl(value: unknown): string {
	return String(value ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/** The one place the credential's fields are read. */
export function accessOf(credentials: object | undefined): KeywordComAccess {
	const { apiToken, baseUrl } = (credentials ?? {}) as { apiToken?: unknown; baseUrl?: unknown };
	return {
		token: typeof apiToken === 'string' && apiToken !== '' ? apiToken : undefined,
		baseUrl: trimBaseUrl(baseUrl),
	};
}
