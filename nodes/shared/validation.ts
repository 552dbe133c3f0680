import {
	AI_AGGREGATIONS,
	AI_TIMEFRAMES,
	MAX_CHART_DAYS,
	MAX_IDS_PER_CALL,
	MAX_KEYWORD_LENGTH,
	PROJECT_TIMEFRAMES,
	SHARE_OF_VOICE_RANGES,
} from './constants';
import { GROUP_SEPARATOR, holdsSeparator } from './groupName';
import { holdsTokenPiece, REDACTED, redactText, redactTokenPieces } from './redact';

/**
 * Input checks for everything the specification bounds. They are pure: each returns the normalised value or throws
 * an InputError naming the field, so a bad value never reaches the network. The node turns InputError into a
 * NodeOperationError for the item, through `InputError.render(token)`.
 */

/** A value an error message quotes, and how many characters of it to show. */
export class Quoted {
	constructor(
		readonly value: string,
		readonly max: number,
	) {}
}

/** Quotes `value` (at most `max` characters) in an InputError message built with `said`. */
export const quote = (value: string, max = 40): Quoted => new Quoted(value, max);

/** Quotes any value: text as it is, anything else as JSON. */
const quoteAny = (value: unknown): Quoted =>
	quote(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/** The parts of an input error's message: text, and quoted values shown only once the token is known. */
export type MessageParts = ReadonlyArray<string | Quoted>;

/** Tagged template for input error messages: said`keyword ${quote(kw)} is too long`. */
export function said(
	strings: TemplateStringsArray,
	...values: Array<string | number | Quoted>
): MessageParts {
	const parts: Array<string | Quoted> = [strings[0]];
	values.forEach((value, index) =>
		parts.push(value instanceof Quoted ? value : String(value), strings[index + 1]),
	);
	return parts;
}

/** First `max` characters (whole characters, never half of an emoji), with … when cut. */
function clipText(text: string, max: number): string {
	const characters = [...text];
	return characters.length > max ? `${characters.slice(0, max).join('')}…` : text;
}

export class InputError extends Error {
	readonly parts: MessageParts;

	/**
	 * `message` is text, or parts built with `said` when it quotes what the user typed. `Error.message` never shows a
	 * quoted value (it stands as "…"): only `render(token)` does, after checking it for the token.
	 */
	constructor(
		readonly field: string,
		message: string | MessageParts,
		readonly hint?: string,
	) {
		const parts = typeof message === 'string' ? [message] : message;
		super(`${field}: ${parts.map((part) => (part instanceof Quoted ? '"…"' : part)).join('')}`);
		this.parts = parts;
		this.name = 'InputError';
	}

	/**
	 * The message with its quoted values. A value that holds the token or a piece of it (a token pasted into the wrong
	 * field, whole or in part) is not shown at all; any other value is redacted first and clipped after, so a clip
	 * can never cut a token in half and leave its first characters in view.
	 */
	render(token: string | undefined): string {
		const text = this.parts
			.map((part) => {
				if (!(part instanceof Quoted)) return part;
				if (holdsTokenPiece(part.value, token)) return `"${REDACTED}"`;
				return `"${clipText(redactText(part.value, token), part.max)}"`;
			})
			.join('');
		return redactTokenPieces(`${this.field}: ${text}`, token);
	}
}

// C0/C1 control characters (tab and newline included): no name or keyword legitimately carries them.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

// Half of a surrogate pair (a broken emoji or symbol): it has no UTF-8 form, so it cannot be encoded into a URL.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks shared by everything that goes into a path: a dot segment would make the URL name another endpoint. */
function checkPathText(field: string, text: string): void {
	if (CONTROL_CHARACTERS.test(text)) {
		throw new InputError(field, 'must not contain control characters (tabs, line breaks…)');
	}
	if (LONE_SURROGATE.test(text)) {
		throw new InputError(field, 'contains an invalid character (a broken emoji or symbol)');
	}
	if (text === '.' || text === '..') throw new InputError(field, said`cannot be ${quote(text)}`);
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A plain string (numbers are accepted and turned into text); anything else is an error. */
export function requireText(field: string, value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') {
		throw new InputError(field, `expected text but got ${describe(value)}`);
	}
	return value;
}

export function checkName(field: string, value: unknown, { allowEmpty = false } = {}): string {
	const name = requireText(field, value ?? '').trim();
	if (name === '') {
		if (allowEmpty) return '';
		throw new InputError(field, 'must not be empty');
	}
	checkPathText(field, name);
	if (holdsSeparator(name)) {
		throw new InputError(
			field,
			`must not contain "${GROUP_SEPARATOR}"`,
			'Pick the project in "Project" and the group in "Group" (typed, the group\'s own name only): the node joins them.',
		);
	}
	return name;
}

export function checkKeywordText(field: string, value: unknown): string {
	const kw = requireText(field, value ?? '').trim();
	if (kw === '') throw new InputError(field, 'a keyword must not be empty');
	if (CONTROL_CHARACTERS.test(kw)) {
		throw new InputError(field, said`keyword ${quote(kw)} contains control characters`);
	}
	const length = [...kw].length;
	if (length > MAX_KEYWORD_LENGTH) {
		throw new InputError(
			field,
			said`keyword ${quote(kw)} has ${length} characters; Keyword.com accepts at most ${MAX_KEYWORD_LENGTH}`,
		);
	}
	return kw;
}

/** One or many values: a list, or text split on commas and line breaks. */
export function toList(field: string, value: unknown): unknown[] {
	if (value === undefined || value === null || value === '') return [];
	if (Array.isArray(value))
		return value.flatMap((entry) => (Array.isArray(entry) ? entry : [entry]));
	if (typeof value === 'string') {
		return value
			.split(/[,\n\r]+/)
			.map((part) => part.trim())
			.filter((part) => part !== '');
	}
	if (typeof value === 'number') return [value];
	throw new InputError(field, `expected a list or comma-separated text but got ${describe(value)}`);
}

export function checkNumericId(field: string, value: unknown): string {
	const text = typeof value === 'number' ? String(value) : requireText(field, value ?? '').trim();
	if (!/^[1-9]\d{0,17}$/.test(text)) {
		throw new InputError(
			field,
			said`${quote(text)} is not a valid id (expected a positive whole number)`,
		);
	}
	return text;
}

export function checkIdList(field: string, value: unknown): string[] {
	const ids = toList(field, value).map((entry) => checkNumericId(field, entry));
	if (ids.length === 0) throw new InputError(field, 'give at least one id');
	if (ids.length > MAX_IDS_PER_CALL) {
		throw new InputError(field, `${ids.length} ids is more than ${MAX_IDS_PER_CALL} in one call`);
	}
	const seen = new Set<string>();
	for (const id of ids) {
		if (seen.has(id)) throw new InputError(field, said`id ${quote(id)} is listed twice`);
		seen.add(id);
	}
	return ids;
}

/** An opaque id that goes into a path (AI visibility domain ids). */
export function checkOpaqueId(field: string, value: unknown): string {
	const id = requireText(field, value ?? '').trim();
	if (id === '') throw new InputError(field, 'must not be empty');
	checkPathText(field, id);
	if (/[\s/?#]/.test(id)) {
		throw new InputError(field, said`${quote(id)} is not a valid id`);
	}
	return id;
}

export function checkCurrency(field: string, value: unknown): string {
	const code = requireText(field, value ?? '').trim();
	if (!/^[A-Za-z]{3}$/.test(code)) {
		throw new InputError(
			field,
			said`${quote(code, 20)} is not a 3-letter currency code such as USD or EUR`,
		);
	}
	return code.toUpperCase();
}

function isRealDate(year: number, month: number, day: number): boolean {
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** `YYYY-MM-DD`, or an ISO date-time (the date part is kept), or a Date-like object with toISOString. */
export function checkDate(field: string, value: unknown): string {
	let text: string;
	if (value instanceof Date) text = value.toISOString();
	else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		text = String((value as { toISO: () => string }).toISO());
	} else text = requireText(field, value ?? '').trim();
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
	if (!match || !isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
		throw new InputError(field, said`${quote(text)} is not a valid date (expected YYYY-MM-DD)`);
	}
	return `${match[1]}-${match[2]}-${match[3]}`;
}

export function checkOptionalDate(field: string, value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return checkDate(field, value);
}

/** A range in plain words: "1 or more" rather than "1 to 9007199254740991". */
function rangeInWords(min: number, max: number): string {
	if (max >= Number.MAX_SAFE_INTEGER) return `${min} or more`;
	return `between ${min} and ${max}`;
}

export function checkInteger(field: string, value: unknown, min: number, max: number): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const range = rangeInWords(min, max);
	if (typeof number !== 'number' || !Number.isInteger(number)) {
		throw new InputError(field, said`expected a whole number ${range} but got ${quoteAny(value)}`);
	}
	if (number < min || number > max) {
		throw new InputError(field, said`${quoteAny(number)} is out of range (it must be ${range})`);
	}
	return number;
}

export function checkOneOf<T extends string | number>(
	field: string,
	value: unknown,
	allowed: readonly T[],
): T {
	const match = allowed.find((candidate) => String(candidate) === String(value).trim());
	if (match === undefined) {
		throw new InputError(field, said`${quoteAny(value)} is not one of ${allowed.join(', ')}`);
	}
	return match;
}

export const checkDaysRange = (field: string, value: unknown) =>
	checkOneOf(field, value, SHARE_OF_VOICE_RANGES);

export const checkChartDays = (field: string, value: unknown) =>
	checkInteger(field, value, 1, MAX_CHART_DAYS);

export const checkProjectTimeframe = (field: string, value: unknown) =>
	checkOneOf(field, value, PROJECT_TIMEFRAMES);

/** AI metrics timeframe: one of 24h/7d/30d/3m/1y, or a bare number of days. */
export function checkAiTimeframe(field: string, value: unknown): string {
	const text = requireText(field, value ?? '').trim();
	if ((AI_TIMEFRAMES as readonly string[]).includes(text)) return text;
	if (/^\d+$/.test(text)) return String(checkInteger(field, text, 1, 365));
	throw new InputError(
		field,
		said`${quote(text, 20)} is not one of ${AI_TIMEFRAMES.join(', ')} or a number of days`,
	);
}

/** 0 is the current period; -1 … -365 are earlier ones. */
export function checkPeriodOffset(field: string, value: unknown): number {
	const offset = checkInteger(field, value, -365, 0);
	return offset === 0 ? 0 : offset;
}

export const checkAggregation = (field: string, value: unknown) =>
	checkOneOf(field, value, AI_AGGREGATIONS);

/** A list of non-empty texts (topics, search terms, engines, tags). */
export function checkTextList(field: string, value: unknown): string[] {
	return toList(field, value).map((entry) => {
		const text = requireText(field, entry).trim();
		if (text === '' || CONTROL_CHARACTERS.test(text)) {
			throw new InputError(field, said`${quote(text)} is not a valid entry`);
		}
		return text;
	});
}

export function checkUrl(field: string, value: unknown): string {
	const url = requireText(field, value ?? '').trim();
	if (url === '') throw new InputError(field, 'must not be empty');
	if (/\s/.test(url) || CONTROL_CHARACTERS.test(url)) {
		throw new InputError(field, said`${quote(url, 60)} is not a valid address`);
	}
	return url;
}
