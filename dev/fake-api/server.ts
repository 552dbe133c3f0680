/**
 * HTTP plumbing of the fake: listening, recording every API request, authentication, fault injection, latency,
 * the behaviour switches (behaviour.ts; slow pages and churn between pages act here), the `/__control/` routes for
 * out-of-process tests, and the programmatic seeding/simulation methods.
 *
 * Built on `node:http` only (the project allows no runtime dependencies).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
	copyBehaviour,
	DEFAULT_BEHAVIOUR,
	mergeBehaviour,
	type ChurnLogEntry,
	type FakeBehaviour,
} from './behaviour';
import { ApiError, errorBody } from './errors';
import { isRecord, type Query, type RequestContext } from './context';
import {
	alertRecord,
	groupRecord,
	keywordRecord,
	type GroupRecord,
	type KeywordRecord,
} from './records';
import { decodeSegment, matchRoute, PAGED_LISTS, WRITING_GETS } from './routes';
import { seedState, type SeedName } from './seed';
import {
	FakeState,
	KEYWORD_TYPES,
	type AddAlertsOptions,
	type Container,
	type KeywordInput,
	type RankUpdateOptions,
} from './state';

export interface FakeKeywordApiOptions {
	/** API token the fake accepts; default 'test-token-123'. */
	token?: string;
	/** Delay before every API answer, in ms. */
	latencyMs?: number;
	/** Initial data; default 'demo'. */
	seed?: SeedName;
	/** Clock in ms; injectable so tests control timestamps. Default Date.now. */
	now?: () => number;
	/**
	 * For benchmarks: answer a repeated successful GET with the text served last time, until the next write (any
	 * non-GET API request, or a change through this class or its control routes). The fake shares the benchmark's CPU
	 * with n8n, and turning a 250-keyword page into JSON costs it ~2 ms; a real API does that work on its own servers.
	 * Not for tests that change `state` directly or depend on the clock between two reads.
	 */
	cacheReads?: boolean;
	/** Switches for behaviour the API document leaves open; each one left out keeps its default (see README.md). */
	behaviour?: Partial<FakeBehaviour>;
}

export interface RecordedRequest {
	method: string;
	/** Path exactly as received, still percent-encoded, without the query. */
	rawPath: string;
	/** Percent-decoded path (segment by segment; an encoded `/` in a name shows as `/`). */
	path: string;
	/** Text after `?`, '' if none. */
	rawQuery: string;
	/** Decoded query. Repeated keys and keys ending in `[]` are arrays; `topics[]` keeps its brackets. */
	query: Query;
	/** Lower-cased header names. */
	headers: Record<string, string>;
	authorization: string | undefined;
	bodyText: string;
	/** JSON-parsed body, or undefined when empty or not JSON. */
	body: unknown;
	/** Status answered; 0 while unanswered, or when the connection was dropped. */
	status: number;
}

export type FaultKind = 'status' | 'non-json' | 'empty' | 'truncated' | 'stall' | 'drop';

export interface FaultSpec {
	method?: string;
	/** A string matches the decoded path exactly (or the raw path); a RegExp is tested against the decoded path. */
	path?: string | RegExp;
	/** How many of the next matching requests to fault. */
	times: number;
	/** For 'status': the status to answer (default 500). */
	status?: number;
	/** `Retry-After` header value, for 'status'. */
	retryAfter?: string;
	/** Body to send instead of the default of the kind. */
	body?: string;
	/** Default 'status'. */
	kind?: FaultKind;
	/** For 'stall': wait this long, then answer normally; omitted = never answer. */
	stallMs?: number;
}

export interface AddKeywordsOptions {
	/** Give the keywords a rank history at once (default true); false = as if just added over the API. */
	tracked?: boolean;
}

interface ActiveFault extends FaultSpec {
	remaining: number;
}

export const DEFAULT_TOKEN = 'test-token-123';

/** Control routes that leave the data as it is (FakeKeywordApiOptions.cacheReads keeps its answers across them). */
const CACHE_NEUTRAL_CONTROL = new Set([
	'GET requests',
	'DELETE requests',
	'GET state',
	'POST faults',
	'DELETE faults',
	'POST latency',
	'GET behaviour',
	'GET churn-log',
	'DELETE churn-log',
]);

/** How many churn log entries GET /__control/state carries (the newest ones). */
const STATE_CHURN_LOG_LIMIT = 1000;

const WORDS_A = [
	'best',
	'cheap',
	'buy',
	'top',
	'organic',
	'vegan',
	'local',
	'custom',
	'wireless',
	'eco',
	'luxury',
	'handmade',
	'smart',
	'used',
	'kids',
];
const WORDS_B = [
	'running shoes',
	'coffee beans',
	'yoga mats',
	'backpacks',
	'headphones',
	'desk lamps',
	'sneakers',
	'rain jackets',
	'water bottles',
	'tents',
	'bike helmets',
	'sunglasses',
];
const REGIONS: Array<[string, string]> = [
	['google.com', 'en'],
	['google.com', 'en'],
	['google.co.uk', 'en'],
	['google.de', 'de'],
	['google.fr', 'fr'],
	['google.ch', 'de'],
];
const BULK_TAGS = ['Priority', 'Long tail', 'Brand', 'Seasonal', 'Q1 push'];

const TRUNCATED_DEFAULT =
	'{"data":[{"type":"keyword","id":"100001","attributes":{"kw":"running shoes","grank":3,"grankhistory":[3,4,';
const HTML_DEFAULT =
	'<!DOCTYPE html><html><head><title>Down for maintenance</title></head><body><h1>We will be back shortly.</h1></body></html>';

/**
 * `count` distinct values of `items` (all of them when there are not more), picked with the state's PRNG one from
 * each of `count` equal stretches of the list, so they spread over the whole list. Returned in list order.
 */
function spreadPick(state: FakeState, items: readonly number[], count: number): number[] {
	const n = items.length;
	if (count >= n) return [...items];
	const out: number[] = [];
	for (let i = 0; i < count; i++) {
		const lo = Math.floor((i * n) / count);
		const hi = Math.floor(((i + 1) * n) / count) - 1;
		out.push(items[state.rng.int(lo, hi)]);
	}
	return out;
}

function parseQuery(rawQuery: string): Query {
	const out: Query = {};
	for (const [key, value] of new URLSearchParams(rawQuery)) {
		const prev = out[key];
		if (prev === undefined) out[key] = key.endsWith('[]') ? [value] : value;
		else if (Array.isArray(prev)) prev.push(value);
		else out[key] = [prev, value];
	}
	return out;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers))
		if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function parseJson(text: string): { value: unknown; invalid: boolean } {
	if (text.trim() === '') return { value: undefined, invalid: false };
	try {
		return { value: JSON.parse(text) as unknown, invalid: false };
	} catch {
		return { value: undefined, invalid: true };
	}
}

export class FakeKeywordApi {
	readonly token: string;
	state: FakeState;
	/** Every non-control request, in arrival order. */
	readonly requests: RecordedRequest[] = [];
	/** What the `churn` switch changed, one entry per page answer after which it acted, oldest first. */
	readonly churnLog: ChurnLogEntry[] = [];

	private readonly now: () => number;
	private readonly seedName: SeedName;
	private latencyMs: number;
	private faults: ActiveFault[] = [];
	private server: Server | undefined;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private baseUrlValue = '';
	/** Replaced (never changed in place) by setBehaviour, so a request handled meanwhile keeps one consistent view. */
	private behaviourValue: FakeBehaviour;
	/** Pages answered per list since churn was last set (or the data reset), for churn.everyPages. */
	private churnPages = { keywords: 0, alerts: 0 };
	/** Successful GET answers by URL (cacheReads only). */
	private readonly readCache:
		| Map<string, { status: number; text: Buffer; headers: Record<string, string> }>
		| undefined;

	constructor(opts: FakeKeywordApiOptions = {}) {
		this.token = opts.token ?? DEFAULT_TOKEN;
		this.latencyMs = opts.latencyMs ?? 0;
		this.now = opts.now ?? Date.now;
		this.seedName = opts.seed ?? 'demo';
		this.state = this.freshState(this.seedName);
		this.readCache = opts.cacheReads ? new Map() : undefined;
		this.behaviourValue = mergeBehaviour(DEFAULT_BEHAVIOUR, opts.behaviour ?? {});
	}

	/** The current behaviour switches (a copy; change them with setBehaviour). */
	get behaviour(): FakeBehaviour {
		return copyBehaviour(this.behaviourValue);
	}

	/**
	 * Changes the behaviour switches given and keeps the others; returns the full behaviour now in force. A `churn`
	 * object replaces the previous one whole (counts left out are 0) and restarts its page count; `churn: null`
	 * turns churn off. An unknown switch or a bad value throws and changes nothing.
	 */
	setBehaviour(partial: Partial<FakeBehaviour>): FakeBehaviour {
		const next = mergeBehaviour(this.behaviourValue, partial);
		this.readCache?.clear();
		if (partial.churn !== undefined) this.churnPages = { keywords: 0, alerts: 0 };
		this.behaviourValue = next;
		return this.behaviour;
	}

	clearChurnLog(): void {
		this.churnLog.length = 0;
	}

	/** `http://127.0.0.1:<port>`, no trailing slash; '' before start(). */
	get baseUrl(): string {
		return this.baseUrlValue;
	}

	async start(port = 0, host = '127.0.0.1'): Promise<string> {
		if (this.server) return this.baseUrlValue;
		// The fake accepts a well-known token and has control routes without auth: never expose it beyond loopback.
		if (!['127.0.0.1', 'localhost', '::1'].includes(host))
			throw new Error(`FakeKeywordApi only listens on loopback, not on "${host}"`);
		const server = createServer((req, res) => {
			this.onRequest(req, res).catch((err: unknown) => {
				if (!res.headersSent && !res.destroyed) {
					this.send(
						res,
						500,
						errorBody(500, [{ detail: `Internal error in the fake: ${String(err)}` }]),
					);
				}
			});
		});
		server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
				server.off('error', reject);
				resolve();
			});
		});
		this.server = server;
		const address = server.address();
		const actualPort = typeof address === 'object' && address ? address.port : port;
		this.baseUrlValue = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
		return this.baseUrlValue;
	}

	/** Stops listening, ends stalled requests and pending timers, and closes every connection. */
	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		const closed = new Promise<void>((resolve) => server.close(() => resolve()));
		for (const s of this.sockets) s.destroy();
		this.sockets.clear();
		await closed;
	}

	clearRequests(): void {
		this.requests.length = 0;
	}

	/**
	 * Replaces all data with a fresh seed (default: the seed given to the constructor). Requests, faults, latency, the
	 * behaviour switches and the churn log stay; churn's page count starts again.
	 */
	reset(seed: SeedName = this.seedName): void {
		this.readCache?.clear();
		this.state = this.freshState(seed);
		this.churnPages = { keywords: 0, alerts: 0 };
	}

	private freshState(seed: SeedName): FakeState {
		const state = new FakeState(this.now);
		seedState(state, seed);
		return state;
	}

	// ---------------------------------------------------------------- seeding and simulation

	/** Adds a project; returns its group record. */
	addProject(name: string, opts: { currencyCode?: string; url?: string | null } = {}): GroupRecord {
		this.readCache?.clear();
		return this.record(this.state.addProject(name, opts));
	}

	/** Adds the group `<projectName>[sub]<groupName>`; returns its group record. */
	addGroup(projectName: string, groupName: string): GroupRecord {
		this.readCache?.clear();
		return this.record(this.state.addGroup(projectName, groupName));
	}

	/**
	 * Adds `count` generated keywords, or the given ones, to a project or group (created when missing).
	 * Returns the ids of the keywords added (duplicates are skipped). Linear time: 50,000 is fine.
	 */
	addKeywords(
		category: string,
		keywords: number | Array<Partial<KeywordInput>>,
		opts: AddKeywordsOptions = {},
	): string[] {
		this.readCache?.clear();
		const state = this.state;
		const c: Container = state.findContainer(category) ?? state.createContainer(category);
		const tracked = opts.tracked ?? true;
		const ids: string[] = [];
		if (typeof keywords === 'number') {
			ids.push(...this.generateKeywords(c, keywords, tracked, false));
		} else {
			keywords.forEach((partial, i) => {
				const type =
					partial.type && (KEYWORD_TYPES as readonly string[]).includes(partial.type)
						? partial.type
						: undefined;
				const k = state.addKeyword(
					c,
					{ ...partial, kw: partial.kw ?? `keyword ${c.keywordIds.length + i + 1}`, type },
					tracked,
				);
				if (k) ids.push(String(k.id));
			});
		}
		return ids;
	}

	/**
	 * Adds `count` generated keywords to a container. A generated duplicate is skipped, or, with `fillUp`, replaced by
	 * another generated keyword so that exactly `count` are added.
	 */
	private generateKeywords(
		c: Container,
		count: number,
		tracked: boolean,
		fillUp: boolean,
	): string[] {
		const state = this.state;
		const rng = state.rng;
		const ids: string[] = [];
		const base = c.keywordIds.length;
		const attempts = fillUp ? count * 20 + 20 : count;
		for (let i = 0; i < attempts && ids.length < count; i++) {
			const [region, language] = rng.pick(REGIONS);
			const input: KeywordInput = {
				kw: `${rng.pick(WORDS_A)} ${rng.pick(WORDS_B)} ${base + i + 1}`,
				region,
				language,
				type: rng.chance(0.8) ? 'se' : 'sem',
				source: 4,
				tags: rng.chance(0.3) ? [rng.pick(BULK_TAGS)] : undefined,
			};
			const k = state.addKeyword(c, input, tracked);
			if (k) ids.push(String(k.id));
		}
		return ids;
	}

	/** Adds rank-change alerts; returns them as alert records. */
	addAlerts(count: number, opts: AddAlertsOptions = {}): Array<Record<string, unknown>> {
		this.readCache?.clear();
		return this.state.addAlerts(count, opts).map((a) => alertRecord(a, this.behaviourValue));
	}

	/** A group record shaped by the behaviour switches in force. */
	private record(c: Container): GroupRecord {
		return groupRecord(c, {}, this.behaviourValue);
	}

	/** Simulates a background crawl; returns the updated keywords as list records. */
	simulateRankUpdate(opts: RankUpdateOptions = {}): KeywordRecord[] {
		this.readCache?.clear();
		return this.state
			.simulateRankUpdate(opts)
			.map((k) => keywordRecord(this.state, k, 'list', 0, this.behaviourValue.historyOrder));
	}

	setLatency(ms: number): void {
		this.latencyMs = Math.max(0, ms);
	}

	injectFault(spec: FaultSpec): void {
		if (!Number.isInteger(spec.times) || spec.times < 1)
			throw new Error('injectFault: times must be a positive integer');
		this.faults.push({ ...spec, remaining: spec.times });
	}

	clearFaults(): void {
		this.faults = [];
	}

	/** Faults still armed (for the control route and debugging). */
	pendingFaults(): number {
		return this.faults.reduce((n, f) => n + f.remaining, 0);
	}

	// ---------------------------------------------------------------- request handling

	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const t = setTimeout(() => {
				this.timers.delete(t);
				resolve();
			}, ms);
			this.timers.add(t);
		});
	}

	private send(
		res: ServerResponse,
		status: number,
		body: unknown,
		headers: Record<string, string> = {},
	): void {
		const text = body === undefined ? '' : JSON.stringify(body);
		this.sendRaw(res, status, text, { 'content-type': 'application/json', ...headers });
	}

	private sendRaw(
		res: ServerResponse,
		status: number,
		text: string | Buffer,
		headers: Record<string, string>,
	): void {
		if (res.destroyed || res.headersSent) return;
		res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
		res.end(text);
	}

	private takeFault(method: string, rawPath: string, path: string): ActiveFault | undefined {
		for (const f of this.faults) {
			if (f.remaining <= 0) continue;
			if (f.method && f.method.toUpperCase() !== method) continue;
			if (f.path !== undefined) {
				const hit =
					typeof f.path === 'string' ? f.path === path || f.path === rawPath : f.path.test(path);
				if (!hit) continue;
			}
			f.remaining--;
			this.faults = this.faults.filter((x) => x.remaining > 0);
			return f;
		}
		return undefined;
	}

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const rawPath = q === -1 ? url : url.slice(0, q);
		const rawQuery = q === -1 ? '' : url.slice(q + 1);
		const bodyText = await readBody(req);
		if (rawPath.startsWith('/__control/') || rawPath === '/__control') {
			this.onControl(req.method ?? 'GET', rawPath, bodyText, res);
			return;
		}
		const method = (req.method ?? 'GET').toUpperCase();
		const path = rawPath.split('/').map(decodeSegment).join('/');
		const parsed = parseJson(bodyText);
		const query = parseQuery(rawQuery);
		const record: RecordedRequest = {
			method,
			rawPath,
			path,
			rawQuery,
			query,
			headers: flatHeaders(req),
			authorization:
				typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined,
			bodyText,
			body: parsed.value,
			status: 0,
		};
		const recordIndex = this.requests.push(record) - 1;
		const answer = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
			record.status = status;
			this.send(res, status, body, headers);
		};
		const answerRaw = (
			status: number,
			text: string | Buffer,
			headers: Record<string, string>,
		): void => {
			record.status = status;
			this.sendRaw(res, status, text, headers);
		};

		const fault = this.takeFault(method, rawPath, path);
		if (fault) {
			const kind = fault.kind ?? 'status';
			switch (kind) {
				case 'drop':
					req.socket.destroy();
					return;
				case 'stall':
					if (fault.stallMs === undefined) return; // never answered; stop() or the client ends the socket
					await this.delay(fault.stallMs);
					if (res.destroyed) return;
					break;
				case 'non-json':
					answerRaw(200, fault.body ?? HTML_DEFAULT, {
						'content-type': 'text/html; charset=utf-8',
					});
					return;
				case 'empty':
					answerRaw(200, '', { 'content-type': 'application/json' });
					return;
				case 'truncated': {
					const text =
						fault.body !== undefined
							? fault.body.slice(0, Math.max(1, Math.floor(fault.body.length / 2)))
							: TRUNCATED_DEFAULT;
					answerRaw(200, text, { 'content-type': 'application/json' });
					return;
				}
				case 'status': {
					const status = fault.status ?? 500;
					const headers: Record<string, string> = {};
					if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
					if (fault.body !== undefined) {
						headers['content-type'] = parseJson(fault.body).invalid
							? 'text/plain; charset=utf-8'
							: 'application/json';
						answerRaw(status, fault.body, headers);
					} else
						answer(
							status,
							errorBody(status, [{ detail: `Injected fault: HTTP ${status}.` }]),
							headers,
						);
					return;
				}
			}
		}

		if (this.latencyMs > 0) {
			await this.delay(this.latencyMs);
			if (res.destroyed) return;
		}

		const match = matchRoute(method, rawPath);
		if (match.kind === 'not-found') {
			answer(404, errorBody(404, [{ detail: `No route for ${method} ${rawPath}.` }]));
			return;
		}
		if (match.kind === 'method-not-allowed') {
			answer(
				405,
				errorBody(405, [
					{ detail: `${method} is not allowed here; use ${match.allow.join(', ')}.` },
				]),
				{ allow: match.allow.join(', ') },
			);
			return;
		}
		const authError = this.checkAuth(record);
		if (authError) {
			answer(401, errorBody(401, [{ detail: authError }]));
			return;
		}
		const ctx: RequestContext = {
			method,
			rawPath,
			params: match.params,
			query,
			body: parsed.value,
			bodyInvalid: parsed.invalid,
			state: this.state,
			baseUrl: this.baseUrlValue,
			token: this.token,
			behaviour: this.behaviourValue,
		};
		// Slow pages (behaviour.pageLatencyMs) and churn between pages act on the pages of #13 and #20 only.
		const list = PAGED_LISTS.get(match.handler);
		if (list && this.behaviourValue.pageLatencyMs > 0) {
			await this.delay(this.behaviourValue.pageLatencyMs);
			if (res.destroyed) return;
		}
		const churnAfterPage = (): void => {
			if (list && record.status >= 200 && record.status < 300)
				this.churnAfterPage(list, recordIndex, match.params.name);
		};
		// The read cache (cacheReads): emptied by every write, keyed by path and the query's parameters in any order
		// (clients differ in the order they send them).
		const writes = method !== 'GET' || WRITING_GETS.has(match.handler);
		if (writes) this.readCache?.clear();
		const cacheKey =
			this.readCache && !writes ? `${rawPath}?${rawQuery.split('&').sort().join('&')}` : '';
		const cached = cacheKey ? this.readCache?.get(cacheKey) : undefined;
		if (cached) {
			answerRaw(cached.status, cached.text, cached.headers);
			churnAfterPage();
			return;
		}
		try {
			const result = match.handler(ctx);
			if (this.readCache && cacheKey && result.status < 300 && result.body !== undefined) {
				const entry = {
					status: result.status,
					text: Buffer.from(JSON.stringify(result.body)),
					headers: { 'content-type': 'application/json', ...result.headers },
				};
				this.readCache.set(cacheKey, entry);
				answerRaw(entry.status, entry.text, entry.headers);
			} else answer(result.status, result.body, result.headers);
		} catch (err) {
			if (err instanceof ApiError) answer(err.status, err.toBody(), err.headers);
			else
				answer(
					500,
					errorBody(500, [
						{
							detail: `Internal error in the fake: ${err instanceof Error ? err.message : String(err)}`,
						},
					]),
				);
		}
		churnAfterPage();
	}

	/**
	 * The `churn` switch: after every `everyPages`-th page answered of a list, changes the data that list shows, so a
	 * client paging through it meets a list that changes under it. Keyword pages and alert pages are counted apart;
	 * a list with nothing to change (all its counts 0) is not counted. Every change is logged in `churnLog`.
	 */
	private churnAfterPage(
		list: 'keywords' | 'alerts',
		afterRequest: number,
		category: string | undefined,
	): void {
		const churn = this.behaviourValue.churn;
		if (!churn) return;
		const {
			everyPages = 1,
			addKeywords = 0,
			deleteKeywords = 0,
			crawlKeywords = 0,
			addAlerts = 0,
		} = churn;
		if (list === 'alerts' ? addAlerts === 0 : addKeywords + deleteKeywords + crawlKeywords === 0)
			return;
		if (++this.churnPages[list] % everyPages !== 0) return;
		const state = this.state;
		const entry: ChurnLogEntry = {
			afterRequest,
			list,
			added: [],
			deleted: [],
			crawled: [],
			alerts: [],
		};
		if (list === 'alerts') {
			entry.alerts = state.addAlerts(addAlerts).map((a) => String(a.id));
		} else {
			const c = category === undefined ? undefined : state.findContainer(category);
			if (!c) return;
			entry.category = c.name;
			const deleted = spreadPick(state, c.keywordIds, deleteKeywords);
			state.deleteKeywords(deleted);
			entry.deleted = deleted.map(String);
			// Keywords not crawled yet this second: a real crawl is stamped with the API's clock, and a second crawl within
			// one second would have to be stamped ahead of it (updateRanks keeps crawled_at strictly increasing).
			const now = state.nowSeconds();
			const crawlable = c.keywordIds.filter((id) => (state.keywords.get(id)?.crawledAt ?? 0) < now);
			const crawled = spreadPick(state, crawlable, crawlKeywords);
			state.updateRanks(crawled.map((id) => state.keywords.get(id)).filter((k) => k !== undefined));
			entry.crawled = crawled.map(String);
			entry.added = this.generateKeywords(c, addKeywords, true, true);
		}
		this.readCache?.clear();
		this.churnLog.push(entry);
	}

	/** `Authorization: Bearer <token>`, or the `api_token` query parameter the service's own links carry. */
	private checkAuth(record: RecordedRequest): string | undefined {
		const header = record.authorization;
		const bearer = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
		if (bearer && bearer[1].trim() === this.token) return undefined;
		const queryToken = record.query.api_token;
		if (typeof queryToken === 'string' && queryToken === this.token) return undefined;
		if (!header && queryToken === undefined)
			return 'No API token was sent. Send the header "Authorization: Bearer <API_TOKEN>".';
		if (header && !bearer)
			return 'The Authorization header must use the Bearer scheme: "Bearer <API_TOKEN>".';
		return 'The API token is invalid.';
	}

	// ---------------------------------------------------------------- control routes

	private onControl(
		methodRaw: string,
		rawPath: string,
		bodyText: string,
		res: ServerResponse,
	): void {
		const method = methodRaw.toUpperCase();
		const route = rawPath.replace(/^\/__control\/?/, '').replace(/\/$/, '');
		// Any control call may change the data, except these (the request log, faults and latency come before the cache).
		if (!CACHE_NEUTRAL_CONTROL.has(`${method} ${route}`)) this.readCache?.clear();
		const parsed = parseJson(bodyText);
		const body: Record<string, unknown> = isRecord(parsed.value) ? parsed.value : {};
		const fail = (status: number, detail: string): void =>
			this.send(res, status, errorBody(status, [{ detail }]));
		if (parsed.invalid) return fail(400, 'The request body is not valid JSON.');
		const num = (v: unknown): number | undefined =>
			typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined;
		const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
		try {
			switch (`${method} ${route}`) {
				case 'GET requests':
					return this.send(res, 200, { data: this.requests });
				case 'DELETE requests':
					this.clearRequests();
					return this.send(res, 200, { cleared: true });
				case 'POST alerts': {
					const count = num(body.count) ?? 1;
					const data = this.addAlerts(count, {
						createdAt: num(body.createdAt),
						category: str(body.category),
						read: body.read === true,
					});
					return this.send(res, 201, { data });
				}
				case 'POST rank-update': {
					const ids = Array.isArray(body.keywordIds)
						? body.keywordIds.map((v) => String(v))
						: undefined;
					const updated = this.state.simulateRankUpdate({
						category: str(body.category),
						keywordIds: ids,
						changeRanks: typeof body.changeRanks === 'boolean' ? body.changeRanks : undefined,
						createAlerts: body.createAlerts === true,
					});
					return this.send(res, 200, {
						updated: updated.length,
						keywords: updated.map((k) => ({
							id: String(k.id),
							category: k.container.name,
							grank: k.history[0] || null,
							crawled_at: k.crawledAt,
						})),
					});
				}
				case 'POST keywords': {
					const category = str(body.category);
					if (!category) return fail(422, 'category is required.');
					const list = Array.isArray(body.keywords)
						? (body.keywords.filter(isRecord) as Array<Partial<KeywordInput>>)
						: undefined;
					const ids = this.addKeywords(category, list ?? num(body.count) ?? 1, {
						tracked: body.tracked !== false,
					});
					return this.send(res, 201, { added: ids.length, ids });
				}
				case 'POST projects': {
					const name = str(body.name);
					if (!name) return fail(422, 'name is required.');
					const c = this.state.createContainer(name, {
						currencyCode: str(body.currencyCode),
						url: str(body.url) ?? null,
					});
					return this.send(res, 201, { data: groupRecord(c, {}, this.behaviour) });
				}
				case 'POST faults': {
					const times = num(body.times) ?? 1;
					if (!Number.isInteger(times) || times < 1)
						return fail(422, 'times must be a positive integer.');
					const kinds: FaultKind[] = ['status', 'non-json', 'empty', 'truncated', 'stall', 'drop'];
					const kind = str(body.kind);
					if (kind !== undefined && !(kinds as string[]).includes(kind))
						return fail(422, `kind must be one of ${kinds.join(', ')}.`);
					const regex = str(body.pathRegex);
					this.injectFault({
						method: str(body.method),
						path:
							regex !== undefined
								? new RegExp(regex, str(body.pathRegexFlags) ?? '')
								: str(body.path),
						times,
						status: num(body.status),
						retryAfter: body.retryAfter === undefined ? undefined : String(body.retryAfter),
						body: str(body.body),
						kind: kind as FaultKind | undefined,
						stallMs: num(body.stallMs),
					});
					return this.send(res, 201, { pending: this.pendingFaults() });
				}
				case 'DELETE faults':
					this.clearFaults();
					return this.send(res, 200, { pending: 0 });
				case 'POST latency': {
					const ms = num(body.ms);
					if (ms === undefined || !Number.isFinite(ms) || ms < 0)
						return fail(422, 'ms must be a non-negative number.');
					this.setLatency(ms);
					return this.send(res, 200, { latencyMs: this.latencyMs });
				}
				case 'POST reset': {
					const seed = str(body.seed);
					if (seed !== undefined && seed !== 'demo' && seed !== 'empty')
						return fail(422, 'seed must be "demo" or "empty".');
					this.reset(seed as SeedName | undefined);
					return this.send(res, 200, { ...this.state.summary() });
				}
				case 'GET behaviour':
					return this.send(res, 200, this.behaviour);
				case 'POST behaviour': {
					if (!isRecord(parsed.value))
						return fail(422, 'The body must be a JSON object of behaviour switches.');
					let next: FakeBehaviour;
					try {
						next = this.setBehaviour(parsed.value as Partial<FakeBehaviour>);
					} catch (err) {
						return fail(422, err instanceof Error ? err.message : String(err));
					}
					return this.send(res, 200, next);
				}
				case 'GET churn-log':
					return this.send(res, 200, { data: this.churnLog });
				case 'DELETE churn-log':
					this.clearChurnLog();
					return this.send(res, 200, { cleared: true });
				case 'GET state':
					return this.send(res, 200, {
						...this.state.summary(),
						requests: this.requests.length,
						pendingFaults: this.pendingFaults(),
						latencyMs: this.latencyMs,
						token: this.token,
						baseUrl: this.baseUrlValue,
						behaviour: this.behaviour,
						churnLog: this.churnLog.slice(-STATE_CHURN_LOG_LIMIT),
					});
				default:
					return fail(404, `No control route for ${method} ${rawPath}.`);
			}
		} catch (err) {
			if (err instanceof ApiError) return this.send(res, err.status, err.toBody());
			return fail(500, err instanceof Error ? err.message : String(err));
		}
	}
}
