/** Keywords: endpoints #10–#17 and top pages #21. */
import { createHash } from 'node:crypto';
import { ApiError, invalid, notFound, type ErrorIssue } from '../errors.cjs';
import { DAY_MS, dateUtcLiteral, dayStart, monDayYear, parseYmd, round, ymd } from '../format.cjs';
import type { FakeBehaviour } from '../behaviour.cjs';
import { keywordRecord } from '../records.cjs';
import { serpFor } from '../serp.cjs';
import {
	dedupeKey,
	hostOf,
	KEYWORD_TYPES,
	type Container,
	type FakeState,
	type Keyword,
	type KeywordInput,
	type KeywordType,
} from '../state.cjs';
import {
	isRecord,
	ok,
	pageWindow,
	parseIdList,
	queryPositiveInt,
	queryString,
	requireBody,
	requireDataObject,
	selfLink,
	type Handler,
	type RequestContext,
	route,
	type Route,
} from '../context.cjs';

export const MAX_KW_LENGTH = 150;
export const KEYWORDS_DEFAULT_PER_PAGE = 20;
export const RANKING_URLS_DEFAULT_PER_PAGE = 25;
export const CHART_MAX_DAYS = 180;

const containerOf = (ctx: RequestContext): Container => ctx.state.getContainer(ctx.params.name);

/** A `date` value (query or `&date=` suffix): strict YYYY-MM-DD, else 422. */
function parseDate(value: string, parameter: string): number {
	const ms = parseYmd(value);
	if (ms === undefined)
		throw invalid(`${parameter} must be a valid date in the form YYYY-MM-DD.`, { parameter });
	return ms;
}

/**
 * The keyword id segment of #11/#12. The service takes `&date=YYYY-MM-DD` glued to the id (`/keywords/123&date=…`);
 * after percent-decoding the raw and the encoded (`%26date%3D`) forms look the same. Other `&flag` parts are ignored.
 */
function parseKeywordSegment(ctx: RequestContext): { id: string; date?: number } {
	const [id, ...rest] = ctx.params.keywordId.split('&');
	let date: number | undefined;
	for (const part of rest) {
		const eq = part.indexOf('=');
		const key = eq === -1 ? part : part.slice(0, eq);
		if (key === 'date') date = parseDate(eq === -1 ? '' : part.slice(eq + 1), 'date');
	}
	const queryDate = queryString(ctx.query, 'date');
	if (date === undefined && queryDate !== undefined && queryDate !== '')
		date = parseDate(queryDate, 'date');
	return { id, date };
}

const dayIndexFor = (state: FakeState, k: Keyword, date: number | undefined): number =>
	date === undefined ? 0 : state.historyIndexForDate(k, date);

// ------------------------------------------------------------------ #10 add

function optionalString(
	attrs: Record<string, unknown>,
	name: string,
	pointer: string,
	issues: ErrorIssue[],
): string | undefined {
	const v = attrs[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') {
		issues.push({ detail: `${name} must be a string.`, source: { pointer: `${pointer}/${name}` } });
		return undefined;
	}
	return v;
}

function optionalBool(
	attrs: Record<string, unknown>,
	name: string,
	pointer: string,
	issues: ErrorIssue[],
): boolean | undefined {
	const v = attrs[name];
	if (v === undefined || v === null) return undefined;
	// Forms often send 0/1 or "true"/"false"; PHP back ends accept those too.
	if (v === 0 || v === '0' || v === 'false') return false;
	if (v === 1 || v === '1' || v === 'true') return true;
	if (typeof v !== 'boolean') {
		issues.push({
			detail: `${name} must be a boolean.`,
			source: { pointer: `${pointer}/${name}` },
		});
		return undefined;
	}
	return v;
}

/** Tags as an array of strings, or one comma-separated string. */
function parseTags(v: unknown, pointer: string, issues: ErrorIssue[]): string[] | undefined {
	if (v === undefined || v === null) return undefined;
	if (typeof v === 'string')
		return v
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean);
	if (Array.isArray(v) && v.every((t) => typeof t === 'string' || typeof t === 'number'))
		return v.map((t) => String(t).trim()).filter(Boolean);
	issues.push({ detail: 'tags must be an array of strings.', source: { pointer } });
	return undefined;
}

/** Reads keyword attributes shared by add (#10) and update (#16); `requireCore` makes kw and url mandatory. */
function readKeywordAttributes(
	attrs: Record<string, unknown>,
	pointer: string,
	requireCore: boolean,
	issues: ErrorIssue[],
): Partial<KeywordInput> {
	const out: Partial<KeywordInput> = {};
	const kw = attrs.kw;
	if (kw !== undefined || requireCore) {
		if (typeof kw !== 'string' || kw.trim() === '')
			issues.push({
				detail: 'kw is required and must be a non-empty string.',
				source: { pointer: `${pointer}/kw` },
			});
		else if ([...kw.trim()].length > MAX_KW_LENGTH)
			issues.push({
				detail: `kw may not be longer than ${MAX_KW_LENGTH} characters.`,
				source: { pointer: `${pointer}/kw` },
			});
		else out.kw = kw.trim();
	}
	const url = attrs.url;
	if (url !== undefined || requireCore) {
		if (typeof url !== 'string' || url.trim() === '')
			issues.push({
				detail: 'url is required and must be a non-empty string.',
				source: { pointer: `${pointer}/url` },
			});
		else out.url = url.trim();
	}
	const region = optionalString(attrs, 'region', pointer, issues);
	if (region !== undefined) {
		if (region.trim() === '')
			issues.push({
				detail: 'region must not be empty.',
				source: { pointer: `${pointer}/region` },
			});
		else out.region = region.trim();
	}
	const language = optionalString(attrs, 'language', pointer, issues);
	if (language !== undefined) {
		if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,4})?$/.test(language))
			issues.push({
				detail: 'language must be a language code such as "en".',
				source: { pointer: `${pointer}/language` },
			});
		else out.language = language;
	}
	const type = attrs.type;
	if (type !== undefined && type !== null) {
		if (typeof type !== 'string' || !(KEYWORD_TYPES as readonly string[]).includes(type)) {
			issues.push({
				detail: 'type must be "se" (desktop), "sem" (mobile) or "maps".',
				source: { pointer: `${pointer}/type` },
			});
		} else out.type = type as KeywordType;
	}
	const method = attrs.url_tracking_method;
	if (method !== undefined && method !== null) {
		const m = typeof method === 'string' ? method.toLowerCase() : '';
		if (m !== 'broad' && m !== 'exact')
			issues.push({
				detail: 'url_tracking_method must be "broad" or "Exact".',
				source: { pointer: `${pointer}/url_tracking_method` },
			});
		else out.url_tracking_method = m === 'broad' ? 'broad' : 'Exact';
	}
	const tags = parseTags(attrs.tags ?? attrs.tagsSplited, `${pointer}/tags`, issues);
	if (tags !== undefined) out.tags = tags;
	const gmb = optionalString(attrs, 'gmb', pointer, issues);
	if (gmb !== undefined) out.gmb = gmb;
	const near = optionalString(attrs, 'near', pointer, issues);
	if (near !== undefined) out.near = near;
	if (attrs.notes !== undefined) {
		if (attrs.notes === null) out.notes = null;
		else {
			const notes = optionalString(attrs, 'notes', pointer, issues);
			if (notes !== undefined) out.notes = notes;
		}
	}
	const bools = ['ignore_local', 'ignore_featured', 'ignore_sub_domains', 'isfav'] as const;
	for (const name of bools) {
		const b = optionalBool(attrs, name, pointer, issues);
		if (b !== undefined) out[name] = b;
	}
	if (attrs.source !== undefined && attrs.source !== null) {
		const s = Number(attrs.source);
		if (![1, 2, 3, 4].includes(s))
			issues.push({
				detail: 'source must be 1, 2, 3 or 4.',
				source: { pointer: `${pointer}/source` },
			});
		else out.source = s;
	}
	return out;
}

/** #10 Adds keywords; duplicates are counted, not refused. The batch is all-or-nothing on validation errors. */
export const addKeywords: Handler = (ctx) => {
	const state = ctx.state;
	const c = containerOf(ctx);
	const body = requireBody(ctx);
	const items = Array.isArray(body.data)
		? body.data
		: isRecord(body.data)
			? [body.data]
			: undefined;
	if (!items || items.length === 0)
		throw invalid('data must be a non-empty array of keyword objects.', { pointer: '/data' });
	const issues: ErrorIssue[] = [];
	const inputs: KeywordInput[] = [];
	items.forEach((item, i) => {
		const pointer = `/data/${i}/attributes`;
		if (!isRecord(item) || !isRecord(item.attributes)) {
			issues.push({ detail: 'Each keyword needs an attributes object.', source: { pointer } });
			return;
		}
		if (item.type !== undefined && item.type !== 'keyword')
			issues.push({ detail: 'type must be "keyword".', source: { pointer: `/data/${i}/type` } });
		const input = readKeywordAttributes(item.attributes, pointer, true, issues);
		if (input.kw !== undefined && input.url !== undefined)
			inputs.push({ ...input, kw: input.kw, source: input.source ?? 1 });
	});
	if (issues.length > 0) throw new ApiError(422, issues);
	state.rollAllowances();
	const allowance = state.account.dailyAdded;
	const remaining = allowance.limit - allowance.used;
	if (inputs.length > remaining) {
		throw invalid(`Daily keyword limit reached: ${remaining} keyword additions remaining today.`, {
			pointer: '/data',
		});
	}
	const added: Keyword[] = [];
	let duplicates = 0;
	for (const input of inputs) {
		const k = state.addKeyword(c, input, false);
		if (k) added.push(k);
		else duplicates++;
	}
	allowance.used += added.length;
	const n = added.length;
	return ok(
		{
			data: added.map((k) => keywordRecord(state, k, 'add', 0, ctx.behaviour.historyOrder)),
			meta: { title: `${n} keyword${n === 1 ? '' : 's'} added`, counts: { added: n, duplicates } },
		},
		201,
	);
};

// ------------------------------------------------------------------ #11 #12 single

export const getKeyword: Handler = (ctx) => {
	const c = containerOf(ctx);
	const { id, date } = parseKeywordSegment(ctx);
	const k = ctx.state.getKeyword(c, id);
	return ok({
		data: keywordRecord(
			ctx.state,
			k,
			'single',
			dayIndexFor(ctx.state, k, date),
			ctx.behaviour.historyOrder,
		),
	});
};

export const deleteKeyword: Handler = (ctx) => {
	const c = containerOf(ctx);
	const { id } = parseKeywordSegment(ctx);
	const k = ctx.state.getKeyword(c, id);
	ctx.state.deleteKeywords([k.id]);
	return ok({ message: `Keyword ${k.id} deleted.`, deleted: 1 });
};

// ------------------------------------------------------------------ #13 list

/**
 * The ids #13 lists for `c`, in the order of the behaviour switch `keywordOrder`; with `projectListIncludesGroups`
 * a project's list holds its groups' keywords too, ordered together with its own. The default (own keywords, ids
 * ascending) is the container's own array, not a copy, so paging 50,000 keywords stays a slice.
 */
function listedIds(state: FakeState, c: Container, b: Readonly<FakeBehaviour>): readonly number[] {
	const withGroups = b.projectListIncludesGroups && c.parent === null && c.children.length > 0;
	if (!withGroups && b.keywordOrder === 'id-ascending') return c.keywordIds;
	const ids = withGroups
		? [c.keywordIds, ...c.children.map((g) => g.keywordIds)].flat()
		: [...c.keywordIds];
	switch (b.keywordOrder) {
		case 'id-ascending':
			return ids.sort((x, y) => x - y);
		case 'id-descending':
			return ids.sort((x, y) => y - x);
		case 'keyword-text': {
			// Case-insensitive, by UTF-16 code units (a plain collation); the id breaks ties.
			const text = new Map(ids.map((id) => [id, state.keywords.get(id)?.kw.toLowerCase() ?? '']));
			return ids.sort((x, y) => {
				const [a, z] = [text.get(x) ?? '', text.get(y) ?? ''];
				return a < z ? -1 : a > z ? 1 : x - y;
			});
		}
		case 'rank': {
			// The current rank (newest crawl); outside the top results (0) and never crawled sort last.
			const rank = new Map(
				ids.map((id) => {
					const r = state.keywords.get(id)?.history[0] ?? 0;
					return [id, r > 0 ? r : Infinity];
				}),
			);
			return ids.sort((x, y) => (rank.get(x) ?? 0) - (rank.get(y) ?? 0) || x - y);
		}
	}
}

/** Distinct keyword domains and types of the listed keywords (#13's meta). */
function listMetaOf(
	state: FakeState,
	ids: readonly number[],
): { domains: string[]; types: string[] } {
	const domains = new Set<string>();
	const types = new Set<string>();
	for (const id of ids) {
		const k = state.keywords.get(id);
		if (!k) continue;
		domains.add(hostOf(k.url));
		types.add(k.type);
	}
	return { domains: [...domains], types: [...types] };
}

export const listKeywords: Handler = (ctx) => {
	const state = ctx.state;
	const c = containerOf(ctx);
	const dateText = queryString(ctx.query, 'date');
	const date = dateText !== undefined && dateText !== '' ? parseDate(dateText, 'date') : undefined;
	const ids = listedIds(state, c, ctx.behaviour);
	const w = pageWindow(ctx.query, ids.length, KEYWORDS_DEFAULT_PER_PAGE, ctx.behaviour.maxPerPage);
	const data = [];
	for (let i = w.start; i < w.end; i++) {
		const k = state.keywords.get(ids[i]);
		if (k)
			data.push(
				keywordRecord(state, k, 'list', dayIndexFor(state, k, date), ctx.behaviour.historyOrder),
			);
	}
	// Scanning 50,000 keywords on every page would dominate paging time, so the distinct values of a container's own
	// keywords are cached (the ids listed are those exactly when there are as many; a list with its groups' keywords
	// is rare and not cached).
	const meta =
		ids.length === c.keywordIds.length
			? (c.listMeta ??= listMetaOf(state, c.keywordIds))
			: listMetaOf(state, ids);
	const linkParams = (page: number): Record<string, string | number | undefined> => ({
		per_page: w.perPage,
		date: dateText || undefined,
		page,
	});
	return ok({
		data,
		meta: {
			domains: meta.domains,
			types: meta.types,
			pagination: {
				total: w.total,
				count: data.length,
				per_page: w.perPage,
				current_page: w.page,
				total_pages: w.totalPages,
			},
		},
		links: {
			self: selfLink(ctx, linkParams(w.page)),
			first: selfLink(ctx, linkParams(1)),
			last: selfLink(ctx, linkParams(w.totalPages)),
		},
	});
};

// ------------------------------------------------------------------ #14 chart

type ChartEntry = { date: string; rank: number | null; rankingurl: string };

/**
 * A keyword's `rankingurls` (#14), newest first, as the switches `chartEntries` and `chartLimit` shape them: `limit`
 * days back from `today` or from the last crawl, or the newest `limit` entries.
 */
function chartEntries(
	k: Keyword,
	limit: number,
	today: number,
	behaviour: Pick<FakeBehaviour, 'chartEntries' | 'chartLimit'>,
): ChartEntry[] {
	const crawls = k.history.map((rank, i) => {
		const day = dayStart((k.historyAt[i] ?? 0) * 1000);
		const shown = rank > 0 ? rank : null;
		const rankingurl = shown === null ? 'NOT FOUND' : (k.urlHistory[i] ?? k.url);
		return { day, entry: { date: ymd(day), rank: shown, rankingurl } };
	});
	// One a day: the day's last crawl (the newest of its date).
	const daily =
		behaviour.chartEntries === 'per-crawl'
			? crawls
			: crawls.filter((crawl, i) => i === 0 || crawls[i - 1].day !== crawl.day);
	const from =
		behaviour.chartLimit === 'days-from-today' || k.crawledAt === null
			? today
			: behaviour.chartLimit === 'entries'
				? (daily[0]?.day ?? today)
				: dayStart(k.crawledAt * 1000);
	let entries = daily;
	if (behaviour.chartEntries === 'per-day-filled') {
		// Every calendar day back from where the count starts, a filler on days without a crawl (before the keyword
		// was tracked too).
		const filled: typeof daily = [];
		let n = 0;
		for (let day = from, left = limit; left > 0; day -= DAY_MS, left--) {
			while (n < daily.length && daily[n].day > day) n++;
			filled.push(
				n < daily.length && daily[n].day === day
					? daily[n]
					: { day, entry: { date: ymd(day), rank: null, rankingurl: 'NOT FOUND' } },
			);
		}
		entries = filled;
	}
	if (behaviour.chartLimit === 'entries') return entries.slice(0, limit).map((e) => e.entry);
	const since = from - (limit - 1) * DAY_MS;
	return entries.filter((e) => e.day >= since && e.day <= from).map((e) => e.entry);
}

/** #14 Ranking history chart data (the A..E structure of spec §4.2), as the switches chartEntries and chartLimit say. */
export const keywordChart: Handler = (ctx) => {
	const state = ctx.state;
	const action = queryString(ctx.query, 'action');
	if (action === undefined || action === '')
		throw invalid('The action parameter is required (action=chart).', { parameter: 'action' });
	if (action !== 'chart')
		throw invalid(`Unsupported action "${action}"; use action=chart.`, { parameter: 'action' });
	const limit = queryPositiveInt(ctx.query, 'limit') ?? 30;
	if (limit > CHART_MAX_DAYS)
		throw invalid(`limit may not be greater than ${CHART_MAX_DAYS} days.`, { parameter: 'limit' });
	const body = requireBody(ctx);
	const source =
		body.keyword_ids !== undefined
			? body.keyword_ids
			: isRecord(body.data)
				? body.data.keyword_ids
				: undefined;
	const asked = parseIdList(source, '/keyword_ids');
	const cap = ctx.behaviour.chartMaxKeywords;
	if (cap !== null && asked.length > cap && ctx.behaviour.chartOverCap === 'reject')
		throw invalid(`At most ${cap} keyword ids per request.`, { pointer: '/keyword_ids' });
	const ids = cap !== null ? asked.slice(0, cap) : asked;
	const data = ids.map((id) => {
		const k = state.keywords.get(id);
		if (!k) throw notFound(`Keyword ${id} was not found.`);
		const rankingurls = chartEntries(k, limit, dayStart(state.now()), ctx.behaviour);
		const points: Array<[string, number | null]> = rankingurls.map((entry) => [
			dateUtcLiteral(Date.parse(`${entry.date}T00:00:00Z`)),
			entry.rank,
		]);
		const domain = hostOf(k.url);
		points.reverse(); // the series runs forward in time; rankingurls stay newest first
		const series = {
			name: domain,
			data: points,
			visible: true,
			pointInterval: 86_400_000,
			showInLegend: true,
			zIndex: 2,
			turboThreshold: 0,
		};
		const label = [domain, k.kw, k.container.name, k.region, k.language].join('|');
		const hash = createHash('md5').update(`${k.id}:${k.container.auth}`).digest('hex');
		return {
			kwid: k.id,
			data: [[series], [], label, `${k.id}|${hash}`, { days: limit, rankingurls }],
		};
	});
	return ok({ data });
};

// ------------------------------------------------------------------ #15 competitors

/** #15 Top-100 results per day. `dateRange` is `YYYY-MM-DD.YYYY-MM-DD`; default the last 7 days. Newest first. */
export const competitorHistory: Handler = (ctx) => {
	const state = ctx.state;
	const c = containerOf(ctx);
	const k = state.getKeyword(c, ctx.params.keywordId);
	const lastDay = k.crawledAt === null ? dayStart(state.now()) : dayStart(k.crawledAt * 1000);
	const range = queryString(ctx.query, 'dateRange');
	let from = lastDay - 6 * DAY_MS;
	let to = lastDay;
	if (range !== undefined && range !== '') {
		const m = /^(\d{4}-\d{2}-\d{2})\.(\d{4}-\d{2}-\d{2})$/.exec(range);
		const a = m ? parseYmd(m[1]) : undefined;
		const b = m ? parseYmd(m[2]) : undefined;
		if (a === undefined || b === undefined)
			throw invalid('dateRange must look like YYYY-MM-DD.YYYY-MM-DD.', { parameter: 'dateRange' });
		if (a > b)
			throw invalid('dateRange must start on or before its end date.', { parameter: 'dateRange' });
		from = a;
		to = b;
	}
	const data = [];
	for (let day = Math.min(to, lastDay); day >= from; day -= DAY_MS) {
		const rank = state.rankAt(k, Math.round((lastDay - day) / DAY_MS));
		if (rank === null) break; // no history before this day
		data.push({ rank, results: serpFor(k, day, rank), date: monDayYear(day) });
	}
	return ok({ data });
};

// ------------------------------------------------------------------ #16 #17 bulk by project id

/** Keywords named by ids, each of which must belong to the project or one of its groups (else 404). */
function ownedKeywords(state: FakeState, c: Container, ids: number[]): Keyword[] {
	return ids.map((id) => {
		const k = state.keywords.get(id);
		if (!k || (k.container !== c && k.container.parent !== c))
			throw notFound(`Keyword ${id} was not found in project ${c.projectId}.`);
		return k;
	});
}

/**
 * #16 Bulk update. Identity fields (kw, url, region, language, type), tags (replacing the keyword's tags) and the
 * flags are applied; the extra display fields the web app sends (`…RankHistory`, grankTooltip, fullUrl, flag…) are
 * accepted and ignored. `category` (a keyword attribute of §2.4: its project or group) moves the keywords into that
 * project or group of the same project, as the web app moves keywords between groups (FakeState.moveKeywords).
 */
export const updateKeywords: Handler = (ctx) => {
	const state = ctx.state;
	const c = state.getContainerById(ctx.params.projectId);
	const data = requireDataObject(ctx);
	if (data.type !== undefined && data.type !== 'keyword')
		throw invalid('data.type must be "keyword".', { pointer: '/data/type' });
	const ids = parseIdList(data.ids, '/data/ids');
	if (!isRecord(data.attributes))
		throw invalid('data.attributes must be an object.', { pointer: '/data/attributes' });
	const issues: ErrorIssue[] = [];
	const changes = readKeywordAttributes(data.attributes, '/data/attributes', false, issues);
	if (issues.length > 0) throw new ApiError(422, issues);
	const keywords = ownedKeywords(state, c, ids);
	const destination = moveTarget(state, c, data.attributes.category);
	const t = state.now();
	for (const k of keywords) {
		const oldKey = dedupeKey(k.kw, k.url, k.region, k.language, k.type);
		if (changes.kw !== undefined) k.kw = changes.kw;
		if (changes.url !== undefined) {
			k.url = changes.url;
			if (changes.url_tracking_method === undefined)
				k.urlTrackingMethod = k.url.includes('/') ? 'Exact' : 'broad';
		}
		if (changes.url_tracking_method !== undefined)
			k.urlTrackingMethod = changes.url_tracking_method;
		k.exact = k.urlTrackingMethod === 'Exact';
		if (changes.region !== undefined) k.region = changes.region;
		if (changes.language !== undefined) k.language = changes.language;
		if (changes.type !== undefined) k.type = changes.type;
		if (changes.notes !== undefined) k.notes = changes.notes;
		if (changes.gmb !== undefined) k.gmb = changes.gmb;
		if (changes.near !== undefined) k.near = changes.near;
		if (changes.isfav !== undefined) k.isfav = changes.isfav;
		if (changes.ignore_local !== undefined) k.ignoreLocal = changes.ignore_local;
		if (changes.ignore_featured !== undefined) k.ignoreFeatured = changes.ignore_featured;
		if (changes.ignore_sub_domains !== undefined) k.ignoreSubDomains = changes.ignore_sub_domains;
		if (changes.tags !== undefined) state.setKeywordTags(k, changes.tags);
		const newKey = dedupeKey(k.kw, k.url, k.region, k.language, k.type);
		k.container.listMeta = undefined;
		if (newKey !== oldKey) {
			k.container.dedupe.delete(oldKey);
			k.container.dedupe.set(newKey, k.id);
		}
		k.updatedAt = t;
	}
	if (destination)
		state.moveKeywords(
			keywords.map((k) => k.id),
			destination,
		);
	return ok({
		data: keywords.map((k) => keywordRecord(state, k, 'list', 0, ctx.behaviour.historyOrder)),
	});
};

/** The project or group `category` names, for a move: one of the project's own (else a 422); undefined without one. */
function moveTarget(state: FakeState, c: Container, category: unknown): Container | undefined {
	if (category === undefined || category === null) return undefined;
	const family = c.parent ?? c;
	const target = typeof category === 'string' ? state.findContainer(category) : undefined;
	if (!target || (target !== family && target.parent !== family))
		throw invalid(`category must name "${family.name}" or one of its groups to move keywords.`, {
			pointer: '/data/attributes/category',
		});
	return target;
}

/** #17 Bulk delete: all ids must belong to the project (or its groups), else nothing is deleted. */
export const deleteKeywords: Handler = (ctx) => {
	const state = ctx.state;
	const c = state.getContainerById(ctx.params.projectId);
	const data = requireDataObject(ctx);
	if (data.type !== undefined && data.type !== 'keyword')
		throw invalid('data.type must be "keyword".', { pointer: '/data/type' });
	const ids = parseIdList(data.ids, '/data/ids');
	const keywords = ownedKeywords(state, c, ids);
	const deleted = state.deleteKeywords(keywords.map((k) => k.id));
	return ok({ message: `${deleted} keyword${deleted === 1 ? '' : 's'} deleted.`, deleted });
};

// ------------------------------------------------------------------ #21 top pages

/** #21 Top ranking pages of a project or group, paged Laravel-style. */
export const rankingUrls: Handler = (ctx) => {
	const state = ctx.state;
	const c = containerOf(ctx);
	const pages = new Map<
		string,
		{ n: number; cur: number; prev: number; ms: number; cpc: number }
	>();
	for (const k of state.keywordsOf(c)) {
		const rank = k.history[0] ?? 0;
		if (rank <= 0 || k.rankingUrl === 'NOT FOUND') continue;
		const prev = k.history.length > 1 ? k.history[1] || 101 : rank;
		const p = pages.get(k.rankingUrl) ?? { n: 0, cur: 0, prev: 0, ms: 0, cpc: 0 };
		p.n++;
		p.cur += rank;
		p.prev += prev;
		p.ms += k.ms;
		p.cpc += k.cpc;
		pages.set(k.rankingUrl, p);
	}
	const all = [...pages.entries()]
		.map(([url, p]) => ({
			current_ranking_url: url,
			total_keyword_count: p.n,
			average_current_rank: round(p.cur / p.n),
			average_previous_rank: round(p.prev / p.n),
			total_search_volume: p.ms,
			average_cost_per_click: round(p.cpc / p.n),
		}))
		.sort(
			(a, b) =>
				b.total_keyword_count - a.total_keyword_count ||
				b.total_search_volume - a.total_search_volume ||
				a.current_ranking_url.localeCompare(b.current_ranking_url),
		);
	const w = pageWindow(
		ctx.query,
		all.length,
		RANKING_URLS_DEFAULT_PER_PAGE,
		ctx.behaviour.maxPerPage,
	);
	const explicitPerPage = queryString(ctx.query, 'per_page') !== undefined ? w.perPage : undefined;
	const link = (page: number): string => selfLink(ctx, { per_page: explicitPerPage, page });
	return ok({
		data: all.slice(w.start, w.end),
		links: {
			first: link(1),
			last: link(w.totalPages),
			prev: w.page > 1 ? link(Math.min(w.page - 1, w.totalPages)) : null,
			next: w.page < w.totalPages ? link(w.page + 1) : null,
		},
		meta: {
			current_page: w.page,
			from: w.end > w.start ? w.start + 1 : null,
			last_page: w.totalPages,
			path: `${ctx.baseUrl}${ctx.rawPath}`,
			per_page: w.perPage,
			to: w.end > w.start ? w.end : null,
			total: w.total,
		},
	});
};

/** The routes of this file's endpoints. */
export const KEYWORD_ROUTES: Route[] = [
	route('#10 #13', 'groups/:name/keywords', { GET: listKeywords, POST: addKeywords }),
	route('#21', 'groups/:name/keywords/ranking-urls', { GET: rankingUrls }),
	route('#11 #12', 'groups/:name/keywords/:keywordId', { GET: getKeyword, DELETE: deleteKeyword }),
	route('#14', 'keywords/chart', { POST: keywordChart }),
	route('#15', 'metrics/:name/competitors/:keywordId/history', { GET: competitorHistory }),
	route('#16 #17', 'projects/:projectId/keywords', {
		PATCH: updateKeywords,
		DELETE: deleteKeywords,
	}),
];
