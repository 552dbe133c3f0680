/**
 * Synthetic search results and competitor domains, computed on demand from stable hashes so that the same keyword
 * and date always give the same page of results, whatever else happened before.
 */
import { DAY_MS, slugify } from './format.cjs';
import { hashUnit } from './prng.cjs';
import { hostOf, type Container, type FakeState, type Keyword } from './state.cjs';

const KNOWN_DOMAINS = [
	'wikipedia.org',
	'amazon.com',
	'reddit.com',
	'youtube.com',
	'nytimes.com',
	'forbes.com',
	'healthline.com',
	'tripadvisor.com',
	'yelp.com',
	'ebay.com',
	'walmart.com',
	'theguardian.com',
	'quora.com',
	'medium.com',
	'pinterest.com',
];
const SUFFIXES = [
	'hub',
	'world',
	'guide',
	'pro',
	'zone',
	'depot',
	'review',
	'daily',
	'expert',
	'store',
	'lab',
	'mag',
];
const TLDS = ['.com', '.net', '.org', '.co.uk', '.de'];

const poolCache = new Map<string, string[]>();

/**
 * About 75 distinct competitor domains for a keyword, in a stable order that depends on the keyword's first word
 * (so related keywords share competitors). Cached: share of voice asks once per keyword.
 */
export function competitorPool(topic: string, exclude: string): string[] {
	const word = slugify(topic.split(' ')[0]) || 'search';
	const key = `${word}\u0000${exclude}`;
	const cached = poolCache.get(key);
	if (cached) return cached;
	const pool = new Set<string>(KNOWN_DOMAINS);
	for (const suffix of SUFFIXES) for (const tld of TLDS) pool.add(`${word}${suffix}${tld}`);
	pool.delete(exclude);
	const sorted = [...pool].sort((a, b) => hashUnit(word, a) - hashUnit(word, b));
	if (poolCache.size > 5000) poolCache.clear();
	poolCache.set(key, sorted);
	return sorted;
}

export interface SerpResult {
	resultType: string;
	url: string;
	title: string;
}

const titleCase = (s: string): string => s.replace(/\b\p{L}/gu, (ch) => ch.toUpperCase());

/** Top 100 results for a keyword on one day; the tracked address sits at the keyword's rank of that day. */
export function serpFor(k: Keyword, dayMs: number, ownRank: number): SerpResult[] {
	const pool = competitorPool(k.kw, hostOf(k.url));
	const day = Math.floor(dayMs / DAY_MS);
	// A small daily rotation makes competitors move between days, as real results do.
	const shift = Math.floor(hashUnit(k.id, day) * 4);
	const slug = slugify(k.kw) || 'result';
	const results: SerpResult[] = [];
	let p = 0;
	for (let position = 1; position <= 100; position++) {
		if (position === ownRank) {
			results.push({
				resultType: 'organic',
				url: k.rankingUrl !== 'NOT FOUND' ? k.rankingUrl : `https://${hostOf(k.url)}/`,
				title: `${titleCase(k.kw)} | ${hostOf(k.url)}`,
			});
			continue;
		}
		const domain = pool[(p + shift) % pool.length];
		p++;
		let resultType = 'organic';
		if (position === 1 && k.features.includes('featured_snippet')) resultType = 'featured_snippet';
		else if (position === 2 && k.features.includes('local_pack')) resultType = 'local_pack';
		else if (position === 4 && k.features.includes('video')) resultType = 'video';
		const page = p > pool.length ? `${slug}-${Math.floor(p / pool.length) + 1}` : slug;
		results.push({
			resultType,
			url: `https://www.${domain}/${page}`,
			title: `${titleCase(k.kw)} - ${domain}`,
		});
	}
	return results;
}

/** Estimated click-through rate by position, used for share of voice clicks. */
export function ctrAt(rank: number): number {
	if (rank <= 0 || rank > 100) return 0;
	const table = [0.28, 0.15, 0.11, 0.08, 0.07, 0.05, 0.04, 0.03, 0.025, 0.02];
	return rank <= 10 ? table[rank - 1] : 0.01 / Math.sqrt(rank - 9);
}

export interface SovEntry {
	title: string;
	url: string;
	clicks: number;
	percentage: number;
	changes: { month: number };
}

/**
 * Share of voice of a project (with its groups) `daysAgo` days back: the own domain's clicks come from its
 * keyword ranks; competitor clicks from a stable share of the remaining search volume.
 */
export function shareOfVoice(state: FakeState, c: Container, daysAgo: number): SovEntry[] {
	const keywords = [...state.keywordsOf(c, true)];
	if (keywords.length === 0) return [];
	const ownDomain = keywords.length > 0 ? hostOf(keywords[0].url) : c.domain;
	const clicksAt = (offset: number): Map<string, number> => {
		const totals = new Map<string, number>();
		for (const k of keywords) {
			const rank = state.rankAt(k, offset) ?? 0;
			const own = ctrAt(rank) * k.ms;
			totals.set(hostOf(k.url), (totals.get(hostOf(k.url)) ?? 0) + own);
			const pool = competitorPool(k.kw, hostOf(k.url)).slice(0, 6);
			pool.forEach((domain, i) => {
				const share =
					ctrAt(i + 1) * k.ms * (0.6 + 0.8 * hashUnit(domain, k.id, Math.floor(offset / 7)));
				totals.set(domain, (totals.get(domain) ?? 0) + share);
			});
		}
		return totals;
	};
	const nowTotals = clicksAt(daysAgo);
	const prevTotals = clicksAt(daysAgo + 30);
	const sum = [...nowTotals.values()].reduce((a, b) => a + b, 0) || 1;
	const prevSum = [...prevTotals.values()].reduce((a, b) => a + b, 0) || 1;
	return [...nowTotals.entries()]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, 10)
		.map(([domain, clicks]) => {
			const percentage = Math.round((clicks / sum) * 10000) / 100;
			const prev = Math.round(((prevTotals.get(domain) ?? 0) / prevSum) * 10000) / 100;
			return {
				title: domain === ownDomain ? `${c.projectName} (${domain})` : domain,
				url: domain,
				clicks: Math.round(clicks * 100) / 100,
				percentage,
				changes: { month: Math.round((percentage - prev) * 100) / 100 },
			};
		});
}
