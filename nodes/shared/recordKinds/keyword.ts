import type { IDataObject } from 'n8n-workflow';

import { currentRank } from '../ranks';
import { tagNames } from '../records';
import {
	isoKey,
	key,
	orNull,
	partsOf,
	type FieldReader,
	type Read,
	type RecordCatalogue,
} from './catalogue';

/** How a keyword was added (`source`, §2.4). */
const SOURCES: Record<number, string> = {
	1: 'api',
	2: 'keyword_suggestions',
	3: 'manual',
	4: 'bulk_import',
};

/** The device or search type (`type`, §2.4). */
const DEVICES: Record<string, string> = { se: 'desktop', sem: 'mobile', maps: 'maps' };

/** A named value for a code the document lists; a code it does not list comes through as sent. */
const named =
	(name: string, names: Record<string | number, string>): FieldReader =>
	(read) => {
		const value = read(name);
		return typeof value === 'string' || typeof value === 'number'
			? (names[value] ?? value)
			: orNull(value);
	};

/** The ranking address: null when there is none (the API writes `NOT FOUND`). */
function rankingUrl(read: Read): IDataObject[string] {
	const value = read('rankingurl');
	return typeof value === 'string' && value !== '' && value !== 'NOT FOUND' ? value : null;
}

/** Whether an exact address is tracked: `exact`, or the add answer's `url_tracking_method`. */
function exactUrl(read: Read): boolean | null {
	const exact = read('exact');
	if (typeof exact === 'boolean') return exact;
	const method = read('url_tracking_method');
	return typeof method === 'string' ? method.toLowerCase() === 'exact' : null;
}

/** SERP features found: the list (list and add answers), or the counters set (single retrieval). */
function serpFeatures(read: Read): string[] | null {
	const list = read('features');
	if (Array.isArray(list))
		return list.map((feature) => (typeof feature === 'string' ? feature : JSON.stringify(feature)));
	const counters = read('serp_features');
	if (!counters || typeof counters !== 'object' || Array.isArray(counters)) return null;
	return Object.entries(counters as IDataObject)
		.filter(([, value]) => value === true || (typeof value === 'number' && value > 0))
		.map(([name]) => name);
}

/** A keyword (§2.4): every field but those the document calls unused. */
export const keywordFields: Readonly<Record<string, FieldReader>> = {
	id: key('id'),
	keyword: key('kw'),
	project: (read) => partsOf(read('category')).project,
	group: (read) => partsOf(read('category')).group,
	project_id: key('project_id'),
	url: key('url'),
	exact_url: exactUrl,
	auth_key: key('auth'),
	source: named('source', SOURCES),
	region: key('region'),
	language: key('language'),
	device: named('type', DEVICES),
	location: key('near'),
	business_listing: key('gmb'),
	status: key('status'),
	favourite: key('isfav'),
	notes: key('notes'),
	tags: (read) => tagNames(read('tags')) ?? [],
	tag: key('tag'),
	rank: (read) =>
		currentRank({ grank: read('grank'), grank_int: read('grank_int') } as IDataObject),
	start_rank: key('start'),
	best_rank: key('best'),
	results_page: key('gpage'),
	results_count: key('seocomp'),
	ranking_url: rankingUrl,
	rank_history: key('grankhistory'),
	trends: key('trends'),
	in_featured_snippet: key('in_featured'),
	has_featured_snippet: key('has_featured'),
	featured_url: key('has_featured_url'),
	in_local_pack: key('in_local_pack'),
	ignore_local: key('ignore_local'),
	ignore_featured: key('ignore_featured'),
	in_share_of_voice: key('included_in_sov'),
	serp_features: serpFeatures,
	search_intents: key('search_intents'),
	search_volume: key('ms'),
	competition: key('competition'),
	cpc: key('cpc'),
	cpc_currency: key('currency_symbol'),
	clicks: key('clicks'),
	impressions: key('impressions'),
	ctr: key('ctr'),
	updated_at: isoKey('updated_at'),
	crawled_at: isoKey('crawled_at'),
};

export const keywordCatalogue: RecordCatalogue = {
	fields: keywordFields,
	simplified: [
		'id',
		'keyword',
		'project',
		'group',
		'region',
		'rank',
		'best_rank',
		'ranking_url',
		'search_volume',
		'crawled_at',
	],
};
