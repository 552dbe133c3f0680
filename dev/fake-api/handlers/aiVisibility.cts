/** AI visibility: endpoints #23–#28. */
import { invalid } from '../errors.cjs';
import { DAY_MS, isoZ } from '../format.cjs';
import { aiDomainIdAsked, aiDomainRecord, searchTermRecord } from '../records.cjs';
import type { AiDomain, AiSearchTerm } from '../state.cjs';
import {
	AGGREGATIONS,
	aggregate,
	brandsOf,
	bucketedSamples,
	engineName,
	ORPHANED_TOPIC,
	pairs,
	type Aggregate,
	type Aggregation,
	type Brand,
	type DayRules,
	type Sample,
} from '../aiMetrics.cjs';
import {
	ok,
	queryArray,
	queryString,
	type Handler,
	type Query,
	type RequestContext,
	route,
	type Route,
} from '../context.cjs';

const domainOf = (ctx: RequestContext): AiDomain =>
	ctx.state.getAiDomain(aiDomainIdAsked(ctx.params.domainId));

/** How the domain's days look now (aiMetrics.cts DayRules). */
function dayRules(ctx: RequestContext, d: AiDomain): DayRules {
	return {
		now: ctx.state.now(),
		firstDay: Math.floor(d.createdAt / DAY_MS) * DAY_MS,
		partialToday: ctx.behaviour.aiToday === 'partial',
		change: (dayMs) => ctx.state.aiDay(d.id, dayMs),
	};
}

/** #23 */
export const listAiDomains: Handler = (ctx) =>
	ok({ data: ctx.state.aiDomains.map((d) => aiDomainRecord(d, ctx.behaviour.aiDomainIds)) });

/** #24 */
export const getAiDomain: Handler = (ctx) =>
	ok({ data: aiDomainRecord(domainOf(ctx), ctx.behaviour.aiDomainIds) });

/** #25 */
export const listSearchTerms: Handler = (ctx) =>
	ok({ data: domainOf(ctx).searchTerms.map(searchTermRecord) });

interface Filters {
	topics: string[];
	searchTerms: string[];
	engines: string[];
}

function readFilters(q: Query): Filters {
	return {
		topics: queryArray(q, 'topics'),
		searchTerms: queryArray(q, 'search_terms'),
		engines: queryArray(q, 'engine'),
	};
}

const topicOf = (t: AiSearchTerm): { id: string; name: string } => t.topic ?? ORPHANED_TOPIC;

/** Terms kept by topics[] (topic name or id, case-insensitive) and search_terms[] (term text or id). */
function filterTerms(d: AiDomain, f: Filters): AiSearchTerm[] {
	const norm = (s: string): string => s.trim().toLowerCase();
	const topics = new Set(f.topics.map(norm));
	const terms = new Set(f.searchTerms.map(norm));
	return d.searchTerms.filter((t) => {
		const topic = topicOf(t);
		if (topics.size > 0 && !topics.has(norm(topic.name)) && !topics.has(norm(topic.id)))
			return false;
		if (terms.size > 0 && !terms.has(norm(t.term)) && !terms.has(norm(t.id))) return false;
		return true;
	});
}

const TIMEFRAME_DAYS: Record<string, number> = {
	'24h': 1,
	'7d': 7,
	'30d': 30,
	'3m': 90,
	'1y': 365,
};

/** `timeframe`: 24h, 7d, 30d, 3m, 1y or a bare number of days 1..365; default 30. */
export function parseTimeframe(value: string | undefined): number {
	if (value === undefined || value === '') return 30;
	if (TIMEFRAME_DAYS[value] !== undefined) return TIMEFRAME_DAYS[value];
	if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 365) return Number(value);
	throw invalid(
		'timeframe must be one of 24h, 7d, 30d, 3m, 1y or a number of days from 1 to 365.',
		{ parameter: 'timeframe' },
	);
}

/** `period_offset`: 0 (current period) or -1..-365 (previous periods); default 0. */
export function parsePeriodOffset(value: string | undefined): number {
	if (value === undefined || value === '') return 0;
	if (/^(0|-[1-9]\d*)$/.test(value) && Number(value) >= -365) return Number(value);
	throw invalid('period_offset must be 0 or an integer from -1 to -365.', {
		parameter: 'period_offset',
	});
}

export function parseAggregation(value: string | undefined): Aggregation {
	if (value === undefined || value === '') return 'daily';
	if ((AGGREGATIONS as readonly string[]).includes(value)) return value as Aggregation;
	throw invalid('aggregation must be one of hourly, daily, weekly, monthly.', {
		parameter: 'aggregation',
	});
}

const METRIC_NAMES = [
	'visibilityScore',
	'sentiment',
	'mentions',
	'citations',
	'avgPosition',
	'detectionRate',
	'top3',
] as const;
type MetricName = (typeof METRIC_NAMES)[number];

interface Series {
	timestamps: string[];
	brandNotFound: boolean[];
	values: Record<MetricName, number[]>;
	all: Sample[];
	aggregates: Aggregate[];
}

function series(
	brand: Brand,
	selected: ReturnType<typeof pairs>,
	from: number,
	to: number,
	aggregation: Aggregation,
	rules: DayRules,
): Series {
	const buckets = bucketedSamples(brand, selected, from, to, aggregation, rules);
	const out: Series = {
		timestamps: [],
		brandNotFound: [],
		values: emptyMetricArrays(),
		all: [],
		aggregates: [],
	};
	for (const [start, samples] of buckets) {
		const a = aggregate(samples);
		out.timestamps.push(isoZ(start));
		out.brandNotFound.push(a.appearances === 0);
		for (const m of METRIC_NAMES) out.values[m].push(a[m]);
		out.aggregates.push(a);
		for (const s of samples) out.all.push(s);
	}
	return out;
}

function emptyMetricArrays(): Record<MetricName, number[]> {
	return {
		visibilityScore: [],
		sentiment: [],
		mentions: [],
		citations: [],
		avgPosition: [],
		detectionRate: [],
		top3: [],
	};
}

/** `{hourly, daily, weekly, monthly}` with `value` under the selected aggregation and `empty()` under the others. */
function perAggregation<T>(
	selected: Aggregation,
	value: T,
	empty: () => T,
): Record<Aggregation, T> {
	const out = {} as Record<Aggregation, T>;
	for (const a of AGGREGATIONS) out[a] = a === selected ? value : empty();
	return out;
}

/** #26 Dashboard metrics of spec §4.6 for the filtered search terms, engines and time window. */
export const aiMetrics: Handler = (ctx) => {
	const d = domainOf(ctx);
	const q = ctx.query;
	const days = parseTimeframe(queryString(q, 'timeframe'));
	const offset = parsePeriodOffset(queryString(q, 'period_offset'));
	const aggregation = parseAggregation(queryString(q, 'aggregation'));
	const filters = readFilters(q);
	const terms = filterTerms(d, filters);
	const selected = pairs({ terms, engines: filters.engines });
	const to = ctx.state.now() + offset * days * DAY_MS;
	const from = to - days * DAY_MS;
	const brands = brandsOf(d);
	const own = brands[0];
	const rules = dayRules(ctx, d);

	const ownSeries = series(own, selected, from, to, aggregation, rules);
	const ownNow = aggregate(ownSeries.all);
	const ownPrev = aggregate(
		series(own, selected, from - days * DAY_MS, from, aggregation, rules).all,
	);
	const trends: Record<string, number> = {};
	for (const m of METRIC_NAMES) trends[m] = Math.round((ownNow[m] - ownPrev[m]) * 100) / 100;

	const historical = {
		...ownSeries.values,
		timestamps: ownSeries.timestamps,
		brandNotFound: ownSeries.brandNotFound,
	};
	const emptyHistorical = (): typeof historical => ({
		...emptyMetricArrays(),
		timestamps: [],
		brandNotFound: [],
	});

	// Per topic and per engine, over the same window.
	const topicGroups = new Map<string, { id: string; name: string; terms: AiSearchTerm[] }>();
	for (const t of terms) {
		const topic = topicOf(t);
		const g = topicGroups.get(topic.id) ?? { id: topic.id, name: topic.name, terms: [] };
		g.terms.push(t);
		topicGroups.set(topic.id, g);
	}
	const topicData = [...topicGroups.values()].map((g) => {
		const s = series(
			own,
			pairs({ terms: g.terms, engines: filters.engines }),
			from,
			to,
			aggregation,
			rules,
		);
		return {
			topicId: g.id,
			topicName: g.name,
			...s.values,
			timestamps: s.timestamps,
			brandNotFound: s.brandNotFound,
		};
	});
	const engines = [...new Set(selected.map((p) => p.engine))];
	const engineData = engines.map((engine) => {
		const s = series(own, pairs({ terms, engines: [engine] }), from, to, aggregation, rules);
		return {
			engineId: engine,
			engineName: engineName(engine),
			...s.values,
			timestamps: s.timestamps,
			brandNotFound: s.brandNotFound,
		};
	});

	// Every brand (own first) over the window, then ranks by visibility per bucket.
	const brandSeries = brands.map((b) => ({
		brand: b,
		s: series(b, selected, from, to, aggregation, rules),
		prev: aggregate(series(b, selected, from - days * DAY_MS, from, aggregation, rules).all),
	}));
	const bucketCount = ownSeries.timestamps.length;
	const ranks = brandSeries.map(() => [] as number[]);
	for (let i = 0; i < bucketCount; i++) {
		const order = brandSeries
			.map((x, j) => ({ j, v: x.s.values.visibilityScore[i] }))
			.sort((a, b) => b.v - a.v || a.j - b.j);
		order.forEach((o, rank) => ranks[o.j].push(rank + 1));
	}
	const competitorMetrics = brandSeries.map(({ brand, s, prev }, j) => {
		const a = aggregate(s.all);
		const latest =
			s.values.visibilityScore.length > 0
				? s.values.visibilityScore[s.values.visibilityScore.length - 1]
				: 0;
		const r = ranks[j];
		return {
			name: brand.name,
			isOwnBrand: brand.isOwnBrand,
			latestValue: latest,
			trend: Math.round((a.visibilityScore - prev.visibilityScore) * 100) / 100,
			variations: brand.variations,
			visibilityScore: a.visibilityScore,
			latestRank: r.length > 0 ? r[r.length - 1] : 0,
			avgRank: r.length > 0 ? Math.round((r.reduce((x, y) => x + y, 0) / r.length) * 100) / 100 : 0,
			avgSentiment: a.sentiment,
			appearances: a.appearances,
			citationCount: a.citations,
			detectionRate: a.detectionRate,
			top3: a.top3,
			validMetricsCount: a.validMetricsCount,
		};
	});
	const competitorSeries = {
		timestamps: ownSeries.timestamps,
		competitors: brandSeries.map(({ brand, s }) => ({
			name: brand.name,
			isOwnBrand: brand.isOwnBrand,
			variations: brand.variations,
			metrics: s.values,
		})),
	};

	return ok({
		data: {
			ownBrandMetrics: {
				visibilityScore: ownNow.visibilityScore,
				sentiment: ownNow.sentiment,
				mentions: ownNow.mentions,
				citations: ownNow.citations,
				avgPosition: ownNow.avgPosition,
				detectionRate: ownNow.detectionRate,
				top3: ownNow.top3,
				validMetricsCount: ownNow.validMetricsCount,
				trends,
				historicalData: perAggregation(aggregation, historical, emptyHistorical),
				topicMetricsData: perAggregation(aggregation, topicData, () => []),
				engineMetricsData: perAggregation(aggregation, engineData, () => []),
				preselectionWhitelist: [d.brandName, ...d.brandVariations],
				preselectionBlacklist: [],
				manualWhitelist: d.competitors.map((c) => c.name),
				manualBlacklist: [],
			},
			competitorMetrics,
			competitorTimeSeriesData: perAggregation(aggregation, competitorSeries, () => ({
				timestamps: [],
				competitors: [],
			})),
		},
		meta: {
			timeframeDays: days,
			periodOffset: offset,
			aggregation,
			from: isoZ(from),
			to: isoZ(to),
			searchTermsCount: terms.length,
			engines,
		},
	});
};

/** Daily samples of the last 30 days for each brand, over the filtered terms. */
function lastMonth(
	ctx: RequestContext,
	d: AiDomain,
): {
	terms: AiSearchTerm[];
	filters: Filters;
	perBrand: Array<{ brand: Brand; samples: Array<{ termId: string; engine: string; s: Sample }> }>;
} {
	const filters = readFilters(ctx.query);
	const terms = filterTerms(d, filters);
	const selected = pairs({ terms, engines: filters.engines });
	const to = ctx.state.now();
	const from = to - 30 * DAY_MS;
	const rules = dayRules(ctx, d);
	const perBrand = brandsOf(d).map((brand) => {
		const samples: Array<{ termId: string; engine: string; s: Sample }> = [];
		for (const p of selected) {
			const buckets = bucketedSamples(brand, [p], from, to, 'daily', rules);
			for (const list of buckets.values())
				for (const s of list) samples.push({ termId: p.term.id, engine: p.engine, s });
		}
		return { brand, samples };
	});
	return { terms, filters, perBrand };
}

function sentimentSplit(samples: Sample[]): {
	score: number;
	positive: number;
	neutral: number;
	negative: number;
	total: number;
} {
	const seen = samples.filter((s) => s.detected);
	const positive = seen.filter((s) => s.sentiment >= 65).length;
	const negative = seen.filter((s) => s.sentiment < 45).length;
	const score =
		seen.length === 0
			? 0
			: Math.round((seen.reduce((a, s) => a + s.sentiment, 0) / seen.length) * 100) / 100;
	return {
		score,
		positive,
		neutral: seen.length - positive - negative,
		negative,
		total: seen.length,
	};
}

const POSITIVE_WORDS = [
	'reliable',
	'comfortable',
	'popular',
	'trusted',
	'quality',
	'friendly',
	'innovative',
	'affordable',
];
const NEGATIVE_WORDS = [
	'expensive',
	'slow delivery',
	'limited sizes',
	'crowded',
	'inconsistent',
	'pricey',
];

/** #27 Sentiment aggregates (shape not documented; the fake's choice), narrowed by topics[] and search_terms[]. */
export const aiSentiment: Handler = (ctx) => {
	const d = domainOf(ctx);
	const { terms, filters, perBrand } = lastMonth(ctx, d);
	const own = perBrand[0];
	const ownSamples = own.samples.map((x) => x.s);
	const split = sentimentSplit(ownSamples);
	const cloud = (words: string[], weightBase: number): Array<{ text: string; weight: number }> =>
		words
			.map((text, i) => ({ text, weight: Math.max(1, Math.round(weightBase / (i + 1))) }))
			.filter(() => weightBase > 0);
	const engines = [...new Set(own.samples.map((x) => x.engine))];
	const topics = new Map<string, { id: string; name: string; ids: Set<string> }>();
	for (const t of terms) {
		const topic = topicOf(t);
		const g = topics.get(topic.id) ?? { id: topic.id, name: topic.name, ids: new Set<string>() };
		g.ids.add(t.id);
		topics.set(topic.id, g);
	}
	return ok({
		data: {
			brandSentiment: { name: d.brandName, ...split },
			companySentiment: {
				name: d.domain,
				...sentimentSplit(ownSamples.filter((s) => s.citations > 0)),
			},
			keywordClouds: {
				positive: cloud(POSITIVE_WORDS, split.positive),
				negative: cloud(NEGATIVE_WORDS, split.negative),
			},
			byEngine: engines.map((engine) => ({
				engineId: engine,
				engineName: engineName(engine),
				...sentimentSplit(own.samples.filter((x) => x.engine === engine).map((x) => x.s)),
			})),
			byTopic: [...topics.values()].map((g) => ({
				topicId: g.id,
				topicName: g.name,
				...sentimentSplit(own.samples.filter((x) => g.ids.has(x.termId)).map((x) => x.s)),
			})),
			competitors: perBrand
				.slice(1)
				.map((b) => ({ name: b.brand.name, ...sentimentSplit(b.samples.map((x) => x.s)) })),
		},
		meta: {
			searchTermsCount: terms.length,
			filters: { topics: filters.topics, search_terms: filters.searchTerms },
		},
	});
};

/** #28 Citation aggregates (shape not documented; the fake's choice), narrowed by topics[] and search_terms[]. */
export const aiCitations: Handler = (ctx) => {
	const d = domainOf(ctx);
	const { terms, filters, perBrand } = lastMonth(ctx, d);
	const total = perBrand.reduce((a, b) => a + b.samples.reduce((x, y) => x + y.s.citations, 0), 0);
	const share = (n: number): number => (total === 0 ? 0 : Math.round((n / total) * 10000) / 100);
	const brandCitations = perBrand.map((b) => ({
		brand: b.brand,
		citations: b.samples.reduce((x, y) => x + y.s.citations, 0),
	}));
	const domains = brandCitations
		.map((b) => ({
			domain: b.brand.domain,
			brandName: b.brand.name,
			isOwnDomain: b.brand.isOwnBrand,
			citations: b.citations,
			share: share(b.citations),
		}))
		.sort((a, b) => b.citations - a.citations || a.domain.localeCompare(b.domain));
	const termText = new Map(terms.map((t) => [t.id, t] as const));
	const urls: Array<{ url: string; domain: string; citations: number }> = [];
	for (const b of perBrand) {
		const byTerm = new Map<string, number>();
		for (const x of b.samples)
			if (x.s.citations > 0) byTerm.set(x.termId, (byTerm.get(x.termId) ?? 0) + x.s.citations);
		for (const [termId, n] of byTerm) {
			const slug = (termText.get(termId)?.term ?? termId)
				.toLowerCase()
				.replace(/[^a-z0-9]+/g, '-')
				.replace(/^-|-$/g, '');
			urls.push({ url: `https://${b.brand.domain}/${slug}`, domain: b.brand.domain, citations: n });
		}
	}
	urls.sort((a, b) => b.citations - a.citations || a.url.localeCompare(b.url));
	const engines = [...new Set(perBrand[0].samples.map((x) => x.engine))];
	return ok({
		data: {
			totalCitations: total,
			domains,
			urls: urls.slice(0, 50),
			byEngine: engines.map((engine) => ({
				engineId: engine,
				engineName: engineName(engine),
				citations: perBrand.reduce(
					(a, b) =>
						a + b.samples.filter((x) => x.engine === engine).reduce((s, x) => s + x.s.citations, 0),
					0,
				),
			})),
			byQuery: terms.map((t) => ({
				searchTermId: t.id,
				term: t.term,
				topicName: topicOf(t).name,
				citations: perBrand.reduce(
					(a, b) =>
						a + b.samples.filter((x) => x.termId === t.id).reduce((s, x) => s + x.s.citations, 0),
					0,
				),
				ownCitations: perBrand[0].samples
					.filter((x) => x.termId === t.id)
					.reduce((s, x) => s + x.s.citations, 0),
			})),
			brand: {
				name: d.brandName,
				domain: d.domain,
				citations: brandCitations[0].citations,
				share: share(brandCitations[0].citations),
			},
			competitors: brandCitations.slice(1).map((b) => ({
				name: b.brand.name,
				domain: b.brand.domain,
				citations: b.citations,
				share: share(b.citations),
			})),
		},
		meta: {
			searchTermsCount: terms.length,
			filters: { topics: filters.topics, search_terms: filters.searchTerms },
		},
	});
};

/** The routes of this file's endpoints. */
export const AI_VISIBILITY_ROUTES: Route[] = [
	route('#23', 'ai-visibility/domains', { GET: listAiDomains }),
	route('#24', 'ai-visibility/domains/:domainId', { GET: getAiDomain }),
	route('#25', 'ai-visibility/domains/:domainId/search-terms', { GET: listSearchTerms }),
	route('#26', 'ai-visibility/domains/:domainId/metrics', { GET: aiMetrics }),
	route('#27', 'ai-visibility/domains/:domainId/metrics/sentiment', { GET: aiSentiment }),
	route('#28', 'ai-visibility/domains/:domainId/metrics/citations', { GET: aiCitations }),
];
