/**
 * Reading the API's date-times. The document gives them as ISO 8601 "with offset", but a time without one
 * (`2026-11-25T10:00:00`, `2026-11-25 10:00:00`) must not be read in the n8n host's time zone, as `Date.parse` would:
 * the API's clock is UTC, so a time without an offset is read as UTC.
 */

/** A date-time without any offset or `Z`: date, `T` or a space, time. */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Milliseconds since the epoch of an API date-time, or undefined when it is not one. */
export function apiTimeMs(text: string): number | undefined {
	const trimmed = text.trim();
	const ms = WITHOUT_OFFSET.test(trimmed)
		? Date.parse(`${trimmed.replace(' ', 'T')}Z`)
		: Date.parse(trimmed);
	return Number.isNaN(ms) ? undefined : ms;
}

/** Whole Unix seconds of an API date-time, or undefined (absent, null, unreadable). */
export function apiTimeSeconds(value: unknown): number | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const ms = apiTimeMs(value);
	return ms === undefined ? undefined : Math.floor(ms / 1000);
}

/** Epoch seconds or a date string as ISO 8601 (null when absent or unreadable). */
export function isoTime(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value))
		return new Date(value * 1000).toISOString();
	if (typeof value === 'string' && value !== '') {
		const parsed = apiTimeMs(value);
		return parsed === undefined ? value : new Date(parsed).toISOString();
	}
	return null;
}
