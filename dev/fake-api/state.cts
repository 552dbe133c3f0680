/**
 * In-memory data model of the fake.
 *
 * Everything the handlers read or change lives here, kept in the form that makes the hot paths cheap:
 * - each project/group ("container") holds its keyword ids in an ascending array (ids only grow, so appending keeps
 *   it sorted), which makes a page of the keyword list a plain slice even with 50,000 keywords;
 * - duplicates on add are found through a per-container key map, not by scanning;
 * - tag keyword counts are maintained on change rather than recounted on every read.
 * Ranks are stored as one newest-first integer array per keyword (0 = outside the tracked results); the date of
 * entry i is the keyword's crawl day minus i days, which keeps 50,000 keywords small in memory.
 */
import { invalid, notFound } from './errors.cjs';
import { DAY_MS, dayStart, slugify, unixSeconds, ymd } from './format.cjs';
import { Prng } from './prng.cjs';

export type KeywordType = 'se' | 'sem' | 'maps';
export const KEYWORD_TYPES: readonly KeywordType[] = ['se', 'sem', 'maps'];

/** The separator the service puts between a project name and a group name. */
export const SUB = '[sub]';

/** Longest rank history kept per keyword (the chart endpoint asks for up to 180 days). */
export const MAX_HISTORY = 200;

export const OVERVIEW_SETTING_KEYS = [
	'project_metrics',
	'keywords_in_top',
	'sov',
	'visibility',
	'estimated_traffic',
	'top_pages',
	'organic_traffic_acquisition',
	'serp_feature_performance',
	'keywords_by_intent',
	'average_rank',
] as const;

export interface Tag {
	id: number;
	containerId: number;
	name: string;
	createdAt: number;
	updatedAt: number;
	/** Number of keywords carrying the tag, maintained incrementally. */
	count: number;
}

/** A project or a group: the service returns both as "group records". */
export interface Container {
	projectId: number;
	/** Full name: the project name, or `<project>[sub]<group>`. It is the record id. */
	name: string;
	projectName: string;
	groupName: string | null;
	parent: Container | null;
	children: Container[];
	auth: string;
	shortkey: string;
	archived: boolean;
	currencyCode: string;
	url: string | null;
	password: string | null;
	companyName: string | null;
	companyDesc: string | null;
	companyLink: string | null;
	companyLogo: string | null;
	sovViewKey: boolean;
	notesCount: number;
	createdAt: number;
	updatedAt: number;
	/** A project's times cover its groups' crawls too (see `own`). */
	keywordsLastUpdatedAt: number | null;
	crawledAt: number | null;
	/** The same two times for its own keywords only (behaviour switch projectTimeCoversGroups false). */
	own: { keywordsLastUpdatedAt: number | null; crawledAt: number | null };
	overviewSettings: Record<string, { visible: boolean; order: number }>;
	/** Ascending keyword ids. */
	keywordIds: number[];
	/** Duplicate key -> keyword id. */
	dedupe: Map<string, number>;
	tags: Map<string, Tag>;
	/** Domain used for generated keywords and competitor data. */
	domain: string;
	/** Distinct keyword domains and types for the list meta; dropped on every keyword change (see touchKeywords). */
	listMeta?: { domains: string[]; types: string[] };
}

export interface SearchIntents {
	commercial: number;
	informational: number;
	navigational: number;
	transactional: number;
}

export interface Keyword {
	id: number;
	container: Container;
	kw: string;
	url: string;
	region: string;
	language: string;
	type: KeywordType;
	source: number;
	notes: string | null;
	/** Tag names, in the order they were given. */
	tags: string[];
	gmb: string | null;
	near: string | null;
	ignoreLocal: boolean;
	ignoreFeatured: boolean;
	ignoreSubDomains: boolean;
	isfav: boolean;
	exact: boolean;
	urlTrackingMethod: 'broad' | 'Exact';
	status: string;
	ms: number;
	competition: number;
	cpc: number;
	clicks: number;
	impressions: number;
	ctr: number;
	/** Newest first; 0 = outside the tracked results. Empty until first tracked. */
	history: number[];
	/** The ranking URL of each entry of `history` (same index; `NOT FOUND` outside the results). */
	urlHistory: string[];
	/** When each entry of `history` was crawled (same index; Unix seconds). */
	historyAt: number[];
	start: number | null;
	best: number | null;
	rankingUrl: string;
	features: readonly string[];
	hasFeatured: boolean;
	inFeatured: boolean;
	inLocalPack: boolean;
	seocomp: number | null;
	searchIntents: SearchIntents | null;
	createdAt: number;
	updatedAt: number;
	/** Unix seconds of the last rank update, null until first tracked. */
	crawledAt: number | null;
}

export interface Alert {
	id: number;
	keywordId: number;
	category: string;
	url: string;
	kw: string;
	ms: number;
	region: string;
	language: string;
	prevrank: number;
	result: number;
	/** Unix seconds. */
	createdAt: number;
	read: boolean;
}

export interface AiTopic {
	id: string;
	name: string;
}

export interface AiSearchTerm {
	id: string;
	domainId: string;
	term: string;
	engines: string[];
	status: string;
	executionsAmount: number;
	interval: string;
	region: string;
	websearch: boolean;
	createdAt: number;
	lastExecutionTime: number;
	nextScheduledExecutionTime: number;
	topic: AiTopic | null;
	tags: string[];
}

export interface AiCompetitor {
	name: string;
	domain: string;
	variations: string[];
	/** 0..1, how visible the brand is in generated answers. */
	strength: number;
}

/** A day of an AI-visibility domain's series changed by hand (FakeState.changeAiDay). */
export interface AiDayChange {
	/** Measured again: each revision gives the day other values. */
	revision?: number;
	/** Left out of every series (a gap, or a day not ready yet). */
	missing?: boolean;
	/** The own brand was named in no answer that day. */
	brandNotFound?: boolean;
}

export interface AiDomain {
	id: string;
	domain: string;
	brandName: string;
	brandVariations: string[];
	/** 0..1 visibility of the own brand. */
	strength: number;
	competitors: AiCompetitor[];
	topics: AiTopic[];
	searchTerms: AiSearchTerm[];
	createdAt: number;
	updatedAt: number;
}

export interface Allowance {
	used: number;
	limit: number;
}

export interface Account {
	userId: number;
	name: string;
	email: string;
	createdAt: number;
	lastLoginAt: number;
	packageKeywords: number;
	planTitle: string;
	currencyCode: string;
	refreshes: Allowance;
	dailyAdded: Allowance;
	/** UTC day (ms) the daily allowances belong to; they reset when now() moves to another day. */
	allowanceDay: number;
}

/** What callers may give when adding a keyword (HTTP #10, addKeywords, the control route). */
export interface KeywordInput {
	kw: string;
	url?: string;
	region?: string;
	language?: string;
	type?: KeywordType;
	tags?: string[];
	source?: number;
	notes?: string | null;
	gmb?: string | null;
	near?: string | null;
	ignore_local?: boolean;
	ignore_featured?: boolean;
	ignore_sub_domains?: boolean;
	isfav?: boolean;
	url_tracking_method?: 'broad' | 'Exact';
	ms?: number;
	cpc?: number;
	competition?: number;
	/** Current rank to start from when tracked (0 = outside the results). */
	grank?: number | null;
}

export interface RankUpdateOptions {
	/** Project (its groups included) or group name; default: every keyword. */
	category?: string;
	keywordIds?: Array<string | number>;
	/** Default true. False re-crawls with the same rank. */
	changeRanks?: boolean;
	/** Also record a rank-change alert for each keyword whose rank moved. Default false. */
	createAlerts?: boolean;
	/** The new rank of given keywords, by id (0 = outside the tracked results), instead of a random move. */
	ranks?: Record<string, number>;
	/** The ranking URL of given keywords after the update, by id, instead of the one their rank gives. */
	rankingUrls?: Record<string, string>;
}

export interface AddAlertsOptions {
	/** Unix seconds; default now(). Several alerts may share one. */
	createdAt?: number;
	/** Project or group whose keywords the alerts are about; any name is accepted. */
	category?: string;
	read?: boolean;
}

const FEATURE_SETS: ReadonlyArray<readonly string[]> = [
	[],
	['local_pack'],
	['video'],
	['adwords_top'],
	['ppl_also_ask', 'video'],
	['featured_snippet', 'ppl_also_ask'],
	['local_pack', 'adwords_top', 'reviews'],
	['top_stories'],
	['images', 'site_links'],
];

const OTR = 101;

/** Rank used in arithmetic: outside the results counts as 101. */
const rankValue = (rank: number): number => (rank > 0 ? rank : OTR);

export function dedupeKey(
	kw: string,
	url: string,
	region: string,
	language: string,
	type: string,
): string {
	return [
		kw.trim().toLowerCase(),
		url.trim().toLowerCase(),
		region.toLowerCase(),
		language.toLowerCase(),
		type,
	].join('\u0000');
}

/**
 * A crawl's ranking URL as the API shows it: `NOT FOUND` outside the top results (rank 0), whatever URL the keyword
 * kept from before; undefined when there is no such crawl.
 */
export function shownRankingUrl(
	rank: number | undefined,
	url: string | undefined,
): string | undefined {
	if (rank === undefined) return undefined;
	return rank > 0 ? url : 'NOT FOUND';
}

export class FakeState {
	readonly containers = new Map<string, Container>();
	readonly containersById = new Map<number, Container>();
	/** Projects in creation order; groups hang under `children`. */
	readonly projects: Container[] = [];
	readonly keywords = new Map<number, Keyword>();
	/** In creation order, so ids ascend. */
	readonly alerts: Alert[] = [];
	readonly aiDomains: AiDomain[] = [];
	/** AI-visibility days changed by hand, by `<domain id>|<day start ms>` (the series read them, aiMetrics.cts). */
	readonly aiDays = new Map<string, AiDayChange>();
	account: Account;
	readonly rng: Prng;

	private nextProjectId = 1001;
	private nextKeywordId = 100001;
	private nextTagId = 501;
	private nextAlertId = 9001;

	constructor(
		readonly now: () => number,
		seedKey = 'keyword-com-fake',
	) {
		this.rng = new Prng(seedKey);
		const t = now();
		this.account = {
			userId: 4242,
			name: 'Demo User',
			email: 'demo@example.com',
			createdAt: t - 400 * DAY_MS,
			lastLoginAt: t - 3_600_000,
			packageKeywords: 100_000,
			planTitle: 'Business 5000 (Daily)',
			currencyCode: 'USD',
			refreshes: { used: 0, limit: 20 },
			dailyAdded: { used: 0, limit: 10_000 },
			allowanceDay: dayStart(t),
		};
	}

	nowSeconds(): number {
		return unixSeconds(this.now());
	}

	// ---------------------------------------------------------------- containers

	/** All containers in the order of the groups list: each project followed by its groups. */
	allContainers(): Container[] {
		const out: Container[] = [];
		for (const p of this.projects) {
			out.push(p);
			out.push(...p.children);
		}
		return out;
	}

	findContainer(name: string): Container | undefined {
		return this.containers.get(name);
	}

	getContainer(name: string): Container {
		const c = this.containers.get(name);
		if (!c) {
			const kind = name.includes(SUB) ? 'Group' : 'Project';
			throw notFound(`${kind} "${name}" was not found.`);
		}
		return c;
	}

	getContainerById(rawId: string): Container {
		if (!/^\d+$/.test(rawId)) throw notFound(`Project id "${rawId}" is not a valid project id.`);
		const c = this.containersById.get(Number(rawId));
		if (!c) throw notFound(`Project with id ${rawId} was not found.`);
		return c;
	}

	/** Creates a project, or a group when the name is `<project>[sub]<group>`. */
	createContainer(
		fullName: string,
		opts: { currencyCode?: string; url?: string | null } = {},
	): Container {
		const name = fullName.trim();
		const idx = name.indexOf(SUB);
		if (idx === -1) return this.addProject(name, opts);
		return this.addGroup(name.slice(0, idx), name.slice(idx + SUB.length), opts);
	}

	addProject(name: string, opts: { currencyCode?: string; url?: string | null } = {}): Container {
		if (!name.trim())
			throw invalid('The project name (category) must not be empty.', {
				pointer: '/data/attributes/category',
			});
		if (name.length > 255)
			throw invalid('The project name may not be longer than 255 characters.', {
				pointer: '/data/attributes/category',
			});
		if (name.includes(SUB))
			throw invalid('A project name may not contain "[sub]".', {
				pointer: '/data/attributes/category',
			});
		if (this.containers.has(name))
			throw invalid(`A project named "${name}" already exists.`, {
				pointer: '/data/attributes/category',
			});
		const c = this.newContainer(name, name, null, null, opts);
		this.projects.push(c);
		return c;
	}

	addGroup(
		projectName: string,
		groupName: string,
		opts: { currencyCode?: string; url?: string | null } = {},
	): Container {
		const parent = this.containers.get(projectName);
		if (!parent || parent.parent)
			throw notFound(
				`Parent project "${projectName}" was not found; create the project before its groups.`,
			);
		if (!groupName.trim())
			throw invalid('The group name after "[sub]" must not be empty.', {
				pointer: '/data/attributes/category',
			});
		if (groupName.includes(SUB))
			throw invalid('Groups cannot be nested: the group name may not contain "[sub]".', {
				pointer: '/data/attributes/category',
			});
		const full = `${projectName}${SUB}${groupName}`;
		if (this.containers.has(full))
			throw invalid(`A group named "${full}" already exists.`, {
				pointer: '/data/attributes/category',
			});
		const c = this.newContainer(full, projectName, groupName, parent, {
			currencyCode: parent.currencyCode,
			...opts,
		});
		parent.children.push(c);
		return c;
	}

	private newContainer(
		name: string,
		projectName: string,
		groupName: string | null,
		parent: Container | null,
		opts: { currencyCode?: string; url?: string | null },
	): Container {
		const t = this.now();
		const overviewSettings: Container['overviewSettings'] = {};
		OVERVIEW_SETTING_KEYS.forEach(
			(key, order) => (overviewSettings[key] = { visible: true, order }),
		);
		const domain = `${slugify(projectName) || 'example'}.com`;
		const c: Container = {
			projectId: this.nextProjectId++,
			name,
			projectName,
			groupName,
			parent,
			children: [],
			auth: this.rng.hex(32),
			shortkey: this.rng.hex(10),
			archived: false,
			currencyCode: (opts.currencyCode ?? 'USD').toUpperCase(),
			url: opts.url ?? null,
			password: null,
			companyName: null,
			companyDesc: null,
			companyLink: null,
			companyLogo: null,
			sovViewKey: true,
			notesCount: 0,
			createdAt: t,
			updatedAt: t,
			keywordsLastUpdatedAt: null,
			crawledAt: null,
			own: { keywordsLastUpdatedAt: null, crawledAt: null },
			overviewSettings,
			keywordIds: [],
			dedupe: new Map(),
			tags: new Map(),
			domain,
		};
		this.containers.set(name, c);
		this.containersById.set(c.projectId, c);
		return c;
	}

	/** Deletes a project or group with its keywords (and, for a project, its groups). */
	deleteContainer(c: Container): void {
		for (const child of [...c.children]) this.deleteContainer(child);
		for (const id of c.keywordIds) this.keywords.delete(id);
		c.keywordIds = [];
		this.containers.delete(c.name);
		this.containersById.delete(c.projectId);
		if (c.parent) {
			const i = c.parent.children.indexOf(c);
			if (i >= 0) c.parent.children.splice(i, 1);
		} else {
			const i = this.projects.indexOf(c);
			if (i >= 0) this.projects.splice(i, 1);
		}
	}

	/** Archiving a project hides its groups too. */
	isHidden(c: Container): boolean {
		return c.archived || (c.parent !== null && c.parent.archived);
	}

	// ---------------------------------------------------------------- tags

	private ensureTag(c: Container, name: string): Tag {
		let tag = c.tags.get(name);
		if (!tag) {
			const t = this.now();
			tag = {
				id: this.nextTagId++,
				containerId: c.projectId,
				name,
				createdAt: t,
				updatedAt: t,
				count: 0,
			};
			c.tags.set(name, tag);
		}
		return tag;
	}

	setKeywordTags(k: Keyword, names: string[]): void {
		const clean = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))];
		for (const old of k.tags) {
			const tag = k.container.tags.get(old);
			if (tag) tag.count--;
		}
		for (const name of clean) this.ensureTag(k.container, name).count++;
		k.tags = clean;
	}

	// ---------------------------------------------------------------- keywords

	getKeyword(c: Container, rawId: string): Keyword {
		const k = /^\d+$/.test(rawId) ? this.keywords.get(Number(rawId)) : undefined;
		if (!k || k.container !== c) throw notFound(`Keyword ${rawId} was not found in "${c.name}".`);
		return k;
	}

	/**
	 * Adds one keyword; returns undefined for a duplicate (same kw, url, region, language and type in the same
	 * container). `tracked` gives it a rank history at once (seed and bulk data); keywords added over HTTP start
	 * untracked, as the service fills tracking data in afterwards.
	 */
	addKeyword(c: Container, input: KeywordInput, tracked: boolean): Keyword | undefined {
		const url = (input.url ?? c.url ?? c.domain).trim();
		const region = input.region ?? 'google.com';
		const language = input.language ?? 'en';
		const type = input.type ?? 'se';
		const key = dedupeKey(input.kw, url, region, language, type);
		if (c.dedupe.has(key)) return undefined;
		const t = this.now();
		const rng = this.rng;
		const exactByUrl = url.includes('/');
		const method = input.url_tracking_method ?? (exactByUrl ? 'Exact' : 'broad');
		const k: Keyword = {
			id: this.nextKeywordId++,
			container: c,
			kw: input.kw.trim(),
			url,
			region,
			language,
			type,
			source: input.source ?? 1,
			notes: input.notes ?? null,
			tags: [],
			gmb: input.gmb ?? null,
			near: input.near ?? null,
			ignoreLocal: input.ignore_local ?? false,
			ignoreFeatured: input.ignore_featured ?? false,
			ignoreSubDomains: input.ignore_sub_domains ?? false,
			isfav: input.isfav ?? false,
			exact: method === 'Exact',
			urlTrackingMethod: method,
			status: 'ACTIVE',
			ms: input.ms ?? Math.round(10 * Math.pow(10, rng.next() * 4)),
			competition: input.competition ?? Math.round(rng.next() * 100) / 100,
			cpc: input.cpc ?? Math.round((0.2 + rng.next() * 4.8) * 100) / 100,
			clicks: -1,
			impressions: -1,
			ctr: -1,
			history: [],
			urlHistory: [],
			historyAt: [],
			start: null,
			best: null,
			rankingUrl: 'NOT FOUND',
			features: rng.pick(FEATURE_SETS),
			hasFeatured: false,
			inFeatured: false,
			inLocalPack: false,
			seocomp: null,
			searchIntents: null,
			createdAt: t,
			updatedAt: t,
			crawledAt: null,
		};
		this.keywords.set(k.id, k);
		c.keywordIds.push(k.id);
		c.listMeta = undefined;
		c.dedupe.set(key, k.id);
		if (input.tags?.length) this.setKeywordTags(k, input.tags);
		if (tracked) this.trackFromScratch(k, input.grank);
		return k;
	}

	/**
	 * Gives a keyword a plausible history of 20..60 days (14 for bulk data, to keep memory small): the current rank
	 * plus a slow trend and autocorrelated day-to-day noise, as real rank curves look.
	 */
	private trackFromScratch(k: Keyword, current: number | null | undefined, days?: number): void {
		const rng = this.rng;
		const length = days ?? (k.container.keywordIds.length > 1000 ? 14 : rng.int(20, 60));
		const base =
			current === undefined || current === null ? (rng.chance(0.1) ? 0 : rng.int(1, 60)) : current;
		// Positive drift: older ranks were worse, i.e. the keyword has been improving.
		const drift = rng.next() * 0.4 - 0.1;
		const scale = Math.max(1.5, (base || 60) * 0.12);
		let noise = 0;
		const history: number[] = [base];
		for (let i = 1; i < length; i++) {
			noise = 0.7 * noise + (rng.next() - 0.5) * scale;
			if (base === 0) history.push(rng.chance(0.8) ? 0 : rng.int(70, 100));
			else {
				const r = Math.round(base + drift * i + noise);
				history.push(r > 100 ? 0 : Math.max(1, r));
			}
		}
		k.history = history;
		k.start = history[history.length - 1];
		k.best = bestOf(history);
		// Crawled 10 min to 6 h ago, but today when today is over 10 min old: the demo's charts reach today at any hour.
		const nowS = this.nowSeconds();
		const sinceMidnight = nowS - dayStart(this.now()) / 1000;
		const crawl =
			nowS - rng.int(600, sinceMidnight >= 600 ? Math.min(6 * 3600, sinceMidnight) : 6 * 3600);
		k.crawledAt = crawl;
		this.afterRankChange(k);
		k.urlHistory = history.map((rank) => this.rankingUrlFor(k, rank));
		// A crawl a day before the last one (seed and bulk data).
		k.historyAt = history.map((_, i) => crawl - i * 86_400);
		this.markUpdated(k.container, crawl);
	}

	/** The ranking URL a rank gives (a keyword's section page, or the exact URL it tracks; `NOT FOUND` outside). */
	private rankingUrlFor(k: Keyword, rank: number): string {
		if (rank <= 0) return 'NOT FOUND';
		return k.exact ? k.url : `https://${hostOf(k.url)}/${slugify(k.kw.split(' ')[0]) || 'page'}/`;
	}

	/** One day's rank movement for a re-crawl. */
	private walk(rank: number): number {
		const rng = this.rng;
		if (rank === 0) return rng.chance(0.3) ? rng.int(60, 100) : 0;
		if (rng.chance(0.02)) return 0;
		const step = Math.round((rng.next() - 0.5) * Math.max(3, rank * 0.15));
		return Math.min(100, Math.max(1, rank + step));
	}

	/** Derived fields that follow the current rank. */
	private afterRankChange(k: Keyword): void {
		const rank = k.history[0] ?? 0;
		const rng = this.rng;
		// Broad keywords rank with a section page named after the keyword's first word, so top pages group several.
		k.rankingUrl = this.rankingUrlFor(k, rank);
		if (rank > 0) {
			k.inFeatured = rank === 1 && k.features.includes('featured_snippet');
			k.inLocalPack = rank <= 3 && k.features.includes('local_pack');
		} else {
			k.inFeatured = false;
			k.inLocalPack = false;
		}
		k.hasFeatured = k.features.includes('featured_snippet');
		k.seocomp = k.seocomp ?? rng.int(1, 900) * 1_000_000;
		if (!k.searchIntents) {
			const a = rng.next();
			const b = rng.next() * (1 - a);
			const c = rng.next() * (1 - a - b);
			k.searchIntents = {
				commercial: Math.round(a * 100) / 100,
				informational: Math.round(b * 100) / 100,
				navigational: Math.round(c * 100) / 100,
				transactional: Math.round((1 - a - b - c) * 100) / 100,
			};
		}
	}

	private markUpdated(c: Container, crawledAt: number): void {
		const stamp = Math.max(this.now(), crawledAt * 1000);
		c.own.keywordsLastUpdatedAt = Math.max(c.own.keywordsLastUpdatedAt ?? 0, stamp);
		c.own.crawledAt = Math.max(c.own.crawledAt ?? 0, crawledAt);
		for (const target of c.parent ? [c, c.parent] : [c]) {
			target.keywordsLastUpdatedAt = Math.max(target.keywordsLastUpdatedAt ?? 0, stamp);
			target.crawledAt = Math.max(target.crawledAt ?? 0, crawledAt);
		}
	}

	/**
	 * Moves keywords into `to`, a project or group of their own project (as the web app moves keywords between
	 * groups): their category and project_id follow `to`, their tags go with them, their ranks, crawled_at and
	 * history stay, and neither container's keywords_last_updated_at moves (no rank was updated). A keyword already in
	 * `to`, or whose twin (same keyword, URL, region, language and type) is there, stays where it is. Returns the
	 * keywords moved.
	 */
	moveKeywords(ids: number[], to: Container): Keyword[] {
		const family = (c: Container) => c.parent ?? c;
		const moved: Keyword[] = [];
		for (const id of ids) {
			const k = this.keywords.get(id);
			if (!k || k.container === to || family(k.container) !== family(to)) continue;
			const key = dedupeKey(k.kw, k.url, k.region, k.language, k.type);
			if (to.dedupe.has(key)) continue;
			const from = k.container;
			const tags = k.tags;
			this.setKeywordTags(k, []);
			from.keywordIds = from.keywordIds.filter((other) => other !== id);
			from.dedupe.delete(key);
			from.listMeta = undefined;
			// Ids stay ascending: the moved keyword goes where its id belongs.
			const at = to.keywordIds.findIndex((other) => other > id);
			to.keywordIds.splice(at === -1 ? to.keywordIds.length : at, 0, id);
			to.dedupe.set(key, id);
			to.listMeta = undefined;
			k.container = to;
			this.setKeywordTags(k, tags);
			k.updatedAt = this.now();
			moved.push(k);
		}
		return moved;
	}

	/** Deletes keywords; callers check ownership first. */
	deleteKeywords(ids: number[]): number {
		const byContainer = new Map<Container, Set<number>>();
		for (const id of ids) {
			const k = this.keywords.get(id);
			if (!k) continue;
			let set = byContainer.get(k.container);
			if (!set) byContainer.set(k.container, (set = new Set()));
			set.add(id);
		}
		let deleted = 0;
		for (const [c, set] of byContainer) {
			c.keywordIds = c.keywordIds.filter((id) => !set.has(id));
			c.listMeta = undefined;
			for (const id of set) {
				const k = this.keywords.get(id);
				if (!k) continue;
				for (const name of k.tags) {
					const tag = c.tags.get(name);
					if (tag) tag.count--;
				}
				c.dedupe.delete(dedupeKey(k.kw, k.url, k.region, k.language, k.type));
				this.keywords.delete(id);
				deleted++;
			}
		}
		return deleted;
	}

	/** Keywords of a container, plus those of its groups when asked. */
	*keywordsOf(c: Container, withGroups = false): Generator<Keyword> {
		for (const id of c.keywordIds) {
			const k = this.keywords.get(id);
			if (k) yield k;
		}
		if (withGroups) for (const child of c.children) yield* this.keywordsOf(child, false);
	}

	/** Rank of a keyword `daysAgo` days before its last crawl (0 = OTR), or null when no data for that day. */
	rankAt(k: Keyword, daysAgo: number): number | null {
		if (daysAgo < 0 || daysAgo >= k.history.length) return null;
		return k.history[daysAgo];
	}

	/** Index into history for a calendar date (UTC midnight ms), clamped to the newest entry for future dates. */
	historyIndexForDate(k: Keyword, dateMs: number): number {
		if (k.crawledAt === null) return 0;
		const crawlDay = dayStart(k.crawledAt * 1000);
		return Math.max(0, Math.round((crawlDay - dateMs) / DAY_MS));
	}

	/** Movement over `days` (positive = improved), as the trends object reports it. */
	trend(k: Keyword, days: number | 'life', from = 0): number {
		if (k.history.length <= from) return 0;
		const current = rankValue(k.history[from]);
		const past =
			days === 'life'
				? k.start
				: from + days < k.history.length
					? k.history[from + days]
					: k.history[k.history.length - 1];
		if (past === null || past === undefined) return 0;
		return rankValue(past) - current;
	}

	/** Updates ranks as a background crawl would; see RankUpdateOptions. Returns the updated keywords. */
	simulateRankUpdate(opts: RankUpdateOptions = {}): Keyword[] {
		const targets: Keyword[] = [];
		if (opts.keywordIds && opts.keywordIds.length > 0) {
			for (const raw of opts.keywordIds) {
				const k = this.keywords.get(Number(raw));
				if (!k) throw notFound(`Keyword ${raw} was not found.`);
				targets.push(k);
			}
		} else if (opts.category !== undefined) {
			targets.push(...this.keywordsOf(this.getContainer(opts.category), true));
		} else {
			for (const k of this.keywords.values()) targets.push(k);
		}
		return this.updateRanks(targets, opts.changeRanks ?? true, opts.createAlerts ?? false, opts);
	}

	/** Re-crawls the given keywords: a new rank at the head of the history, crawled_at strictly later than before. */
	updateRanks(
		targets: Keyword[],
		change = true,
		createAlerts = false,
		set: Pick<RankUpdateOptions, 'ranks' | 'rankingUrls'> = {},
	): Keyword[] {
		const nowS = this.nowSeconds();
		const t = this.now();
		const touched = new Map<Container, number>();
		for (const k of targets) {
			const previous = k.history.length > 0 ? k.history[0] : null;
			let rank: number;
			if (previous === null) rank = this.rng.chance(0.1) ? 0 : this.rng.int(1, 60);
			else if (change) {
				rank = this.walk(previous);
				if (rank === previous)
					rank = previous === 0 ? this.rng.int(50, 100) : previous === 1 ? 2 : previous - 1;
			} else rank = previous;
			const chosen = set.ranks?.[String(k.id)];
			if (chosen !== undefined) rank = chosen;
			const crawl = Math.max(nowS, (k.crawledAt ?? 0) + 1);
			k.history.unshift(rank);
			if (k.history.length > MAX_HISTORY) k.history.length = MAX_HISTORY;
			if (k.start === null) k.start = rank;
			if (rank > 0 && (k.best === null || k.best === 0 || rank < k.best)) k.best = rank;
			k.crawledAt = crawl;
			k.updatedAt = t;
			this.afterRankChange(k);
			const rankingUrl = set.rankingUrls?.[String(k.id)];
			// Outside the top results there is no ranking URL, whatever the control asked for.
			if (rankingUrl !== undefined && rank > 0) k.rankingUrl = rankingUrl;
			k.urlHistory.unshift(k.rankingUrl);
			if (k.urlHistory.length > MAX_HISTORY) k.urlHistory.length = MAX_HISTORY;
			k.historyAt.unshift(crawl);
			if (k.historyAt.length > MAX_HISTORY) k.historyAt.length = MAX_HISTORY;
			touched.set(k.container, Math.max(touched.get(k.container) ?? 0, crawl));
			if (createAlerts && previous !== null && previous !== rank) {
				this.pushAlert(k.container.name, k, previous, rank, nowS, false);
			}
		}
		for (const [c, crawl] of touched) this.markUpdated(c, crawl);
		return targets;
	}

	// ---------------------------------------------------------------- alerts

	private pushAlert(
		category: string,
		k: Keyword | null,
		prevrank: number,
		result: number,
		createdAt: number,
		read: boolean,
	): Alert {
		const n = this.nextAlertId++;
		const alert: Alert = {
			id: n,
			keywordId: k ? k.id : 0,
			category,
			url: k ? k.url : 'example.com',
			kw: k ? k.kw : `keyword ${n}`,
			ms: k ? k.ms : 0,
			region: k ? k.region : 'google.com',
			language: k ? k.language : 'en',
			prevrank,
			result,
			createdAt,
			read,
		};
		this.alerts.push(alert);
		return alert;
	}

	/**
	 * Adds rank-change alerts about existing keywords (of `category` when given, else all). With no keyword to
	 * point at, the alerts are synthetic (keyword_id 0), so an empty account can still feed a trigger test.
	 */
	addAlerts(count: number, opts: AddAlertsOptions = {}): Alert[] {
		if (!Number.isInteger(count) || count < 0)
			throw invalid('count must be a non-negative integer.');
		const createdAt = opts.createdAt ?? this.nowSeconds();
		const c = opts.category !== undefined ? this.findContainer(opts.category) : undefined;
		const pool: Keyword[] = c
			? [...this.keywordsOf(c)]
			: opts.category === undefined
				? [...this.keywords.values()]
				: [];
		const out: Alert[] = [];
		for (let i = 0; i < count; i++) {
			const k = pool.length > 0 ? pool[this.rng.int(0, pool.length - 1)] : null;
			const prevrank = this.rng.int(1, 100);
			let result = Math.min(100, Math.max(1, prevrank + this.rng.int(-15, 15)));
			if (result === prevrank) result = prevrank === 1 ? 2 : prevrank - 1;
			const category = k ? k.container.name : (opts.category ?? 'Demo Project');
			out.push(this.pushAlert(category, k, prevrank, result, createdAt, opts.read ?? false));
		}
		return out;
	}

	// ---------------------------------------------------------------- account

	/** Resets the daily allowances when the clock has moved to another UTC day. */
	rollAllowances(): void {
		const day = dayStart(this.now());
		if (day !== this.account.allowanceDay) {
			this.account.allowanceDay = day;
			this.account.refreshes.used = 0;
			this.account.dailyAdded.used = 0;
		}
	}

	/** History limit date of the account (shown as serp_and_ranking_history_limit_date). */
	historyLimitDate(): string {
		return ymd(this.now() - 365 * DAY_MS);
	}

	/**
	 * Changes one day (`YYYY-MM-DD`, UTC) of a domain's series: `revise` measures it again (other values), `missing`
	 * leaves it out or puts it back, `brandNotFound` makes the own brand absent from every answer of that day.
	 */
	changeAiDay(
		domainId: string,
		date: string,
		change: { revise?: boolean; missing?: boolean; brandNotFound?: boolean },
	): AiDayChange {
		this.getAiDomain(domainId);
		if (!/^\d{4}-\d\d-\d\d$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
			throw invalid(`date must be YYYY-MM-DD, not "${date}".`, { parameter: 'date' });
		const key = `${domainId}|${Date.parse(`${date}T00:00:00Z`)}`;
		const day = { ...this.aiDays.get(key) };
		if (change.revise) day.revision = (day.revision ?? 0) + 1;
		if (change.missing !== undefined) day.missing = change.missing;
		if (change.brandNotFound !== undefined) day.brandNotFound = change.brandNotFound;
		this.aiDays.set(key, day);
		return day;
	}

	/** How a day (its start, ms) of a domain's series was changed by hand, if it was. */
	aiDay(domainId: string, dayMs: number): AiDayChange | undefined {
		return this.aiDays.get(`${domainId}|${dayMs}`);
	}

	/**
	 * A new AI-visibility domain, measured from now on, with the search terms and competitors of the first domain (or
	 * one term and no competitor when there is none).
	 */
	addAiDomain(domain: string, brandName = domain): AiDomain {
		const t = this.now();
		const template = this.aiDomains[0];
		const id = this.rng.hex(24);
		const added: AiDomain = {
			id,
			domain,
			brandName,
			brandVariations: [],
			strength: 0.3 + this.rng.int(0, 40) / 100,
			competitors: template ? template.competitors.map((c) => ({ ...c })) : [],
			topics: template ? template.topics.map((x) => ({ ...x })) : [],
			searchTerms: [],
			createdAt: t,
			updatedAt: t,
		};
		const terms = template?.searchTerms ?? [];
		added.searchTerms = (terms.length > 0 ? terms : [undefined]).map((term) => ({
			id: this.rng.hex(24),
			domainId: id,
			term: term?.term ?? `${brandName} reviews`,
			engines: term ? [...term.engines] : ['chatgpt_gui'],
			status: 'active',
			executionsAmount: 1,
			interval: 'daily',
			region: 'us',
			websearch: true,
			createdAt: t,
			lastExecutionTime: t,
			nextScheduledExecutionTime: t + DAY_MS,
			topic: term?.topic ?? null,
			tags: [],
		}));
		this.aiDomains.push(added);
		return added;
	}

	/** Removes an AI-visibility domain (404 from then on). */
	removeAiDomain(id: string): void {
		const index = this.aiDomains.findIndex((d) => d.id === id);
		if (index < 0) throw notFound(`AI visibility domain "${id}" was not found.`);
		this.aiDomains.splice(index, 1);
	}

	getAiDomain(id: string): AiDomain {
		const d = this.aiDomains.find((x) => x.id === id);
		if (!d) throw notFound(`AI visibility domain "${id}" was not found.`);
		return d;
	}

	summary(): Record<string, number> {
		let groups = 0;
		for (const p of this.projects) groups += p.children.length;
		let searchTerms = 0;
		for (const d of this.aiDomains) searchTerms += d.searchTerms.length;
		return {
			projects: this.projects.length,
			groups,
			keywords: this.keywords.size,
			alerts: this.alerts.length,
			aiDomains: this.aiDomains.length,
			searchTerms,
		};
	}
}

export function bestOf(history: number[]): number | null {
	let best: number | null = null;
	for (const r of history) if (r > 0 && (best === null || r < best)) best = r;
	return best;
}

export function hostOf(url: string): string {
	const stripped = url.replace(/^[a-z]+:\/\//i, '');
	return stripped.split('/')[0] || stripped;
}
