/** Account: endpoint #22. */
import { accountRecord } from '../records';
import { ok, type Handler } from '../context';

export const getAccount: Handler = (ctx) => ok({ data: accountRecord(ctx.state, ctx.token) });
