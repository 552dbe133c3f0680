/**
 * The API echoes the token: list `links` carry `api_token=<token>` and the account record has `api_token`.
 * Everything the nodes emit (items, error messages, descriptions) passes through here first.
 */
export const REDACTED = '[redacted]';

const TOKEN_PARAMETER = /([?&])api_token=[^&#\s"']*(&?)/gi;

/** Removes the `api_token` query parameter from a URL-like string, keeping the rest of the query intact. */
export function stripTokenParameter(text: string): string {
	return text.replace(TOKEN_PARAMETER, (_match, lead: string, trail: string) => (trail ? lead : '')).replace(/\?$/, '');
}

function tokenForms(token: string | undefined): string[] {
	if (!token || token.length < 4) return [];
	const forms = new Set([token, encodeURIComponent(token), encodeURIComponent(token).replace(/%20/g, '+')]);
	return [...forms];
}

/** Strips token parameters and every literal occurrence of the token (plain or URL-encoded) from a string. */
export function redactText(text: string, token?: string): string {
	let result = stripTokenParameter(text);
	for (const form of tokenForms(token)) result = result.split(form).join(REDACTED);
	return result;
}

/**
 * Deep copy with every string redacted. Values under a key named `api_token` are replaced whole, wherever they are,
 * unless `keepAccountToken` is set (the user opted in to see the account record's token).
 */
export function redactDeep<T>(value: T, token?: string, keepAccountToken = false): T {
	const visit = (node: unknown, key?: string): unknown => {
		if (typeof node === 'string') {
			if (key === 'api_token' && !keepAccountToken) return REDACTED;
			return key === 'api_token' ? node : redactText(node, token);
		}
		if (Array.isArray(node)) return node.map((entry) => visit(entry));
		if (node && typeof node === 'object') {
			const copy: Record<string, unknown> = {};
			for (const [childKey, child] of Object.entries(node as Record<string, unknown>)) {
				copy[childKey] = visit(child, childKey);
			}
			return copy;
		}
		return node;
	};
	return visit(value) as T;
}
