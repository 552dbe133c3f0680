/**
 * The trigger's list reader (shared/paging/: readInBatches and the window arithmetic): reading an ordered, paged list on from a known record while records
 * are added and deleted between its requests. Property: every record present during the whole read and after the
 * starting edge is returned exactly once, in order; nothing at or before the edge is returned.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { readInBatches } from '../../nodes/shared/paging/batches';
import { judgeWindow } from '../../nodes/shared/paging/judge';
import {
	planWindows,
	learnPageSizes,
	windowAround,
	type Direction,
	type ReadPosition,
	type ServedPage,
} from '../../nodes/shared/paging/windows';

const compare = (a: number, b: number) => a - b;
const SIZES = { min: 125, max: 250 };
const keyOf = (record: unknown) => (record as { k: number }).k;

/** A list of keys kept sorted ascending; served ascending ('forward') or descending ('backward'), paged. */
class ShiftingList {
	keys: number[];
	requests = 0;
	/** Called before each page is served: the list may change under the reader. */
	onRequest?: (list: ShiftingList) => void;

	constructor(
		keys: number[],
		readonly direction: Direction,
		/** The API serves this page size whatever is asked (fixed-size API), when set. */
		readonly fixedSize?: number,
	) {
		this.keys = [...keys].sort(compare);
	}

	serve(page: number, perPage: number): ServedPage {
		this.requests++;
		this.onRequest?.(this);
		const size = this.fixedSize ?? Math.min(perPage, 250);
		const listed = this.direction === 'forward' ? this.keys : [...this.keys].reverse();
		const records = listed.slice((page - 1) * size, page * size).map((k) => ({ k }));
		return { records, total: listed.length, perPage: size };
	}

	/** Index of the last key ≤ edge, in list order. */
	indexOf(edge: number): number {
		const ascending = this.keys.filter((k) => k <= edge).length - 1;
		return this.direction === 'forward' ? ascending : this.keys.length - 1 - ascending;
	}
}

async function readAll(
	list: ShiftingList,
	edge: number | undefined,
	startIndex: number,
	concurrency = 4,
	maxRequests = 10_000,
) {
	const start: ReadPosition<number> = { edge, index: startIndex, total: list.keys.length };
	return await readInBatches(start, {
		fetch: async (page, perPage) => list.serve(page, perPage),
		direction: list.direction,
		keyOf,
		compare,
		sizes: SIZES,
		concurrency,
		mayContinue: () => true,
		grant: grantOf(maxRequests),
	});
}

/** A request allowance of `left` requests, as a poll grants them to its reads. */
function grantOf(left: number): (wanted: number) => number {
	return (wanted) => {
		const granted = Math.max(0, Math.min(wanted, left));
		left -= granted;
		return granted;
	};
}

describe('reader: windows', () => {
	it('places the edge inside the window, as far from its front as the page sizes allow', () => {
		assert.deepEqual(windowAround(-1, 'forward', SIZES), { page: 1, perPage: 250, start: 0 });
		// Index 999 is the last of page 4 at 250 a page: a 249-size page holds it near its start instead.
		assert.deepEqual(windowAround(999, 'forward', SIZES), { page: 5, perPage: 249, start: 996 });
		// Near the front of a list read backward, page 1 holds the edge and everything before it.
		assert.deepEqual(windowAround(100, 'backward', SIZES), { page: 1, perPage: 125, start: 0 });
		assert.deepEqual(windowAround(200, 'backward', SIZES), { page: 1, perPage: 201, start: 0 });
		// Elsewhere: the best any size in the range allows (brute force).
		for (const [index, direction] of [
			[1000, 'backward'],
			[12_345, 'backward'],
			[777, 'forward'],
			[50_001, 'forward'],
		] as const) {
			const w = windowAround(index, direction, SIZES);
			assert.ok(w.start <= index && index < w.start + w.perPage, JSON.stringify(w));
			const gainOf = (start: number, size: number) =>
				direction === 'forward' ? start + size - 1 - index : index - start;
			let best = 0;
			for (let size = SIZES.min; size <= SIZES.max; size++)
				best = Math.max(best, gainOf(Math.floor(index / size) * size, size));
			assert.equal(gainOf(w.start, w.perPage), best, `${direction} ${index}: ${JSON.stringify(w)}`);
		}
	});
	it('consecutive windows overlap by at least one record', () => {
		for (const direction of ['forward', 'backward'] as const) {
			const from = direction === 'forward' ? 37 : 10_000;
			const windows = planWindows(from, direction, SIZES, 8);
			let edge = from;
			for (const w of windows) {
				assert.ok(
					w.start <= edge && edge < w.start + w.perPage,
					`${direction}: ${JSON.stringify(w)} holds ${edge}`,
				);
				edge = direction === 'forward' ? w.start + w.perPage - 1 : w.start;
			}
		}
	});
	it('a fixed page size: the page after the edge page, judged by the list keeping its length', () => {
		const w = windowAround(249, 'forward', { min: 250, max: 250 });
		assert.deepEqual(w, { page: 2, perPage: 250, start: 250, adjacent: true });
		const served = (total: number): ServedPage => ({
			records: [{ k: 300 }, { k: 301 }],
			total,
			perPage: 250,
		});
		const position = { edge: 299, index: 249, total: 252, exact: true };
		assert.equal(judgeWindow(w, served(252), position, 'forward', keyOf, compare).kind, 'accept');
		assert.equal(judgeWindow(w, served(251), position, 'forward', keyOf, compare).kind, 'move');
		// Only when the edge record was really seen at that index, not when the index is an estimate.
		assert.equal(
			judgeWindow(w, served(252), { ...position, exact: false }, 'forward', keyOf, compare).kind,
			'move',
		);
	});
	it('learns the sizes the API serves', () => {
		assert.deepEqual(learnPageSizes(SIZES, 250, 250), SIZES);
		assert.deepEqual(learnPageSizes(SIZES, 250, 100), { min: 50, max: 100 });
		assert.deepEqual(learnPageSizes(SIZES, 237, 250), { min: 250, max: 250 });
		// A window planned before the cap was known, served at the cap: nothing new (it is not "one size only").
		assert.deepEqual(learnPageSizes({ min: 100, max: 200 }, 249, 200), { min: 100, max: 200 });
		assert.deepEqual(learnPageSizes({ min: 100, max: 200 }, 180, 120), { min: 60, max: 120 });
	});
	it('an unordered page is reported, not read', () => {
		const verdict = judgeWindow(
			{ page: 1, perPage: 3, start: 0 },
			{ records: [{ k: 1 }, { k: 3 }, { k: 2 }], total: 3 },
			{ index: -1, total: 3 },
			'forward',
			keyOf,
			compare,
		);
		assert.equal(verdict.kind, 'unordered');
	});
});

/** A read's contract: `fresh` strictly increasing, all after the edge, and holding every key present throughout. */
function assertExactlyOnce(
	fresh: number[],
	edge: number | undefined,
	stable: number[],
	complete: boolean,
	label: string,
): void {
	for (let n = 1; n < fresh.length; n++)
		assert.ok(
			fresh[n - 1] < fresh[n],
			`${label}: in order, each once (${fresh[n - 1]}, ${fresh[n]})`,
		);
	if (edge !== undefined)
		assert.ok(
			fresh.every((k) => k > edge),
			`${label}: nothing at or before the edge`,
		);
	const last = fresh.length > 0 ? fresh[fresh.length - 1] : (edge ?? -Infinity);
	const got = new Set(fresh);
	const missing = stable.filter(
		(k) => (edge === undefined || k > edge) && (complete || k <= last) && !got.has(k),
	);
	assert.deepEqual(missing, [], `${label}: every record present throughout the read`);
}

describe('reader: nothing skipped, nothing twice, while the list shifts', () => {
	for (const direction of ['forward', 'backward'] as const) {
		it(`${direction}: a quiet list, from the start and from an edge`, async () => {
			const keys = Array.from({ length: 2_345 }, (_, n) => n * 2);
			const list = new ShiftingList(keys, direction);
			const all = await readAll(list, undefined, direction === 'forward' ? -1 : keys.length);
			assert.equal(all.complete, true);
			assertExactlyOnce(
				all.fresh.map((f) => f.key),
				undefined,
				keys,
				true,
				'from the start',
			);
			const edge = keys[1_000];
			const rest = await readAll(list, edge, list.indexOf(edge));
			assertExactlyOnce(
				rest.fresh.map((f) => f.key),
				edge,
				keys,
				true,
				'from an edge',
			);
			assert.equal(rest.fresh.length, keys.length - 1_001);
		});

		it(`${direction}: random additions and deletions between requests (property)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 0, max: 3_000 }),
					fc.integer({ min: 0, max: 100 }),
					fc.array(
						fc.record({
							add: fc.integer({ min: 0, max: 40 }),
							remove: fc.integer({ min: 0, max: 40 }),
							where: fc.constantFrom('front', 'back', 'anywhere', 'before-edge'),
						}),
						{ maxLength: 60 },
					),
					fc.integer({ min: 1, max: 4 }),
					fc.boolean(),
					async (size, edgeAt, changes, concurrency, fixed) => {
						let next = 1_000_000;
						const keys = Array.from({ length: size }, (_, n) => n * 10 + 5);
						const list = new ShiftingList(keys, direction, fixed ? 250 : undefined);
						const edge =
							size === 0 ? undefined : keys[Math.min(size - 1, Math.floor((edgeAt / 100) * size))];
						const everSeen = new Set(keys);
						const removedOnce = new Set<number>();
						let step = 0;
						list.onRequest = (l) => {
							const change = changes[step++];
							if (!change) return;
							for (let n = 0; n < change.add; n++) {
								// Fixed-size APIs are followed only while the list does not shift unseen: appends there.
								const where = fixed ? 'back' : change.where;
								const key =
									where === 'back'
										? next++
										: where === 'front'
											? -next++
											: where === 'before-edge' && edge !== undefined
												? edge - 0.5 - next++ * 1e-7
												: (next++ % 30_000) + 0.5 + next * 1e-7;
								l.keys.push(key);
								everSeen.add(key);
							}
							if (fixed) return;
							for (let n = 0; n < change.remove && l.keys.length > 0; n++) {
								const pool =
									change.where === 'before-edge' && edge !== undefined
										? l.keys.filter((k) => k < edge)
										: l.keys;
								if (pool.length === 0) break;
								const victim = pool[(next++ * 7919) % pool.length];
								l.keys.splice(l.keys.indexOf(victim), 1);
								removedOnce.add(victim);
							}
							l.keys.sort(compare);
						};
						const startIndex =
							edge === undefined ? (direction === 'forward' ? -1 : size) : list.indexOf(edge);
						const outcome = await readAll(list, edge, startIndex, concurrency);
						assert.equal(outcome.stoppedBy, undefined, `stopped by ${outcome.stoppedBy}`);
						const stable = [...everSeen].filter((k) => !removedOnce.has(k) && keys.includes(k));
						assertExactlyOnce(
							outcome.fresh.map((f) => f.key),
							edge,
							stable,
							outcome.complete,
							`${size} keys, ${changes.length} changes`,
						);
						// What came back was really in the list at some point.
						for (const { key } of outcome.fresh) assert.ok(everSeen.has(key));
					},
				),
				{ numRuns: 150, seed: direction === 'forward' ? 11 : 12 },
			);
		});

		it(`${direction}: a budget stops the read; reading on from its position gives the rest, each once`, async () => {
			const keys = Array.from({ length: 5_000 }, (_, n) => n);
			const list = new ShiftingList(keys, direction);
			let position: ReadPosition<number> = {
				index: direction === 'forward' ? -1 : keys.length,
				total: keys.length,
			};
			const got: number[] = [];
			let rounds = 0;
			let added = 0;
			for (; rounds < 50; rounds++) {
				// Between two polls: new records arrive (at the newest end for a newest-first list).
				for (let n = 0; n < 30; n++) list.keys.push(10_000 + added++);
				let budget = 3;
				const outcome = await readInBatches(position, {
					fetch: async (page, perPage) => list.serve(page, perPage),
					direction,
					keyOf,
					compare,
					sizes: SIZES,
					concurrency: 2,
					mayContinue: () => budget-- > 0,
					grant: grantOf(1_000),
				});
				got.push(...outcome.fresh.map((f) => f.key));
				position = outcome.position;
				if (outcome.complete && rounds > 3) break;
			}
			assert.ok(rounds < 50, 'finishes');
			assertExactlyOnce(got, undefined, list.keys, true, 'over several budgets');
			assert.equal(got.length, list.keys.length);
		});
	}

	it('a list growing in front of the edge at every request is caught up, each record once (soak seed 1)', async () => {
		// Newest-first, 100 a page at most, 9 records added at the newest end before every answer: each window of a
		// batch is answered after more growth than the one before, so without room kept for it the later windows land
		// past the edge and the read restarts, poll after poll, never reaching the newest records.
		const keys = Array.from({ length: 2_000 }, (_, n) => n);
		const list = new ShiftingList(keys, 'backward', undefined);
		let next = 10_000;
		list.onRequest = (l) => {
			for (let n = 0; n < 9; n++) l.keys.push(next++);
		};
		const edge = 999;
		const outcome = await readInBatches(
			{ edge, index: list.indexOf(edge), total: keys.length },
			{
				fetch: async (page, perPage) => list.serve(page, Math.min(perPage, 100)),
				direction: 'backward',
				keyOf,
				compare,
				sizes: SIZES,
				concurrency: 4,
				mayContinue: () => true,
				grant: grantOf(240),
			},
		);
		assert.equal(
			outcome.complete,
			true,
			`stopped by ${outcome.stoppedBy} after ${outcome.requests}`,
		);
		assert.ok(outcome.requests <= 40, `${outcome.requests} requests`);
		assertExactlyOnce(
			outcome.fresh.map((f) => f.key),
			edge,
			list.keys,
			true,
			'growing list',
		);
	});

	it('an error stops the read with what it had; the request cap too', async () => {
		const list = new ShiftingList(
			Array.from({ length: 1_000 }, (_, n) => n),
			'forward',
		);
		let calls = 0;
		const failing = await readInBatches(
			{ index: -1, total: 1_000 },
			{
				fetch: async (page, perPage) => {
					if (++calls === 3) throw new Error('boom');
					return list.serve(page, perPage);
				},
				direction: 'forward',
				keyOf,
				compare,
				sizes: SIZES,
				concurrency: 1,
				mayContinue: () => true,
				grant: grantOf(100),
			},
		);
		assert.equal(failing.stoppedBy, 'error');
		// Two windows accepted (250, then 248 more: the second holds the first one's last record).
		assert.equal(failing.fresh.length, 250 + 248);
		const capped = await readAll(list, undefined, -1, 1, 2);
		assert.equal(capped.stoppedBy, 'requests');
		assert.equal(capped.complete, false);
	});
});
