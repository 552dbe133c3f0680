/**
 * The `/__control/` routes: what out-of-process tests, the demo and the benchmarks use to seed, inspect and steer the
 * fake. No auth, not recorded. Each route calls the public members of FakeKeywordApi (FakeControls, below) that do the same in-process.
 */
import type { ChurnLogEntry, FakeBehaviour } from './behaviour.cjs';
import { checkChange, type ChangeLogEntry, type ContainerChange } from './containers.cjs';
import { isRecord, type Query } from './context.cjs';
import { ApiError, errorBody } from './errors.cjs';
import {
	countForJson,
	FAULT_KINDS,
	type FaultInfo,
	type FaultKind,
	type FaultSpec,
	type RequestMatch,
} from './faults.cjs';
import { groupRecord, type GroupRecord } from './records.cjs';
import type { SeedName } from './seed.cjs';
import {
	shownRankingUrl,
	type AddAlertsOptions,
	type AiDayChange,
	type FakeState,
	type KeywordInput,
} from './state.cjs';

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

export interface AddKeywordsOptions {
	/** Give the keywords a rank history at once (default true); false = as if just added over the API. */
	tracked?: boolean;
}

/** Which requests an after-answer change waits for: as for faults, but `path` is required. */
export interface AnswerMatch extends RequestMatch {
	path: string | RegExp;
}

/**
 * What the control routes use of the fake: FakeKeywordApi implements it (server.cts), and this file names it instead of
 * the class, so that the server imports the routes and not the other way round.
 */
export interface FakeControls {
	readonly token: string;
	readonly state: FakeState;
	readonly requests: RecordedRequest[];
	readonly churnLog: ChurnLogEntry[];
	readonly changesLog: ChangeLogEntry[];
	readonly behaviour: FakeBehaviour;
	readonly baseUrl: string;
	readonly latencyMs: number;
	setBehaviour(partial: Partial<FakeBehaviour>): FakeBehaviour;
	setLatency(ms: number): void;
	reset(seed?: SeedName): void;
	advanceClock(ms: number): number;
	clearRequests(): void;
	clearChurnLog(): void;
	addKeywords(
		category: string,
		keywords: number | Array<Partial<KeywordInput>>,
		opts?: AddKeywordsOptions,
	): string[];
	deleteKeywords(ids: Array<string | number>): number;
	addAlerts(count: number, opts?: AddAlertsOptions): Array<Record<string, unknown>>;
	addAiDomain(domain: string, brandName?: string): Record<string, unknown>;
	removeAiDomain(id: string): void;
	changeAiDay(
		domainId: string,
		date: string,
		change: { revise?: boolean; missing?: boolean; brandNotFound?: boolean },
	): AiDayChange;
	archiveContainer(name: string): GroupRecord;
	restoreContainer(name: string): GroupRecord;
	renameContainer(name: string, newName: string): GroupRecord;
	deleteContainerByName(name: string): number;
	afterNextAnswer(match: AnswerMatch, change: ContainerChange): number;
	pendingChanges(): number;
	clearPendingChanges(): void;
	clearChangesLog(): void;
	injectFault(spec: FaultSpec): number;
	removeFault(id: number): boolean;
	clearFaults(): void;
	pendingFaults(): number;
	armedFaults(): FaultInfo[];
}

export interface ControlAnswer {
	status: number;
	body: unknown;
}

/** Control routes that leave the data as it is (FakeKeywordApiOptions.cacheReads keeps its answers across them). */
const CACHE_NEUTRAL = new Set([
	'GET requests',
	'DELETE requests',
	'GET state',
	'GET faults',
	'POST faults',
	'DELETE faults',
	'POST latency',
	'GET behaviour',
	'GET churn-log',
	'DELETE churn-log',
	'GET changes-log',
	'DELETE changes-log',
	'POST after-answer',
	'DELETE after-answer',
]);

/** `faults/<id>`: one fault, removed by DELETE. */
const FAULT_ROUTE = /^faults\/([^/]+)$/;

export const isCacheNeutral = (method: string, route: string): boolean =>
	CACHE_NEUTRAL.has(`${method} ${route}`) || (method === 'DELETE' && FAULT_ROUTE.test(route));

/** How many churn and change log entries GET /__control/state carries (the newest ones). */
const STATE_LOG_LIMIT = 1000;

const fail = (status: number, detail: string): ControlAnswer => ({
	status,
	body: errorBody(status, [{ detail }]),
});
const ok = (body: unknown, status = 200): ControlAnswer => ({ status, body });
const num = (v: unknown): number | undefined =>
	typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** `path`, or `pathRegex` (+ `pathRegexFlags`) turned into a RegExp; a bad pattern throws an ApiError 422. */
function pathOf(body: Record<string, unknown>): string | RegExp | undefined {
	const regex = str(body.pathRegex);
	if (regex === undefined) return str(body.path);
	try {
		return new RegExp(regex, str(body.pathRegexFlags) ?? '');
	} catch (err) {
		throw new ApiError(422, `pathRegex: ${message(err)}`);
	}
}

/** A `name` the route needs, or an ApiError 422. */
function nameOf(body: Record<string, unknown>, key = 'name'): string {
	const name = str(body[key]);
	if (!name) throw new ApiError(422, `${key} is required.`);
	return name;
}

/** `ranks` of a rank update: keyword id → new rank, a whole number 0 (outside the results) to 100; else a 422. */
function chosenRanks(value: unknown): Record<string, number> | undefined {
	if (value === undefined) return undefined;
	if (!isRecord(value)) throw new ApiError(422, 'ranks must be an object of keyword id → rank.');
	for (const [id, rank] of Object.entries(value))
		if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 0 || rank > 100)
			throw new ApiError(422, `ranks: the rank of ${id} must be a whole number from 0 to 100.`);
	return value as Record<string, number>;
}

/** `rankingUrls` of a rank update: keyword id → ranking URL; else a 422. */
function chosenRankingUrls(value: unknown): Record<string, string> | undefined {
	if (value === undefined) return undefined;
	if (!isRecord(value) || Object.values(value).some((url) => typeof url !== 'string'))
		throw new ApiError(422, 'rankingUrls must be an object of keyword id → URL.');
	return value as Record<string, string>;
}

/**
 * Answers one control route. `route` is the path after `/__control/` without a trailing slash; `value` is the parsed
 * JSON body (undefined when none). Throws an ApiError for a 4xx the caller turns into an error body.
 */
export function controlRoute(
	api: FakeControls,
	method: string,
	route: string,
	value: unknown,
): ControlAnswer {
	const body: Record<string, unknown> = isRecord(value) ? value : {};
	const faultRoute = FAULT_ROUTE.exec(route);
	if (faultRoute && method === 'DELETE') {
		const id = Number(faultRoute[1]);
		if (!api.removeFault(id)) return fail(404, `No fault ${faultRoute[1]} is armed.`);
		return ok({ removed: true, pending: countForJson(api.pendingFaults()) });
	}
	switch (`${method} ${route}`) {
		case 'GET requests':
			return ok({ data: api.requests });
		case 'DELETE requests':
			api.clearRequests();
			return ok({ cleared: true });
		case 'POST alerts': {
			const data = api.addAlerts(num(body.count) ?? 1, {
				createdAt: num(body.createdAt),
				category: str(body.category),
				read: body.read === true,
			});
			return ok({ data }, 201);
		}
		case 'POST clock': {
			const ms = num(body.advanceMs);
			if (ms === undefined || ms < 0)
				throw new ApiError(422, 'advanceMs must be a number of ms, 0 or more.');
			return ok({ now: new Date(api.advanceClock(ms)).toISOString() });
		}
		case 'POST ai-days': {
			const change = api.changeAiDay(nameOf(body, 'domainId'), nameOf(body, 'date'), {
				revise: body.revise === true,
				missing: typeof body.missing === 'boolean' ? body.missing : undefined,
				brandNotFound: typeof body.brandNotFound === 'boolean' ? body.brandNotFound : undefined,
			});
			return ok({ data: change });
		}
		case 'POST ai-domains': {
			const data = api.addAiDomain(nameOf(body, 'domain'), str(body.brandName));
			return ok({ data }, 201);
		}
		case 'POST ai-domains/delete':
			api.removeAiDomain(nameOf(body, 'id'));
			return ok({ deleted: true });
		case 'POST rank-update': {
			const ids = Array.isArray(body.keywordIds)
				? body.keywordIds.map((v) => String(v))
				: undefined;
			const updated = api.state.simulateRankUpdate({
				category: str(body.category),
				keywordIds: ids,
				changeRanks: typeof body.changeRanks === 'boolean' ? body.changeRanks : undefined,
				createAlerts: body.createAlerts === true,
				ranks: chosenRanks(body.ranks),
				rankingUrls: chosenRankingUrls(body.rankingUrls),
			});
			return ok({
				updated: updated.length,
				keywords: updated.map((k) => ({
					id: String(k.id),
					category: k.container.name,
					grank: k.history[0] || null,
					crawled_at: k.crawledAt,
					// The crawl before (a first rank has none), for whoever needs the move: 0 = outside the results.
					previous_rank: k.history.length > 1 ? k.history[1] : null,
					rankingurl: shownRankingUrl(k.history[0] ?? 0, k.urlHistory[0]) ?? null,
					previous_rankingurl: shownRankingUrl(k.history[1], k.urlHistory[1]) ?? null,
					tags: k.tags,
				})),
			});
		}
		case 'POST keywords': {
			const category = str(body.category);
			if (!category) return fail(422, 'category is required.');
			const list = Array.isArray(body.keywords)
				? (body.keywords.filter(isRecord) as Array<Partial<KeywordInput>>)
				: undefined;
			const ids = api.addKeywords(category, list ?? num(body.count) ?? 1, {
				tracked: body.tracked !== false,
			});
			return ok({ added: ids.length, ids }, 201);
		}
		case 'POST keywords/delete': {
			if (!Array.isArray(body.ids) || body.ids.length === 0)
				return fail(422, 'ids must be a non-empty array of keyword ids.');
			return ok({ deleted: api.deleteKeywords(body.ids as Array<string | number>) });
		}
		case 'POST projects': {
			const name = str(body.name);
			if (!name) return fail(422, 'name is required.');
			const c = api.state.createContainer(name, {
				currencyCode: str(body.currencyCode),
				url: str(body.url) ?? null,
			});
			return ok({ data: groupRecord(c, {}, api.behaviour) }, 201);
		}
		case 'POST containers/rename':
			return ok({ data: api.renameContainer(nameOf(body), nameOf(body, 'to')) });
		case 'POST containers/archive':
			return ok({ data: api.archiveContainer(nameOf(body)) });
		case 'POST containers/restore':
			return ok({ data: api.restoreContainer(nameOf(body)) });
		case 'POST containers/delete':
			return ok({ deleted_keywords: api.deleteContainerByName(nameOf(body)) });
		case 'POST after-answer': {
			const path = pathOf(body);
			if (path === undefined) return fail(422, 'path or pathRegex is required.');
			let id: number;
			try {
				id = api.afterNextAnswer({ path, method: str(body.method) }, checkChange(body.change));
			} catch (err) {
				return fail(422, message(err));
			}
			return ok({ id, pending: api.pendingChanges() }, 201);
		}
		case 'DELETE after-answer':
			api.clearPendingChanges();
			return ok({ pending: 0 });
		case 'GET changes-log':
			return ok({ data: api.changesLog });
		case 'DELETE changes-log':
			api.clearChangesLog();
			return ok({ cleared: true });
		case 'GET faults':
			return ok({ data: api.armedFaults(), pending: countForJson(api.pendingFaults()) });
		case 'POST faults': {
			const times = body.times === 'forever' ? Infinity : (num(body.times) ?? 1);
			if (times !== Infinity && (!Number.isInteger(times) || times < 1))
				return fail(422, 'times must be a positive integer or "forever".');
			const kind = str(body.kind);
			if (kind !== undefined && !(FAULT_KINDS as readonly string[]).includes(kind))
				return fail(422, `kind must be one of ${FAULT_KINDS.join(', ')}.`);
			const every = num(body.every);
			if (every !== undefined && (!Number.isInteger(every) || every < 1))
				return fail(422, 'every must be a positive integer.');
			const id = api.injectFault({
				method: str(body.method),
				path: pathOf(body),
				times,
				status: num(body.status),
				retryAfter: body.retryAfter === undefined ? undefined : String(body.retryAfter),
				body: str(body.body),
				kind: kind as FaultKind | undefined,
				stallMs: num(body.stallMs),
				every,
			});
			return ok({ id, pending: countForJson(api.pendingFaults()) }, 201);
		}
		case 'DELETE faults':
			api.clearFaults();
			return ok({ pending: 0 });
		case 'POST latency': {
			const ms = num(body.ms);
			if (ms === undefined || !Number.isFinite(ms) || ms < 0)
				return fail(422, 'ms must be a non-negative number.');
			api.setLatency(ms);
			return ok({ latencyMs: api.latencyMs });
		}
		case 'POST reset': {
			const seed = str(body.seed);
			if (seed !== undefined && seed !== 'demo' && seed !== 'empty')
				return fail(422, 'seed must be "demo" or "empty".');
			api.reset(seed as SeedName | undefined);
			return ok({ ...api.state.summary() });
		}
		case 'GET behaviour':
			return ok(api.behaviour);
		case 'POST behaviour': {
			if (!isRecord(value))
				return fail(422, 'The body must be a JSON object of behaviour switches.');
			try {
				return ok(api.setBehaviour(value as Partial<FakeBehaviour>));
			} catch (err) {
				return fail(422, message(err));
			}
		}
		case 'GET churn-log':
			return ok({ data: api.churnLog });
		case 'DELETE churn-log':
			api.clearChurnLog();
			return ok({ cleared: true });
		case 'GET state':
			return ok({
				...api.state.summary(),
				requests: api.requests.length,
				pendingFaults: countForJson(api.pendingFaults()),
				latencyMs: api.latencyMs,
				token: api.token,
				baseUrl: api.baseUrl,
				behaviour: api.behaviour,
				churnLog: api.churnLog.slice(-STATE_LOG_LIMIT),
				pendingChanges: api.pendingChanges(),
				changesLog: api.changesLog.slice(-STATE_LOG_LIMIT),
			});
		default:
			return fail(404, `No control route for ${method} /__control/${route}.`);
	}
}
