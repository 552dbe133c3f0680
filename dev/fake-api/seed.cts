/**
 * Seed data. 'demo' gives a small, realistic account (two projects, groups with awkward names, ~30 keywords,
 * alerts, two AI-visibility domains); 'empty' gives nothing. Everything comes from the state's seeded PRNG and
 * the injected clock, so two fakes built with the same clock hold the same data.
 */
import { DAY_MS } from './format.cjs';
import type { AiDomain, AiSearchTerm, AiTopic, FakeState, KeywordInput } from './state.cjs';

export type SeedName = 'empty' | 'demo';

const HOUR_MS = 3_600_000;

interface SeedKeyword extends KeywordInput {
	tags?: string[];
}

const ACME_KEYWORDS: SeedKeyword[] = [
	{ kw: 'running shoes', url: 'acmeshoes.com', tags: ['Running', 'Head terms'] },
	{ kw: 'trail running shoes', url: 'acmeshoes.com', tags: ['Running'] },
	{ kw: 'best running shoes for flat feet', url: 'acmeshoes.com', tags: ['Running', 'Long tail'] },
	{ kw: 'acme shoes', url: 'acmeshoes.com', tags: ['Brand'] },
	{ kw: 'acme shoes discount code', url: 'acmeshoes.com', tags: ['Brand', 'Long tail'] },
	{ kw: 'waterproof hiking boots', url: 'https://acmeshoes.com/hiking/boots/', tags: ['Hiking'] },
	{ kw: 'hiking boots', url: 'acmeshoes.com', type: 'sem', tags: ['Hiking', 'Head terms'] },
	{
		kw: 'laufschuhe damen',
		url: 'acmeshoes.com',
		region: 'google.de',
		language: 'de',
		tags: ['Running', 'DE'],
	},
	{ kw: 'running shoes uk', url: 'acmeshoes.com', region: 'google.co.uk', tags: ['Running'] },
	{ kw: 'kids sneakers', url: 'acmeshoes.com', type: 'sem' },
	{
		kw: 'shoe store near me',
		url: 'acmeshoes.com',
		type: 'maps',
		gmb: 'Acme Shoes Flagship',
		near: 'Portland, OR',
	},
	{ kw: 'marathon shoes 2026', url: 'acmeshoes.com', tags: ['Running', 'Q1 push'] },
];

const BLOG_KEYWORDS: SeedKeyword[] = [
	{ kw: 'how to choose running shoes', url: 'https://acmeshoes.com/blog/', tags: ['Guides'] },
	{
		kw: 'how often to replace running shoes',
		url: 'https://acmeshoes.com/blog/',
		tags: ['Guides'],
	},
	{ kw: 'heel drop explained', url: 'https://acmeshoes.com/blog/', tags: ['Guides', 'Long tail'] },
	{ kw: 'couch to 5k plan', url: 'https://acmeshoes.com/blog/' },
	{ kw: 'shin splints running', url: 'https://acmeshoes.com/blog/', type: 'sem' },
];

const SHOP_KEYWORDS: SeedKeyword[] = [
	{ kw: 'running shoes sale', url: 'https://acmeshoes.com/shop/sale/', tags: ['Deals'] },
	{ kw: 'cheap trail shoes', url: 'https://acmeshoes.com/shop/sale/', tags: ['Deals'] },
	{ kw: 'black friday shoe deals', url: 'acmeshoes.com', tags: ['Deals', 'Seasonal'] },
	{ kw: 'buy hiking boots online', url: 'acmeshoes.com', type: 'sem' },
	{ kw: 'free shipping shoes', url: 'acmeshoes.com' },
];

const CAFE_KEYWORDS: SeedKeyword[] = [
	{
		kw: 'café zürich',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'de',
		tags: ['Marke'],
	},
	{
		kw: 'kaffee altstadt zürich',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'de',
		tags: ['Lokal'],
	},
	{
		kw: 'bestes café in zürich',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'de',
		tags: ['Lokal', 'Top'],
	},
	{
		kw: 'brunch zürich',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'de',
		type: 'sem',
		tags: ['Lokal'],
	},
	{
		kw: 'café near me',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'en',
		type: 'maps',
		gmb: 'Café Zürich',
		near: 'Zürich',
	},
	{
		kw: 'coffee shop zurich old town',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'en',
	},
	{
		kw: 'hafermilch cappuccino',
		url: 'https://cafe-zuerich.ch/karte/',
		region: 'google.ch',
		language: 'de',
		tags: ['Karte'],
	},
	{
		kw: 'frühstück zürich sonntag',
		url: 'cafe-zuerich.ch',
		region: 'google.ch',
		language: 'de',
		tags: ['Lokal'],
	},
];

export function seedState(state: FakeState, seed: SeedName): void {
	if (seed === 'empty') return;
	const acme = state.addProject('Acme Shoes', { currencyCode: 'USD', url: 'acmeshoes.com' });
	acme.companyName = 'Acme Shoes Inc.';
	acme.companyLink = 'https://acmeshoes.com';
	const blog = state.addGroup('Acme Shoes', 'Blog', { url: 'https://acmeshoes.com/blog/' });
	const shop = state.addGroup('Acme Shoes', 'Shop & Deals', { url: 'https://acmeshoes.com/shop/' });
	const cafe = state.addProject('Café Zürich', { currencyCode: 'CHF', url: 'cafe-zuerich.ch' });
	cafe.notesCount = 2;
	for (const [c, list] of [
		[acme, ACME_KEYWORDS],
		[blog, BLOG_KEYWORDS],
		[shop, SHOP_KEYWORDS],
		[cafe, CAFE_KEYWORDS],
	] as const) {
		for (const kw of list)
			state.addKeyword(c, { source: state.rng.pick([1, 1, 3, 4]), ...kw }, true);
	}
	// A few alerts spread over the last week, oldest first, some sharing a timestamp (as one crawl produces).
	const now = state.nowSeconds();
	const stamps = [6, 6, 5, 4, 4, 4, 3, 2, 1.5, 1, 0.5, 0.1].map((days) =>
		Math.floor(now - days * 86400),
	);
	stamps.forEach((createdAt, i) =>
		state.addAlerts(1, {
			createdAt,
			category: i % 3 === 2 ? 'Café Zürich' : i % 3 === 1 ? blog.name : 'Acme Shoes',
			read: i < 4,
		}),
	);
	seedAiDomains(state);
}

function seedAiDomains(state: FakeState): void {
	const rng = state.rng;
	const t = state.now();
	const id = (): string => rng.hex(24);
	const topic = (name: string): AiTopic => ({ id: id(), name });
	const makeDomain = (
		domain: string,
		brandName: string,
		brandVariations: string[],
		strength: number,
		competitors: AiDomain['competitors'],
		terms: Array<[string, AiTopic | null, string[]]>,
		topics: AiTopic[],
	): AiDomain => {
		const d: AiDomain = {
			id: id(),
			domain,
			brandName,
			brandVariations,
			strength,
			competitors,
			topics,
			searchTerms: [],
			createdAt: t - 120 * DAY_MS,
			updatedAt: t - 2 * DAY_MS,
		};
		d.searchTerms = terms.map(([term, tp, tags], i): AiSearchTerm => {
			const created = t - (90 - i * 5) * DAY_MS;
			const last = t - (i % 5) * DAY_MS - HOUR_MS * (i + 1);
			const engines = i % 3 === 2 ? ['chatgpt_gui'] : ['chatgpt_gui', 'google_ai_overview'];
			return {
				id: id(),
				domainId: d.id,
				term,
				engines,
				status: 'active',
				executionsAmount: 3 + i * 2,
				interval: 'monthly',
				region: domain.endsWith('.ch') ? 'ch' : 'us',
				websearch: engines.includes('chatgpt_gui'),
				createdAt: created,
				lastExecutionTime: last,
				nextScheduledExecutionTime: last + 30 * DAY_MS,
				topic: tp,
				tags,
			};
		});
		return d;
	};

	const running = topic('Running shoes');
	const hiking = topic('Hiking');
	const brand = topic('Brand');
	state.aiDomains.push(
		makeDomain(
			'acmeshoes.com',
			'Acme Shoes',
			['Acme', 'AcmeShoes'],
			0.45,
			[
				{ name: 'Nike', domain: 'nike.com', variations: ['Nike Running'], strength: 0.8 },
				{ name: 'Adidas', domain: 'adidas.com', variations: ['adidas'], strength: 0.7 },
				{
					name: 'Brooks',
					domain: 'brooksrunning.com',
					variations: ['Brooks Running'],
					strength: 0.55,
				},
				{ name: 'Hoka', domain: 'hoka.com', variations: ['HOKA ONE ONE'], strength: 0.5 },
			],
			[
				['best running shoes for beginners', running, ['priority']],
				['most comfortable running shoes 2026', running, []],
				['are acme shoes good for marathons', brand, ['brand']],
				['waterproof hiking boots for women', hiking, []],
				['best trail running shoes', running, ['priority']],
				['acme shoes vs nike', brand, ['brand', 'comparison']],
				['what shoes do ultrarunners wear', null, []],
			],
			[running, hiking, brand],
		),
	);
	const coffee = topic('Kaffee');
	const brunch = topic('Brunch');
	state.aiDomains.push(
		makeDomain(
			'cafe-zuerich.ch',
			'Café Zürich',
			['Cafe Zurich', 'Café Zuerich'],
			0.35,
			[
				{
					name: 'Sprüngli',
					domain: 'spruengli.ch',
					variations: ['Confiserie Sprüngli'],
					strength: 0.75,
				},
				{
					name: 'Starbucks',
					domain: 'starbucks.ch',
					variations: ['Starbucks Coffee'],
					strength: 0.6,
				},
				{ name: 'Babu’s Bakery', domain: 'babus.ch', variations: ['Babus'], strength: 0.4 },
			],
			[
				['bestes café in zürich', coffee, []],
				['wo gibt es guten brunch in zürich', brunch, ['priority']],
				['specialty coffee zurich', coffee, []],
				['café mit hafermilch zürich altstadt', null, []],
			],
			[coffee, brunch],
		),
	);
}
