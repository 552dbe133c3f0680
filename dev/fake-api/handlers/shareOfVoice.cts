/** Share of voice: endpoints #18 and #19. */
import { invalid } from '../errors.cjs';
import { DAY_MS, dayStart, ymd } from '../format.cjs';
import { shareOfVoice } from '../serp.cjs';
import { ok, queryString, type Handler, route, type Route } from '../context.cjs';

/** #18 The ten domains with the largest share of voice now. */
export const latestShareOfVoice: Handler = (ctx) => {
	const c = ctx.state.getContainer(ctx.params.name);
	return ok({ data: shareOfVoice(ctx.state, c, 0) });
};

/** Spacing of the points of #19 per range (spec §4.3): 7→1 day, 30→7, 90→14, 180→30, 365→60. */
export const SOV_STEP_DAYS: Record<string, number> = {
	'7': 1,
	'30': 7,
	'90': 14,
	'180': 30,
	'365': 60,
};

/** #19 Share of voice over time, oldest point first. The success body is not documented; this shape is the fake's. */
export const shareOfVoiceHistory: Handler = (ctx) => {
	const c = ctx.state.getContainerById(ctx.params.projectId);
	const range = queryString(ctx.query, 'daysrange');
	if (range === undefined || SOV_STEP_DAYS[range] === undefined) {
		throw invalid('daysrange must be one of 7, 30, 90, 180, 365.', { parameter: 'daysrange' });
	}
	const days = Number(range);
	const step = SOV_STEP_DAYS[range];
	const count = Math.floor((days - 1) / step) + 1;
	const today = dayStart(ctx.state.now());
	const data = [];
	for (let i = count - 1; i >= 0; i--) {
		const daysAgo = i * step;
		data.push({
			date: ymd(today - daysAgo * DAY_MS),
			entries: shareOfVoice(ctx.state, c, daysAgo),
		});
	}
	return ok({ data, meta: { daysrange: days, points: count } });
};

/** The routes of this file's endpoints. */
export const SHARE_OF_VOICE_ROUTES: Route[] = [
	route('#18', 'metrics/:name/mindshare/latest', { GET: latestShareOfVoice }),
	route('#19', 'projects/:projectId/mindshare/from-cache', { GET: shareOfVoiceHistory }),
];
