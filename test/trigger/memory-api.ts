/** An in-memory TriggerApi for the pure-logic tests: alerts and keyword lists paged like the API. */
import type { TriggerApi } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordComTrigger/poll';

export interface MemAlert {
	id: number;
	at: number;
	category?: string;
}

export interface MemKeyword {
	id: number;
	category: string;
	crawled_at: number | null;
	history: number[];
}

function page<T>(all: T[], pageNo: number, perPage: number) {
	const totalPages = Math.max(1, Math.ceil(all.length / perPage));
	const data = all.slice((pageNo - 1) * perPage, pageNo * perPage);
	return { data, meta: { pagination: { total: all.length, count: data.length, per_page: perPage, current_page: pageNo, total_pages: totalPages } } };
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

export function keywordRecord(k: MemKeyword) {
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
			grank: k.history[0] > 0 ? k.history[0] : null,
			grankhistory: k.history.length ? k.history : null,
			crawled_at: k.crawled_at,
		},
	};
}

export class MemoryApi implements TriggerApi {
	alerts: MemAlert[] = [];
	keywords: MemKeyword[] = [];
	updated: Record<string, string | null> = {};
	serverTime = 2_000_000_000;
	calls: string[] = [];
	/** Called before each request; throw from it to fail that request. */
	beforeRequest?: (call: string) => void;

	private hit(call: string) {
		this.calls.push(call);
		this.beforeRequest?.(call);
	}

	async alertsPage(pageNo: number, perPage: number) {
		this.hit(`alerts:${pageNo}`);
		const sorted = [...this.alerts].sort((a, b) => b.at - a.at || b.id - a.id);
		const body = page(sorted.map(alertRecord), pageNo, perPage);
		return body;
	}

	async activeGroups() {
		this.hit('groups');
		const names = new Set([...Object.keys(this.updated), ...this.keywords.map((k) => k.category)]);
		return {
			body: { data: [...names].map((name) => ({ type: 'group', id: name, attributes: { name, keywords_last_updated_at: this.updated[name] ?? null } })) },
			serverTime: this.serverTime,
		};
	}

	async keywordPage(name: string, pageNo: number, perPage: number) {
		this.hit(`keywords:${name}:${pageNo}`);
		const own = this.keywords.filter((k) => k.category === name).sort((a, b) => a.id - b.id);
		return page(own.map(keywordRecord), pageNo, perPage);
	}

	async keywordList(name: string) {
		const records: unknown[] = [];
		for (let p = 1; ; p++) {
			const body = await this.keywordPage(name, p, 250);
			records.push(...body.data);
			if (p >= body.meta.pagination.total_pages) break;
		}
		return records;
	}

	/** A crawl of the given keywords at `at`: new rank in front of the history, crawled_at and the project stamp move. */
	crawl(ids: number[], at: number, rank: (k: MemKeyword) => number = (k) => (k.history[0] ?? 10) + 1) {
		for (const k of this.keywords.filter((x) => ids.includes(x.id))) {
			k.history = [rank(k), ...k.history];
			k.crawled_at = at;
			this.updated[k.category] = new Date(at * 1000).toISOString().slice(0, 19) + '+00:00';
		}
	}
}
