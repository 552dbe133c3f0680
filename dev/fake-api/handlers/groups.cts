/** Projects, groups, tags, regions, refresh and project metrics: endpoints #1–#9. */
import { deleteWithKeywords, kindOf, restoreArchived, setArchived } from '../containers.cjs';
import { ApiError, invalid, notFound } from '../errors.cjs';
import { groupRecord, type GroupRecord } from '../records.cjs';
import type { Container, FakeState, Keyword } from '../state.cjs';
import {
	isRecord,
	ok,
	parseIdList,
	queryString,
	requireDataObject,
	type Handler,
	type HandlerResult,
	type RequestContext,
	route,
	type Route,
} from '../context.cjs';

const containerOf = (ctx: RequestContext): Container => ctx.state.getContainer(ctx.params.name);

/** A group record shaped by the behaviour switches in force. */
const recordOf = (ctx: RequestContext, c: Container, withTagCounts = false): GroupRecord =>
	groupRecord(c, { withTagCounts }, ctx.behaviour);

/** #1 Every project and group that is not archived (the path says "active"). */
export const listActive: Handler = (ctx) =>
	ok({
		data: ctx.state
			.allContainers()
			.filter((c) => !ctx.state.isHidden(c))
			.map((c) => recordOf(ctx, c, true)),
	});

/** #2 One project or group, archived or not. */
export const getGroup: Handler = (ctx) => ok({ data: recordOf(ctx, containerOf(ctx)) });

/** #3 Status change. Only 2 (archive) is documented; the fake treats any other integer as "active". */
export const updateGroupStatus: Handler = (ctx) => {
	const c = containerOf(ctx);
	const data = requireDataObject(ctx);
	if (data.type !== undefined && data.type !== 'group')
		throw invalid('data.type must be "group".', { pointer: '/data/type' });
	const attributes = isRecord(data.attributes) ? data.attributes : undefined;
	const status = attributes?.status;
	if (typeof status !== 'number' || !Number.isInteger(status)) {
		throw invalid('data.attributes.status must be an integer (2 archives).', {
			pointer: '/data/attributes/status',
		});
	}
	setArchived(ctx.state, c, status === 2);
	return ok({
		message: `${kindOf(c)} "${c.name}" ${c.archived ? 'archived' : 'updated'}.`,
		data: recordOf(ctx, c),
	});
};

/** #4 Deletes a project (with its groups) or a group, with their keywords. */
export const deleteGroup: Handler = (ctx) => {
	const c = containerOf(ctx);
	const keywords = deleteWithKeywords(ctx.state, c);
	return ok({ message: `${kindOf(c)} "${c.name}" deleted.`, deleted_keywords: keywords });
};

/** #8 Restores an archived project or group; restoring one that is not archived is a 422 (spec §3 condition). */
export const undoArchive: Handler = (ctx) => {
	const c = containerOf(ctx);
	restoreArchived(ctx.state, c);
	return ok({ message: `${kindOf(c)} "${c.name}" restored.`, data: recordOf(ctx, c) });
};

/** #7 Creates a project, or a group when the category is `<project>[sub]<group>`. */
export const createGroup: Handler = (ctx) => {
	const data = requireDataObject(ctx);
	if (data.type !== undefined && data.type !== 'project' && data.type !== 'group') {
		throw invalid('data.type must be "project".', { pointer: '/data/type' });
	}
	const attributes = isRecord(data.attributes) ? data.attributes : {};
	const category = attributes.category;
	if (typeof category !== 'string' || category.trim() === '') {
		throw invalid('data.attributes.category (the project name) is required.', {
			pointer: '/data/attributes/category',
		});
	}
	const currency = attributes.currency_code;
	if (
		currency !== undefined &&
		currency !== null &&
		(typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency))
	) {
		throw invalid('data.attributes.currency_code must be a 3-letter currency code.', {
			pointer: '/data/attributes/currency_code',
		});
	}
	const url =
		typeof attributes.url === 'string' && attributes.url.trim() !== ''
			? attributes.url.trim()
			: null;
	const c = ctx.state.createContainer(category, {
		currencyCode: typeof currency === 'string' ? currency : undefined,
		url,
	});
	return ok({ data: recordOf(ctx, c) }, 201);
};

/** #5 On-demand refresh: spends one refresh per request and re-crawls the keywords at once. */
export const refreshKeywords: Handler = (ctx) => {
	const state = ctx.state;
	const data = requireDataObject(ctx);
	const ids = parseIdList(data.project_ids, '/data/project_ids');
	const withGroups = data.include_sub_groups;
	if (withGroups !== undefined && typeof withGroups !== 'boolean') {
		throw invalid('data.include_sub_groups must be a boolean.', {
			pointer: '/data/include_sub_groups',
		});
	}
	const containers = ids.map((id) => state.getContainerById(String(id)));
	state.rollAllowances();
	const allowance = state.account.refreshes;
	if (allowance.used >= allowance.limit) {
		throw new ApiError(403, 'No on-demand refreshes remaining today.');
	}
	allowance.used++;
	const seen = new Set<number>();
	const targets: Keyword[] = [];
	for (const c of containers) {
		for (const k of state.keywordsOf(c, withGroups === true)) {
			if (!seen.has(k.id)) {
				seen.add(k.id);
				targets.push(k);
			}
		}
	}
	if (targets.length > 0) state.updateRanks(targets);
	const remaining = allowance.limit - allowance.used;
	return ok({ message: `Refresh started. ${remaining} on-demand refreshes remaining today.` });
};

/** #6 Tracked regions of the container's keywords. */
export const listRegions: Handler = (ctx) => {
	const c = containerOf(ctx);
	const totals = new Map<string, { region: string; lang: string; type: string; total: number }>();
	for (const k of ctx.state.keywordsOf(c)) {
		const key = `${k.region}\u0000${k.language}\u0000${k.type}`;
		const entry = totals.get(key);
		if (entry) entry.total++;
		else totals.set(key, { region: k.region, lang: k.language, type: k.type, total: 1 });
	}
	const data = [...totals.values()].sort(
		(a, b) => b.total - a.total || a.region.localeCompare(b.region) || a.type.localeCompare(b.type),
	);
	return ok({ data });
};

export const TIMEFRAMES = ['daily', 'weekly', 'monthly', 'semester', 'yearly', 'life'] as const;
type Period = (typeof TIMEFRAMES)[number];
const PERIOD_DAYS: Record<Period, number | 'life'> = {
	daily: 1,
	weekly: 7,
	monthly: 30,
	semester: 180,
	yearly: 365,
	life: 'life',
};
const RANGES: Array<{ title: string; max: number }> = [
	{ title: 'Top 3', max: 3 },
	{ title: 'Top 10', max: 10 },
	{ title: 'Top 20', max: 20 },
	{ title: 'Top 30', max: 30 },
	{ title: 'Top 100', max: 100 },
];

/** Rank `days` before the last crawl, falling back to the oldest known (or start for 'life'). */
function pastRank(state: FakeState, k: Keyword, days: number | 'life'): number | null {
	if (k.history.length === 0) return null;
	if (days === 'life') return k.start;
	return state.rankAt(k, days) ?? k.history[k.history.length - 1];
}

const inRange = (rank: number | null, max: number): boolean =>
	rank !== null && rank > 0 && rank <= max;

/** #9 Rank-range counts and movements for every period; `timeframe` is validated, `tagId` narrows the keywords. */
export const groupMetrics: Handler = (ctx): HandlerResult => {
	const state = ctx.state;
	const c = containerOf(ctx);
	const timeframe = queryString(ctx.query, 'timeframe') ?? 'daily';
	if (!(TIMEFRAMES as readonly string[]).includes(timeframe)) {
		throw invalid(`timeframe must be one of ${TIMEFRAMES.join(', ')}.`, { parameter: 'timeframe' });
	}
	const tagId = queryString(ctx.query, 'tagId');
	let keywords = [...state.keywordsOf(c)];
	if (tagId !== undefined && tagId !== '' && tagId !== 'all' && tagId !== '0') {
		if (!/^\d+$/.test(tagId))
			throw invalid('tagId must be a tag id (integer).', { parameter: 'tagId' });
		const tag = [...c.tags.values()].find((t) => t.id === Number(tagId));
		if (!tag) throw notFound(`Tag ${tagId} was not found in "${c.name}".`);
		keywords = keywords.filter((k) => k.tags.includes(tag.name));
	}
	const ranges = RANGES.map(({ title, max }) => {
		const now = keywords.filter((k) => inRange(k.history[0] ?? null, max)).length;
		const entry: Record<string, unknown> = { title, count: now };
		for (const period of TIMEFRAMES) {
			const then = keywords.filter((k) =>
				inRange(pastRank(state, k, PERIOD_DAYS[period]), max),
			).length;
			const change = now - then;
			entry[period] = {
				count: then,
				change,
				status: change > 0 ? 'up' : change < 0 ? 'down' : 'tie',
			};
		}
		return entry;
	});
	const movements: Record<string, { up: number; down: number; tie: number }> = {};
	for (const period of TIMEFRAMES) {
		const m = { up: 0, down: 0, tie: 0 };
		for (const k of keywords) {
			if (k.history.length === 0) continue;
			const t = state.trend(k, PERIOD_DAYS[period]);
			if (t > 0) m.up++;
			else if (t < 0) m.down++;
			else m.tie++;
		}
		movements[period] = m;
	}
	return ok({
		data: {
			type: 'metrics',
			id: String(c.projectId),
			attributes: { timeframe, ranges, movements, chart: null, total: keywords.length },
		},
	});
};

/** The routes of this file's endpoints. */
export const GROUP_ROUTES: Route[] = [
	route('#1', 'groups/active', { GET: listActive }),
	route('#7', 'groups', { POST: createGroup }),
	route('#2 #3 #4', 'groups/:name', { GET: getGroup, PUT: updateGroupStatus, DELETE: deleteGroup }),
	route('#6', 'groups/:name/regions', { GET: listRegions }),
	// #8 changes data although it is a GET (the read cache of the benchmarks must treat it as a write).
	route('#8', 'groups/:name/undo/archive', { GET: undoArchive }),
	route('#9', 'groups/:name/metrics', { GET: groupMetrics }),
	route('#5', 'keywords/refresh', { POST: refreshKeywords }),
];
