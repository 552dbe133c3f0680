import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { collectPages } from '../../nodes/shared/paging/collect';
import { planPages } from '../../nodes/shared/paging/pages';
import { mapConcurrent, RequestSlots } from '../../nodes/shared/paging/slots';
import type { AttemptHooks } from '../../nodes/shared/transport';

function pagedSource(total: number, style: 'pagination' | 'laravel') {
	const calls: Array<{ page: number; perPage: number }> = [];
	const fetchPage = async (page: number, perPage: number) => {
		calls.push({ page, perPage });
		const totalPages = Math.ceil(total / perPage);
		const data = Array.from(
			{ length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) },
			(_, i) => (page - 1) * perPage + i,
		);
		return style === 'pagination'
			? {
					data,
					meta: {
						pagination: { total, per_page: perPage, current_page: page, total_pages: totalPages },
					},
				}
			: { data, meta: { current_page: page, last_page: totalPages, per_page: perPage, total } };
	};
	return { calls, fetchPage };
}

describe('paging', () => {
	it('Return All asks the largest page and reads exactly ⌈n/250⌉ pages, in order', async () => {
		const { calls, fetchPage } = pagedSource(1001, 'pagination');
		const records = await collectPages('pagination', fetchPage, {
			returnAll: true,
			limit: 0,
			concurrency: 4,
		});
		assert.equal(records.length, 1001);
		assert.deepEqual(records.slice(0, 3), [0, 1, 2]);
		assert.equal(records[1000], 1000);
		assert.equal(calls.length, 5);
		assert.ok(calls.every((call) => call.perPage === 250));
	});

	it('Limit stops as soon as enough records are in', async () => {
		const { calls, fetchPage } = pagedSource(10_000, 'laravel');
		const records = await collectPages('laravel', fetchPage, {
			returnAll: false,
			limit: 300,
			concurrency: 4,
		});
		assert.equal(records.length, 300);
		assert.equal(calls.length, 2);
		assert.deepEqual(planPages(false, 10), { perPage: 10, maxRecords: 10 });
	});

	it('bounded concurrency keeps order and never exceeds the bound', async () => {
		let running = 0;
		let peak = 0;
		const results = await mapConcurrent([5, 1, 4, 2, 3], 2, async (value) => {
			running++;
			peak = Math.max(peak, running);
			await new Promise((resolve) => setTimeout(resolve, value));
			running--;
			return value * 10;
		});
		assert.deepEqual(results, [50, 10, 40, 20, 30]);
		assert.equal(peak, 2);
	});

	it('slots: a page gives its slot back when its answer is in; the next page leaves before this one is worked on', async () => {
		const total = 250 * 12;
		const events: string[] = [];
		let inFlight = 0;
		let peak = 0;
		const fetchPage = async (page: number, perPage: number, hooks?: AttemptHooks) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			events.push(`send ${page}`);
			await new Promise((resolve) => setTimeout(resolve, 5));
			inFlight--;
			events.push(`in ${page}`);
			await hooks?.onAnswer?.();
			await new Promise((resolve) => setTimeout(resolve, 0));
			const data = Array.from({ length: perPage }, (_, i) => (page - 1) * perPage + i);
			return {
				data,
				meta: { pagination: { total, per_page: perPage, current_page: page, total_pages: 12 } },
			};
		};
		const shaped: number[] = [];
		const records = await collectPages(
			'pagination',
			fetchPage,
			{ returnAll: true, limit: 0, concurrency: 1 },
			(page) => {
				shaped.push((page[0] as number) / 250 + 1);
				events.push(`shape ${(page[0] as number) / 250 + 1}`);
				return page;
			},
		);
		assert.equal(records.length, total);
		assert.deepEqual(records.slice(0, 3), [0, 1, 2]);
		assert.equal(records[total - 1], total - 1);
		assert.equal(peak, 1, 'one request in flight at concurrency 1');
		// Each page is shaped once, as its answer is worked on: page 12's answer may be worked on before page 11's on a
		// busy machine (its timer fires first); the records above stay in page order either way.
		assert.deepEqual(
			[...shaped].sort((a, b) => a - b),
			[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
		);
		// Page 3 is sent before page 2 is shaped: the client's work overlaps the next request.
		assert.ok(events.indexOf('send 3') < events.indexOf('shape 2'), events.join(', '));
	});

	it('slots: at most `concurrency` in flight, pages sent in order, a retry takes a slot again', async () => {
		const slots = new RequestSlots(2);
		const a = await slots.lease();
		const b = await slots.lease();
		let third = false;
		const waiting = slots.lease().then((lease) => ((third = true), lease));
		await new Promise((resolve) => setTimeout(resolve, 5));
		assert.equal(third, false, 'no third slot while two are held');
		assert.equal(a.release(), true, 'the slot went straight to the waiting page');
		assert.equal(a.release(), false, 'idempotent: does not free a second slot');
		const c = await waiting;
		let retried = false;
		const retry = a.acquire().then(() => (retried = true));
		await new Promise((resolve) => setTimeout(resolve, 5));
		assert.equal(retried, false, 'a retry waits for a free slot');
		b.release();
		await retry;
		assert.equal(retried, true);
		c.release();
		assert.equal(a.release(), false, 'nobody waiting: the slot is simply free');
	});

	it('slots: a retry goes ahead of the pages not yet started; a fractional size is rounded down', async () => {
		const slots = new RequestSlots(1.9);
		const first = await slots.lease();
		const order: string[] = [];
		const second = slots.lease().then((lease) => (order.push('page 2'), lease));
		first.release(); // page 1's answer is in; page 2 takes the slot
		const page2 = await second;
		const page3 = slots.lease().then((lease) => (order.push('page 3'), lease));
		const retry = first.acquire().then(() => order.push('page 1 retry'));
		await new Promise((resolve) => setTimeout(resolve, 5));
		assert.deepEqual(order, ['page 2'], 'one slot only (1.9 → 1)');
		page2.release();
		await retry;
		assert.deepEqual(order, ['page 2', 'page 1 retry']);
		first.release();
		(await page3).release();
		assert.deepEqual(order, ['page 2', 'page 1 retry', 'page 3']);
	});

	it('a failed page fails the read and no later page is requested', async () => {
		const sent: number[] = [];
		const fetchPage = async (page: number, perPage: number) => {
			sent.push(page);
			await new Promise((resolve) => setTimeout(resolve, 2));
			if (page === 3) throw new Error('page 3 failed');
			return {
				data: Array.from({ length: perPage }, () => page),
				meta: { pagination: { total_pages: 40 } },
			};
		};
		await assert.rejects(
			collectPages('pagination', fetchPage, { returnAll: true, limit: 0, concurrency: 2 }),
			/page 3 failed/,
		);
		await new Promise((resolve) => setTimeout(resolve, 30));
		assert.ok(Math.max(...sent) <= 5, `pages sent: ${sent.join(', ')}`);
	});

	it('after a failed page, a page that wants a retry is not retried', async () => {
		const sent: string[] = [];
		const fetchPage = async (page: number, perPage: number, hooks?: AttemptHooks) => {
			sent.push(`page ${page}`);
			if (page === 2) {
				await new Promise((resolve) => setTimeout(resolve, 2));
				throw new Error('page 2 failed');
			}
			if (page === 3) {
				// Its answer comes back after page 2 failed and asks for a retry (as the transport does after a 429).
				await new Promise((resolve) => setTimeout(resolve, 10));
				await hooks?.onAnswer?.();
				await hooks?.beforeRetry?.();
				sent.push('page 3 retry');
			}
			return {
				data: Array.from({ length: perPage }, () => page),
				meta: { pagination: { total_pages: 3 } },
			};
		};
		await assert.rejects(
			collectPages('pagination', fetchPage, { returnAll: true, limit: 0, concurrency: 2 }),
			/page 2 failed/,
		);
		await new Promise((resolve) => setTimeout(resolve, 30));
		assert.deepEqual(sent, ['page 1', 'page 2', 'page 3']);
	});
});
