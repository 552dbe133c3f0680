/**
 * An in-memory TriggerApi for the pure-logic tests: alerts and keyword lists paged like the API, with the behaviours
 * the API document leaves open as switches (alert order, keyword id order, history order, changes between requests),
 * and a virtual clock: each request takes `latencyMs` of it, requests sent together overlap. A PollBudget built on
 * `api.now` then decides exactly as it would against a slow API, without waiting.
 */
import type { TriggerApi } from '../../nodes/KeywordComTrigger/polling/pollContract';
import { PollBudget } from '../../nodes/KeywordComTrigger/polling/budget';

export interface MemAlert {
	id: number;
	at: number;
	category?: string;
}

export interface MemKeyword {
	id: number;
	category: string;
	crawled_at: number | null;
	/** Newest first (the order the API serves is a switch). */
	history: number[];
}

/** One page of `all` (records built only for that page: lists run to 50,000 here). */
function page<T, R>(
	all: T[],
	pageNo: number,
	perPage: number,
	toRecord: (item: T) => R,
	maxPerPage = 250,
) {
	const size = Math.min(Math.max(1, perPage), maxPerPage);
	const totalPages = Math.max(1, Math.ceil(all.length / size));
	const data = all.slice((pageNo - 1) * size, pageNo * size).map(toRecord);
	return {
		data,
		meta: {
			pagination: {
				total: all.length,
				count: data.length,
				per_page: size,
				current_page: pageNo,
				total_pages: totalPages,
			},
		},
	};
}

export function alertRecord(alert: MemAlert) {
	return {
		type: 'alert',
		id: String(alert.id),
		attributes: {
			category: alert.category ?? 'Acme',
			keyword_id: 1,
			url: 'acme.com',
			kw: `kw ${alert.id}`,
			ms: 10,
			region: 'google.com',
			language: 'en',
			prevrank: 5,
			result: 3,
			time: new Date(alert.at * 1000).toISOString(),
			created_at: alert.at,
			read: false,
		},
	};
}

export function keywordRecord(
	k: MemKeyword,
	historyOrder: 'newest-first' | 'oldest-first' = 'newest-first',
) {
	const current = k.history[0];
	return {
		type: 'keyword',
		id: String(k.id),
		attributes: {
			category: k.category,
			kw: `kw ${k.id}`,
			url: 'acme.com',
			region: 'google.com',
			language: 'en',
			type: 'se',
			grank: current > 0 ? current : null,
			grank_int: current ?? 0,
			grankhistory: k.history.length
				? historyOrder === 'newest-first'
					? [...k.history]
					: [...k.history].reverse()
				: null,
			crawled_at: k.crawled_at,
		},
	};
}

/** A stable order unrelated to time (the same for the same ids). */
function scramble(id: number): number {
	return (id * 2_654_435_761) % 4_294_967_291;
}

export class MemoryApi implements TriggerApi {
	alerts: MemAlert[] = [];
	keywords: MemKeyword[] = [];
	updated: Record<string, string | null> = {};
	serverTime = 2_000_000_000;
	/** Virtual milliseconds (PollBudget's clock). */
	clock = 0;
	latencyMs = 0;
	alertOrder: 'newest-first' | 'oldest-first' | 'unordered' = 'newest-first';
	/** Order of alerts of one second: by id (with the list's direction), or mixed (stable, neither way). */
	alertTies: 'by-id' | 'mixed' = 'by-id';
	keywordOrder: 'ascending' | 'descending' = 'ascending';
	historyOrder: 'newest-first' | 'oldest-first' = 'newest-first';
	/** Largest page of the alert list: a larger per_page is clamped to it (and said in per_page). */
	maxAlertsPerPage = 250;
	/** Largest page of a keyword list, likewise. */
	maxKeywordsPerPage = 250;
	calls: string[] = [];
	/** Called before each request is answered: throw to fail it, or change the data under the reader. */
	beforeRequest?: (call: string) => void;

	readonly now = (): number => this.clock;

	/** A budget on this API's virtual clock. */
	budget(ms: number): PollBudget {
		return new PollBudget(ms, this.now);
	}

	private async hit(call: string): Promise<void> {
		const started = this.clock;
		this.calls.push(call);
		await Promise.resolve();
		this.beforeRequest?.(call);
		this.clock = Math.max(this.clock, started + this.latencyMs);
	}

	sortedAlerts(): MemAlert[] {
		if (this.alertOrder === 'unordered')
			return [...this.alerts].sort((a, b) => scramble(a.id) - scramble(b.id));
		const sign = this.alertOrder === 'newest-first' ? -1 : 1;
		const tie = (a: MemAlert, b: MemAlert) =>
			this.alertTies === 'mixed' ? scramble(a.id) - scramble(b.id) : sign * (a.id - b.id);
		return [...this.alerts].sort((a, b) => sign * (a.at - b.at) || tie(a, b));
	}

	async alertsPage(pageNo: number, perPage: number) {
		await this.hit(`alerts:${pageNo}`);
		return page(this.sortedAlerts(), pageNo, perPage, alertRecord, this.maxAlertsPerPage);
	}

	async activeGroups() {
		await this.hit('groups');
		const names = new Set([...Object.keys(this.updated), ...this.keywords.map((k) => k.category)]);
		return {
			body: {
				data: [...names].map((name) => ({
					type: 'group',
					id: name,
					attributes: {
						name,
						keywords_last_updated_at: this.updated[name] ?? null,
						keywords_count: { ACTIVE: this.listOf(name).length },
					},
				})),
			},
			serverTime: this.serverTime,
		};
	}

	listOf(name: string): MemKeyword[] {
		const sign = this.keywordOrder === 'ascending' ? 1 : -1;
		return this.keywords.filter((k) => k.category === name).sort((a, b) => sign * (a.id - b.id));
	}

	async keywordPage(name: string, pageNo: number, perPage: number) {
		await this.hit(`keywords:${name}:${pageNo}`);
		return page(
			this.listOf(name),
			pageNo,
			perPage,
			(k) => keywordRecord(k, this.historyOrder),
			this.maxKeywordsPerPage,
		);
	}

	/** #11: one keyword of a list; a 404 when the list does not hold it. */
	async keyword(name: string, id: string) {
		await this.hit(`keyword:${name}:${id}`);
		const found = this.listOf(name).find((k) => String(k.id) === id);
		if (!found) throw Object.assign(new Error(`Keyword ${id} was not found.`), { httpCode: '404' });
		return { data: keywordRecord(found, this.historyOrder) };
	}

	/** #2: a project or group listed by groups/active (or holding keywords); else a 404. */
	async container(name: string) {
		await this.hit(`group:${name}`);
		if (!(name in this.updated) && this.listOf(name).length === 0)
			throw Object.assign(new Error(`Project "${name}" was not found.`), { httpCode: '404' });
		return {
			data: {
				type: 'group',
				id: name,
				attributes: { name, keywords_last_updated_at: this.updated[name] ?? null },
			},
		};
	}

	/** #14: no ranking URLs here (the filter's tests use the fake API). */
	async chart(ids: readonly string[]) {
		await this.hit(`chart:${ids.length}`);
		return { data: [] };
	}

	/** #23's answer (AI Visibility Updated's tests set it); none: no domain. */
	aiDomainList: unknown = { data: [] };
	/** #26's answer per domain id; a function sees the query asked. */
	aiAnswers = new Map<string, unknown>();

	async aiDomains() {
		await this.hit('ai-domains');
		return { body: this.aiDomainList, serverTime: this.serverTime };
	}

	async aiDashboard(domainId: string, qs: Record<string, unknown>) {
		await this.hit(`ai-metrics:${domainId}:${String(qs.timeframe)}`);
		const answer = this.aiAnswers.get(domainId);
		if (answer === undefined)
			throw Object.assign(new Error(`Domain "${domainId}" was not found.`), { httpCode: '404' });
		return typeof answer === 'function' ? (answer as (q: unknown) => unknown)(qs) : answer;
	}

	/** The API's clock its answers carry (a Date header); none by default (New Alert then goes by the data alone). */
	dateHeader?: number;

	serverNow(): number | undefined {
		return this.dateHeader;
	}

	/** A crawl of the given keywords at `at`: new rank in front of the history, crawled_at and the project stamp move. */
	crawl(
		ids: number[],
		at: number,
		rank: (k: MemKeyword) => number = (k) => (k.history[0] ?? 10) + 1,
	) {
		const wanted = new Set(ids);
		for (const k of this.keywords) {
			if (!wanted.has(k.id)) continue;
			k.history = [rank(k), ...k.history];
			k.crawled_at = at;
			this.updated[k.category] = new Date(at * 1000).toISOString().slice(0, 19) + '+00:00';
		}
	}
}
