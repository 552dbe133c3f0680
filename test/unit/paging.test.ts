import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { collectPages, mapConcurrent, planPages } from '../../packages/n8n-nodes-keyword-com/nodes/KeywordCom/shared/paging';

function pagedSource(total: number, style: 'pagination' | 'laravel') {
	const calls: Array<{ page: number; perPage: number }> = [];
	const fetchPage = async (page: number, perPage: number) => {
		calls.push({ page, perPage });
		const totalPages = Math.ceil(total / perPage);
		const data = Array.from({ length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) }, (_, i) => (page - 1) * perPage + i);
		return style === 'pagination'
			? { data, meta: { pagination: { total, per_page: perPage, current_page: page, total_pages: totalPages } } }
			: { data, meta: { current_page: page, last_page: totalPages, per_page: perPage, total } };
	};
	return { calls, fetchPage };
}

describe('paging', () => {
	it('Return All asks the largest page and reads exactly ⌈n/250⌉ pages, in order', async () => {
		const { calls, fetchPage } = pagedSource(1001, 'pagination');
		const records = await collectPages('pagination', fetchPage, { returnAll: true, limit: 0, concurrency: 4 });
		assert.equal(records.length, 1001);
		assert.deepEqual(records.slice(0, 3), [0, 1, 2]);
		assert.equal(records[1000], 1000);
		assert.equal(calls.length, 5);
		assert.ok(calls.every((call) => call.perPage === 250));
	});

	it('Limit stops as soon as enough records are in', async () => {
		const { calls, fetchPage } = pagedSource(10_000, 'laravel');
		const records = await collectPages('laravel', fetchPage, { returnAll: false, limit: 300, concurrency: 4 });
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
});
