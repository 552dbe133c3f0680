/** 50,000 keywords: seeding and paging through all of them must stay quick. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, startFake, type Fake } from './helpers.cjs';

describe('fake API: 50,000 keywords', () => {
	let f: Fake;
	let seedMs = 0;
	before(async () => {
		f = await startFake({ seed: 'empty' });
		const t0 = performance.now();
		f.api.addKeywords('Big Project', 50_000);
		seedMs = performance.now() - t0;
	});
	after(() => f.stop());

	it('seeds quickly', () => {
		assert.equal(f.api.state.keywords.size, 50_000);
		assert.ok(seedMs < 5000, `seeding took ${seedMs.toFixed(0)} ms`);
	});

	it('pages through all of them 250 at a time, in ascending id order, well under a few seconds', async () => {
		const t0 = performance.now();
		let url: string | undefined =
			`/api/v2/groups/${enc('Big Project')}/keywords?per_page=250&page=1`;
		let seen = 0;
		let lastId = 0;
		let pages = 0;
		while (url) {
			const r: any = await f.get(url);
			assert.equal(r.status, 200);
			for (const k of r.json.data) {
				assert.ok(Number(k.id) > lastId);
				lastId = Number(k.id);
			}
			seen += r.json.data.length;
			pages++;
			const { current_page, total_pages } = r.json.meta.pagination;
			url =
				current_page < total_pages
					? `/api/v2/groups/${enc('Big Project')}/keywords?per_page=250&page=${current_page + 1}`
					: undefined;
		}
		const ms = performance.now() - t0;
		assert.equal(seen, 50_000);
		assert.equal(pages, 200);
		assert.ok(ms < 8000, `paging took ${ms.toFixed(0)} ms`);
	});

	it('a single late page and a rank update of everything stay fast', async () => {
		const t0 = performance.now();
		const r = await f.get(`/api/v2/groups/${enc('Big Project')}/keywords?per_page=250&page=200`);
		assert.equal(r.json.data.length, 250);
		assert.ok(performance.now() - t0 < 500);
		const t1 = performance.now();
		f.api.state.simulateRankUpdate({ category: 'Big Project' });
		assert.ok(performance.now() - t1 < 3000);
	});
});
