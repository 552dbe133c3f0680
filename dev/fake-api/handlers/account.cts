/** Account: endpoint #22. */
import { accountRecord } from '../records.cjs';
import { ok, type Handler, route, type Route } from '../context.cjs';

export const getAccount: Handler = (ctx) => ok({ data: accountRecord(ctx.state, ctx.token) });

/** The routes of this file's endpoints. */
export const ACCOUNT_ROUTES: Route[] = [
	// The service writes the flag on the path with `&`; plain `users/self` is accepted too.
	route('#22', 'users/self&include_subscriptions', { GET: getAccount }),
	route('#22', 'users/self', { GET: getAccount }),
];
