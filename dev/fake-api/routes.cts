/**
 * The route table (each handler module lists its endpoints' routes) and the matcher.
 *
 * Matching works on path segments that were split on the raw `/` first and percent-decoded afterwards, so a name
 * sent as `Shop%20%2F%20Deals` is one segment `Shop / Deals`, and `[sub]` may arrive raw or as `%5Bsub%5D`.
 * A literal `+` stays `+` (paths, unlike form queries, do not use `+` for spaces).
 */
import { ACCOUNT_ROUTES } from './handlers/account.cjs';
import { AI_VISIBILITY_ROUTES } from './handlers/aiVisibility.cjs';
import { ALERT_ROUTES, listAlerts } from './handlers/alerts.cjs';
import { GROUP_ROUTES, undoArchive } from './handlers/groups.cjs';
import { KEYWORD_ROUTES, listKeywords } from './handlers/keywords.cjs';
import { SHARE_OF_VOICE_ROUTES } from './handlers/shareOfVoice.cjs';
import type { Handler, Route } from './context.cjs';

export type { Route } from './context.cjs';

/**
 * Shorter patterns first (only patterns of a path's length can match it), then literal segments before `:params`,
 * position by position (`keywords/ranking-urls` before `keywords/:keywordId`).
 */
function literalFirst(a: Route, b: Route): number {
	if (a.pattern.length !== b.pattern.length) return a.pattern.length - b.pattern.length;
	for (let i = 0; i < a.pattern.length; i++) {
		const aParam = a.pattern[i].startsWith(':');
		if (aParam !== b.pattern[i].startsWith(':')) return aParam ? 1 : -1;
	}
	return 0;
}

/** Every endpoint's route, as its handler module lists it, literal segments matched first. */
export const ROUTES: Route[] = [
	...GROUP_ROUTES,
	...KEYWORD_ROUTES,
	...SHARE_OF_VOICE_ROUTES,
	...ALERT_ROUTES,
	...ACCOUNT_ROUTES,
	...AI_VISIBILITY_ROUTES,
].sort(literalFirst);

export const API_PREFIX = '/api/v2/';

/** GET handlers that change data: #8 restores an archived project or group. */
export const WRITING_GETS: ReadonlySet<Handler> = new Set([undoArchive]);

/** The paged lists whose pages the behaviour switches `pageLatencyMs` and `churn` act on: #13 and #20. */
export const PAGED_LISTS: ReadonlyMap<Handler, 'keywords' | 'alerts'> = new Map<
	Handler,
	'keywords' | 'alerts'
>([
	[listKeywords, 'keywords'],
	[listAlerts, 'alerts'],
]);

/** Decodes one raw path segment; a malformed escape leaves the segment as received. */
export function decodeSegment(raw: string): string {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}

export type RouteMatch =
	| { kind: 'found'; route: Route; handler: Handler; params: Record<string, string> }
	| { kind: 'method-not-allowed'; allow: string[] }
	| { kind: 'not-found' };

/**
 * Finds the route for a raw path (without query). One trailing slash is ignored (#13 is documented with it).
 * When a path matches but not with this method, the answer is 405 with the allowed methods.
 */
export function matchRoute(method: string, rawPath: string): RouteMatch {
	if (!rawPath.startsWith(API_PREFIX)) return { kind: 'not-found' };
	let rest = rawPath.slice(API_PREFIX.length);
	if (rest.endsWith('/')) rest = rest.slice(0, -1);
	const segments = rest.split('/').map(decodeSegment);
	const allow = new Set<string>();
	for (const route of ROUTES) {
		if (route.pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let matched = true;
		for (let i = 0; i < segments.length; i++) {
			const p = route.pattern[i];
			if (p.startsWith(':')) {
				if (segments[i] === '') {
					matched = false;
					break;
				}
				params[p.slice(1)] = segments[i];
			} else if (p !== segments[i]) {
				matched = false;
				break;
			}
		}
		if (!matched) continue;
		const handler = route.methods[method];
		if (handler) return { kind: 'found', route, handler, params };
		for (const m of Object.keys(route.methods)) allow.add(m);
	}
	return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow] } : { kind: 'not-found' };
}
