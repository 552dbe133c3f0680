/**
 * Switches for behaviour the API document leaves open. Each switch has a default that is the fake's behaviour
 * without it, so tests can prove the n8n nodes work whichever way the real API behaves. See README.md beside this
 * file ("Switches for behaviour the document leaves open").
 */

/** Order of the alert list (#20). */
export type AlertOrder = 'as-asked' | 'newest-first' | 'oldest-first';
export const ALERT_ORDERS: readonly AlertOrder[] = ['as-asked', 'newest-first', 'oldest-first'];

/** Order of `grankhistory` in the keyword records served. */
export type HistoryOrder = 'newest-first' | 'oldest-first';
export const HISTORY_ORDERS: readonly HistoryOrder[] = ['newest-first', 'oldest-first'];

/** Order of the keyword list (#13). */
export type KeywordOrder = 'id-ascending' | 'id-descending' | 'keyword-text' | 'rank';
export const KEYWORD_ORDERS: readonly KeywordOrder[] = [
	'id-ascending',
	'id-descending',
	'keyword-text',
	'rank',
];

/** Order of alerts that share one created_at second (#20). */
export type AlertTieOrder = 'by-id' | 'mixed';
export const ALERT_TIE_ORDERS: readonly AlertTieOrder[] = ['by-id', 'mixed'];

/** How keywords_last_updated_at (group records) and the alert `time` are written. */
export type TimestampOffsets = 'with-offset' | 'without-offset';
export const TIMESTAMP_OFFSETS: readonly TimestampOffsets[] = ['with-offset', 'without-offset'];

/** keywords_last_updated_at of groups (not projects): stamped as for projects, or always null. */
export type GroupsLastUpdated = 'stamped' | 'null';
export const GROUPS_LAST_UPDATED: readonly GroupsLastUpdated[] = ['stamped', 'null'];

/** What a chart request (#14) with more keyword ids than `chartMaxKeywords` gets: the first ones, or a 422. */
export type ChartOverCap = 'serve-first' | 'reject';
export const CHART_OVER_CAP: readonly ChartOverCap[] = ['serve-first', 'reject'];

/** The AI-visibility day not over yet (#26): in the series with what was measured so far, or left out. */
export type AiToday = 'partial' | 'omitted';
export const AI_TODAY: readonly AiToday[] = ['partial', 'omitted'];

/**
 * What an alert's `category` names (§2.6 says the project name; §2.4 gives a keyword's as its project or group):
 * the keyword's own project or group (`Project[sub]Group` for a group's keyword), or its project only.
 */
export type AlertCategory = 'own-name' | 'project-name';
export const ALERT_CATEGORIES: readonly AlertCategory[] = ['own-name', 'project-name'];

/**
 * The entries of a chart's `rankingurls` (#14): one a crawl (two crawls of one day give two entries of that date),
 * one a day that had a crawl (its last crawl), or one every calendar day with a "NOT FOUND" filler (rank null) on days
 * without a crawl.
 */
export type ChartEntries = 'per-crawl' | 'per-day' | 'per-day-filled';
export const CHART_ENTRIES: readonly ChartEntries[] = ['per-crawl', 'per-day', 'per-day-filled'];

/**
 * What a chart's `limit` counts (#14, "days of history"): days back from the API's today, days back from the
 * keyword's last crawl, or entries.
 */
export type ChartLimit = 'days-from-today' | 'days-from-last-crawl' | 'entries';
export const CHART_LIMITS: readonly ChartLimit[] = [
	'days-from-today',
	'days-from-last-crawl',
	'entries',
];

/** How AI-visibility domain ids look (#23–#28; "not shown"): 24 hex characters, or UUIDs (36 characters). */
export type AiDomainIds = 'hex24' | 'uuid';
export const AI_DOMAIN_IDS: readonly AiDomainIds[] = ['hex24', 'uuid'];

/** Largest page size the paged lists accept (#13, #20, #21); the switch maxPerPage may lower it. */
export const MAX_PER_PAGE = 250;

/** Changes made to the data after every `everyPages`-th page answered of the keyword list (#13) or the alert list (#20). */
export interface ChurnSpec {
	/** Apply the changes after every N-th page answered (counted per list: keyword pages and alert pages apart). Default 1. */
	everyPages?: number;
	/** Keyword list: generated keywords added to the project or group read, tracked with ranks. Default 0. */
	addKeywords?: number;
	/** Keyword list: keywords of the list read deleted, at positions spread over the whole list. Default 0. */
	deleteKeywords?: number;
	/** Keyword list: keywords of the list read re-crawled (a rank update, as simulateRankUpdate does). Default 0. */
	crawlKeywords?: number;
	/** Alert list: new alerts, created now. Default 0. */
	addAlerts?: number;
}

export interface FakeBehaviour {
	/** Default 'as-asked'. */
	alertOrder: AlertOrder;
	/** Default 'newest-first'. */
	historyOrder: HistoryOrder;
	/** Default null (no churn). Read back with every count filled in. */
	churn: ChurnSpec | null;
	/** Extra delay before answering each page of #13 and #20, on top of the global latency. Default 0. */
	pageLatencyMs: number;
	/** Largest page of #13, #20 and #21 (an integer 1..250); a larger per_page is clamped to it. Default 250. */
	maxPerPage: number;
	/** Order of #13's list. Default 'id-ascending'. */
	keywordOrder: KeywordOrder;
	/** Order of alerts sharing one created_at second. Default 'by-id'. */
	alertTieOrder: AlertTieOrder;
	/** Default 'with-offset'. */
	timestampOffsets: TimestampOffsets;
	/** Default 'stamped'. */
	groupsLastUpdated: GroupsLastUpdated;
	/** A project's #13 list holds its groups' keywords too. Default false. */
	projectListIncludesGroups: boolean;
	/** A project's `keywords_last_updated_at` and `crawled_at` move with its groups' crawls too. Default true. */
	projectTimeCoversGroups: boolean;
	/**
	 * Most keyword ids one chart request (#14) serves; the document bounds none. Default null (no cap: every id
	 * asked for is charted).
	 */
	chartMaxKeywords: number | null;
	/** What a chart request over `chartMaxKeywords` gets. Default 'serve-first' (the rest silently left out). */
	chartOverCap: ChartOverCap;
	/**
	 * How far (ms) the `Date` header runs ahead of the clock the fake stamps with (negative: behind), when the header
	 * follows that clock (the option `dateFromClock`). Default 0.
	 */
	dateSkewMs: number;
	/** The AI-visibility day not over yet by the fake's clock (#26, #27, #28). Default 'partial'. */
	aiToday: AiToday;
	/** What an alert's `category` names (#20). Default 'own-name'. */
	alertCategory: AlertCategory;
	/** The entries of a chart's `rankingurls` (#14). Default 'per-day-filled'. */
	chartEntries: ChartEntries;
	/** What a chart's `limit` counts (#14). Default 'days-from-last-crawl'. */
	chartLimit: ChartLimit;
	/** How AI-visibility domain ids look. Default 'hex24'. */
	aiDomainIds: AiDomainIds;
}

/** What churn did after one page answer (FakeKeywordApi.churnLog). Ids are strings, as the API sends them. */
export interface ChurnLogEntry {
	/** Index into `requests` of the page request after whose answer the changes were made. */
	afterRequest: number;
	list: 'keywords' | 'alerts';
	/** The project or group whose keyword list was read (keyword list only). */
	category?: string;
	added: string[];
	deleted: string[];
	crawled: string[];
	/** Alerts created (alert list only). */
	alerts: string[];
}

export const DEFAULT_BEHAVIOUR: Readonly<FakeBehaviour> = Object.freeze({
	alertOrder: 'as-asked',
	historyOrder: 'newest-first',
	churn: null,
	pageLatencyMs: 0,
	maxPerPage: MAX_PER_PAGE,
	keywordOrder: 'id-ascending',
	alertTieOrder: 'by-id',
	timestampOffsets: 'with-offset',
	groupsLastUpdated: 'stamped',
	projectListIncludesGroups: false,
	projectTimeCoversGroups: true,
	chartMaxKeywords: null,
	chartOverCap: 'serve-first',
	dateSkewMs: 0,
	aiToday: 'partial',
	alertCategory: 'own-name',
	chartEntries: 'per-day-filled',
	chartLimit: 'days-from-last-crawl',
	aiDomainIds: 'hex24',
});

const CHURN_COUNTS = ['addKeywords', 'deleteKeywords', 'crawlKeywords', 'addAlerts'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy that shares nothing with the input. */
export function copyBehaviour(b: Readonly<FakeBehaviour>): FakeBehaviour {
	return { ...b, churn: b.churn ? { ...b.churn } : null };
}

function normaliseChurn(value: unknown): Required<ChurnSpec> | null {
	if (value === null) return null;
	if (!isObject(value)) throw new Error('churn must be an object or null.');
	for (const key of Object.keys(value)) {
		if (key !== 'everyPages' && !(CHURN_COUNTS as readonly string[]).includes(key)) {
			throw new Error(`churn has no setting "${key}"; use everyPages, ${CHURN_COUNTS.join(', ')}.`);
		}
	}
	const everyPages = value.everyPages ?? 1;
	if (typeof everyPages !== 'number' || !Number.isInteger(everyPages) || everyPages < 1) {
		throw new Error('churn.everyPages must be a positive integer.');
	}
	const out: Required<ChurnSpec> = {
		everyPages,
		addKeywords: 0,
		deleteKeywords: 0,
		crawlKeywords: 0,
		addAlerts: 0,
	};
	for (const key of CHURN_COUNTS) {
		const n = value[key] ?? 0;
		if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
			throw new Error(`churn.${key} must be a non-negative integer.`);
		out[key] = n;
	}
	return out;
}

/** `value` when it is one of `allowed`, else an Error naming the switch and the values it takes. */
function oneOf<T extends string>(key: string, value: unknown, allowed: readonly T[]): T {
	if (!(allowed as readonly unknown[]).includes(value))
		throw new Error(`${key} must be one of ${allowed.join(', ')}.`);
	return value as T;
}

/**
 * `current` with the switches of `partial` applied. Keys absent (or undefined) keep their value; a `churn` object
 * replaces the previous one whole (counts it leaves out are 0), and `churn: null` turns churn off. Throws an Error
 * naming the switch on an unknown key or a bad value, and changes nothing then.
 */
export function mergeBehaviour(current: Readonly<FakeBehaviour>, partial: unknown): FakeBehaviour {
	if (!isObject(partial)) throw new Error('The behaviour must be an object.');
	const next = copyBehaviour(current);
	for (const [key, value] of Object.entries(partial)) {
		if (value === undefined) continue;
		switch (key) {
			case 'alertOrder':
				next.alertOrder = oneOf(key, value, ALERT_ORDERS);
				break;
			case 'historyOrder':
				next.historyOrder = oneOf(key, value, HISTORY_ORDERS);
				break;
			case 'pageLatencyMs':
				if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
					throw new Error('pageLatencyMs must be a non-negative number.');
				next.pageLatencyMs = value;
				break;
			case 'churn':
				next.churn = normaliseChurn(value);
				break;
			case 'maxPerPage':
				if (
					typeof value !== 'number' ||
					!Number.isInteger(value) ||
					value < 1 ||
					value > MAX_PER_PAGE
				)
					throw new Error(`maxPerPage must be an integer from 1 to ${MAX_PER_PAGE}.`);
				next.maxPerPage = value;
				break;
			case 'keywordOrder':
				next.keywordOrder = oneOf(key, value, KEYWORD_ORDERS);
				break;
			case 'alertTieOrder':
				next.alertTieOrder = oneOf(key, value, ALERT_TIE_ORDERS);
				break;
			case 'timestampOffsets':
				next.timestampOffsets = oneOf(key, value, TIMESTAMP_OFFSETS);
				break;
			case 'groupsLastUpdated':
				next.groupsLastUpdated = oneOf(key, value, GROUPS_LAST_UPDATED);
				break;
			case 'projectListIncludesGroups':
				if (typeof value !== 'boolean')
					throw new Error('projectListIncludesGroups must be true or false.');
				next.projectListIncludesGroups = value;
				break;
			case 'aiToday':
				next.aiToday = oneOf(key, value, AI_TODAY);
				break;
			case 'alertCategory':
				next.alertCategory = oneOf(key, value, ALERT_CATEGORIES);
				break;
			case 'chartEntries':
				next.chartEntries = oneOf(key, value, CHART_ENTRIES);
				break;
			case 'chartLimit':
				next.chartLimit = oneOf(key, value, CHART_LIMITS);
				break;
			case 'aiDomainIds':
				next.aiDomainIds = oneOf(key, value, AI_DOMAIN_IDS);
				break;
			case 'dateSkewMs':
				if (typeof value !== 'number' || !Number.isInteger(value))
					throw new Error('dateSkewMs must be an integer.');
				next.dateSkewMs = value;
				break;
			case 'projectTimeCoversGroups':
				if (typeof value !== 'boolean')
					throw new Error('projectTimeCoversGroups must be true or false.');
				next.projectTimeCoversGroups = value;
				break;
			case 'chartMaxKeywords':
				if (value !== null && (typeof value !== 'number' || !Number.isInteger(value) || value < 1))
					throw new Error('chartMaxKeywords must be a positive integer or null.');
				next.chartMaxKeywords = value;
				break;
			case 'chartOverCap':
				next.chartOverCap = oneOf(key, value, CHART_OVER_CAP);
				break;
			default:
				throw new Error(
					`Unknown behaviour switch "${key}"; use ${Object.keys(DEFAULT_BEHAVIOUR).join(', ')}.`,
				);
		}
	}
	return next;
}
