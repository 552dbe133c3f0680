/**
 * The route table of the 28 endpoints and the matcher.
 *
 * Matching works on path segments that were split on the raw `/` first and percent-decoded afterwards, so a name
 * sent as `Shop%20%2F%20Deals` is one segment `Shop / Deals`, and `[sub]` may arrive raw or as `%5Bsub%5D`.
 * A literal `+` stays `+` (paths, unlike form queries, do not use `+` for spaces).
 */
import { listAlerts } from './handlers/alerts';
import { getAccount } from './handlers/account';
import {
	aiCitations,
	aiMetrics,
	aiSentiment,
	getAiDomain,
	listAiDomains,
	listSearchTerms,
} from './handlers/aiVisibility';
import {
	createGroup,
	deleteGroup,
	getGroup,
	groupMetrics,
	listActive,
	listRegions,
	refreshKeywords,
	undoArchive,
	updateGroupStatus,
} from './handlers/groups';
import {
	addKeywords,
	competitorHistory,
	deleteKeyword,
	deleteKeywords,
	getKeyword,
	keywordChart,
	listKeywords,
	rankingUrls,
	updateKeywords,
} from './handlers/keywords';
import { latestShareOfVoice, shareOfVoiceHistory } from './handlers/shareOfVoice';
import type { Handler } from './context';

export interface Route {
	/** Endpoint number(s) of the specification, for readers. */
	endpoint: string;
	/** Segments after `/api/v2/`; `:name` captures one decoded segment. */
	pattern: string[];
	methods: Partial<Record<string, Handler>>;
}

const r = (endpoint: string, path: string, methods: Route['methods']): Route => ({
	endpoint,
	pattern: path.split('/'),
	methods,
});

export const ROUTES: Route[] = [
	r('#1', 'groups/active', { GET: listActive }),
	r('#7', 'groups', { POST: createGroup }),
	r('#2 #3 #4', 'groups/:name', { GET: getGroup, PUT: updateGroupStatus, DELETE: deleteGroup }),
	r('#6', 'groups/:name/regions', { GET: listRegions }),
	// #8 changes data although it is a GET (the read cache of the benchmarks must treat it as a write).
	r('#8', 'groups/:name/undo/archive', { GET: undoArchive }),
	r('#9', 'groups/:name/metrics', { GET: groupMetrics }),
	r('#10 #13', 'groups/:name/keywords', { GET: listKeywords, POST: addKeywords }),
	r('#21', 'groups/:name/keywords/ranking-urls', { GET: rankingUrls }),
	r('#11 #12', 'groups/:name/keywords/:keywordId', { GET: getKeyword, DELETE: deleteKeyword }),
	r('#5', 'keywords/refresh', { POST: refreshKeywords }),
	r('#14', 'keywords/chart', { POST: keywordChart }),
	r('#15', 'metrics/:name/competitors/:keywordId/history', { GET: competitorHistory }),
	r('#18', 'metrics/:name/mindshare/latest', { GET: latestShareOfVoice }),
	r('#16 #17', 'projects/:projectId/keywords', { PATCH: updateKeywords, DELETE: deleteKeywords }),
	r('#19', 'projects/:projectId/mindshare/from-cache', { GET: shareOfVoiceHistory }),
	r('#20', 'alerts', { GET: listAlerts }),
	// The service writes the flag on the path with `&`; plain `users/self` is accepted too.
	r('#22', 'users/self&include_subscriptions', { GET: getAccount }),
	r('#22', 'users/self', { GET: getAccount }),
	r('#23', 'ai-visibility/domains', { GET: listAiDomains }),
	r('#24', 'ai-visibility/domains/:domainId', { GET: getAiDomain }),
	r('#25', 'ai-visibility/domains/:domainId/search-terms', { GET: listSearchTerms }),
	r('#26', 'ai-visibility/domains/:domainId/metrics', { GET: aiMetrics }),
	r('#27', 'ai-visibility/domains/:domainId/metrics/sentiment', { GET: aiSentiment }),
	r('#28', 'ai-visibility/domains/:domainId/metrics/citations', { GET: aiCitations }),
];

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
