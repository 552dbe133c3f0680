/**
 * What a secret sweep looks for: every form of a token and every 8-character piece of each form, so that a token shown
 * in part (clipped, cut by a line wrap) is caught as well as a whole one. No dependencies: unit, engine and
 * end-to-end tests all use it.
 */

export const LEAK_PIECE_LENGTH = 8;

/** The forms of a token that must never appear: as is, URL-encoded (both space styles). */
export function tokenForms(token: string): string[] {
	return [
		...new Set([token, encodeURIComponent(token), encodeURIComponent(token).replace(/%20/g, '+')]),
	];
}

/** Every form of the token and every LEAK_PIECE_LENGTH-character piece of each form. */
export function leakPieces(token: string): string[] {
	const pieces = new Set<string>();
	for (const form of tokenForms(token)) {
		if (form.length <= LEAK_PIECE_LENGTH) pieces.add(form);
		for (let at = 0; at + LEAK_PIECE_LENGTH <= form.length; at++)
			pieces.add(form.slice(at, at + LEAK_PIECE_LENGTH));
	}
	return [...pieces];
}
