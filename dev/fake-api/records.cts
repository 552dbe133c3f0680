/**
 * Builders of the JSON records the service returns (spec §2). They are pure functions of the state so that every
 * read reflects earlier mutations without any cache to invalidate.
 */
import { createHash } from 'node:crypto';

import { currencySymbol, isoNaive, isoOffset, isoZ, sqlDateTime } from './format.cjs';
import type { FakeBehaviour, HistoryOrder, TimestampOffsets, AiDomainIds } from './behaviour.cjs';
import type {
	Account,
	AiDomain,
	AiSearchTerm,
	Alert,
	Container,
	FakeState,
	Keyword,
	Tag,
} from './state.cjs';

export interface GroupRecord {
	type: 'group';
	id: string;
	attributes: Record<string, unknown>;
}

export interface KeywordRecord {
	type: 'keyword';
	id: string;
	attributes: Record<string, unknown>;
}

export function tagRecord(
	tag: Tag,
	opts: { withCount?: boolean; keywordId?: number } = {},
): Record<string, unknown> {
	const out: Record<string, unknown> = {
		id: tag.id,
		project_id: tag.containerId,
		name: tag.name,
		created_at: sqlDateTime(tag.createdAt),
		updated_at: sqlDateTime(tag.updatedAt),
	};
	if (opts.withCount) out.keywords_count = tag.count;
	if (opts.keywordId !== undefined) out.pivot = { keyword_id: opts.keywordId, tag_id: tag.id };
	return out;
}

/** The behaviour switches that shape group and alert records (see behaviour.cts); left out = their defaults. */
export type RecordSwitches = Partial<
	Pick<
		FakeBehaviour,
		'timestampOffsets' | 'groupsLastUpdated' | 'projectTimeCoversGroups' | 'alertCategory'
	>
>;

/** An ISO 8601 time as the switch timestampOffsets writes it: with `+00:00`, or naive UTC wall time. */
const isoTime = (ms: number, offsets: TimestampOffsets = 'with-offset'): string =>
	offsets === 'without-offset' ? isoNaive(ms) : isoOffset(ms);

/**
 * A project or group record. `withTagCounts` is the list-of-all-projects variant (#1), whose tags carry
 * keywords_count. Every attribute of §2.2 is always present, so clients never meet a missing key. `switches`
 * (timestampOffsets, groupsLastUpdated) shape keywords_last_updated_at.
 */
export function groupRecord(
	c: Container,
	opts: { withTagCounts?: boolean } = {},
	switches: RecordSwitches = {},
): GroupRecord {
	const n = c.keywordIds.length;
	// A tag exists while at least one keyword carries it.
	const tags = [...c.tags.values()].filter((t) => t.count > 0);
	const times = c.parent === null && switches.projectTimeCoversGroups === false ? c.own : c;
	return {
		type: 'group',
		id: c.name,
		attributes: {
			project_id: c.projectId,
			auth: c.auth,
			name: c.name,
			// The service sends an empty array (not an empty object) for a project without keywords.
			keywords_count: n > 0 ? { ACTIVE: n } : [],
			tags_count: tags.length,
			tags: tags.map((t) => tagRecord(t, { withCount: opts.withTagCounts === true })),
			keywords_last_updated_at:
				times.keywordsLastUpdatedAt === null ||
				(c.parent !== null && switches.groupsLastUpdated === 'null')
					? null
					: isoTime(times.keywordsLastUpdatedAt, switches.timestampOffsets),
			shortkey: c.shortkey,
			notes_count: c.notesCount,
			updated_at: isoZ(c.updatedAt),
			crawled_at: times.crawledAt,
			password: c.password,
			company_name: c.companyName,
			company_desc: c.companyDesc,
			company_link: c.companyLink,
			company_logo: c.companyLogo,
			sov_view_key: c.sovViewKey,
			url: c.url,
			currency_code: c.currencyCode,
			project_overview_settings: c.overviewSettings,
		},
	};
}

export type KeywordMode = 'add' | 'single' | 'list';

function serpFeatures(features: readonly string[]): Record<string, number | boolean> {
	const has = (name: string): number => (features.includes(name) ? 1 : 0);
	return {
		knowledge_panel: features.includes('knowledge_panel'),
		reviews: has('reviews'),
		site_links: has('site_links'),
		ppl_also_ask: has('ppl_also_ask'),
		top_stories: has('top_stories'),
		ads: has('adwords_top'),
	};
}

/**
 * A keyword record in one of the three variants of §2.4. `dayIndex` (days before the last crawl) selects the
 * ranking data of an earlier date, for the `date` query of the list and the `&date=` suffix of single retrieval.
 * `historyOrder` orders `grankhistory` only (the stored history stays newest first).
 */
export function keywordRecord(
	state: FakeState,
	k: Keyword,
	mode: KeywordMode,
	dayIndex = 0,
	historyOrder: HistoryOrder = 'newest-first',
): KeywordRecord {
	const c = k.container;
	const tags = k.tags.map((name) => c.tags.get(name)).filter((t): t is Tag => t !== undefined);
	const a: Record<string, unknown> = {
		project_id: c.projectId,
		category: c.name,
		url: k.url,
		auth: c.auth,
		kw: k.kw,
		source: k.source,
	};
	const settings = (): void => {
		a.notes = k.notes;
		a.tags_count = tags.length;
		a.tags = tags.map((t) => tagRecord(t, { keywordId: k.id }));
		a.tag = tags.length > 0 ? tags[0].name : null;
		a.region = k.region;
		a.language = k.language;
		a.ignore_local = k.ignoreLocal;
		a.ignore_featured = k.ignoreFeatured;
		a.exact = k.exact;
		a.type = k.type;
		a.gmb = k.gmb;
		a.near = k.near;
		a.isfav = k.isfav;
		a.status = k.status;
	};

	if (mode === 'add') {
		// Settings only: tracking data and keyword metrics are filled in later in the background (spec §1.5).
		a.start = null;
		settings();
		a.in_featured = false;
		a.has_featured = false;
		a.has_featured_url = null;
		a.url_tracking_method = k.urlTrackingMethod;
		a.ignore_sub_domains = k.ignoreSubDomains;
		a.clicks = -1;
		a.impressions = -1;
		a.ctr = -1;
		a.ms = 0;
		a.competition = 'Low';
		a.cpc = 0;
		a.features = [];
		a.updated_at = isoZ(k.updatedAt);
		a.crawled_at = null;
		return { type: 'keyword', id: String(k.id), attributes: a };
	}

	const history = dayIndex < k.history.length ? k.history.slice(dayIndex) : [];
	const rank = history.length > 0 ? history[0] : null;
	a.start = k.start;
	settings();
	a.in_featured = dayIndex === 0 ? k.inFeatured : false;
	a.has_featured = k.hasFeatured;
	a.has_featured_url = k.hasFeatured
		? `https://featured.example.net/${encodeURIComponent(k.kw)}`
		: null;
	a.clicks = k.clicks;
	a.impressions = k.impressions;
	a.ctr = k.ctr;
	a.ms = k.ms;
	a.competition = k.competition;
	a.cpc = k.cpc;
	a.gpage = rank !== null && rank > 0 ? Math.ceil(rank / 10) : null;
	if (mode === 'list') a.features = k.features;
	else {
		a.serp_features = serpFeatures(k.features);
		a.included_in_sov = true;
		a.currency_symbol = currencySymbol(c.currencyCode);
		a.is_paginated = 0;
	}
	a.grank = rank !== null && rank > 0 ? rank : null;
	a.grank_int = rank ?? 0;
	a.brank = 0;
	a.yrank = 0;
	a.best = k.best;
	a.seocomp = k.seocomp;
	a.in_local_pack = dayIndex === 0 ? k.inLocalPack : false;
	a.rankingurl =
		rank !== null && rank > 0
			? dayIndex === 0
				? k.rankingUrl
				: (k.urlHistory[dayIndex] ?? k.url)
			: 'NOT FOUND';
	a.grankhistory =
		history.length === 0
			? null
			: historyOrder === 'oldest-first'
				? [...history].reverse()
				: history;
	a.trends = {
		day: state.trend(k, 1, dayIndex),
		week: state.trend(k, 7, dayIndex),
		month: state.trend(k, 30, dayIndex),
		life: state.trend(k, 'life', dayIndex),
	};
	a.search_intents = k.searchIntents;
	a.updated_at = isoZ(k.updatedAt);
	a.crawled_at = k.crawledAt === null ? null : k.crawledAt - dayIndex * 86400;
	return { type: 'keyword', id: String(k.id), attributes: a };
}

/** An alert record; `switches.timestampOffsets` shapes `time`, `switches.alertCategory` its `category`. */
export function alertRecord(alert: Alert, switches: RecordSwitches = {}): Record<string, unknown> {
	return {
		type: 'alert',
		id: String(alert.id),
		attributes: {
			category:
				switches.alertCategory === 'project-name'
					? alert.category.split('[sub]')[0]
					: alert.category,
			keyword_id: alert.keywordId,
			url: alert.url,
			kw: alert.kw,
			ms: alert.ms,
			region: alert.region,
			language: alert.language,
			prevrank: alert.prevrank,
			result: alert.result,
			time: isoTime(alert.createdAt * 1000, switches.timestampOffsets),
			created_at: alert.createdAt,
			read: alert.read,
		},
	};
}

export function accountRecord(state: FakeState, token: string): Record<string, unknown> {
	state.rollAllowances();
	const acc: Account = state.account;
	const allowance = (a: { used: number; limit: number }): Record<string, number> => ({
		used: a.used,
		remaining: Math.max(0, a.limit - a.used),
		limit: a.limit,
	});
	return {
		type: 'user',
		id: String(acc.userId),
		attributes: {
			user_is_restricted: false,
			onboarding: true,
			verified: 1,
			user_id: acc.userId,
			support_hash: 'c0ffee' + String(acc.userId).padStart(10, '0'),
			support_user_id: `user-${acc.userId}`,
			name: acc.name,
			addon_master_email: '',
			addon_master_disabled: false,
			addon_restricted: false,
			api_token: token,
			showall: '1',
			sharedcountapi: '',
			access_level: 'master',
			gsc_connected: false,
			used: state.keywords.size,
			package: acc.packageKeywords,
			refreshes: allowance(acc.refreshes),
			daily_added: allowance(acc.dailyAdded),
			contactnum: '5550100',
			contactnum_code: '+1',
			country: 'US',
			countrystate: 'CA',
			last_login_at: isoZ(acc.lastLoginAt),
			created_at: isoZ(acc.createdAt),
			created_at_ts: Math.floor(acc.createdAt / 1000),
			disabled: false,
			is_not_payment_provider_user: false,
			is_free_plan: false,
			currency_code: acc.currencyCode,
			serp_and_ranking_history_limit_date: state.historyLimitDate(),
			trial_is_used: true,
			package_info: { title: acc.planTitle },
		},
	};
}

export function searchTermRecord(term: AiSearchTerm): Record<string, unknown> {
	return {
		id: term.id,
		term: term.term,
		aiSearchEngines: term.engines,
		status: term.status,
		executionsAmount: term.executionsAmount,
		interval: term.interval,
		region: term.region,
		websearch: term.websearch,
		createdAt: isoZ(term.createdAt),
		lastExecutionTime: isoZ(term.lastExecutionTime),
		nextScheduledExecutionTime: isoZ(term.nextScheduledExecutionTime),
		searchTermTopicRef: term.topic ? { id: term.topic.id, name: term.topic.name } : null,
		tags: term.tags,
	};
}

/** The AI visibility domain record. Its real shape is not documented; this one is the fake's choice. */
/**
 * A domain's id as the API shows it (the switch `aiDomainIds`): its 24 hex characters, or a UUID made of them and 8 of
 * their digest (aiDomainIdAsked reads either back).
 */
export function aiDomainIdShown(id: string, format: AiDomainIds = 'hex24'): string {
	if (format === 'hex24') return id;
	const h = id + createHash('md5').update(id).digest('hex').slice(0, 8);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The domain id a request names (a UUID as aiDomainIdShown makes it, or the 24 hex characters). */
export function aiDomainIdAsked(shown: string): string {
	return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(shown)
		? shown.replace(/-/g, '').slice(0, 24)
		: shown;
}

export function aiDomainRecord(
	d: AiDomain,
	format: AiDomainIds = 'hex24',
): Record<string, unknown> {
	const engines = [...new Set(d.searchTerms.flatMap((t) => t.engines))];
	return {
		id: aiDomainIdShown(d.id, format),
		domain: d.domain,
		brandName: d.brandName,
		brandVariations: d.brandVariations,
		competitors: d.competitors.map((c) => ({
			name: c.name,
			domain: c.domain,
			variations: c.variations,
		})),
		topics: d.topics.map((t) => ({ id: t.id, name: t.name })),
		aiSearchEngines: engines,
		searchTermsCount: d.searchTerms.length,
		createdAt: isoZ(d.createdAt),
		updatedAt: isoZ(d.updatedAt),
	};
}
