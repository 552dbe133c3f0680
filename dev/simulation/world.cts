/**
 * The world: the account of a plan (plan.cts) applied to the fake API through a driver, and the truth it leaves
 * behind for the checker (what became visible when, and which projects and groups went away when).
 *
 * Two drivers: `InProcessDriver` (this file) changes a `FakeKeywordApi` in this process on a virtual clock, for the
 * simulation through n8n's engine; `ControlDriver` (control-driver.cts) changes a fake running as a process through its
 * control routes on the real clock, for the simulation in a real n8n. The world itself never looks at the trigger.
 */
import type { FakeKeywordApi } from '../fake-api/index.cjs';
import { shownRankingUrl, type Alert, type Keyword } from '../fake-api/state.cjs';
import { Prng } from '../fake-api/prng.cjs';
import type { ContainerKey, MidPoll, WorldEvent } from './plan.cjs';

/** One crawl of one keyword, as the API shows it afterwards. */
export interface CrawlTruth {
	id: string;
	/** Unix seconds. */
	crawledAt: number;
	/** The rank of this crawl; 0 = outside the top results. */
	rank: number;
	/** The keyword's project or group (full name) at the crawl. */
	category: string;
	/** The rank of the crawl before (0 = outside the top results); undefined: none (a first rank) or not known. */
	previousRank?: number;
	/** The ranking URL of this crawl and of the crawl before (`NOT FOUND` outside the results); undefined: not known. */
	url?: string;
	previousUrl?: string;
	/** The keyword's tags (names) at the crawl; undefined: not known. */
	tags?: string[];
}

export interface AlertTruth {
	id: string;
	/** Unix seconds. */
	createdAt: number;
	category: string;
	prevrank: number;
	result: number;
	/** The alert's keyword, and its tags (names) when the alert was made; undefined: not known. */
	keywordId?: string;
	tags?: string[];
}

export interface FaultOrder {
	/** Default: every API path. */
	path?: RegExp;
	times: number;
	/** Only every `every`-th matching request fails (a flaky API). */
	every?: number;
	status?: number;
	retryAfter?: string;
	kind?: 'status' | 'drop' | 'stall';
	stallMs?: number;
}

/** What the world needs from a fake API. Names are full names (`<project>[sub]<group>` for a group). */
export interface WorldDriver {
	/** 'virtual': the world sets the fake's clock; 'real': the fake runs on the real clock. */
	readonly clock: 'virtual' | 'real';
	now(): number;
	/** Virtual clock only. */
	setNow(ms: number): void;
	createContainer(name: string): Promise<void>;
	/** False when the fake cannot rename. */
	renameContainer(name: string, newName: string): Promise<boolean>;
	setArchived(name: string, archived: boolean): Promise<void>;
	deleteContainer(name: string): Promise<void>;
	addKeywords(name: string, count: number, tracked: boolean): Promise<void>;
	/** The container's own keywords, in list order. */
	keywordIds(name: string): Promise<string[]>;
	deleteKeywords(ids: string[]): Promise<void>;
	crawl(ids: string[], alerts: boolean): Promise<{ crawls: CrawlTruth[]; alerts: AlertTruth[] }>;
	/** `createdAt` (Unix seconds): alerts stamped earlier than now (arriving late). */
	addAlerts(name: string, count: number, createdAt?: number): Promise<AlertTruth[]>;
	/**
	 * Crawls keywords, giving `newUrls` of them (by id) another ranking URL, where the fake can; else as crawl does.
	 */
	crawlWithUrls?(
		ids: string[],
		alerts: boolean,
		newUrls: Record<string, string>,
	): Promise<{ crawls: CrawlTruth[]; alerts: AlertTruth[] }>;
	/** Moves keywords into another project or group of their project, where the fake can; returns those moved. */
	moveKeywords?(ids: string[], to: string): Promise<string[]>;
	/** Sets each keyword's tags (names), where the fake can. */
	setTags?(tags: Map<string, string[]>): Promise<void>;
	/** The keywords' tags (names), where the fake can tell. */
	tagsOf?(ids: string[]): Promise<Map<string, string[]>>;
	/** Lists changing between two page requests (the fake's churn), where the fake can. */
	setChurn?(spec: ChurnSpec | null): Promise<void>;
	/** What churn changed since the last call. */
	takeChurn?(): Promise<ChurnHarvest>;
	/**
	 * Arms a change of a project or group made right after the API next answers `groups/active` ('groups') or a page
	 * of a keyword list ('list'), where the fake can. Returns its id.
	 */
	armChange?(after: MidPoll, change: ContainerChange): Promise<number>;
	/** The armed changes that acted since the last call (id → whether the change could be made). */
	takeChanges?(): Promise<Map<number, boolean>>;
	/** Disarms the changes that have not acted. */
	disarmChanges?(): Promise<void>;
	setLatency(ms: number): Promise<void>;
	injectFault(order: FaultOrder): Promise<void>;
	clearFaults(): Promise<void>;
	/** API requests the fake received since the last call (the driver's own left out). */
	takeRequestCount(): Promise<number>;
}

export interface ContainerChange {
	op: 'rename' | 'archive' | 'restore' | 'delete';
	name: string;
	/** New full name (rename). */
	to?: string;
}

export interface ChurnSpec {
	everyPages: number;
	deleteKeywords: number;
	crawlKeywords: number;
	addKeywords: number;
	addAlerts: number;
}

/** What churn changed. */
export interface ChurnHarvest {
	/** Crawls (rank unknown, -1, when the keyword was deleted again meanwhile). */
	crawls: CrawlTruth[];
	/** Keywords added with ranks from an earlier crawl (those still there). */
	added: CrawlTruth[];
	/** Every keyword added (some may be deleted again already). */
	addedIds: string[];
	deleted: string[];
	alerts: AlertTruth[];
}

/** A keyword update or an alert that became visible in the API. */
export interface Fact {
	kind: 'alert' | 'keyword';
	/** `a:<id>` or `k:<id>@<crawled_at>`: what the trigger must emit once. */
	key: string;
	id: string;
	/** crawled_at or created_at, Unix seconds. */
	at: number;
	/** Full name of its project or group when it happened. */
	category: string;
	container?: ContainerKey;
	project?: ContainerKey;
	/** When it became visible (ms, the world's clock). */
	visibleAt: number;
	/** Keyword: the rank of the crawl (null outside the top results; undefined: not known). Alert: `result`. */
	rank: number | null | undefined;
	prevrank?: number;
	/**
	 * Keyword: the rank of the crawl before (null outside the top results; undefined: none, a first rank; 'unknown':
	 * the world cannot tell).
	 */
	previousRank?: number | null | 'unknown';
	/** Keyword: the ranking URL of this crawl and of the one before (undefined: not known or none). */
	url?: string;
	previousUrl?: string;
	/** The keyword's id (an alert's keyword) and its tags (names) when the event happened; undefined: not known. */
	keywordId?: string;
	tags?: string[];
	/** Neither owed nor forbidden (a keyword added with ranks from an earlier crawl). */
	tolerated?: boolean;
}

/** Where the world reports the truth (the checker). */
export interface TruthSink {
	fact(fact: Fact): void;
	/**
	 * A project or group left the account's active list (archived, deleted), came back (restored) or changed name
	 * (`name`: its new full name; a project's rename reports its groups' new names too), at `at` (ms).
	 */
	containerChanged(
		key: ContainerKey,
		project: ContainerKey,
		at: number,
		change: 'archived' | 'restored' | 'deleted' | 'renamed',
		name?: string,
		oldName?: string,
	): void;
	keywordsDeleted(ids: string[], at: number): void;
	/** Keywords moved into the project or group `to` (its full name now), at `at` (ms). */
	keywordsMoved?(ids: string[], to: ContainerKey, name: string, at: number): void;
	/** Keywords whose tags changed, at `at` (ms). */
	tagsChanged?(ids: string[], at: number): void;
	/**
	 * Keywords added with ranks of an earlier crawl (churn): an update of one of them stamped before `before` (Unix
	 * seconds) is neither owed nor forbidden, whatever its crawled_at (it may have been crawled again meanwhile).
	 */
	keywordsAddedWithRanks?(ids: string[], before: number): void;
}

/** A project or group as the world knows it. */
interface Placed {
	key: ContainerKey;
	project: ContainerKey;
	/** Project name, or the group's own name. */
	name: string;
	group: boolean;
	archived: boolean;
	deleted: boolean;
}

export const SUB = '[sub]';

/** One crawled keyword in this many alerts, when a crawl alerts. */
const ALERT_SHARE = 8;

export class World {
	private readonly placed = new Map<ContainerKey, Placed>();
	/** Changes armed for the middle of the next poll. */
	private armed: Array<{
		id: number;
		change: ContainerChange;
		commit: () => void;
		describe: Extract<WorldEvent, { kind: 'rename' | 'archive' | 'restore' | 'delete' }>;
	}> = [];
	/** What the last applied events did (for reports). */
	readonly log: string[] = [];
	skipped = 0;

	constructor(
		readonly driver: WorldDriver,
		private readonly sink: TruthSink,
	) {}

	fullName(key: ContainerKey): string | undefined {
		const c = this.placed.get(key);
		if (!c || c.deleted) return undefined;
		if (!c.group) return c.name;
		const project = this.placed.get(c.project);
		return project ? `${project.name}${SUB}${c.name}` : undefined;
	}

	/** Key of the container now called `name` (full name). */
	keyOf(name: string): ContainerKey | undefined {
		for (const c of this.placed.values())
			if (!c.deleted && this.fullName(c.key) === name) return c.key;
		return undefined;
	}

	projectOf(key: ContainerKey): ContainerKey | undefined {
		return this.placed.get(key)?.project;
	}

	/** Live (not deleted) containers: key and full name. */
	containers(): Array<{ key: ContainerKey; name: string; project: ContainerKey; hidden: boolean }> {
		const out: Array<{ key: ContainerKey; name: string; project: ContainerKey; hidden: boolean }> =
			[];
		for (const c of this.placed.values()) {
			const name = this.fullName(c.key);
			if (name !== undefined)
				out.push({ key: c.key, name, project: c.project, hidden: this.isHidden(c.key) });
		}
		return out;
	}

	/** Archived, or in an archived project, or gone. */
	isHidden(key: ContainerKey): boolean {
		const c = this.placed.get(key);
		if (!c || c.deleted) return true;
		if (c.archived) return true;
		return c.group && (this.placed.get(c.project)?.archived ?? true);
	}

	private live(key: ContainerKey): Placed | undefined {
		const c = this.placed.get(key);
		return c && !c.deleted ? c : undefined;
	}

	private nameTaken(name: string): boolean {
		return this.keyOf(name) !== undefined;
	}

	/** Applies one account event (weather is the runner's); false when it could not apply (it then did nothing). */
	async apply(event: WorldEvent): Promise<boolean> {
		const done = await this.applyEvent(event);
		if (!done) this.skipped++;
		return done;
	}

	private async applyEvent(event: WorldEvent): Promise<boolean> {
		const d = this.driver;
		const at = event.at;
		switch (event.kind) {
			case 'createProject': {
				if (this.placed.has(event.key) || this.nameTaken(event.name)) return false;
				await d.createContainer(event.name);
				this.placed.set(event.key, {
					key: event.key,
					project: event.key,
					name: event.name,
					group: false,
					archived: false,
					deleted: false,
				});
				return true;
			}
			case 'createGroup': {
				const projectKey = event.key.split('/')[0];
				const project = this.live(projectKey);
				if (!project || this.placed.has(event.key)) return false;
				const full = `${project.name}${SUB}${event.name}`;
				if (this.nameTaken(full)) return false;
				await d.createContainer(full);
				this.placed.set(event.key, {
					key: event.key,
					project: projectKey,
					name: event.name,
					group: true,
					archived: false,
					deleted: false,
				});
				return true;
			}
			case 'rename':
			case 'archive':
			case 'restore':
			case 'delete': {
				const change = this.containerChange(event);
				if (!change) return false;
				if (event.midPoll && d.armChange) {
					const id = await d.armChange(event.midPoll, change.change);
					this.armed.push({ id, change: change.change, commit: change.commit, describe: event });
					return true;
				}
				await this.makeChange(change.change);
				change.commit();
				return true;
			}
			case 'addKeywords': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key)) return false;
				await d.addKeywords(name, event.count, event.tracked ?? false);
				return true;
			}
			case 'deleteKeywords': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key)) return false;
				const ids = await d.keywordIds(name);
				const rng = new Prng(event.salt);
				const chosen = ids.filter(() => rng.next() * 100 < event.percent);
				if (chosen.length === 0) return false;
				await d.deleteKeywords(chosen);
				this.sink.keywordsDeleted(chosen, at);
				return true;
			}
			case 'crawl': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key)) return false;
				const ids = await d.keywordIds(name);
				const from = Math.floor((event.slice * ids.length) / event.of);
				const to = Math.floor(((event.slice + 1) * ids.length) / event.of);
				if (to <= from) return false;
				await this.crawl(ids.slice(from, to), event.alerts, event.urls);
				return true;
			}
			case 'move': {
				const name = this.fullName(event.key);
				const target = this.fullName(event.to);
				if (name === undefined || target === undefined || !d.moveKeywords) return false;
				if (this.isHidden(event.key) || this.isHidden(event.to)) return false;
				const rng = new Prng(event.salt);
				const chosen = (await d.keywordIds(name)).filter(() => rng.next() * 100 < event.percent);
				if (chosen.length === 0) return false;
				const moved = await d.moveKeywords(chosen, target);
				if (moved.length === 0) return false;
				this.sink.keywordsMoved?.(moved, event.to, target, at);
				return true;
			}
			case 'tag': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key) || !d.setTags || !d.tagsOf) return false;
				const rng = new Prng(event.salt);
				const chosen = (await d.keywordIds(name)).filter(() => rng.next() * 100 < event.percent);
				if (chosen.length === 0) return false;
				const now = await d.tagsOf(chosen);
				const next = new Map<string, string[]>();
				for (const [id, tags] of now) {
					const without = tags.filter((tag) => tag !== event.tag);
					next.set(id, event.remove ? without : [...without, event.tag]);
				}
				await d.setTags(next);
				this.sink.tagsChanged?.([...next.keys()], at);
				return true;
			}
			case 'refresh': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key)) return false;
				const ids = await d.keywordIds(name);
				if (event.withGroups) {
					for (const c of this.containers())
						if (c.project === event.key && c.key !== event.key && !c.hidden)
							ids.push(...(await d.keywordIds(c.name)));
				}
				if (ids.length === 0) return false;
				await this.crawl(ids, false);
				return true;
			}
			case 'alerts':
			case 'lateAlerts': {
				const name = this.fullName(event.key);
				if (name === undefined || this.isHidden(event.key)) return false;
				const createdAt =
					event.kind === 'lateAlerts'
						? Math.floor(d.now() / 1000) - event.lateBySeconds
						: undefined;
				for (const alert of await d.addAlerts(name, event.count, createdAt)) this.alertFact(alert);
				return true;
			}
			default:
				return false;
		}
	}

	/** A rename, archive, restore or delete as the fake takes it, and the world's bookkeeping once it is made. */
	private containerChange(
		event: Extract<WorldEvent, { kind: 'rename' | 'archive' | 'restore' | 'delete' }>,
	): { change: ContainerChange; commit: () => void } | undefined {
		const c = this.live(event.key);
		const name = this.fullName(event.key);
		if (!c || name === undefined) return undefined;
		/** The containers a change of `c` touches: it, and for a project its groups. */
		const touched = () =>
			[...this.placed.values()].filter(
				(other) => !other.deleted && (other.key === c.key || (!c.group && other.project === c.key)),
			);
		const changed = (
			what: 'archived' | 'restored' | 'deleted' | 'renamed',
			before?: Map<ContainerKey, string | undefined>,
		) => {
			const at = this.driver.now();
			if (what !== 'renamed') {
				this.sink.containerChanged(c.key, c.project, at, what);
				return;
			}
			// A project's groups are renamed with it (their full names start with its name).
			for (const other of touched())
				this.sink.containerChanged(
					other.key,
					other.project,
					at,
					'renamed',
					this.fullName(other.key),
					before?.get(other.key),
				);
		};
		switch (event.kind) {
			case 'rename': {
				const project = c.group ? this.live(c.project) : undefined;
				const to = c.group ? `${project?.name ?? ''}${SUB}${event.name}` : event.name;
				if (this.nameTaken(to)) return undefined;
				const newName = event.name;
				return {
					change: { op: 'rename', name, to },
					commit: () => {
						const before = new Map(touched().map((other) => [other.key, this.fullName(other.key)]));
						c.name = newName;
						changed('renamed', before);
					},
				};
			}
			case 'archive':
			case 'restore': {
				const archive = event.kind === 'archive';
				if (c.archived === archive) return undefined;
				return {
					change: { op: event.kind, name },
					commit: () => {
						c.archived = archive;
						changed(archive ? 'archived' : 'restored');
					},
				};
			}
			case 'delete':
				return {
					change: { op: 'delete', name },
					commit: () => {
						c.deleted = true;
						if (!c.group)
							for (const other of this.placed.values())
								if (other.project === c.key) other.deleted = true;
						changed('deleted');
					},
				};
		}
	}

	private async makeChange(change: ContainerChange): Promise<void> {
		const d = this.driver;
		if (change.op === 'rename') await d.renameContainer(change.name, change.to!);
		else if (change.op === 'delete') await d.deleteContainer(change.name);
		else await d.setArchived(change.name, change.op === 'archive');
	}

	/**
	 * After a poll: the changes armed for the middle of it that were made are booked now (at the poll's time); those
	 * the poll gave no chance to (it asked for no keyword list) are made now, between polls. Returns how many there
	 * were.
	 */
	async settleArmed(): Promise<number> {
		if (this.armed.length === 0) return 0;
		const d = this.driver;
		const made = (await d.takeChanges?.()) ?? new Map<number, boolean>();
		await d.disarmChanges?.();
		const armed = this.armed;
		this.armed = [];
		for (const entry of armed) {
			const applied = made.get(entry.id);
			if (applied === true) {
				entry.commit();
				this.log.push(`made mid-poll: ${JSON.stringify(entry.change)}`);
				continue;
			}
			// Not made (no matching answer, or the name changed meanwhile): made now if it still fits.
			const again = this.containerChange(entry.describe);
			if (!again) continue;
			await this.makeChange(again.change);
			again.commit();
		}
		return armed.length;
	}

	/**
	 * Crawls keywords. With `alerts`, about one in ALERT_SHARE of them gets an alert (Keyword.com alerts on moves past
	 * a threshold; the fake alerts on every move).
	 */
	private async crawl(ids: string[], alerts: boolean, urls?: number): Promise<void> {
		const alerting = alerts ? ids.filter((_, n) => n % ALERT_SHARE === 0) : [];
		const quiet = alerts ? ids.filter((_, n) => n % ALERT_SHARE !== 0) : ids;
		// `urls` percent of them get another ranking URL (a page of the site other than the one the rank gives).
		const newUrls: Record<string, string> = {};
		if (urls && this.driver.crawlWithUrls)
			ids.forEach((id, n) => {
				if ((n * 37) % 100 < urls) newUrls[id] = `https://alternate.example/${id}/${n % 3}`;
			});
		for (const [part, withAlerts] of [
			[alerting, true],
			[quiet, false],
		] as const) {
			if (part.length === 0) continue;
			const result =
				Object.keys(newUrls).length > 0 && this.driver.crawlWithUrls
					? await this.driver.crawlWithUrls(part, withAlerts, newUrls)
					: await this.driver.crawl(part, withAlerts);
			for (const crawl of result.crawls) this.crawlFact(crawl);
			for (const alert of result.alerts) this.alertFact(alert);
		}
	}

	private crawlFact(crawl: CrawlTruth, tolerated = false): void {
		const container = this.keyOf(crawl.category);
		this.sink.fact({
			kind: 'keyword',
			key: `k:${crawl.id}@${crawl.crawledAt}`,
			id: crawl.id,
			at: crawl.crawledAt,
			category: crawl.category,
			container,
			project: container === undefined ? undefined : this.projectOf(container),
			visibleAt: this.driver.now(),
			rank: crawl.rank < 0 ? undefined : crawl.rank > 0 ? crawl.rank : null,
			previousRank:
				crawl.rank < 0
					? 'unknown'
					: crawl.previousRank === undefined
						? undefined
						: crawl.previousRank > 0
							? crawl.previousRank
							: null,
			url: crawl.url,
			previousUrl: crawl.previousUrl,
			keywordId: crawl.id,
			tags: crawl.tags,
			tolerated,
		});
	}

	/** Reports what churn changed during a poll (call before the poll's items are checked). */
	async harvestChurn(): Promise<void> {
		if (!this.driver.takeChurn) return;
		const churn = await this.driver.takeChurn();
		for (const alert of churn.alerts) this.alertFact(alert);
		// Added with ranks of a crawl before now: the trigger may or may not report that crawl.
		for (const crawl of churn.added) this.crawlFact(crawl, true);
		if (churn.addedIds.length > 0)
			this.sink.keywordsAddedWithRanks?.(churn.addedIds, Math.floor(this.driver.now() / 1000));
		for (const crawl of churn.crawls) this.crawlFact(crawl);
		if (churn.deleted.length > 0) this.sink.keywordsDeleted(churn.deleted, this.driver.now());
	}

	private alertFact(alert: AlertTruth): void {
		const container = this.keyOf(alert.category);
		this.sink.fact({
			kind: 'alert',
			key: `a:${alert.id}`,
			id: alert.id,
			at: alert.createdAt,
			category: alert.category,
			container,
			project: container === undefined ? undefined : this.projectOf(container),
			visibleAt: this.driver.now(),
			rank: alert.result,
			prevrank: alert.prevrank,
			keywordId: alert.keywordId,
			tags: alert.tags,
		});
	}
}

// ---------------------------------------------------------------------------------------------- in-process driver

/** Any keyword list (#13). */
export const KEYWORD_LIST_PATH = /^\/api\/v2\/groups\/.+\/keywords\/?$/;

/** A `FakeKeywordApi` in this process on a virtual clock: changes go straight to its state, as its handlers do. */
export class InProcessDriver implements WorldDriver {
	readonly clock = 'virtual' as const;

	constructor(
		readonly api: FakeKeywordApi,
		private readonly clockRef: { now: number },
	) {}

	now(): number {
		return this.clockRef.now;
	}

	setNow(ms: number): void {
		this.clockRef.now = ms;
	}

	private get state() {
		return this.api.state;
	}

	async createContainer(name: string): Promise<void> {
		this.state.createContainer(name);
	}

	async renameContainer(name: string, newName: string): Promise<boolean> {
		this.api.renameContainer(name, newName);
		return true;
	}

	async setArchived(name: string, archived: boolean): Promise<void> {
		if (archived) this.api.archiveContainer(name);
		else this.api.restoreContainer(name);
	}

	async deleteContainer(name: string): Promise<void> {
		this.api.deleteContainerByName(name);
	}

	async armChange(after: MidPoll, change: ContainerChange): Promise<number> {
		const path = after === 'groups' ? '/api/v2/groups/active' : KEYWORD_LIST_PATH;
		return this.api.afterNextAnswer({ path, method: 'GET' }, change as never);
	}

	async takeChanges(): Promise<Map<number, boolean>> {
		const made = new Map(this.api.changesLog.map((entry) => [entry.id, entry.applied]));
		this.api.clearChangesLog();
		return made;
	}

	async disarmChanges(): Promise<void> {
		this.api.clearPendingChanges();
	}

	async addKeywords(name: string, count: number, tracked: boolean): Promise<void> {
		this.api.addKeywords(name, count, { tracked });
	}

	async keywordIds(name: string): Promise<string[]> {
		return this.state.getContainer(name).keywordIds.map(String);
	}

	async deleteKeywords(ids: string[]): Promise<void> {
		this.api.deleteKeywords(ids);
	}

	async crawl(
		ids: string[],
		alerts: boolean,
	): Promise<{ crawls: CrawlTruth[]; alerts: AlertTruth[] }> {
		return await this.crawlWithUrls(ids, alerts, {});
	}

	async crawlWithUrls(
		ids: string[],
		alerts: boolean,
		newUrls: Record<string, string>,
	): Promise<{ crawls: CrawlTruth[]; alerts: AlertTruth[] }> {
		const state = this.state;
		const before = state.alerts.length;
		const updated = state.simulateRankUpdate({
			keywordIds: ids,
			createAlerts: alerts,
			// A new URL only where the keyword ranks (outside the results it has none).
			rankingUrls: Object.fromEntries(
				Object.entries(newUrls).filter(
					([id]) => (state.keywords.get(Number(id))?.history[0] ?? 0) > 0,
				),
			),
		});
		return {
			crawls: updated.map((k) => crawlTruth(k)),
			alerts: state.alerts.slice(before).map((a) => alertTruth(a, state)),
		};
	}

	async addAlerts(name: string, count: number, createdAt?: number): Promise<AlertTruth[]> {
		return this.state
			.addAlerts(count, { category: name, createdAt })
			.map((a) => alertTruth(a, this.state));
	}

	async moveKeywords(ids: string[], to: string): Promise<string[]> {
		const state = this.state;
		return state.moveKeywords(ids.map(Number), state.getContainer(to)).map((k) => String(k.id));
	}

	async setTags(tags: Map<string, string[]>): Promise<void> {
		for (const [id, names] of tags) {
			const k = this.state.keywords.get(Number(id));
			if (k) this.state.setKeywordTags(k, names);
		}
	}

	async tagsOf(ids: string[]): Promise<Map<string, string[]>> {
		const out = new Map<string, string[]>();
		for (const id of ids) {
			const k = this.state.keywords.get(Number(id));
			if (k) out.set(id, [...k.tags]);
		}
		return out;
	}

	async setChurn(spec: ChurnSpec | null): Promise<void> {
		this.api.setBehaviour({ churn: spec });
	}

	async takeChurn(): Promise<ChurnHarvest> {
		const state = this.state;
		const harvest: ChurnHarvest = { crawls: [], added: [], addedIds: [], deleted: [], alerts: [] };
		const second = state.nowSeconds();
		const alertsById = new Map<string, Alert>();
		for (const entry of this.api.churnLog) {
			if (entry.alerts.length > 0 && alertsById.size === 0)
				for (const a of state.alerts) alertsById.set(String(a.id), a);
			for (const id of entry.alerts) {
				const alert = alertsById.get(id);
				if (alert) harvest.alerts.push(alertTruth(alert, state));
			}
			harvest.deleted.push(...entry.deleted);
			const category = entry.category ?? '';
			// Churn crawls a keyword at most once a second (the clock stands still during a poll): at this second.
			for (const id of entry.crawled) {
				const k = state.keywords.get(Number(id));
				harvest.crawls.push(
					k && k.crawledAt === second
						? { ...crawlTruth(k), category }
						: { id, crawledAt: second, rank: -1, category },
				);
			}
			harvest.addedIds.push(...entry.added);
			for (const id of entry.added) {
				const k = state.keywords.get(Number(id));
				if (k?.crawledAt) harvest.added.push({ ...crawlTruth(k), category });
			}
		}
		this.api.clearChurnLog();
		return harvest;
	}

	async setLatency(ms: number): Promise<void> {
		this.api.setLatency(ms);
	}

	async injectFault(order: FaultOrder): Promise<void> {
		this.api.injectFault({
			path: order.path ?? /^\/api\//,
			times: order.times,
			status: order.status,
			retryAfter: order.retryAfter,
			kind: order.kind ?? 'status',
			stallMs: order.stallMs,
			every: order.every,
		});
	}

	async clearFaults(): Promise<void> {
		this.api.clearFaults();
	}

	async takeRequestCount(): Promise<number> {
		const count = this.api.requests.length;
		this.api.clearRequests();
		return count;
	}
}

function alertTruth(a: Alert, state: FakeKeywordApi['state']): AlertTruth {
	return {
		id: String(a.id),
		createdAt: a.createdAt,
		category: a.category,
		prevrank: a.prevrank,
		result: a.result,
		// An alert of a project or group without keywords is synthetic (keyword_id 0): it names no keyword of any list.
		keywordId: state.keywords.has(a.keywordId) ? String(a.keywordId) : undefined,
		tags: [...(state.keywords.get(a.keywordId)?.tags ?? [])],
	};
}

/** A keyword's last crawl as the world reports it: its rank, the one before, both ranking URLs, its tags. */
function crawlTruth(k: Keyword): CrawlTruth {
	return {
		id: String(k.id),
		crawledAt: k.crawledAt ?? 0,
		rank: k.history[0] ?? 0,
		category: k.container.name,
		previousRank: k.history.length > 1 ? k.history[1] : undefined,
		url: shownRankingUrl(k.history[0] ?? 0, k.urlHistory[0]),
		previousUrl: shownRankingUrl(k.history[1], k.urlHistory[1]),
		tags: [...k.tags],
	};
}

/** The RegExp of every API path about one project: its keyword lists and its groups'. */
export function projectPaths(projectName: string): RegExp {
	const escaped = projectName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`^/api/v2/groups/${escaped}(\\[sub\\][^/]*)?(/|$)`);
}
