/**
 * Reader for the `flatted` format in which n8n's REST API returns execution data (`GET /rest/executions/:id` → `data`).
 *
 * Format: a JSON array; entry 0 is the root. Inside objects and arrays every string is the index (in decimal) of the
 * entry holding the real value; numbers, booleans and null are inline. Shared and circular references are kept.
 */
export function parseFlatted(text: string): unknown {
	const input = JSON.parse(text) as unknown;
	if (!Array.isArray(input)) throw new Error('parseFlatted: not a flatted array');
	const resolved = new Map<number, unknown>();
	const resolve = (index: number): unknown => {
		if (resolved.has(index)) return resolved.get(index);
		const value: unknown = input[index];
		if (value === null || typeof value !== 'object') {
			resolved.set(index, value);
			return value;
		}
		const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		resolved.set(index, out);
		for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
			(out as Record<string, unknown>)[key] =
				typeof child === 'string' ? resolve(Number(child)) : child;
		}
		return out;
	};
	return resolve(0);
}
