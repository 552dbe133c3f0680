/**
 * Keyword Updated, exactly once, over the in-memory API (pure poll logic, virtual time): keyword lists ordered by id
 * either way, changing between two pages (keywords added, deleted, crawled), updates far larger than a poll can read
 * in its budget, either order of the rank history, restarts and failures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	hasReadsInProgress,
	type KeywordState,
} from '../../nodes/KeywordComTrigger/keywordUpdated/plan';
import {
	decodeKeywordState,
	encodeKeywordState,
} from '../../nodes/KeywordComTrigger/state/storedState';
import { ALL, type Scope } from '../../nodes/shared/groupName';
import { pollKeywordUpdates } from '../../nodes/KeywordComTrigger/keywordUpdated/poll';
import {
	RequestAllowance,
	servedList,
	type PollSettings,
} from '../../nodes/KeywordComTrigger/polling/pollContract';
import type { ListRead } from '../../nodes/KeywordComTrigger/polling/listReadState';
import { readKeywordList } from '../../nodes/KeywordComTrigger/polling/keywordListRead';
import { MemoryApi, type MemKeyword } from './memory-api.cjs';

/** Output Simplified (the default): the keyword's id, ranks and crawl time, which these suites check. */
const SIMPLIFIED: PollSettings['output'] = { mode: 'simplified', fields: [] };

/** An item's crawl time as Unix seconds (Simplified gives it as ISO 8601). */
const crawledSeconds = (item: IDataObject): number => Date.parse(String(item.crawled_at)) / 1000;

const TOKEN = 'secret-token-xyz';

class Run {
	readonly api = new MemoryApi();
	state: KeywordState | undefined;
	/** Every item emitted, in order. */
	items: IDataObject[] = [];
	polls = 0;
	/** The last poll read everything there was. */
	complete = false;
	now = 1_700_000_000;
	private nextId = 100_000;

	/**
	 * How n8n keeps the state between polls: 'every-poll' (durable cursors: committed after every poll; in-memory: the
	 * live object) or 'on-emit' (the durable scheduler without durable cursors: each poll starts from the state saved
	 * with the last poll that emitted).
	 */
	persistence: 'every-poll' | 'on-emit' = 'every-poll';

	constructor(
		readonly settings: PollSettings = {
			scope: ALL,
			output: SIMPLIFIED,
			onlyRankChanges: false,
			token: TOKEN,
		},
	) {
		this.api.serverTime = this.now;
	}

	add(category: string, count: number, crawled: number | null = this.now - 10_000): number[] {
		const ids: number[] = [];
		for (let n = 0; n < count; n++) {
			const id = this.nextId++;
			this.api.keywords.push({
				id,
				category,
				crawled_at: crawled,
				history: crawled === null ? [] : [5 + (id % 40), 7 + (id % 30)],
			});
			ids.push(id);
		}
		// A keyword that comes with ranks was crawled: its container's keywords_last_updated_at moves too.
		const last = this.api.updated[category];
		if (crawled !== null && (!last || Date.parse(last) < crawled * 1000))
			this.api.updated[category] = new Date(crawled * 1000).toISOString();
		else if (!(category in this.api.updated)) this.api.updated[category] = null;
		return ids;
	}

	/** Crawls keywords now (one second later than anything before); returns the crawl stamp. */
	crawl(ids: number[], rank?: (k: MemKeyword) => number): number {
		this.now += 1;
		this.api.crawl(ids, this.now, rank);
		return this.now;
	}

	async poll(budgetMs = 36_000): Promise<IDataObject[]> {
		// A poll a few seconds after the last crawl; the server's clock (its Date header) is now. Crawls during the
		// poll are stamped later (crawl() moves `now` on), as a real crawl is stamped when it happens.
		this.now += 3;
		this.api.serverTime = this.now;
		const started = this.api.clock;
		const outcome = await pollKeywordUpdates(this.api, this.state, this.settings, {
			budget: this.api.budget(budgetMs),
		});
		assert.ok(
			this.api.clock - started <= budgetMs,
			`poll took ${this.api.clock - started} ms of ${budgetMs}`,
		);
		this.items.push(...outcome.items);
		this.complete = outcome.complete;
		// The activation poll's state is always kept (n8n's activation saves it, or the global baseline carries it).
		if (this.persistence === 'every-poll' || outcome.items.length > 0 || this.polls === 0)
			this.state = decodeKeywordState(
				JSON.parse(JSON.stringify(encodeKeywordState(outcome.state))),
			);
		this.polls++;
		this.api.clock += 60_000;
		this.now += 60;
		return outcome.items;
	}

	/** Polls until one reads everything there is (a poll that only resumed a read has not looked at the rest). */
	async drain(budgetMs: number, maxPolls = 300): Promise<void> {
		for (let n = 0; n < maxPolls; n++) {
			await this.poll(budgetMs);
			if (this.complete && !hasReadsInProgress(this.state)) return;
		}
		assert.fail('did not drain');
	}

	/** Each (keyword, crawl) emitted at most once; each keyword's last crawl exactly once (if after activation). */
	assertExactlyOnce(since: number, label = ''): void {
		const pairs = this.items.map((item) => `${String(item.id)}@${crawledSeconds(item)}`);
		assert.equal(new Set(pairs).size, pairs.length, `${label}: no crawl emitted twice`);
		const emitted = new Map<string, number[]>();
		for (const item of this.items) {
			const list = emitted.get(String(item.id)) ?? [];
			list.push(crawledSeconds(item));
			emitted.set(String(item.id), list);
		}
		for (const k of this.api.keywords) {
			const got = emitted.get(String(k.id)) ?? [];
			for (let n = 1; n < got.length; n++)
				assert.ok(got[n - 1] < got[n], `${label}: keyword ${k.id} emitted in order`);
			if (k.crawled_at !== null && k.crawled_at > since) {
				assert.equal(
					got.filter((at) => at === k.crawled_at).length,
					1,
					`${label}: keyword ${k.id}'s last crawl (${k.crawled_at}) emitted once, got ${got.join(',')}`,
				);
			}
		}
	}
}

describe('Keyword Updated: one request when idle, only moved lists read', () => {
	it('activation reads groups/active only; an idle poll too; a moved project: its list only, with ranks', async () => {
		const run = new Run();
		run.add('Big', 5_000);
		const small = run.add('Small', 12);
		assert.deepEqual(await run.poll(), []);
		assert.deepEqual(run.api.calls, ['groups']);
		run.api.calls = [];
		assert.deepEqual(await run.poll(), []);
		assert.deepEqual(run.api.calls, ['groups']);
		run.api.calls = [];
		run.crawl(small);
		const items = await run.poll();
		assert.deepEqual(run.api.calls, ['groups', 'keywords:Small:1']);
		assert.deepEqual(
			items.map((i) => Number(i.id)),
			small,
		);
		for (const item of items) {
			assert.equal(typeof item.rank, 'number');
			assert.equal(item.previous_rank, 5 + ((item.id as unknown as number) % 40));
			assert.equal(item.change, item.previous_rank - (item.rank as number));
		}
		assert.ok(!JSON.stringify(items).includes(TOKEN));
		const stored = JSON.stringify(encodeKeywordState(run.state!));
		assert.ok(stored.length < 200, stored);
	});

	it('a keyword crawled twice between polls: one item, with its latest rank', async () => {
		const run = new Run();
		const [id] = run.add('P', 3);
		await run.poll();
		run.crawl([id], () => 20);
		run.crawl([id], () => 21);
		const items = await run.poll();
		assert.deepEqual(
			items.map((i) => [Number(i.id), i.rank, i.previous_rank]),
			[[id, 21, 20]],
		);
	});

	it('Only Rank Changes leaves out keywords whose rank stayed; groups and scope', async () => {
		const scope: Scope = { project: 'Acme', group: '', includeGroups: false };
		const run = new Run({ scope, output: SIMPLIFIED, onlyRankChanges: true, token: TOKEN });
		const acme = run.add('Acme', 4);
		const blog = run.add('Acme[sub]Blog', 4);
		await run.poll();
		run.crawl(acme, (k) => k.history[0]); // same rank
		run.crawl(blog);
		assert.deepEqual(await run.poll(), []);
		assert.ok(
			!run.api.calls.includes('keywords:Acme[sub]Blog:1'),
			'a group out of scope is not read',
		);
		run.crawl(acme.slice(0, 2));
		assert.deepEqual(
			(await run.poll()).map((i) => Number(i.id)),
			acme.slice(0, 2),
		);
	});
});

describe('Keyword Updated: either history order', () => {
	for (const order of ['newest-first', 'oldest-first'] as const) {
		it(`${order}: previous rank and change are right; outside the top results the rank is null`, async () => {
			const run = new Run();
			run.api.historyOrder = order;
			const ids = run.add('P', 6);
			await run.poll();
			run.crawl(ids.slice(0, 3), () => 0); // drop out of the top results
			run.crawl(ids.slice(3), (k) => k.history[0] - 2); // move up 2
			const items = await run.poll();
			const byId = new Map(items.map((i) => [Number(i.id), i]));
			for (const id of ids.slice(0, 3)) {
				const item = byId.get(id)!;
				assert.equal(item.rank, null);
				assert.equal(item.previous_rank, 5 + (id % 40));
				assert.equal(item.change, item.previous_rank - 101);
			}
			for (const id of ids.slice(3)) {
				const item = byId.get(id)!;
				assert.equal(item.change, 2);
				assert.equal(item.rank, 5 + (id % 40) - 2);
			}
			assert.equal(
				run.state?.historyOrder,
				order === 'newest-first' ? 'descending' : 'ascending',
				'the order is remembered',
			);
			assert.equal(
				encodeKeywordState(run.state).o,
				order === 'newest-first' ? 'n' : 'o',
				'stored as one letter',
			);
		});
	}
});

describe('Keyword Updated: exactly once while lists change and time runs out', () => {
	for (const keywordOrder of ['ascending', 'descending'] as const) {
		for (const [budgetMs, persistence] of [
			[36_000, 'every-poll'],
			[2_500, 'every-poll'],
			[36_000, 'on-emit'],
			[2_500, 'on-emit'],
		] as const) {
			it(`ids ${keywordOrder}: 50,000 keywords crawled at 1 s a page, ${budgetMs / 1000} s budget, state kept ${persistence === 'on-emit' ? 'only by polls that emit' : 'after every poll'}: every poll within it, each once`, async () => {
				const run = new Run();
				run.persistence = persistence;
				run.api.keywordOrder = keywordOrder;
				const ids = run.add('Big', 50_000);
				run.add('Other', 30);
				await run.poll(budgetMs);
				const since = run.now;
				run.api.latencyMs = 1_000;
				run.crawl(ids);
				await run.drain(budgetMs);
				run.assertExactlyOnce(since);
				assert.equal(run.items.length, 50_000);
				if (budgetMs < 5_000) assert.ok(run.polls > 5 && run.polls < 80, `${run.polls} polls`);
				assert.ok(JSON.stringify(encodeKeywordState(run.state!)).length < 200);
			});
		}

		for (const change of ['add', 'delete', 'crawl'] as const) {
			it(`ids ${keywordOrder}: keywords ${change === 'add' ? 'added' : change === 'delete' ? 'deleted' : 'crawled'} between two pages: none dropped, none twice`, async () => {
				const run = new Run();
				run.api.keywordOrder = keywordOrder;
				const ids = run.add('P', 3_000);
				await run.poll();
				const since = run.now;
				run.crawl(ids);
				let requests = 0;
				run.api.beforeRequest = (call) => {
					if (!call.startsWith('keywords:P')) return;
					requests++;
					const list = run.api.listOf('P');
					if (change === 'add') run.add('P', 7, run.now);
					if (change === 'delete') {
						// Keywords near the front of the list: what follows shifts towards page 1 under the reader.
						const gone = new Set(list.slice(requests * 3, requests * 3 + 5).map((k) => k.id));
						run.api.keywords = run.api.keywords.filter((k) => !gone.has(k.id));
					}
					if (change === 'crawl')
						run.crawl(list.slice(requests * 50, requests * 50 + 20).map((k) => k.id));
				};
				await run.drain(36_000);
				run.api.beforeRequest = undefined;
				await run.drain(36_000);
				run.assertExactlyOnce(since, change);
			});
		}
	}

	it('a failing page mid-list keeps what was read; the next poll goes on from there', async () => {
		const run = new Run();
		const ids = run.add('P', 2_000);
		await run.poll();
		const since = run.now;
		run.crawl(ids);
		let calls = 0;
		run.api.beforeRequest = (call) => {
			if (call.startsWith('keywords') && ++calls === 4) throw new Error('HTTP 500');
		};
		const first = await run.poll();
		run.api.beforeRequest = undefined;
		assert.ok(first.length > 0 && first.length < 2_000, `progress kept: ${first.length}`);
		await run.drain(36_000);
		run.assertExactlyOnce(since);
	});

	it('property: random crawls, additions, deletions, budgets, latencies and failures — each crawl once', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom('ascending' as const, 'descending' as const),
				fc.constantFrom('newest-first' as const, 'oldest-first' as const),
				fc.array(
					fc.record({
						crawl: fc.integer({ min: 0, max: 1_200 }),
						offset: fc.integer({ min: 0, max: 1_000 }),
						project: fc.constantFrom('A', 'B', 'A[sub]G'),
						added: fc.integer({ min: 0, max: 40 }),
						deleted: fc.integer({ min: 0, max: 40 }),
						duringPoll: fc.constantFrom('none', 'crawl', 'delete', 'add'),
						latency: fc.constantFrom(0, 300, 1_000),
						budget: fc.constantFrom(2_500, 6_000, 36_000),
						failAt: fc.integer({ min: 0, max: 8 }),
					}),
					{ minLength: 1, maxLength: 6 },
				),
				async (keywordOrder, historyOrder, steps) => {
					const run = new Run();
					run.api.keywordOrder = keywordOrder;
					run.api.historyOrder = historyOrder;
					run.add('A', 1_500);
					run.add('B', 400);
					run.add('A[sub]G', 300);
					await run.poll();
					const since = run.now;
					for (const step of steps) {
						const list = run.api.listOf(step.project);
						run.crawl(list.slice(step.offset, step.offset + step.crawl).map((k) => k.id));
						if (step.added > 0) run.add(step.project, step.added, run.now);
						const gone = new Set(list.slice(0, step.deleted).map((k) => k.id));
						run.api.keywords = run.api.keywords.filter((k) => !gone.has(k.id));
						run.api.latencyMs = step.latency;
						let calls = 0;
						run.api.beforeRequest = () => {
							calls++;
							if (step.failAt > 0 && calls === step.failAt) throw new Error('HTTP 502');
							const inList = run.api.listOf(step.project);
							if (step.duringPoll === 'crawl')
								run.crawl(inList.slice(calls * 10, calls * 10 + 5).map((k) => k.id));
							if (step.duringPoll === 'delete') {
								const victim = inList[calls % Math.max(1, inList.length)];
								if (victim) run.api.keywords = run.api.keywords.filter((k) => k.id !== victim.id);
							}
							if (step.duringPoll === 'add') run.add(step.project, 2, run.now);
						};
						try {
							await run.poll(step.budget);
						} catch {
							run.api.clock += 60_000; // a failed poll: n8n keeps the state as it was
							run.now += 60;
						}
					}
					run.api.beforeRequest = undefined;
					run.api.latencyMs = 0;
					await run.drain(36_000);
					run.assertExactlyOnce(since, `${keywordOrder}/${historyOrder}`);
				},
			),
			{ numRuns: 40, seed: 11242026 },
		);
	});
});

describe('Keyword Updated: a list that reorders itself under the read (by rank)', () => {
	/**
	 * Reads `list` page by page (no id order) over polls of 1 to 3 requests; `change` runs before each request, told
	 * the index of the last record served.
	 */
	async function readAcrossPolls(
		list: string[],
		change: (request: number, lastServed: number) => void,
		{ perPoll = (poll: number) => 1 + (poll % 3), maxPerPage = 250, maxPolls = 200 } = {},
	) {
		let lastServed = -1;
		const fetch = async (page: number, asked: number) => {
			change(++requests, lastServed);
			// As the API: pages of at most its largest size, and the size used said in the answer.
			const perPage = Math.min(asked, maxPerPage);
			const start = (page - 1) * perPage;
			lastServed = Math.min(list.length, start + perPage) - 1;
			return {
				records: list.slice(start, start + perPage).map((id) => ({ id })),
				total: list.length,
				perPage,
			};
		};
		let requests = 0;
		const limits = { budget: new MemoryApi().budget(36_000) };
		const taken: string[] = [];
		let read: ListRead | 'done' = {
			windowEnd: 10,
			lastIndex: -1,
			listLength: 0,
			idOrder: 'unordered',
		};
		for (let poll = 0; read !== 'done' && poll < maxPolls; poll++) {
			// As n8n keeps it between polls.
			const kept = JSON.parse(JSON.stringify(read)) as ListRead;
			const outcome = await readKeywordList(
				fetch,
				kept,
				limits,
				new RequestAllowance(perPoll(poll)),
				1,
			);
			for (const record of outcome.records) taken.push(String((record as IDataObject).id));
			read = outcome.read;
		}
		assert.equal(read, 'done', 'the read ends');
		return { taken, requests };
	}

	it('the last keyword read crawled between two pages and moved further on: none skipped', async () => {
		const list = Array.from({ length: 700 }, (_, n) => String(100_000 + n));
		const moved = list[249];
		const { taken } = await readAcrossPolls(list, (request) => {
			if (request === 2) list.splice(400, 0, ...list.splice(249, 1));
		});
		assert.deepEqual(
			list.filter((id) => !taken.includes(id)),
			[],
			'every keyword read',
		);
		assert.equal(taken.filter((id) => id === moved).length, 1, 'the one moved read once');
	});

	it('the last two keywords read crawled together and moved side by side further on: none skipped', async () => {
		const list = Array.from({ length: 1_000 }, (_, n) => String(100_000 + n));
		const { taken } = await readAcrossPolls(list, (request) => {
			if (request === 2) list.splice(398, 0, ...list.splice(248, 2));
		});
		assert.deepEqual(
			list.filter((id) => !taken.includes(id)),
			[],
			'every keyword read',
		);
	});

	it("a crawl moves 200 keywords read before the read's place to the end between two polls: it finds its place again, with 1 to 3 requests a poll", async () => {
		for (const perPoll of [1, 2, 3]) {
			const list = Array.from({ length: 3_000 }, (_, n) => String(100_000 + n));
			const moved = new Set<string>();
			const { taken } = await readAcrossPolls(
				list,
				(request, lastServed) => {
					// The first request of the third poll: 200 of the keywords read so far drop to the end of the list.
					if (request !== perPoll * 2 + 1) return;
					for (let n = 0; n < 200; n++) {
						const [id] = list.splice(Math.floor((n * lastServed) / 200) - n, 1);
						moved.add(id);
						list.push(id);
					}
				},
				{ perPoll: () => perPoll },
			);
			const counts = new Map<string, number>();
			for (const id of taken) counts.set(id, (counts.get(id) ?? 0) + 1);
			const wrong = list.filter((id) => !moved.has(id) && counts.get(id) !== 1);
			assert.deepEqual(wrong, [], `${perPoll} requests a poll: every keyword not moved read once`);
		}
	});

	it('property: keywords crawled under the read move anywhere, others are added and deleted: every keyword that stayed in place is read once', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 300, max: 1_500 }),
				fc.array(
					fc.record({
						// [near the last record served (an anchor), from, to]
						moves: fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat()), { maxLength: 3 }),
						deletes: fc.array(fc.nat(), { maxLength: 2 }),
						adds: fc.array(fc.nat(), { maxLength: 2 }),
					}),
					{ minLength: 1, maxLength: 40 },
				),
				async (length, changes) => {
					const list = Array.from({ length }, (_, n) => String(100_000 + n));
					// Crawled, added or deleted under the read: the window leaves them to the next read.
					const touched = new Set<string>();
					let next = 900_000;
					const { taken } = await readAcrossPolls(list, (request, lastServed) => {
						if (request > changes.length) return;
						const step = changes[request - 1];
						for (const [nearRead, from, to] of step.moves) {
							const at = nearRead ? Math.max(0, lastServed - (from % 8)) : from;
							const [id] = list.splice(at % list.length, 1);
							touched.add(id);
							list.splice(to % (list.length + 1), 0, id);
						}
						for (const at of step.deletes)
							if (list.length > 1) touched.add(list.splice(at % list.length, 1)[0]);
						for (const at of step.adds) {
							const id = String(next++);
							touched.add(id);
							list.splice(at % (list.length + 1), 0, id);
						}
					});
					const counts = new Map<string, number>();
					for (const id of taken) counts.set(id, (counts.get(id) ?? 0) + 1);
					for (const id of list) {
						if (touched.has(id)) continue;
						assert.equal(counts.get(id) ?? 0, 1, `keyword ${id}, in place throughout, read once`);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it('no changes: every keyword read once, in about as many requests as pages, whatever page size the API serves and requests a poll', async () => {
		// The size asked for varies from page to page (pages overlap): only a page shorter than asked tells a cap.
		for (const maxPerPage of [250, 200, 120, 50, 37]) {
			for (const length of [100, 3_000, 10_000]) {
				for (const perPoll of [1, 240]) {
					const list = Array.from({ length }, (_, n) =>
						String(100_000 + ((n * 7_919) % 1_000_003)),
					);
					const { taken, requests } = await readAcrossPolls(list, () => {}, {
						perPoll: () => perPoll,
						maxPerPage,
						maxPolls: 1_000,
					});
					const at = `${maxPerPage} a page, ${length} keywords, ${perPoll} requests a poll`;
					assert.equal(new Set(taken).size, length, `${at}: every keyword`);
					assert.equal(taken.length, length, `${at}: each once`);
					const pages = Math.ceil(length / maxPerPage);
					assert.ok(
						requests <= Math.ceil(pages * 1.5) + 2,
						`${at}: ${requests} requests for ${pages} pages`,
					);
				}
			}
		}
	});

	it('one request a poll, the last keywords read deleted between two polls: the read goes on, each keyword once', async () => {
		const list = Array.from({ length: 1_000 }, (_, n) => String(100_000 + n));
		const { taken } = await readAcrossPolls(
			list,
			(request) => {
				// Before the second poll: the 5 anchors and the 20 keywords before them.
				if (request === 2) list.splice(225, 25);
			},
			{ perPoll: () => 1 },
		);
		for (const id of list)
			assert.equal(taken.filter((t) => t === id).length, 1, `keyword ${id} read once`);
	});
});

describe('Keyword Updated: time and requests', () => {
	it('an API serving fewer keywords a page than asked: a read resumed by the next poll asks for the right page first', async () => {
		// Page numbers count in the size served: a first page planned with the 250 asked for would land elsewhere.
		for (const served of [200, 120]) {
			for (let total = 400; total <= 2_600; total += 97) {
				const api = new MemoryApi();
				api.maxKeywordsPerPage = served;
				for (let n = 0; n < total; n++)
					api.keywords.push({ id: 100_000 + n, category: 'P', crawled_at: 5, history: [3] });
				const fetch = async (page: number, perPage: number) =>
					servedList(await api.keywordPage('P', page, perPage));
				const limits = { budget: api.budget(36_000) };
				let outcome = await readKeywordList(
					fetch,
					{ windowEnd: 10, lastIndex: -1, listLength: 0 },
					limits,
					new RequestAllowance(2),
					2,
				);
				let read = 0;
				while (outcome.read !== 'done') {
					read += outcome.records.length;
					// As n8n keeps it between polls.
					const kept = JSON.parse(JSON.stringify(outcome.read)) as ListRead;
					assert.equal(kept.pageSize, served, 'the size served is kept');
					outcome = await readKeywordList(fetch, kept, limits, new RequestAllowance(1), 1);
					assert.ok(
						outcome.records.length > 0,
						`${served} a page, ${total} keywords: one request reads on from index ${kept.lastIndex}`,
					);
				}
				assert.equal(read + outcome.records.length, total, 'every keyword read once');
			}
		}
	});

	it('a read in progress goes on even in a poll whose whole budget is 1.2 s', async () => {
		const run = new Run();
		const ids = run.add('P', 20_000);
		await run.poll();
		const since = run.now;
		run.crawl(ids);
		run.api.latencyMs = 1_000;
		await run.poll(2_500);
		const before = run.items.length;
		assert.ok(before > 0 && before < 20_000, `the read goes on over several polls (${before})`);
		run.api.calls = [];
		await run.poll(1_200);
		assert.ok(
			run.api.calls.some((call) => call.startsWith('keywords:P')),
			'a page is asked for',
		);
		assert.ok(run.items.length > before, 'and read');
		await run.drain(36_000);
		run.assertExactlyOnce(since);
	});

	it('lists read side by side share the request cap of the poll', async () => {
		const run = new Run();
		const a = run.add('A', 5_000);
		const b = run.add('B', 5_000);
		await run.poll();
		run.crawl([...a, ...b]);
		run.now += 3;
		run.api.serverTime = run.now;
		run.api.calls = [];
		const outcome = await pollKeywordUpdates(run.api, run.state, run.settings, {
			budget: run.api.budget(36_000),
			maxRequests: 10,
		});
		assert.ok(run.api.calls.length <= 10, `${run.api.calls.length} requests of 10`);
		assert.ok(outcome.items.length > 0);
	});

	it('what cannot be shaped before the hard deadline is left to the next poll, whole lists at a time', async () => {
		const run = new Run();
		const a = run.add('A', 300);
		const b = run.add('B', 300);
		await run.poll();
		const since = run.now;
		run.crawl([...a, ...b]);
		run.now += 3;
		run.api.serverTime = run.now;
		// A machine that stalls once the first list is shaped: the hard deadline passes there.
		const budget = run.api.budget(36_000);
		let checks = 0;
		budget.pastHardDeadline = () => ++checks > 1;
		const outcome = await pollKeywordUpdates(run.api, run.state, run.settings, { budget });
		assert.equal(outcome.items.length, 300, 'one list emitted');
		assert.equal(outcome.complete, false);
		run.items.push(...outcome.items);
		run.state = decodeKeywordState(JSON.parse(JSON.stringify(encodeKeywordState(outcome.state))));
		await run.drain(36_000);
		run.assertExactlyOnce(since);
		assert.equal(run.items.length, 600);
	});
});
