/**
 * Return All / Limit on a list that changes while it is read (shared/paging/ collectPages,
 * readPipelined): an in-memory list served page by page, with records added and deleted between requests, answers
 * coming back in any order, and up to `concurrency` requests in flight. Properties: a list whose records show an order
 * gives every record present during the whole read exactly once, in the list's order; a list in no order gives that
 * too, or fails with ListChangedError, never a silent partial result.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { identityOf, orderOfList, ordersShown } from '../../nodes/shared/paging/listOrder';
import { collectPages, ListChangedError } from '../../nodes/shared/paging/collect';
import { quietReadRequests, quietReadWindows } from '../../dev/quiet-read.cjs';
import type { AttemptHooks } from '../../nodes/shared/transport';

type Served = 'ascending' | 'descending' | 'shuffled';

interface Change {
	add: number;
	remove: number;
	where: 'front' | 'back' | 'anywhere';
}

/** A tiny deterministic PRNG (the list's picks and the answers' delays must replay with fast-check's seed). */
function prng(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) / 4_294_967_296;
	};
}

/**
 * Keyword-like records `{id}` (ids are digits, compared as numbers) served ascending, descending or in a fixed
 * shuffled order, `meta.pagination` as the API sends it. Each page is cut from the list at the moment it is served,
 * after a random number of event-loop turns (so concurrent answers arrive in any order); then the next change of
 * `changes` is applied, as the fake's churn does after a page answer.
 */
class ChangingList {
	/** Ids in serving order. */
	ids: number[];
	requests: Array<{ page: number; perPage: number }> = [];
	inFlight = 0;
	peak = 0;
	private step = 0;
	readonly everSeen = new Set<number>();
	readonly removed = new Set<number>();

	constructor(
		count: number,
		readonly served: Served,
		readonly changes: readonly Change[],
		readonly random: () => number,
		/** The API serves this page size whatever is asked, when set. */
		readonly fixedSize?: number,
	) {
		const ids = Array.from({ length: count }, (_, n) => 1_000_000 + n * 1_000);
		this.ids =
			served === 'descending' ? ids.reverse() : served === 'shuffled' ? this.shuffle(ids) : ids;
		for (const id of this.ids) this.everSeen.add(id);
	}

	private shuffle(ids: number[]): number[] {
		for (let n = ids.length - 1; n > 0; n--) {
			const k = Math.floor(this.random() * (n + 1));
			[ids[n], ids[k]] = [ids[k], ids[n]];
		}
		return ids;
	}

	/** A new id, never used before, that keeps the serving order when put at index `at`; NaN when there is none. */
	private newIdAt(at: number): number {
		if (this.served === 'shuffled') return 1_000_000_000 + this.everSeen.size;
		const previous = this.ids[at - 1];
		const next = this.ids[at];
		const [low, high] =
			this.served === 'ascending'
				? [previous ?? 0, next ?? (previous ?? 0) + 2_000]
				: [next ?? 0, previous ?? (next ?? 0) + 2_000];
		if (high - low < 2) return Number.NaN;
		for (let tries = 0; tries < 8; tries++) {
			const candidate = low + 1 + Math.floor(this.random() * (high - low - 1));
			if (!this.everSeen.has(candidate)) return candidate;
		}
		for (let candidate = low + 1; candidate < high; candidate++)
			if (!this.everSeen.has(candidate)) return candidate;
		return Number.NaN;
	}

	private change(): void {
		const change = this.changes[this.step++];
		if (!change) return;
		for (let n = 0; n < change.add; n++) {
			const where = this.fixedSize !== undefined ? 'back' : change.where;
			const at =
				where === 'front'
					? 0
					: where === 'back'
						? this.ids.length
						: Math.floor(this.random() * (this.ids.length + 1));
			const id = this.newIdAt(at);
			if (Number.isNaN(id)) continue;
			this.ids.splice(at, 0, id);
			this.everSeen.add(id);
		}
		if (this.fixedSize !== undefined) return;
		for (let n = 0; n < change.remove && this.ids.length > 0; n++) {
			const at = Math.floor(this.random() * this.ids.length);
			this.removed.add(this.ids[at]);
			this.ids.splice(at, 1);
		}
	}

	readonly fetchPage = async (
		page: number,
		perPage: number,
		hooks?: AttemptHooks,
	): Promise<unknown> => {
		this.requests.push({ page, perPage });
		this.inFlight++;
		this.peak = Math.max(this.peak, this.inFlight);
		for (let turns = Math.floor(this.random() * 4); turns > 0; turns--)
			await new Promise((resolve) => setImmediate(resolve));
		const size = this.fixedSize ?? Math.min(perPage, 250);
		const data = this.ids
			.slice((page - 1) * size, page * size)
			.map((id) => ({ id: String(id), type: 'keyword' }));
		const total = this.ids.length;
		this.change();
		this.inFlight--;
		// The request runner tells the answer is in (the page gives its slot back), then parses it.
		await hooks?.onAnswer?.();
		await new Promise((resolve) => setImmediate(resolve));
		return {
			data,
			meta: {
				pagination: {
					total,
					count: data.length,
					per_page: size,
					current_page: page,
					total_pages: Math.max(1, Math.ceil(total / size)),
				},
			},
		};
	};

	/** Ids present from the first request to the last: the ones the read must return. */
	stable(initial: readonly number[]): number[] {
		return initial.filter((id) => !this.removed.has(id));
	}
}

async function read(
	list: ChangingList,
	settings: { returnAll: boolean; limit: number; concurrency: number },
) {
	return await collectPages(
		'pagination',
		list.fetchPage,
		{ ...settings, order: orderOfList('keyword'), identity: identityOf },
		(records) => records.map((record) => Number((record as { id: string }).id)),
	);
}

/** `got` runs the way the list is served, each id once, holds every stable id up to its last one (all when complete). */
function assertExact(
	got: number[],
	list: ChangingList,
	initial: number[],
	complete: boolean,
	label: string,
): void {
	const step = list.served === 'descending' ? -1 : 1;
	for (let n = 1; n < got.length; n++)
		assert.ok(
			(got[n] - got[n - 1]) * step > 0,
			`${label}: in order, each once (${got[n - 1]}, ${got[n]})`,
		);
	for (const id of got) assert.ok(list.everSeen.has(id), `${label}: ${id} was in the list`);
	const present = new Set(got);
	const last = got[got.length - 1];
	const missing = list
		.stable(initial)
		.filter(
			(id) => !present.has(id) && (complete || last === undefined || (id - last) * step <= 0),
		);
	assert.deepEqual(
		missing.slice(0, 10),
		[],
		`${label}: ${missing.length} records present throughout the read are missing`,
	);
}

const changeArbitrary = fc.record({
	add: fc.integer({ min: 0, max: 40 }),
	remove: fc.integer({ min: 0, max: 40 }),
	where: fc.constantFrom<Change['where']>('front', 'back', 'anywhere'),
});

describe('ordered read: nothing skipped, nothing twice, while the list changes', () => {
	for (const served of ['ascending', 'descending'] as const) {
		it(`${served} ids: random additions and deletions between requests, random concurrency (property)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 0, max: 3_000 }),
					fc.array(changeArbitrary, { maxLength: 60 }),
					fc.integer({ min: 1, max: 6 }),
					fc.integer({ min: 1, max: 2 ** 31 - 1 }),
					async (size, changes, concurrency, seed) => {
						const list = new ChangingList(size, served, changes, prng(seed));
						const initial = [...list.ids];
						const got = await read(list, { returnAll: true, limit: 0, concurrency });
						assertExact(
							got,
							list,
							initial,
							true,
							`${size} ids, ${changes.length} changes, concurrency ${concurrency}`,
						);
						assert.ok(list.peak <= concurrency, `at most ${concurrency} in flight (${list.peak})`);
					},
				),
				{ numRuns: 150, seed: served === 'ascending' ? 21 : 22 },
			);
		});

		it(`${served} ids: Limit gives the first records, each once, while the list changes (property)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 0, max: 2_000 }),
					fc.integer({ min: 251, max: 1_500 }),
					fc.array(changeArbitrary, { maxLength: 30 }),
					fc.integer({ min: 1, max: 4 }),
					fc.integer({ min: 1, max: 2 ** 31 - 1 }),
					async (size, limit, changes, concurrency, seed) => {
						const list = new ChangingList(size, served, changes, prng(seed));
						const initial = [...list.ids];
						const got = await read(list, { returnAll: false, limit, concurrency });
						assert.ok(got.length <= limit);
						assertExact(got, list, initial, got.length < limit, `Limit ${limit} of ${size}`);
					},
				),
				{ numRuns: 100, seed: served === 'ascending' ? 23 : 24 },
			);
		});

		it(`${served} ids, an API that serves 250 whatever is asked: records added between requests (property)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 0, max: 2_000 }),
					fc.array(changeArbitrary, { maxLength: 40 }),
					fc.integer({ min: 1, max: 4 }),
					fc.integer({ min: 1, max: 2 ** 31 - 1 }),
					async (size, changes, concurrency, seed) => {
						const list = new ChangingList(size, served, changes, prng(seed), 250);
						const initial = [...list.ids];
						const got = await read(list, { returnAll: true, limit: 0, concurrency });
						assertExact(got, list, initial, true, `fixed pages, ${size} ids`);
					},
				),
				{ numRuns: 60, seed: served === 'ascending' ? 25 : 26 },
			);
		});
	}
});

describe('ordered read: cost and pipelining', () => {
	it('a quiet list: page 1 of 250, then windows that each start at (or just before) the last record read', async () => {
		for (const [size, concurrency] of [
			[10_000, 4],
			[5_001, 1],
			[251, 3],
		] as const) {
			const list = new ChangingList(size, 'ascending', [], prng(size));
			const got = await read(list, { returnAll: true, limit: 0, concurrency });
			assert.deepEqual(got, [...list.ids]);
			assert.equal(list.requests.length, quietReadRequests(size));
			const byPage = (a: { page: number; perPage: number }, b: { page: number; perPage: number }) =>
				a.page - b.page || a.perPage - b.perPage;
			assert.deepEqual([...list.requests].sort(byPage), [...quietReadWindows(size)].sort(byPage));
			assert.equal(list.peak, Math.min(concurrency, list.requests.length - 1));
		}
		// 50,000 records: 217 requests where disjoint pages of 250 take 200.
		assert.equal(quietReadRequests(50_000), 217);
		assert.equal(quietReadRequests(250), 1);
		assert.equal(quietReadRequests(498), 2);
	});

	it('the next window is on the wire before the answer before it is shaped (concurrency 1)', async () => {
		const events: string[] = [];
		const ids = Array.from({ length: 2_000 }, (_, n) => n + 1);
		const fetchPage = async (page: number, perPage: number, hooks?: AttemptHooks) => {
			events.push(`send ${page}`);
			await new Promise((resolve) => setTimeout(resolve, 2));
			await hooks?.onAnswer?.();
			await new Promise((resolve) => setImmediate(resolve));
			const data = ids
				.slice((page - 1) * perPage, page * perPage)
				.map((id) => ({ id: String(id) }));
			return {
				data,
				meta: {
					pagination: {
						total: ids.length,
						per_page: perPage,
						current_page: page,
						total_pages: Math.ceil(ids.length / perPage),
					},
				},
			};
		};
		const shaped: number[] = [];
		const got = await collectPages(
			'pagination',
			fetchPage,
			{ returnAll: true, limit: 0, concurrency: 1, order: orderOfList('keyword') },
			(records) => {
				if (records.length > 0) events.push(`shape ${Number((records[0] as { id: string }).id)}`);
				return records.map((record) => {
					shaped.push(Number((record as { id: string }).id));
					return record;
				});
			},
		);
		assert.equal(got.length, 2_000);
		assert.deepEqual(shaped, ids);
		// The third window leaves before the second one's records are shaped.
		const sends = events.filter((event) => event.startsWith('send'));
		const shapes = events.filter((event) => event.startsWith('shape'));
		assert.ok(events.indexOf(sends[2]) < events.indexOf(shapes[1]), events.join(', '));
	});

	it('a window that does not connect discards the windows planned after it; reading goes on from the right place', async () => {
		let ids = Array.from({ length: 1_500 }, (_, n) => n + 1);
		const sent: string[] = [];
		let served = 0;
		const fetchPage = async (page: number, perPage: number, hooks?: AttemptHooks) => {
			sent.push(`${page}/${perPage}`);
			await new Promise((resolve) => setTimeout(resolve, 1 + (served % 3)));
			const data = ids
				.slice((page - 1) * perPage, page * perPage)
				.map((id) => ({ id: String(id) }));
			const total = ids.length;
			// After page 1: 30 records near the front deleted, so everything after them moves 30 places back.
			if (++served === 1) ids = ids.filter((id) => id < 100 || id >= 130);
			await hooks?.onAnswer?.();
			return {
				data,
				meta: {
					pagination: {
						total,
						per_page: perPage,
						current_page: page,
						total_pages: Math.ceil(total / perPage),
					},
				},
			};
		};
		const got = await collectPages(
			'pagination',
			fetchPage,
			{
				returnAll: true,
				limit: 0,
				concurrency: 3,
				order: orderOfList('keyword'),
				identity: identityOf,
			},
			(records) => records.map((record) => Number((record as { id: string }).id)),
		);
		// Records 100–129 were read on page 1 before they were deleted: every record comes back once, in order.
		assert.deepEqual(
			got,
			Array.from({ length: 1_500 }, (_, n) => n + 1),
		);
		const quiet = quietReadRequests(1_470);
		// The re-read after the disconnect costs at most 7 windows: the fake hands its slot on the way the transport
		// does (the next window leaves before this answer is read), so the windows on the wire when the gap shows are
		// sent anyway (measured: 13 = 6 + 7, every run).
		assert.ok(
			sent.length > quiet && sent.length <= quiet + 7,
			`${sent.length} requests (a quiet read: ${quiet}): ${sent.join(' ')}`,
		);
	});

	it('a failed window fails the read, and nothing is requested or retried after it', async () => {
		const ids = Array.from({ length: 3_000 }, (_, n) => n + 1);
		const sent: number[] = [];
		const retried: number[] = [];
		const fetchPage = async (page: number, perPage: number, hooks?: AttemptHooks) => {
			sent.push(page);
			await new Promise((resolve) => setTimeout(resolve, 2));
			if (page === 3) throw new Error('window 3 failed');
			if (page === 4) {
				// Its answer asks for a retry (as the transport does after a 429) after window 3 failed.
				await new Promise((resolve) => setTimeout(resolve, 10));
				await hooks?.onAnswer?.();
				try {
					await hooks?.beforeRetry?.();
					retried.push(page);
				} catch {
					throw new Error('not retried');
				}
			}
			const data = ids
				.slice((page - 1) * perPage, page * perPage)
				.map((id) => ({ id: String(id) }));
			return {
				data,
				meta: {
					pagination: {
						total: ids.length,
						per_page: perPage,
						current_page: page,
						total_pages: Math.ceil(ids.length / perPage),
					},
				},
			};
		};
		await assert.rejects(
			collectPages('pagination', fetchPage, {
				returnAll: true,
				limit: 0,
				concurrency: 2,
				order: orderOfList('keyword'),
			}),
			/window 3 failed/,
		);
		const count = sent.length;
		await new Promise((resolve) => setTimeout(resolve, 30));
		assert.equal(sent.length, count, 'nothing sent once the read failed');
		assert.deepEqual(retried, []);
		assert.ok(Math.max(...sent) <= 5, `windows sent: ${sent.join(', ')}`);
	});
});

describe('lists in no usable order: read as served, a change under the read is never a silent partial result', () => {
	it('shuffled ids: the whole list exactly once, or ListChangedError after 3 reads (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 2_000 }),
				fc.array(changeArbitrary, { maxLength: 40 }),
				fc.constantFrom('adds', 'deletes'),
				fc.integer({ min: 1, max: 4 }),
				fc.integer({ min: 1, max: 2 ** 31 - 1 }),
				async (size, drawn, kind, concurrency, seed) => {
					// Additions only or deletions only: the totals the pages carry show either (an addition and a deletion
					// between the same two pages can cancel out there; README "Assumptions").
					const changes = drawn.map((change) =>
						kind === 'adds' ? { ...change, remove: 0 } : { ...change, add: 0 },
					);
					const list = new ChangingList(size, 'shuffled', changes, prng(seed));
					const initial = [...list.ids];
					let got: number[];
					try {
						got = await read(list, { returnAll: true, limit: 0, concurrency });
					} catch (error) {
						assert.ok(error instanceof ListChangedError, String(error));
						assert.equal(error.tries, 3);
						assert.ok(error.changed > 0);
						return;
					}
					assert.equal(new Set(got).size, got.length, 'each once');
					for (const id of got) assert.ok(list.everSeen.has(id));
					const present = new Set(got);
					const missing = list.stable(initial).filter((id) => !present.has(id));
					assert.deepEqual(
						missing.slice(0, 10),
						[],
						`${missing.length} records present throughout the read are missing`,
					);
				},
			),
			{ numRuns: 100, seed: 27 },
		);
	});

	it('a change the pages show reads the list again; a quiet list is read once', async () => {
		const quiet = new ChangingList(1_000, 'shuffled', [], prng(5));
		const got = await read(quiet, { returnAll: true, limit: 0, concurrency: 4 });
		assert.deepEqual(got, quiet.ids);
		assert.equal(quiet.requests.length, 4, 'pages of 250 as served');
		// Records deleted after the first two pages of the first read only: the second read is consistent.
		const changing = new ChangingList(
			1_000,
			'shuffled',
			[
				{ add: 0, remove: 0, where: 'anywhere' },
				{ add: 0, remove: 5, where: 'anywhere' },
			],
			prng(6),
		);
		const again = await read(changing, { returnAll: true, limit: 0, concurrency: 1 });
		assert.deepEqual(again, changing.ids);
		assert.equal(changing.requests.length, 4 + 4);
	});

	it('fails with a clear message when every read saw the list change', async () => {
		const changes = Array.from({ length: 100 }, () => ({
			add: 3,
			remove: 0,
			where: 'anywhere' as const,
		}));
		const list = new ChangingList(1_000, 'shuffled', changes, prng(7));
		const error = await read(list, { returnAll: true, limit: 0, concurrency: 2 }).then(
			() => assert.fail('a list that changes under every read cannot be returned as one'),
			(reason: unknown) => reason,
		);
		assert.ok(error instanceof ListChangedError);
		assert.match(
			error.message,
			/^The list changed while it was being read \(\d+ records added or removed during the read, 3 tries\); run the node again$/,
		);
		assert.match(error.description, /Run the node again/);
		assert.ok(list.requests.length >= 3 * 4, `3 whole reads: ${list.requests.length} requests`);
	});
});

describe('list order: read from page 1, never assumed', () => {
	const keyword = orderOfList('keyword');
	const alert = orderOfList('alert');
	const alerts = (entries: Array<[id: number, at: number]>) =>
		entries.map(([id, at]) => ({ type: 'alert', id: String(id), attributes: { created_at: at } }));

	it('keywords: ascending or descending ids; otherwise none', () => {
		assert.deepEqual(
			keyword?.([{ id: '9' }, { id: '10' }, { id: '100' }]).map((order) => order.name),
			['id ascending'],
		);
		assert.deepEqual(
			keyword?.([{ id: 100 }, { id: 10 }, { id: 9 }]).map((order) => order.name),
			['id descending'],
		);
		assert.deepEqual(keyword?.([{ id: '1' }, { id: '3' }, { id: '2' }]), []);
		assert.deepEqual(keyword?.([{ id: '1' }, { kw: 'no id' }]), []);
		assert.deepEqual(keyword?.([{ id: '1' }]), [], 'one record shows no order');
		assert.equal(orderOfList('topPage'), undefined, 'top pages: no order');
	});

	it('alerts: newest or oldest first by time then id, either tie order, or by id alone', () => {
		const newest = alert?.(
			alerts([
				[30, 200],
				[29, 200],
				[31, 100],
			]),
		);
		assert.deepEqual(
			newest?.map((order) => order.name),
			['time, then id descending'],
		);
		const oldestTiesDown = alert?.(
			alerts([
				[5, 100],
				[9, 200],
				[8, 200],
			]),
		);
		assert.deepEqual(
			oldestTiesDown?.map((order) => order.name),
			['time, then id reversed ascending'],
		);
		// No two alerts in one second and ids growing with time: every candidate fits; time first unless sorted by id.
		const plain = alerts([
			[1, 100],
			[2, 200],
			[3, 300],
		]);
		assert.deepEqual(
			alert?.(plain).map((order) => order.name),
			['time, then id ascending', 'time, then id reversed ascending', 'id ascending'],
		);
		assert.equal(orderOfList('alert', { sort_field: 'id' })?.(plain)[0].name, 'id ascending');
		const byIdOnly = alerts([
			[1, 300],
			[2, 100],
			[3, 200],
		]);
		assert.deepEqual(
			alert?.(byIdOnly).map((order) => order.name),
			['id ascending'],
		);
	});

	it('ordersShown keeps only candidates every record of the page fits', () => {
		const byLength = {
			name: 'length',
			keyOf: (record: unknown) => (record as string).length,
			compare: (a: unknown, b: unknown) => (a as number) - (b as number),
		};
		assert.deepEqual(
			ordersShown([byLength], ['a', 'bb', 'ccc']).map((order) => order.name),
			['length ascending'],
		);
		assert.deepEqual(ordersShown([byLength], ['a', 'bb', 'cc']), []);
	});
});
