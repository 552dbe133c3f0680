/**
 * Synthetic AI-visibility measurements.
 *
 * One "sample" is what an engine answered for one search term in one time slot, seen from one brand: was the brand
 * named, at which position, with which sentiment, how many mentions and citations. Samples come from a stateless
 * hash of (domain, brand, term, engine, slot), so any window, filter or aggregation can be computed on demand and
 * stays consistent between calls. Aggregates are then plain averages and sums over the selected samples, which is
 * why narrowing topics[], search_terms[] or engine[] visibly changes the numbers.
 */
import { DAY_MS } from './format.cjs';
import { hashString } from './prng.cjs';
import type { AiDayChange, AiDomain, AiSearchTerm } from './state.cjs';

export const ENGINE_NAMES: Record<string, string> = {
	chatgpt_gui: 'ChatGPT',
	google_ai_overview: 'Google AI Overview',
};

export const engineName = (id: string): string => ENGINE_NAMES[id] ?? id;

export const ORPHANED_TOPIC = { id: '_orphaned', name: 'Search Terms Without Topic' };

export interface Brand {
	name: string;
	isOwnBrand: boolean;
	variations: string[];
	strength: number;
	domain: string;
}

export interface Sample {
	detected: boolean;
	position: number;
	sentiment: number;
	mentions: number;
	citations: number;
}

export interface Aggregate {
	visibilityScore: number;
	sentiment: number;
	mentions: number;
	citations: number;
	avgPosition: number;
	detectionRate: number;
	top3: number;
	validMetricsCount: number;
	appearances: number;
}

function mix(h: number): number {
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

/** Deterministic sample; `slot` is an hour or day index since the epoch. */
export function sample(brand: Brand, termKey: number, engine: string, slot: number): Sample {
	let h = mix(termKey ^ hashString(brand.name + '\u0001' + engine) ^ Math.imul(slot, 0x9e3779b1));
	const u = (): number => {
		h = mix(h + 0x6d2b79f5);
		return h / 4294967296;
	};
	const termAffinity = (termKey % 1000) / 1000;
	const detected = u() < Math.min(0.95, brand.strength * (0.6 + 0.8 * termAffinity));
	const position = detected ? 1 + Math.floor(u() * (1 + (1 - brand.strength) * 8)) : 0;
	const sentiment = Math.round(35 + 55 * (0.4 * brand.strength + 0.6 * u()));
	const mentions = detected ? 1 + Math.floor(u() * 3) : 0;
	const citations = detected && u() < 0.6 ? 1 + Math.floor(u() * 2) : 0;
	return { detected, position, sentiment, mentions, citations };
}

export function aggregate(samples: Sample[]): Aggregate {
	let detected = 0;
	let visibility = 0;
	let positions = 0;
	let sentiments = 0;
	let top3 = 0;
	let mentions = 0;
	let citations = 0;
	for (const s of samples) {
		mentions += s.mentions;
		citations += s.citations;
		if (!s.detected) continue;
		detected++;
		visibility += Math.max(0, 100 - (s.position - 1) * 12);
		positions += s.position;
		sentiments += s.sentiment;
		if (s.position <= 3) top3++;
	}
	const n = samples.length;
	const pct = (x: number): number => (n === 0 ? 0 : Math.round((x / n) * 10000) / 100);
	return {
		visibilityScore: n === 0 ? 0 : Math.round((visibility / n) * 100) / 100,
		sentiment: detected === 0 ? 0 : Math.round((sentiments / detected) * 100) / 100,
		mentions,
		citations,
		avgPosition: detected === 0 ? 0 : Math.round((positions / detected) * 100) / 100,
		detectionRate: pct(detected),
		top3: pct(top3),
		validMetricsCount: n,
		appearances: detected,
	};
}

export type Aggregation = 'hourly' | 'daily' | 'weekly' | 'monthly';
export const AGGREGATIONS: readonly Aggregation[] = ['hourly', 'daily', 'weekly', 'monthly'];

/** Start of the bucket containing ms: UTC hour, day, ISO week (Monday) or calendar month. */
export function bucketStart(ms: number, aggregation: Aggregation): number {
	if (aggregation === 'hourly') return Math.floor(ms / 3_600_000) * 3_600_000;
	const day = Math.floor(ms / DAY_MS) * DAY_MS;
	if (aggregation === 'daily') return day;
	if (aggregation === 'weekly') {
		const weekday = (new Date(day).getUTCDay() + 6) % 7;
		return day - weekday * DAY_MS;
	}
	const d = new Date(day);
	return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export interface Selection {
	terms: AiSearchTerm[];
	/** Engine filter; empty = every engine of each term. */
	engines: string[];
}

/** Pairs (term, engine) selected by the filters. */
export function pairs(
	sel: Selection,
): Array<{ term: AiSearchTerm; termKey: number; engine: string }> {
	const out = [];
	for (const term of sel.terms) {
		const termKey = hashString(term.id);
		for (const engine of term.engines)
			if (sel.engines.length === 0 || sel.engines.includes(engine))
				out.push({ term, termKey, engine });
	}
	return out;
}

/**
 * How the days of one domain's series look at a moment (the fake's clock): days before the domain was created are not
 * measured, the day not over yet holds what was measured so far (or is left out, the switch `aiToday`), and days
 * changed by hand (FakeState.changeAiDay) are revised, missing or without the brand.
 */
export interface DayRules {
	now: number;
	/** Start (ms) of the first day measured. */
	firstDay: number;
	partialToday: boolean;
	change(dayMs: number): AiDayChange | undefined;
}

/** The day's samples as revised, with the own brand taken out of a brandNotFound day. */
function daySample(
	brand: Brand,
	termKey: number,
	engine: string,
	slot: number,
	change: AiDayChange | undefined,
): Sample {
	const revised = slot + (change?.revision ?? 0) * 100_000_000;
	const s = sample(brand, termKey, engine, revised);
	if (!change?.brandNotFound || !brand.isOwnBrand) return s;
	return { ...s, detected: false, position: 0, mentions: 0, citations: 0 };
}

/**
 * Samples in [from, to): hourly slots for the hourly aggregation, daily slots otherwise, grouped into buckets.
 * Returns bucket start -> samples, in time order. With `rules`, the days follow them (DayRules).
 */
export function bucketedSamples(
	brand: Brand,
	selected: ReturnType<typeof pairs>,
	from: number,
	to: number,
	aggregation: Aggregation,
	rules?: DayRules,
): Map<number, Sample[]> {
	const slotMs = aggregation === 'hourly' ? 3_600_000 : DAY_MS;
	const buckets = new Map<number, Sample[]>();
	for (let t = Math.ceil(from / slotMs) * slotMs; t < to; t += slotMs) {
		const dayMs = Math.floor(t / DAY_MS) * DAY_MS;
		const change = rules?.change(dayMs);
		if (rules && (dayMs < rules.firstDay || change?.missing)) continue;
		let chosen = selected;
		if (rules && slotMs === DAY_MS && dayMs + DAY_MS > rules.now) {
			// Not over yet: only the answers measured so far (a share of the terms as the day goes on).
			if (!rules.partialToday) continue;
			chosen = selected.slice(0, Math.floor((selected.length * (rules.now - dayMs)) / DAY_MS));
		}
		const key = bucketStart(t, aggregation);
		let list = buckets.get(key);
		if (!list) buckets.set(key, (list = []));
		const slot = Math.floor(t / slotMs) + (aggregation === 'hourly' ? 1_000_000 : 0);
		for (const p of chosen) list.push(daySample(brand, p.termKey, p.engine, slot, change));
	}
	return buckets;
}

export function brandsOf(d: AiDomain): Brand[] {
	return [
		{
			name: d.brandName,
			isOwnBrand: true,
			variations: d.brandVariations,
			strength: d.strength,
			domain: d.domain,
		},
		...d.competitors.map((c) => ({
			name: c.name,
			isOwnBrand: false,
			variations: c.variations,
			strength: c.strength,
			domain: c.domain,
		})),
	];
}
