/** Date and text formatting shared by the record builders. All dates are UTC, as the service reports them. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const DAY_MS = 86_400_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `2026-01-05T06:12:00+00:00`: ISO 8601 with an explicit offset (keywords_last_updated_at). */
export function isoOffset(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19) + '+00:00';
}

/** `2026-01-05T06:12:00`: UTC wall time with no offset and no `Z` (behaviour switch timestampOffsets). */
export function isoNaive(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}

/** `2026-01-05T06:12:00.000Z`: ISO 8601 UTC (updated_at, AI visibility timestamps). */
export function isoZ(ms: number): string {
	return new Date(ms).toISOString();
}

/** `2026-01-05 06:12:00` (tag timestamps). */
export function sqlDateTime(ms: number): string {
	const iso = new Date(ms).toISOString();
	return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** `2026-01-05`. */
export function ymd(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** `Jan 05, 2026` (competitor history dates). */
export function monDayYear(ms: number): string {
	const d = new Date(ms);
	return `${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()}`;
}

/** `Date.UTC(2026,0,5)`: the literal string the chart series carry (zero-based month). */
export function dateUtcLiteral(ms: number): string {
	const d = new Date(ms);
	return `Date.UTC(${d.getUTCFullYear()},${d.getUTCMonth()},${d.getUTCDate()})`;
}

export const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

/** Start of the UTC day containing ms. */
export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** Parses a strict, real calendar date `YYYY-MM-DD` to its UTC midnight in ms, or undefined. */
export function parseYmd(text: string): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!m) return undefined;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const ms = Date.UTC(year, month - 1, day);
	const d = new Date(ms);
	if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
		return undefined;
	return ms;
}

export const round = (value: number, digits = 2): number => {
	const f = 10 ** digits;
	return Math.round(value * f) / f;
};

/** ASCII slug for generated domains and URLs ("Café Zürich" -> "cafe-zurich"). */
export function slugify(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

const CURRENCY_SYMBOLS: Record<string, string> = {
	USD: '$',
	EUR: '€',
	GBP: '£',
	JPY: '¥',
	AUD: 'A$',
	CAD: 'C$',
	CHF: 'CHF',
	INR: '₹',
};

export const currencySymbol = (code: string): string =>
	CURRENCY_SYMBOLS[code.toUpperCase()] ?? code.toUpperCase();
