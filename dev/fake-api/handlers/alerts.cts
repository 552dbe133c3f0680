/** Alerts: endpoint #20. */
import { invalid } from '../errors.cjs';
import { alertRecord } from '../records.cjs';
import type { Alert } from '../state.cjs';
import {
	ok,
	pageWindow,
	queryString,
	selfLink,
	type Handler,
	route,
	type Route,
} from '../context.cjs';

/** Default page size of the alert list (not documented; the fake's choice). */
export const ALERTS_DEFAULT_PER_PAGE = 25;
export const ALERT_SORT_FIELDS = ['created_at', 'time', 'id'] as const;

/** A stable scramble of an id (the 32-bit finaliser of MurmurHash3): the order of `mixed` ties. */
function scramble(id: number): number {
	let h = Math.imul(id ^ (id >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

/**
 * #20 Alerts, newest first by default. Ordered by created_at then id (`time` is the same instant as created_at),
 * in `sort_direction`. `last=N` (a positive integer) keeps the alerts of the last N days; other `last` and any
 * `view_type` values are accepted and ignored, since their meaning is not documented.
 * With the behaviour switch `alertOrder` at 'newest-first' or 'oldest-first' the sort parameters are not read at all
 * (not even checked): the order is forced, by created_at then id. With `alertTieOrder: 'mixed'` the alerts of one
 * created_at second come in a scrambled order of their ids (the same in both directions) instead of by id.
 */
export const listAlerts: Handler = (ctx) => {
	const state = ctx.state;
	const q = ctx.query;
	const forced = ctx.behaviour.alertOrder;
	let field = 'created_at';
	let sign = forced === 'oldest-first' ? 1 : -1;
	if (forced === 'as-asked') {
		const direction = (queryString(q, 'sort_direction') || 'desc').toLowerCase();
		if (direction !== 'asc' && direction !== 'desc')
			throw invalid('sort_direction must be "asc" or "desc".', { parameter: 'sort_direction' });
		field = queryString(q, 'sort_field') || 'created_at';
		if (!(ALERT_SORT_FIELDS as readonly string[]).includes(field)) {
			throw invalid(`sort_field must be one of ${ALERT_SORT_FIELDS.join(', ')}.`, {
				parameter: 'sort_field',
			});
		}
		sign = direction === 'asc' ? 1 : -1;
	}
	let alerts: Alert[] = state.alerts;
	const last = queryString(q, 'last');
	if (last !== undefined && /^\d+$/.test(last) && Number(last) > 0) {
		const since = state.nowSeconds() - Number(last) * 86400;
		alerts = alerts.filter((a) => a.createdAt >= since);
	}
	const tie =
		ctx.behaviour.alertTieOrder === 'mixed'
			? (a: Alert, b: Alert): number => scramble(a.id) - scramble(b.id) || a.id - b.id
			: (a: Alert, b: Alert): number => sign * (a.id - b.id);
	const sorted =
		field === 'id'
			? [...alerts].sort((a, b) => sign * (a.id - b.id))
			: [...alerts].sort((a, b) => sign * (a.createdAt - b.createdAt) || tie(a, b));
	const w = pageWindow(q, sorted.length, ALERTS_DEFAULT_PER_PAGE, ctx.behaviour.maxPerPage);
	const data = sorted.slice(w.start, w.end).map((a) => alertRecord(a, ctx.behaviour));
	// Links keep the caller's filters so that following `next` continues the same listing.
	const keep: Record<string, string | undefined> = {};
	for (const name of ['last', 'sort_direction', 'sort_field', 'view_type'])
		keep[name] = queryString(q, name);
	const link = (page: number): string => selfLink(ctx, { ...keep, per_page: w.perPage, page });
	return ok({
		data,
		meta: {
			pagination: {
				total: w.total,
				count: data.length,
				per_page: w.perPage,
				current_page: w.page,
				total_pages: w.totalPages,
			},
		},
		links: {
			self: link(w.page),
			first: link(1),
			next: w.page < w.totalPages ? link(w.page + 1) : null,
			last: link(w.totalPages),
		},
	});
};

/** The routes of this file's endpoints. */
export const ALERT_ROUTES: Route[] = [route('#20', 'alerts', { GET: listAlerts })];
