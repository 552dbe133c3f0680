/**
 * What a route handler receives and returns, plus the small helpers every handler area shares: reading query
 * values, checking bodies, paging, and building the absolute `links` the service returns.
 */
import { ApiError, invalid } from './errors.cjs';
import { MAX_PER_PAGE, type FakeBehaviour } from './behaviour.cjs';
import type { FakeState } from './state.cjs';

export type Query = Record<string, string | string[]>;

export interface RequestContext {
	method: string;
	/** Path exactly as received (still percent-encoded), without the query. */
	rawPath: string;
	/** Path parameters of the matched route, percent-decoded. */
	params: Record<string, string>;
	query: Query;
	body: unknown;
	/** True when a body was sent but was not valid JSON. */
	bodyInvalid: boolean;
	state: FakeState;
	baseUrl: string;
	token: string;
	/** The switches for behaviour the document leaves open (see behaviour.cts). */
	behaviour: Readonly<FakeBehaviour>;
}

export interface HandlerResult {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => HandlerResult;

/** An endpoint's route: each handler module lists its own (routes.cts gathers them and matches). */
export interface Route {
	/** Endpoint number(s) of the specification, for readers. */
	endpoint: string;
	/** Segments after `/api/v2/`; `:name` captures one decoded segment. */
	pattern: string[];
	methods: Partial<Record<string, Handler>>;
}

export const route = (endpoint: string, path: string, methods: Route['methods']): Route => ({
	endpoint,
	pattern: path.split('/'),
	methods,
});

export const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });

/** Last value of a query parameter (a repeated scalar keeps its last value, as PHP does). */
export function queryString(q: Query, name: string): string | undefined {
	const v = q[name];
	if (v === undefined) return undefined;
	return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Values of an array parameter sent as `name[]=a&name[]=b`; a bare `name=a` is accepted as well. */
export function queryArray(q: Query, name: string): string[] {
	const out: string[] = [];
	for (const key of [`${name}[]`, name]) {
		const v = q[key];
		if (v === undefined) continue;
		out.push(...(Array.isArray(v) ? v : [v]));
	}
	return out.filter((s) => s !== '');
}

/** A positive integer query value; `undefined` when absent or empty. Anything else is a 422. */
export function queryPositiveInt(q: Query, name: string): number | undefined {
	const v = queryString(q, name);
	if (v === undefined || v === '') return undefined;
	if (!/^\d+$/.test(v) || Number(v) < 1)
		throw invalid(`The ${name} parameter must be a positive integer.`, { parameter: name });
	return Number(v);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The parsed JSON body, or a 400/422 when there is none or it is not JSON. */
export function requireBody(ctx: RequestContext): Record<string, unknown> {
	if (ctx.bodyInvalid) throw new ApiError(400, 'The request body is not valid JSON.');
	if (!isRecord(ctx.body)) throw invalid('A JSON object body is required.', { pointer: '/' });
	return ctx.body;
}

/** `body.data` as an object, or a 422 naming the pointer. */
export function requireDataObject(ctx: RequestContext): Record<string, unknown> {
	const body = requireBody(ctx);
	if (!isRecord(body.data))
		throw invalid('The body must have a "data" object.', { pointer: '/data' });
	return body.data;
}

/** Ids sent as strings or numbers; each must be a positive integer. */
export function parseIdList(value: unknown, pointer: string): number[] {
	if (!Array.isArray(value)) throw invalid('Expected an array of ids.', { pointer });
	if (value.length === 0) throw invalid('At least one id is required.', { pointer });
	return value.map((v, i) => {
		const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
		if (!/^\d+$/.test(s))
			throw invalid(`Id ${JSON.stringify(v)} is not a valid id.`, { pointer: `${pointer}/${i}` });
		return Number(s);
	});
}

export { MAX_PER_PAGE };

export interface PageWindow {
	page: number;
	perPage: number;
	total: number;
	totalPages: number;
	start: number;
	end: number;
}

/**
 * Paging as the service does it: `per_page` above 250 (or the lower `maxPerPage` of the behaviour switch) is
 * clamped, not refused, and so is a default page size above it; 0 or junk is a 422, and a page past the end is an
 * empty page rather than an error.
 */
export function pageWindow(
	q: Query,
	total: number,
	defaultPerPage: number,
	maxPerPage = MAX_PER_PAGE,
): PageWindow {
	const perPage = Math.min(maxPerPage, queryPositiveInt(q, 'per_page') ?? defaultPerPage);
	const page = queryPositiveInt(q, 'page') ?? 1;
	const totalPages = Math.max(1, Math.ceil(total / perPage));
	const start = Math.min(total, (page - 1) * perPage);
	const end = Math.min(total, start + perPage);
	return { page, perPage, total, totalPages, start, end };
}

/**
 * An absolute link back to the same path with other query values. The real service puts the caller's
 * `api_token` into these links, so the fake does too (the node must not leak or depend on it).
 */
export function selfLink(
	ctx: RequestContext,
	params: Record<string, string | number | undefined>,
	withToken = true,
): string {
	const search = new URLSearchParams();
	if (withToken) search.set('api_token', ctx.token);
	for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
	return `${ctx.baseUrl}${ctx.rawPath}?${search.toString()}`;
}
