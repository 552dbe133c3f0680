/**
 * How a dropdown orders its options (nodes/shared/optionOrder.ts): a scale smallest first — numbers ascending (0,
 * "any size", last), or one of the time scales the API knows — and anything else alphabetically, as n8n compares.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

/** As n8n's rule compares: locale-aware, case- and accent-insensitive. */
export const byName = (a: string, b: string) =>
	a.localeCompare(b, undefined, { sensitivity: 'base' });

/** The time scales, smallest first (AI aggregations, project timeframes, AI timeframes). */
export const TIME_SCALES: ReadonlyArray<readonly string[]> = [
	['hourly', 'daily', 'weekly', 'monthly'],
	['daily', 'weekly', 'monthly', 'semester', 'yearly', 'life'],
	['24h', '7d', '30d', '3m', '1y'],
];

/** The values in scale order: numbers ascending with 0 (any size) last, or a time scale in its order. */
export function onAScale(values: unknown[]): boolean {
	if (values.every((value): value is number => typeof value === 'number')) {
		const sizes = values.map((value) => (value === 0 ? Infinity : value));
		return sizes.every((size, index) => index === 0 || sizes[index - 1] < size);
	}
	return TIME_SCALES.some(
		(scale) =>
			values.length === scale.length && values.every((value, index) => value === scale[index]),
	);
}

/** Whether the values are those of a scale: numbers, or the values of one of the time scales (in any order). */
function isAScale(values: unknown[]): boolean {
	if (values.length > 1 && values.every((value) => typeof value === 'number')) return true;
	return TIME_SCALES.some(
		(scale) => values.length === scale.length && scale.every((step) => values.includes(step)),
	);
}

/** Whether a dropdown's options are in the order n8n's guidelines want: a scale smallest first, else by name. */
export function inAnAllowedOrder(options: INodePropertyOptions[]): boolean {
	const values = options.map((option) => option.value);
	if (isAScale(values)) return onAScale(values);
	const names = options.map((option) => option.name);
	return names.every((name, index) => index === 0 || byName(names[index - 1], name) <= 0);
}
