/**
 * The API echoes the token: list `links` carry `api_token=<token>` and the account record has `api_token`.
 * Everything the nodes emit (items, error messages, descriptions) passes through here first.
 */
export const REDACTED = '[redacted]';

const TOKEN_PARAMETER = /([?&])api_token=[^&#\s"']*(&?)/gi;
/** `api_token=<value>` anywhere else in a text (a message quoting a query, a form body…). */
const TOKEN_ASSIGNMENT = /\bapi_token(=|%3D)(?!\[redacted\])[^&#\s"',;)]+/gi;

/** Removes the `api_token` query parameter from a URL-like string, keeping the rest of the query intact. */
export function stripTokenParameter(text: string): string {
	return (
		text
			// `?api_token=x` alone goes with its `?`; `?api_token=x&a=1` keeps `?a=1`. A "?" that ends ordinary text stays.
			.replace(TOKEN_PARAMETER, (_match, lead: string, trail: string) => (trail ? lead : ''))
			.replace(TOKEN_ASSIGNMENT, (_match, sign: string) => `api_token${sign}${REDACTED}`)
	);
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms the token may take in text: as is, URL-encoded (component, URI, `+` for spaces, twice). */
function tokenForms(token: string): string[] {
	const forms = new Set([token]);
	try {
		const component = encodeURIComponent(token);
		forms
			.add(component)
			.add(component.replace(/%20/g, '+'))
			.add(encodeURI(token))
			.add(encodeURIComponent(component));
	} catch {
		// A token that is not valid Unicode has no encoded form; the plain form is still removed.
	}
	return [...forms];
}

/** The token in any of its forms, any hex case. */
function tokenPattern(token: string | undefined): RegExp | undefined {
	if (!token || token.length < 4) return undefined;
	if (cached?.token === token) return cached.pattern;
	// Longest first, so a longer encoded form is removed whole rather than in part.
	const alternatives = tokenForms(token)
		.sort((a, b) => b.length - a.length)
		.map(escapeRegExp);
	const pattern = new RegExp(alternatives.join('|'), 'gi');
	cached = { token, pattern, gate: new RegExp(`api_token|${alternatives.join('|')}`, 'i') };
	return pattern;
}

/** The pattern of the last token seen: redactDeep calls redactText for every string of every record. */
let cached: { token: string; pattern: RegExp; gate: RegExp } | undefined;

/**
 * A piece of the token this long (or the whole token, when shorter) counts as the token: a value holding one is
 * never shown, and a message never carries one. Eight characters of a random token are as good as unique.
 */
export const TOKEN_PIECE_LENGTH = 8;

/** Every TOKEN_PIECE_LENGTH-character piece of every form of the token, lower-cased (hex escapes vary in case). */
function tokenPieces(token: string): Set<string> {
	if (piecesCache?.token === token) return piecesCache.pieces;
	const pieces = new Set<string>();
	for (const form of tokenForms(token)) {
		const lower = form.toLowerCase();
		for (let at = 0; at + TOKEN_PIECE_LENGTH <= lower.length; at++) {
			pieces.add(lower.slice(at, at + TOKEN_PIECE_LENGTH));
		}
	}
	piecesCache = { token, pieces };
	return pieces;
}

let piecesCache: { token: string; pieces: Set<string> } | undefined;

/** The text and, when it differs and can be decoded, its percent-decoded form. */
function withDecoded(text: string): string[] {
	try {
		const decoded = decodeURIComponent(text.replace(/\+/g, ' '));
		return decoded === text ? [text] : [text, decoded];
	} catch {
		return [text];
	}
}

/** Whether `text` holds the token or any TOKEN_PIECE_LENGTH-character piece of it, as is or URL-encoded. */
export function holdsTokenPiece(text: string, token: string | undefined): boolean {
	if (!token || token.length < 4) return false;
	for (const candidate of withDecoded(text)) {
		const lower = candidate.toLowerCase();
		if (token.length < TOKEN_PIECE_LENGTH) {
			if (tokenForms(token).some((form) => lower.includes(form.toLowerCase()))) return true;
			continue;
		}
		const pieces = tokenPieces(token);
		for (let at = 0; at + TOKEN_PIECE_LENGTH <= lower.length; at++) {
			if (pieces.has(lower.slice(at, at + TOKEN_PIECE_LENGTH))) return true;
		}
	}
	return false;
}

/**
 * Replaces every run of text made of TOKEN_PIECE_LENGTH-character pieces of the token (a clipped or partly echoed
 * token) by the redaction mark. For messages and descriptions: short texts where a cut-off token may show up.
 */
export function redactTokenPieces(text: string, token: string | undefined): string {
	const whole = redactText(text, token);
	if (!token || token.length < TOKEN_PIECE_LENGTH) return whole;
	const pieces = tokenPieces(token);
	const lower = whole.toLowerCase();
	const covered = new Uint8Array(whole.length);
	let found = false;
	for (let at = 0; at + TOKEN_PIECE_LENGTH <= lower.length; at++) {
		if (!pieces.has(lower.slice(at, at + TOKEN_PIECE_LENGTH))) continue;
		covered.fill(1, at, at + TOKEN_PIECE_LENGTH);
		found = true;
	}
	if (!found) return whole;
	let result = '';
	for (let at = 0; at < whole.length; at++) {
		if (!covered[at]) result += whole[at];
		else if (at === 0 || !covered[at - 1]) result += REDACTED;
	}
	return result;
}

const PARAMETER_GATE = /api_token/i;

/** Strips token parameters and every occurrence of the token (plain or URL-encoded) from a string. */
export function redactText(text: string, token?: string): string {
	// One test per string first: almost no string of a record holds anything to remove, and lists run into the
	// hundreds of thousands of strings.
	// Too short to hold "api_token" or the token (whose encoded forms are longer still): most values of a record.
	if (text.length < 9 && (!token || text.length < token.length)) return text;
	const gate = tokenPattern(token) ? cached?.gate : PARAMETER_GATE;
	if (gate && !gate.test(text)) return text;
	const result = stripTokenParameter(text);
	const pattern = tokenPattern(token);
	return pattern ? result.replace(pattern, REDACTED) : result;
}

/**
 * The value with every string redacted. Values under a key named `api_token` are replaced whole, wherever they are,
 * unless `keepAccountToken` is set (the user opted in to see the account record's token).
 *
 * Copy-on-write: objects and arrays with nothing to redact inside are returned as they are (the input is never
 * modified), so a 50,000-record list costs one pass of string tests and no copies.
 */
export function redactDeep<T>(value: T, token?: string, keepAccountToken = false): T {
	const visit = (node: unknown, key?: string): unknown => {
		if (typeof node === 'string') {
			if (key === 'api_token') return keepAccountToken ? node : REDACTED;
			return redactText(node, token);
		}
		if (Array.isArray(node)) {
			let copy: unknown[] | undefined;
			for (let index = 0; index < node.length; index++) {
				const entry = visit(node[index]);
				if (entry !== node[index]) (copy ??= node.slice())[index] = entry;
			}
			return copy ?? node;
		}
		if (node && typeof node === 'object') {
			const object = node as Record<string, unknown>;
			let copy: Record<string, unknown> | undefined;
			// for…in rather than Object.entries: no array per object (lists run into the hundreds of thousands).
			for (const childKey in object) {
				if (!Object.prototype.hasOwnProperty.call(object, childKey)) continue;
				const child = object[childKey];
				const redacted = visit(child, childKey);
				if (redacted !== child) (copy ??= { ...object })[childKey] = redacted;
			}
			return copy ?? node;
		}
		return node;
	};
	return visit(value) as T;
}
