/**
 * HTTP plumbing of the fake: listening, recording every API request, authentication, fault injection (faults.cts),
 * latency, the behaviour switches (behaviour.cts; slow pages and churn between pages act here), the changes made
 * between two requests (containers.cts), the programmatic seeding/simulation methods, and the `/__control/` routes
 * for out-of-process tests (control.cts).
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
} from './behaviour.cjs';
import {
	applyChange,
	checkChange,
	deleteWithKeywords,
	renameContainer,
	restoreArchived,
	setArchived,
	type ChangeLogEntry,
	type ContainerChange,
} from './containers.cjs';
import {
	controlRoute,
	isCacheNeutral,
	type AddKeywordsOptions,
	type AnswerMatch,
	type FakeControls,
	type RecordedRequest,
} from './control.cjs';
import { ApiError, errorBody, notFound } from './errors.cjs';
import { type Query, type RequestContext } from './context.cjs';
import { FaultTable, matchesRequest, type FaultInfo, type FaultSpec } from './faults.cjs';
import {
	aiDomainRecord,
	aiDomainIdAsked,
	alertRecord,
	groupRecord,
	keywordRecord,
	type GroupRecord,
	type KeywordRecord,
} from './records.cjs';
import { decodeSegment, matchRoute, PAGED_LISTS, WRITING_GETS } from './routes.cjs';
import { seedState, type SeedName } from './seed.cjs';
import {
	FakeState,
	KEYWORD_TYPES,
	type AddAlertsOptions,
	type AiDayChange,
	type Container,
	type KeywordInput,
	type RankUpdateOptions,
} from './state.cjs';

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
	/**
	 * Whether the `Date` header of every answer follows `now` (the fake's clock) rather than the real clock. For a
	 * simulation on a virtual clock: a client that reads the API's clock from `Date` then sees the same time as the data.
	 */
	dateFromClock?: boolean;
}

export const DEFAULT_TOKEN = 'test-token-123';

/** A change armed by afterNextAnswer. */
interface PendingChange {
	id: number;
	match: AnswerMatch;
	change: ContainerChange;
}

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

export class FakeKeywordApi implements FakeControls {
	readonly token: string;
	state: FakeState;
	/** Every non-control request, in arrival order. */
	readonly requests: RecordedRequest[] = [];
	/** What the `churn` switch changed, one entry per page answer after which it acted, oldest first. */
	readonly churnLog: ChurnLogEntry[] = [];
	/** What the changes armed by afterNextAnswer did, oldest first. */
	readonly changesLog: ChangeLogEntry[] = [];

	private readonly now: () => number;

	private readonly dateFromClock: boolean;
	/** How far advanceClock moved the clock (ms). */
	private clockShiftMs = 0;
	private readonly seedName: SeedName;
	private latency: number;
	private readonly faults = new FaultTable();
	/** Changes armed by afterNextAnswer, in the order they were armed. */
	private pending: PendingChange[] = [];
	private nextChangeId = 1;
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
		this.latency = opts.latencyMs ?? 0;
		const base = opts.now ?? Date.now;
		this.now = () => base() + this.clockShiftMs;
		this.dateFromClock = opts.dateFromClock === true;
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
	 * Replaces all data with a fresh seed (default: the seed given to the constructor). Requests, faults (persistent
	 * ones too), latency, the behaviour switches, the changes armed by afterNextAnswer and both logs stay; churn's page
	 * count starts again.
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

	/**
	 * Moves the fake's clock forward by `ms` (a fake running on the real clock: a test that needs tomorrow). From then on
	 * the `Date` header follows the fake's clock too. Returns the fake's time now (ms).
	 */
	advanceClock(ms: number): number {
		if (!Number.isFinite(ms) || ms < 0)
			throw new Error('advanceClock takes a number of ms, 0 or more');
		this.clockShiftMs += ms;
		this.readCache?.clear();
		return this.now();
	}

	/** Changes one day of an AI-visibility domain's series (FakeState.changeAiDay). */
	changeAiDay(
		domainId: string,
		date: string,
		change: { revise?: boolean; missing?: boolean; brandNotFound?: boolean },
	): AiDayChange {
		this.readCache?.clear();
		return this.state.changeAiDay(aiDomainIdAsked(domainId), date, change);
	}

	/** Adds an AI-visibility domain measured from now on; returns its record (#24). */
	addAiDomain(domain: string, brandName?: string): Record<string, unknown> {
		this.readCache?.clear();
		return aiDomainRecord(
			this.state.addAiDomain(domain, brandName),
			this.behaviourValue.aiDomainIds,
		);
	}

	/** Removes an AI-visibility domain. */
	removeAiDomain(id: string): void {
		this.readCache?.clear();
		this.state.removeAiDomain(aiDomainIdAsked(id));
	}

	/** Simulates a background crawl; returns the updated keywords as list records. */
	simulateRankUpdate(opts: RankUpdateOptions = {}): KeywordRecord[] {
		this.readCache?.clear();
		return this.state
			.simulateRankUpdate(opts)
			.map((k) => keywordRecord(this.state, k, 'list', 0, this.behaviourValue.historyOrder));
	}

	/**
	 * Deletes keywords by id, in any projects or groups (as #17 does, without a project id). An unknown id throws (an
	 * ApiError 404) and deletes nothing. Returns how many were deleted.
	 */
	deleteKeywords(ids: Array<string | number>): number {
		const numbers = [...new Set(ids.map((v) => String(v).trim()))].map((v) => {
			if (!/^\d+$/.test(v) || !this.state.keywords.has(Number(v)))
				throw notFound(`Keyword ${v} was not found.`);
			return Number(v);
		});
		this.readCache?.clear();
		return this.state.deleteKeywords(numbers);
	}

	// ---------------------------------------------------------------- life of projects and groups

	/**
	 * Renames a project (its groups move with it) or a group (within its project), as a user does in the web app;
	 * see containers.cts. Returns the record under its new name. An existing or invalid new name throws (an ApiError
	 * 422), an unknown name an ApiError 404.
	 */
	renameContainer(name: string, newName: string): GroupRecord {
		this.readCache?.clear();
		return this.record(renameContainer(this.state, name, newName));
	}

	/** Archives a project or group, as #3 with status 2 does. Returns its record. */
	archiveContainer(name: string): GroupRecord {
		this.readCache?.clear();
		const c = this.state.getContainer(name);
		setArchived(this.state, c, true);
		return this.record(c);
	}

	/** Restores an archived project or group, as #8 does (one that is not archived throws an ApiError 422). */
	restoreContainer(name: string): GroupRecord {
		this.readCache?.clear();
		const c = this.state.getContainer(name);
		restoreArchived(this.state, c);
		return this.record(c);
	}

	/** Deletes a project (with its groups) or a group with their keywords, as #4 does; returns how many keywords went. */
	deleteContainerByName(name: string): number {
		this.readCache?.clear();
		return deleteWithKeywords(this.state, this.state.getContainer(name));
	}

	/**
	 * Arms a one-shot change: it is made right after the next API request that matches `match` (as a fault matches)
	 * has been answered with 2xx by its handler, before the next request is handled. Several may be armed; each acts
	 * once. What it did goes to `changesLog`. Returns its id. A bad match or change throws and arms nothing.
	 */
	afterNextAnswer(match: AnswerMatch, change: ContainerChange): number {
		if (typeof match !== 'object' || match === null)
			throw new Error('afterNextAnswer: match must be {path, method?}.');
		if (typeof match.path !== 'string' && !(match.path instanceof RegExp))
			throw new Error('afterNextAnswer: match.path must be a string or a RegExp.');
		if (match.method !== undefined && typeof match.method !== 'string')
			throw new Error('afterNextAnswer: match.method must be a string.');
		const checked = checkChange(change);
		const id = this.nextChangeId++;
		this.pending.push({ id, match: { path: match.path, method: match.method }, change: checked });
		return id;
	}

	/** How many changes armed by afterNextAnswer have not acted yet. */
	pendingChanges(): number {
		return this.pending.length;
	}

	/** Disarms every change armed by afterNextAnswer. */
	clearPendingChanges(): void {
		this.pending = [];
	}

	clearChangesLog(): void {
		this.changesLog.length = 0;
	}

	/** A group record shaped by the behaviour switches in force. */
	private record(c: Container): GroupRecord {
		return groupRecord(c, {}, this.behaviourValue);
	}

	// ---------------------------------------------------------------- latency and faults

	setLatency(ms: number): void {
		this.latency = Math.max(0, ms);
	}

	/** The global latency in ms (setLatency). */
	get latencyMs(): number {
		return this.latency;
	}

	/**
	 * Faults the next `spec.times` requests that match (see faults.cts); `times: Infinity` keeps the fault armed until
	 * removeFault or clearFaults. Returns the fault's id.
	 */
	injectFault(spec: FaultSpec): number {
		return this.faults.inject(spec);
	}

	/** Disarms one fault by the id injectFault returned; false when none with that id is armed. */
	removeFault(id: number): boolean {
		return this.faults.remove(id);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** Requests still to fault: the sum over the armed faults, Infinity while a persistent fault is armed. */
	pendingFaults(): number {
		return this.faults.pending();
	}

	/** The armed faults, in the order they were injected (a persistent fault's counts read "forever"). */
	armedFaults(): FaultInfo[] {
		return this.faults.list();
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
		if (this.dateFromClock || this.clockShiftMs !== 0)
			res.setHeader('date', new Date(this.now() + this.behaviourValue.dateSkewMs).toUTCString());
		res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
		res.end(text);
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

		const fault = this.faults.take(method, rawPath, path);
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

		if (this.latency > 0) {
			await this.delay(this.latency);
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
		// After a 2xx answer of the handler (not of a fault): churn, then the changes armed by afterNextAnswer.
		const afterAnswer = (): void => {
			if (record.status < 200 || record.status >= 300) return;
			if (list) this.churnAfterPage(list, recordIndex, match.params.name);
			this.applyPendingChanges(method, rawPath, path, recordIndex);
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
			afterAnswer();
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
		afterAnswer();
	}

	/** Makes the changes armed by afterNextAnswer that wait for this request, in the order they were armed. */
	private applyPendingChanges(
		method: string,
		rawPath: string,
		path: string,
		afterRequest: number,
	): void {
		const due = this.pending.filter((p) => matchesRequest(p.match, method, rawPath, path));
		if (due.length === 0) return;
		this.pending = this.pending.filter((p) => !due.includes(p));
		for (const { id, change } of due) {
			const entry: ChangeLogEntry = { id, afterRequest, ...change, applied: true };
			try {
				applyChange(this.state, change);
			} catch (err) {
				entry.applied = false;
				entry.error = err instanceof Error ? err.message : String(err);
			}
			this.changesLog.push(entry);
		}
		this.readCache?.clear();
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

	/** A `/__control/` request (see control.cts). */
	private onControl(
		methodRaw: string,
		rawPath: string,
		bodyText: string,
		res: ServerResponse,
	): void {
		const method = methodRaw.toUpperCase();
		const route = rawPath.replace(/^\/__control\/?/, '').replace(/\/$/, '');
		// Any control call may change the data, except these (the request log, faults and latency come before the cache).
		if (!isCacheNeutral(method, route)) this.readCache?.clear();
		const parsed = parseJson(bodyText);
		if (parsed.invalid)
			return this.send(
				res,
				400,
				errorBody(400, [{ detail: 'The request body is not valid JSON.' }]),
			);
		try {
			const answer = controlRoute(this, method, route, parsed.value);
			this.send(res, answer.status, answer.body);
		} catch (err) {
			if (err instanceof ApiError) return this.send(res, err.status, err.toBody());
			const detail = err instanceof Error ? err.message : String(err);
			this.send(res, 500, errorBody(500, [{ detail }]));
		}
	}
}
