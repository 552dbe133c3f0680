/**
 * The world's driver for a fake API running as a process (dev/fake-api/cli.cjs), on the real clock: every change goes
 * through the fake's control routes (`/__control/...`). Used by the simulation in a real n8n (test/e2e), where n8n
 * polls the fake on its own schedule.
 *
 * The driver keeps the keyword ids of every project and group itself (it added them all; churn is not used here), so
 * it never reads the API. The few API reads it needs (the alerts a crawl created) carry the header
 * `x-simulation-driver`, and the request counts leave them out.
 */
import type { MidPoll } from './plan.cjs';
import {
	KEYWORD_LIST_PATH,
	SUB,
	type AlertTruth,
	type ContainerChange,
	type CrawlTruth,
	type FaultOrder,
	type WorldDriver,
} from './world.cjs';

/** The marker on the driver's own API requests. */
export const DRIVER_HEADER = 'x-simulation-driver';

interface RecordedRequest {
	path: string;
	headers?: Record<string, string>;
}

export class ControlDriver implements WorldDriver {
	readonly clock = 'real' as const;
	/** Keyword ids per full name, in list order (ascending ids, as the fake lists them by default). */
	private readonly ids = new Map<string, string[]>();

	constructor(
		readonly baseUrl: string,
		private readonly token: string,
	) {}

	now(): number {
		return Date.now();
	}

	setNow(): void {
		throw new Error('ControlDriver: the clock is the real one');
	}

	private async call(method: string, path: string, body?: unknown): Promise<unknown> {
		const api = path.startsWith('/api/');
		const res = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(api ? { authorization: `Bearer ${this.token}`, [DRIVER_HEADER]: '1' } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(30_000),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(`fake ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
		return text ? (JSON.parse(text) as unknown) : undefined;
	}

	private async control(method: string, route: string, body?: unknown): Promise<unknown> {
		return await this.call(method, `/__control/${route}`, body);
	}

	async createContainer(name: string): Promise<void> {
		await this.control('POST', 'projects', { name });
		this.ids.set(name, []);
	}

	/** Moves the id lists of a container (and of a project's groups) to the new name. */
	private moveIds(name: string, newName: string): void {
		for (const [key, list] of [...this.ids]) {
			if (key === name) {
				this.ids.delete(key);
				this.ids.set(newName, list);
			} else if (key.startsWith(`${name}${SUB}`)) {
				this.ids.delete(key);
				this.ids.set(`${newName}${key.slice(name.length)}`, list);
			}
		}
	}

	private dropIds(name: string): void {
		for (const key of [...this.ids.keys()])
			if (key === name || key.startsWith(`${name}${SUB}`)) this.ids.delete(key);
	}

	async renameContainer(name: string, newName: string): Promise<boolean> {
		await this.control('POST', 'containers/rename', { name, to: newName });
		this.moveIds(name, newName);
		return true;
	}

	async setArchived(name: string, archived: boolean): Promise<void> {
		await this.control('POST', `containers/${archived ? 'archive' : 'restore'}`, { name });
	}

	async deleteContainer(name: string): Promise<void> {
		await this.control('POST', 'containers/delete', { name });
		this.dropIds(name);
	}

	async addKeywords(name: string, count: number, tracked: boolean): Promise<void> {
		const added = (await this.control('POST', 'keywords', { category: name, count, tracked })) as {
			ids: string[];
		};
		const list = this.ids.get(name) ?? [];
		list.push(...added.ids.map(String));
		this.ids.set(name, list);
	}

	async keywordIds(name: string): Promise<string[]> {
		return [...(this.ids.get(name) ?? [])];
	}

	async deleteKeywords(ids: string[]): Promise<void> {
		await this.control('POST', 'keywords/delete', { ids });
		const gone = new Set(ids);
		for (const [key, list] of this.ids)
			this.ids.set(
				key,
				list.filter((id) => !gone.has(id)),
			);
	}

	private async alertCount(): Promise<number> {
		return ((await this.control('GET', 'state')) as { alerts: number }).alerts;
	}

	async crawl(
		ids: string[],
		alerts: boolean,
	): Promise<{ crawls: CrawlTruth[]; alerts: AlertTruth[] }> {
		const before = alerts ? await this.alertCount() : 0;
		const answer = (await this.control('POST', 'rank-update', {
			keywordIds: ids,
			createAlerts: alerts,
		})) as {
			keywords: Array<{
				id: string;
				category: string;
				grank: number | null;
				crawled_at: number;
				previous_rank: number | null;
				rankingurl: string | null;
				previous_rankingurl: string | null;
				tags: string[];
			}>;
		};
		const crawls = answer.keywords.map((k) => ({
			id: String(k.id),
			crawledAt: k.crawled_at,
			rank: k.grank ?? 0,
			category: k.category,
			previousRank: k.previous_rank ?? undefined,
			url: k.rankingurl ?? undefined,
			previousUrl: k.previous_rankingurl ?? undefined,
			tags: k.tags,
		}));
		if (!alerts) return { crawls, alerts: [] };
		const created = (await this.alertCount()) - before;
		return { crawls, alerts: created > 0 ? await this.newestAlerts(created) : [] };
	}

	/** The newest `count` alerts, by id (the driver's own read, left out of the request counts). */
	private async newestAlerts(count: number): Promise<AlertTruth[]> {
		const out: AlertTruth[] = [];
		for (let page = 1; out.length < count; page++) {
			const body = (await this.call(
				'GET',
				`/api/v2/alerts?sort_field=id&sort_direction=desc&per_page=250&page=${page}`,
			)) as { data: Array<{ id: string; attributes: Record<string, unknown> }> };
			if (body.data.length === 0) break;
			for (const record of body.data) out.push(alertTruth(record));
		}
		return out.slice(0, count);
	}

	async addAlerts(name: string, count: number, createdAt?: number): Promise<AlertTruth[]> {
		const answer = (await this.control('POST', 'alerts', { count, category: name, createdAt })) as {
			data: Array<{ id: string; attributes: Record<string, unknown> }>;
		};
		return answer.data.map(alertTruth);
	}

	async setLatency(ms: number): Promise<void> {
		await this.control('POST', 'latency', { ms });
	}

	async injectFault(order: FaultOrder): Promise<void> {
		const path = order.path ?? /^\/api\//;
		await this.control('POST', 'faults', {
			pathRegex: path.source,
			pathRegexFlags: path.flags,
			times: order.times,
			status: order.status,
			retryAfter: order.retryAfter,
			kind: order.kind ?? 'status',
			stallMs: order.stallMs,
			every: order.every,
		});
	}

	async clearFaults(): Promise<void> {
		await this.control('DELETE', 'faults');
	}

	async takeRequestCount(): Promise<number> {
		const requests = ((await this.control('GET', 'requests')) as { data: RecordedRequest[] }).data;
		await this.control('DELETE', 'requests');
		return requests.filter((r) => !r.headers?.[DRIVER_HEADER]).length;
	}

	async armChange(after: MidPoll, change: ContainerChange): Promise<number> {
		const match =
			after === 'groups'
				? { path: '/api/v2/groups/active' }
				: { pathRegex: KEYWORD_LIST_PATH.source };
		const armed = (await this.control('POST', 'after-answer', {
			...match,
			method: 'GET',
			change,
		})) as { id: number };
		if (change.op === 'rename') this.pendingMoves.set(armed.id, change);
		if (change.op === 'delete') this.pendingMoves.set(armed.id, change);
		return armed.id;
	}

	private readonly pendingMoves = new Map<number, ContainerChange>();

	async takeChanges(): Promise<Map<number, boolean>> {
		const log = (await this.control('GET', 'changes-log')) as {
			data: Array<{ id: number; applied: boolean }>;
		};
		await this.control('DELETE', 'changes-log');
		const made = new Map(log.data.map((entry) => [entry.id, entry.applied]));
		for (const [id, applied] of made) {
			const change = this.pendingMoves.get(id);
			this.pendingMoves.delete(id);
			if (!applied || !change) continue;
			if (change.op === 'rename' && change.to) this.moveIds(change.name, change.to);
			if (change.op === 'delete') this.dropIds(change.name);
		}
		return made;
	}

	async disarmChanges(): Promise<void> {
		await this.control('DELETE', 'after-answer');
		this.pendingMoves.clear();
	}
}

function alertTruth(record: { id: string; attributes: Record<string, unknown> }): AlertTruth {
	const a = record.attributes;
	return {
		id: String(record.id),
		createdAt: Number(a.created_at),
		category: String(a.category),
		prevrank: Number(a.prevrank),
		result: Number(a.result),
	};
}
