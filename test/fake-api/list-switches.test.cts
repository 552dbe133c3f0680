/**
 * The behaviour switches for lists and timestamps a living account shows: maxPerPage, keywordOrder, alertTieOrder,
 * timestampOffsets, groupsLastUpdated and projectListIncludesGroups. Each over real HTTP, and how they are set
 * (constructor, setBehaviour, the control route, the CLI flags).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_BEHAVIOUR, type FakeBehaviour } from '../../dev/fake-api/index.cjs';
import { enc, errorOf, firstLine, FIXED_NOW, startFake, type Fake } from './helpers.cjs';

const NOW_S = Math.floor(FIXED_NOW / 1000);
const CLI = path.resolve(__dirname, '../../dev/fake-api/cli.cjs');

const idsOf = (reply: { json: any }): string[] => reply.json.data.map((x: any) => x.id);
const keywordsPath = (name: string, query = ''): string =>
	`/api/v2/groups/${enc(name)}/keywords${query ? `?${query}` : ''}`;

/** Every page of a list (#13 or #20) read `perPage` at a time, following the page numbers; the answers. */
async function readPages(f: Fake, base: string, perPage: number): Promise<any[]> {
	const pages: any[] = [];
	const join = base.includes('?') ? '&' : '?';
	for (let page = 1; page <= 100; page++) {
		const r = await f.get(`${base}${join}per_page=${perPage}&page=${page}`);
		assert.equal(r.status, 200, r.text);
		pages.push(r.json);
		if (page >= r.json.meta.pagination.total_pages) break;
	}
	return pages;
}

const allIds = (pages: any[]): string[] => pages.flatMap((p) => p.data.map((x: any) => x.id));

describe('fake API: list and timestamp switches', () => {
	describe('alertCategory', () => {
		let f: Fake;
		before(async () => {
			f = await startFake({ seed: 'empty' });
			f.api.addKeywords('Shop', 2);
			f.api.addKeywords('Shop[sub]Blog', 2);
			f.api.addAlerts(2, { createdAt: NOW_S - 60, category: 'Shop' });
			f.api.addAlerts(2, { createdAt: NOW_S - 60, category: 'Shop[sub]Blog' });
		});
		after(() => f.stop());

		const categories = async () =>
			new Set(
				(await f.get('/api/v2/alerts?per_page=250')).json.data.map(
					(a: any) => a.attributes.category as string,
				),
			);

		it("names the keyword's own project or group, or its project only", async () => {
			assert.deepEqual(await categories(), new Set(['Shop', 'Shop[sub]Blog']));
			f.api.setBehaviour({ alertCategory: 'project-name' });
			try {
				assert.deepEqual(await categories(), new Set(['Shop']));
			} finally {
				f.api.setBehaviour({ alertCategory: 'own-name' });
			}
			assert.throws(
				() => f.api.setBehaviour({ alertCategory: 'group' } as never),
				/alertCategory must be/,
			);
		});
	});

	describe('maxPerPage', () => {
		let f: Fake;
		before(async () => {
			f = await startFake({ seed: 'empty' });
			f.api.addKeywords('Big', 23);
			f.api.addAlerts(17, { createdAt: NOW_S - 60 });
		});
		after(() => f.stop());

		it('#13 clamps per_page to it, and the pagination, count and links say the size used', async () => {
			const everything = idsOf(await f.get(keywordsPath('Big', 'per_page=250')));
			assert.equal(everything.length, 23);
			f.api.setBehaviour({ maxPerPage: 5 });
			try {
				const r = await f.get(keywordsPath('Big', 'per_page=250'));
				assert.equal(r.json.data.length, 5);
				assert.deepEqual(r.json.meta.pagination, {
					total: 23,
					count: 5,
					per_page: 5,
					current_page: 1,
					total_pages: 5,
				});
				for (const link of ['self', 'first', 'last'])
					assert.equal(new URL(r.json.links[link]).searchParams.get('per_page'), '5', link);
				assert.equal(new URL(r.json.links.last).searchParams.get('page'), '5');
				// The default page size (20) is clamped too; a smaller per_page is kept.
				assert.equal((await f.get(keywordsPath('Big'))).json.meta.pagination.per_page, 5);
				const small = await f.get(keywordsPath('Big', 'per_page=3&page=2'));
				assert.equal(small.json.meta.pagination.per_page, 3);
				assert.deepEqual(idsOf(small), everything.slice(3, 6));
				// Paging with the size the server reports reads every keyword once.
				const pages = await readPages(f, keywordsPath('Big'), 250);
				assert.equal(pages.length, 5);
				assert.deepEqual(allIds(pages), everything);
				assert.deepEqual(
					pages.map((p) => p.meta.pagination.count),
					[5, 5, 5, 5, 3],
				);
			} finally {
				f.api.setBehaviour({ maxPerPage: 250 });
			}
		});

		it('#20 clamps per_page; total_pages and the next link follow', async () => {
			f.api.setBehaviour({ maxPerPage: 4 });
			try {
				const r = await f.get('/api/v2/alerts?per_page=100');
				assert.equal(r.json.data.length, 4);
				assert.deepEqual(r.json.meta.pagination, {
					total: 17,
					count: 4,
					per_page: 4,
					current_page: 1,
					total_pages: 5,
				});
				const next = new URL(r.json.links.next);
				assert.equal(next.searchParams.get('per_page'), '4');
				assert.equal(next.searchParams.get('page'), '2');
				const pages = await readPages(f, '/api/v2/alerts', 100);
				assert.equal(new Set(allIds(pages)).size, 17);
				assert.equal(pages.at(-1).links.next, null);
			} finally {
				f.api.setBehaviour({ maxPerPage: 250 });
			}
		});

		it('#21 top pages clamp per_page; meta and links follow', async () => {
			const all = (await f.get(`${keywordsPath('Big')}/ranking-urls?per_page=250`)).json;
			assert.ok(all.meta.total > 2, `enough top pages: ${all.meta.total}`);
			f.api.setBehaviour({ maxPerPage: 2 });
			try {
				const r = await f.get(`${keywordsPath('Big')}/ranking-urls?per_page=250`);
				assert.equal(r.json.data.length, 2);
				assert.equal(r.json.meta.per_page, 2);
				assert.equal(r.json.meta.last_page, Math.ceil(all.meta.total / 2));
				assert.deepEqual([r.json.meta.from, r.json.meta.to], [1, 2]);
				assert.equal(new URL(r.json.links.next).searchParams.get('per_page'), '2');
				assert.deepEqual(r.json.data, all.data.slice(0, 2));
				const plain = await f.get(`${keywordsPath('Big')}/ranking-urls`);
				assert.equal(plain.json.meta.per_page, 2, 'the default of 25 is clamped as well');
			} finally {
				f.api.setBehaviour({ maxPerPage: 250 });
			}
		});

		it('must be an integer from 1 to 250', () => {
			for (const bad of [0, 251, 2.5, -1, '10', null, Infinity])
				assert.throws(() => f.api.setBehaviour({ maxPerPage: bad as any }), Error, String(bad));
			assert.equal(f.api.behaviour.maxPerPage, 250);
			assert.equal(f.api.setBehaviour({ maxPerPage: 1 }).maxPerPage, 1);
			assert.equal(f.api.setBehaviour({ maxPerPage: 250 }).maxPerPage, 250);
		});
	});

	describe('keywordOrder', () => {
		let f: Fake;
		const project = 'Order Project';
		/** kw and starting rank (0 = outside the top results) of the keywords, added in this (id) order. */
		const INPUT: Array<[string, number]> = [
			['delta shoes', 5],
			['Alpha boots', 0],
			['charlie sandals', 2],
			['bravo slippers', 9],
			['echo trainers', 2],
			['alpha boots kids', 40],
			['foxtrot clogs', 0],
		];
		let ids: string[];
		before(async () => {
			f = await startFake({ seed: 'empty' });
			ids = f.api.addKeywords(
				project,
				INPUT.map(([kw, grank]) => ({ kw, grank })),
			);
		});
		after(() => f.stop());
		const list = async (): Promise<any[]> =>
			(await f.get(keywordsPath(project, 'per_page=250'))).json.data;
		const byOrder = async (keywordOrder: FakeBehaviour['keywordOrder']): Promise<any[]> => {
			f.api.setBehaviour({ keywordOrder });
			try {
				return await list();
			} finally {
				f.api.setBehaviour({ keywordOrder: 'id-ascending' });
			}
		};
		/** The rank the order sorts by: 0 (outside the top results) after every rank. */
		const rankKey = (k: any): number => k.attributes.grank_int || Infinity;

		it("'id-ascending' (default) and 'id-descending'", async () => {
			assert.deepEqual(idsOf({ json: { data: await list() } }), ids);
			const down = await byOrder('id-descending');
			assert.deepEqual(
				down.map((k) => k.id),
				[...ids].reverse(),
			);
		});

		it("'keyword-text': alphabetical by kw, case-insensitive, then id; a new keyword lands anywhere", async () => {
			const names = (await byOrder('keyword-text')).map((k) => k.attributes.kw);
			assert.deepEqual(names, [
				'Alpha boots',
				'alpha boots kids',
				'bravo slippers',
				'charlie sandals',
				'delta shoes',
				'echo trainers',
				'foxtrot clogs',
			]);
			const [added] = f.api.addKeywords(project, [{ kw: 'cobbler tools' }]);
			try {
				const after = await byOrder('keyword-text');
				assert.equal(after[4].id, added, 'between charlie and delta, not at the end');
			} finally {
				f.api.deleteKeywords([added]);
			}
		});

		it("'rank': by current rank, outside the top results last, ties by id; it moves with every crawl", async () => {
			const check = (keywords: any[]): void => {
				const keys = keywords.map((k) => [rankKey(k), Number(k.id)]);
				const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
				assert.deepEqual(keys, sorted);
			};
			const first = await byOrder('rank');
			assert.deepEqual(
				first.map((k) => k.attributes.grank_int),
				[2, 2, 5, 9, 40, 0, 0],
			);
			assert.deepEqual(
				first.slice(0, 2).map((k) => k.id),
				[ids[2], ids[4]],
				'equal ranks by id',
			);
			check(first);
			let moved = false;
			for (let crawl = 0; crawl < 5 && !moved; crawl++) {
				f.api.simulateRankUpdate({ category: project });
				const next = await byOrder('rank');
				check(next);
				moved = next.map((k) => k.id).join() !== first.map((k) => k.id).join();
			}
			assert.ok(moved, 'a crawl reorders the list');
		});

		it('paging follows the order: the pages together are the whole ordered list', async () => {
			for (const order of ['id-descending', 'keyword-text', 'rank'] as const) {
				const whole = (await byOrder(order)).map((k) => k.id);
				f.api.setBehaviour({ keywordOrder: order });
				try {
					assert.deepEqual(allIds(await readPages(f, keywordsPath(project), 3)), whole, order);
				} finally {
					f.api.setBehaviour({ keywordOrder: 'id-ascending' });
				}
			}
		});

		it('refuses an unknown order', () => {
			for (const bad of ['random', 'id', '', 3])
				assert.throws(() => f.api.setBehaviour({ keywordOrder: bad as any }), Error, String(bad));
			assert.equal(f.api.behaviour.keywordOrder, 'id-ascending');
		});
	});

	describe('alertTieOrder', () => {
		let f: Fake;
		/** Alert ids per created_at second, in creation (id) order. */
		const seconds = new Map<number, string[]>();
		before(async () => {
			f = await startFake({ seed: 'empty' });
			for (const [at, count] of [
				[NOW_S - 300, 7],
				[NOW_S - 200, 1],
				[NOW_S - 100, 6],
			]) {
				const ids = f.api.addAlerts(count, { createdAt: at }).map((a) => a.id as string);
				seconds.set(at, ids);
			}
		});
		after(() => f.stop());
		const all = async (query: string): Promise<any[]> =>
			(await f.get(`/api/v2/alerts?per_page=250${query ? `&${query}` : ''}`)).json.data;
		/** The ids of each second, in the order served, and the order of the seconds. */
		const runs = (alerts: any[]): { stamps: number[]; ids: Map<number, string[]> } => {
			const ids = new Map<number, string[]>();
			const stamps: number[] = [];
			for (const a of alerts) {
				const at = a.attributes.created_at;
				if (!ids.has(at)) {
					ids.set(at, []);
					stamps.push(at);
				}
				ids.get(at)!.push(a.id);
			}
			return { stamps, ids };
		};
		const ascending = (ids: string[]): string[] => [...ids].sort((a, b) => Number(a) - Number(b));

		it("'by-id' (default): ties by id, following the sort direction", async () => {
			const desc = runs(await all(''));
			const asc = runs(await all('sort_direction=asc'));
			assert.deepEqual(desc.stamps, [NOW_S - 100, NOW_S - 200, NOW_S - 300]);
			assert.deepEqual(asc.stamps, [NOW_S - 300, NOW_S - 200, NOW_S - 100]);
			for (const [at, ids] of seconds) {
				assert.deepEqual(asc.ids.get(at), ids);
				assert.deepEqual(desc.ids.get(at), [...ids].reverse());
			}
		});

		it("'mixed': ties scrambled, stable, neither ascending nor descending, in every direction and alertOrder", async () => {
			f.api.setBehaviour({ alertTieOrder: 'mixed' });
			try {
				const reads: Array<[string, Partial<FakeBehaviour>, number[]]> = [
					['', {}, [NOW_S - 100, NOW_S - 200, NOW_S - 300]],
					['sort_direction=asc', {}, [NOW_S - 300, NOW_S - 200, NOW_S - 100]],
					['sort_field=time&sort_direction=desc', {}, [NOW_S - 100, NOW_S - 200, NOW_S - 300]],
					[
						'sort_direction=asc',
						{ alertOrder: 'newest-first' },
						[NOW_S - 100, NOW_S - 200, NOW_S - 300],
					],
					['', { alertOrder: 'oldest-first' }, [NOW_S - 300, NOW_S - 200, NOW_S - 100]],
				];
				let first: Map<number, string[]> | undefined;
				for (const [query, behaviour, stamps] of reads) {
					f.api.setBehaviour({ alertOrder: 'as-asked', ...behaviour });
					const served = runs(await all(query));
					const label = `${query} ${JSON.stringify(behaviour)}`;
					assert.deepEqual(served.stamps, stamps, `${label}: the order across seconds is kept`);
					for (const [at, ids] of seconds) {
						const got = served.ids.get(at)!;
						assert.deepEqual(ascending(got), ids, `${label}: the same alerts`);
						if (ids.length < 3) continue;
						assert.notDeepEqual(got, ids, `${label}: not ascending`);
						assert.notDeepEqual(got, [...ids].reverse(), `${label}: not descending`);
					}
					first ??= served.ids;
					assert.deepEqual(served.ids, first, `${label}: the same scramble every time`);
					// Paging through the list meets every alert once, in the same order.
					const pages = await readPages(f, `/api/v2/alerts${query ? `?${query}` : ''}`, 4);
					assert.deepEqual(
						allIds(pages),
						(await all(query)).map((a) => a.id),
					);
				}
				// sort_field=id has no ties: still by id.
				f.api.setBehaviour({ alertOrder: 'as-asked' });
				const byId = (await all('sort_field=id&sort_direction=asc')).map((a) => a.id);
				assert.deepEqual(byId, ascending(byId));
			} finally {
				f.api.setBehaviour({ alertTieOrder: 'by-id', alertOrder: 'as-asked' });
			}
		});

		it('refuses an unknown value', () => {
			for (const bad of ['random', 'by-time', true])
				assert.throws(() => f.api.setBehaviour({ alertTieOrder: bad as any }), Error);
		});
	});

	describe('timestampOffsets', () => {
		const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
		const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
		let plain: Fake;
		let f: Fake;
		before(async () => {
			plain = await startFake();
			f = await startFake({ behaviour: { timestampOffsets: 'without-offset' } });
		});
		after(async () => {
			await plain.stop();
			await f.stop();
		});
		/** The same value without the offset. */
		const naive = (withOffset: string): string => withOffset.replace(/\+00:00$/, '');

		it('#1 and #2: keywords_last_updated_at is naive UTC wall time, the same instant', async () => {
			const [a, b] = [
				(await plain.get('/api/v2/groups/active')).json.data,
				(await f.get('/api/v2/groups/active')).json.data,
			];
			assert.equal(a.length, b.length);
			let stamped = 0;
			a.forEach((ga: any, i: number) => {
				const [ta, tb] = [
					ga.attributes.keywords_last_updated_at,
					b[i].attributes.keywords_last_updated_at,
				];
				if (ta === null) return assert.equal(tb, null);
				stamped++;
				assert.match(ta, OFFSET);
				assert.match(tb, NAIVE);
				assert.equal(tb, naive(ta));
				assert.equal(Date.parse(`${tb}Z`), Date.parse(ta));
			});
			assert.ok(stamped >= 3);
			const one = (await f.get(`/api/v2/groups/${enc('Acme Shoes[sub]Blog')}`)).json.data;
			assert.match(one.attributes.keywords_last_updated_at, NAIVE);
		});

		it('every other group record served: #3, #8, #7, the in-process members, the control routes', async () => {
			const name = enc('Café Zürich');
			const archived = await f.call('PUT', `/api/v2/groups/${name}`, {
				data: { type: 'group', attributes: { status: 2 } },
			});
			assert.equal(archived.status, 200, archived.text);
			assert.match(archived.json.data.attributes.keywords_last_updated_at, NAIVE);
			const restored = await f.get(`/api/v2/groups/${name}/undo/archive`);
			assert.match(restored.json.data.attributes.keywords_last_updated_at, NAIVE);
			// A new project has no keywords yet: null either way; once it has tracked keywords, naive.
			const created = await f.call('POST', '/api/v2/groups', {
				data: { type: 'project', attributes: { category: 'Naive Times' } },
			});
			assert.equal(created.status, 201, created.text);
			assert.equal(created.json.data.attributes.keywords_last_updated_at, null);
			f.api.addKeywords('Naive Times', 2);
			const project = (await f.get(`/api/v2/groups/${enc('Naive Times')}`)).json.data;
			assert.match(project.attributes.keywords_last_updated_at, NAIVE);
			// In-process answers and the control route follow the switch too.
			assert.equal(f.api.addGroup('Naive Times', 'G').attributes.keywords_last_updated_at, null);
			f.api.addKeywords('Naive Times[sub]G', 1);
			const group = (await f.get(`/api/v2/groups/${enc('Naive Times[sub]G')}`)).json.data;
			assert.match(group.attributes.keywords_last_updated_at, NAIVE);
			const added = await fetch(`${f.base}/__control/projects`, {
				method: 'POST',
				body: JSON.stringify({ name: 'Naive Times[sub]H' }),
			});
			assert.equal(((await added.json()) as any).data.attributes.keywords_last_updated_at, null);
			const stamp = (r: { attributes: Record<string, unknown> }): unknown =>
				r.attributes.keywords_last_updated_at;
			assert.match(
				String(stamp(f.api.renameContainer('Naive Times[sub]G', 'Naive Times[sub]G2'))),
				NAIVE,
			);
			assert.match(String(stamp(f.api.archiveContainer('Naive Times'))), NAIVE);
			assert.match(String(stamp(f.api.restoreContainer('Naive Times'))), NAIVE);
			const res = await fetch(`${f.base}/__control/containers/rename`, {
				method: 'POST',
				body: JSON.stringify({ name: 'Naive Times', to: 'Naive Times 2' }),
			});
			assert.match(((await res.json()) as any).data.attributes.keywords_last_updated_at, NAIVE);
		});

		it('the alert `time` attribute, in #20 and addAlerts; created_at stays Unix seconds', async () => {
			const [a, b] = [
				(await plain.get('/api/v2/alerts?per_page=250')).json.data,
				(await f.get('/api/v2/alerts?per_page=250')).json.data,
			];
			assert.ok(a.length > 5);
			a.forEach((x: any, i: number) => {
				const y = b[i];
				assert.match(x.attributes.time, OFFSET);
				assert.match(y.attributes.time, NAIVE);
				assert.equal(y.attributes.time, naive(x.attributes.time));
				assert.equal(Date.parse(`${y.attributes.time}Z`), y.attributes.created_at * 1000);
			});
			const [added] = f.api.addAlerts(1, { createdAt: NOW_S - 5 });
			assert.equal(
				(added.attributes as any).time,
				new Date((NOW_S - 5) * 1000).toISOString().slice(0, 19),
			);
		});

		it('refuses an unknown value', () => {
			for (const bad of ['naive', 'Z', false])
				assert.throws(() => f.api.setBehaviour({ timestampOffsets: bad as any }), Error);
		});
	});

	describe("groupsLastUpdated and a group's crawled_at", () => {
		let clock: number;
		let f: Fake;
		const group = 'Acme Shoes[sub]Blog';
		before(async () => {
			clock = FIXED_NOW;
			f = await startFake({ now: () => clock });
		});
		after(() => f.stop());
		const record = async (name: string): Promise<any> =>
			(await f.get(`/api/v2/groups/${enc(name)}`)).json.data.attributes;
		/** The latest crawled_at of the keywords listed for a container (its own keywords). */
		const newestCrawl = async (name: string): Promise<number> =>
			Math.max(
				...(await f.get(keywordsPath(name, 'per_page=250'))).json.data.map(
					(k: any) => k.attributes.crawled_at,
				),
			);

		it("by default a group's crawled_at is the time of the last crawl of its keywords, and a crawl moves it", async () => {
			assert.equal((await record(group)).crawled_at, await newestCrawl(group));
			clock += 60_000;
			const [one] = f.api.state.findContainer(group)!.keywordIds;
			f.api.simulateRankUpdate({ keywordIds: [one] });
			const now = Math.floor(clock / 1000);
			const after = await record(group);
			assert.equal(after.crawled_at, now);
			assert.equal(after.crawled_at, await newestCrawl(group));
			assert.equal(Date.parse(after.keywords_last_updated_at), clock);
			// A refresh (#5) of the group alone moves it again.
			clock += 60_000;
			const refresh = await f.call('POST', '/api/v2/keywords/refresh', {
				data: { project_ids: [after.project_id], include_sub_groups: false },
			});
			assert.equal(refresh.status, 200, refresh.text);
			assert.equal((await record(group)).crawled_at, Math.floor(clock / 1000));
			assert.equal((await record(group)).crawled_at, await newestCrawl(group));
		});

		it("'null': groups carry keywords_last_updated_at null everywhere; projects keep theirs; crawled_at still moves", async () => {
			f.api.setBehaviour({ groupsLastUpdated: 'null' });
			try {
				const active = (await f.get('/api/v2/groups/active')).json.data;
				const groups = active.filter((g: any) => g.id.includes('[sub]'));
				const projects = active.filter((g: any) => !g.id.includes('[sub]'));
				assert.ok(groups.length >= 2 && projects.length >= 2);
				for (const g of groups) assert.equal(g.attributes.keywords_last_updated_at, null, g.id);
				for (const p of projects)
					assert.equal(typeof p.attributes.keywords_last_updated_at, 'string');
				assert.equal((await record(group)).keywords_last_updated_at, null);
				const put = await f.call('PUT', `/api/v2/groups/${enc(group)}`, {
					data: { type: 'group', attributes: { status: 2 } },
				});
				assert.equal(put.json.data.attributes.keywords_last_updated_at, null);
				const undo = await f.get(`/api/v2/groups/${enc(group)}/undo/archive`);
				assert.equal(undo.json.data.attributes.keywords_last_updated_at, null);
				assert.equal(
					f.api.addGroup('Acme Shoes', 'Fresh').attributes.keywords_last_updated_at,
					null,
				);
				// The crawl clock still moves.
				const before = (await record(group)).crawled_at;
				clock += 60_000;
				f.api.simulateRankUpdate({ category: group });
				const after = await record(group);
				assert.equal(after.keywords_last_updated_at, null);
				assert.ok(after.crawled_at > before);
				assert.equal(after.crawled_at, Math.floor(clock / 1000));
				assert.equal(after.crawled_at, await newestCrawl(group));
				// Stamped again when switched back: the data was kept.
				f.api.setBehaviour({ groupsLastUpdated: 'stamped' });
				assert.equal(Date.parse((await record(group)).keywords_last_updated_at), clock);
			} finally {
				f.api.setBehaviour({ groupsLastUpdated: 'stamped' });
			}
		});

		it('refuses an unknown value', () => {
			for (const bad of [null, 'none', 0])
				assert.throws(() => f.api.setBehaviour({ groupsLastUpdated: bad as any }), Error);
		});
	});

	describe('projectTimeCoversGroups', () => {
		let clock: number;
		let f: Fake;
		before(async () => {
			clock = FIXED_NOW;
			f = await startFake({ now: () => clock });
		});
		after(() => f.stop());
		const record = async (name: string): Promise<any> =>
			(await f.get(`/api/v2/groups/${enc(name)}`)).json.data.attributes;

		it("by default a group's crawl moves its project's times; with false only the project's own crawls do", async () => {
			const ownBefore = await record('Acme Shoes');
			clock += 60_000;
			f.api.simulateRankUpdate({ category: 'Acme Shoes[sub]Blog' });
			const covering = await record('Acme Shoes');
			assert.equal(covering.crawled_at, Math.floor(clock / 1000));
			assert.equal(Date.parse(covering.keywords_last_updated_at), clock);
			f.api.setBehaviour({ projectTimeCoversGroups: false });
			try {
				const own = await record('Acme Shoes');
				assert.equal(own.crawled_at, ownBefore.crawled_at);
				assert.equal(own.keywords_last_updated_at, ownBefore.keywords_last_updated_at);
				const active = (await f.get('/api/v2/groups/active')).json.data;
				const listed = active.find((g: any) => g.id === 'Acme Shoes').attributes;
				assert.equal(listed.crawled_at, ownBefore.crawled_at);
				// The group's own record moved; a crawl of the project's own keywords moves the project's.
				assert.equal((await record('Acme Shoes[sub]Blog')).crawled_at, Math.floor(clock / 1000));
				clock += 60_000;
				f.api.simulateRankUpdate({ category: 'Acme Shoes' });
				assert.equal((await record('Acme Shoes')).crawled_at, Math.floor(clock / 1000));
			} finally {
				f.api.setBehaviour({ projectTimeCoversGroups: true });
			}
		});

		it('must be a boolean', () => {
			for (const bad of ['false', 0, null])
				assert.throws(() => f.api.setBehaviour({ projectTimeCoversGroups: bad as any }), Error);
		});
	});

	describe('projectListIncludesGroups', () => {
		let f: Fake;
		const project = 'Acme Shoes';
		let own: string[];
		let groupIds: Map<string, string[]>;
		before(async () => {
			f = await startFake();
			// Keywords added later to the project interleave its ids with its groups' ids.
			f.api.addKeywords(project, [{ kw: 'late project keyword' }]);
			f.api.addKeywords(`${project}[sub]Blog`, [{ kw: 'late blog keyword' }]);
			own = idsOf(await f.get(keywordsPath(project, 'per_page=250')));
			groupIds = new Map();
			for (const g of f.api.state.findContainer(project)!.children)
				groupIds.set(g.name, idsOf(await f.get(keywordsPath(g.name, 'per_page=250'))));
		});
		after(() => f.stop());

		it("a project's list holds its groups' keywords, each with its own category, ordered together", async () => {
			f.api.setBehaviour({ projectListIncludesGroups: true });
			try {
				const r = await f.get(keywordsPath(project, 'per_page=250'));
				const expected = [own, ...groupIds.values()].flat().sort((a, b) => Number(a) - Number(b));
				assert.deepEqual(idsOf(r), expected);
				assert.equal(r.json.meta.pagination.total, expected.length);
				for (const k of r.json.data) {
					const inGroup = [...groupIds].find(([, ids]) => ids.includes(k.id))?.[0];
					assert.equal(k.attributes.category, inGroup ?? project, k.id);
				}
				assert.ok(r.json.meta.domains.includes('acmeshoes.com'));
				// Paging covers them all.
				const pages = await readPages(f, keywordsPath(project), 7);
				assert.equal(pages[0].meta.pagination.total_pages, Math.ceil(expected.length / 7));
				assert.deepEqual(allIds(pages), expected);
				// With another order, the project's and the groups' keywords are ordered together.
				f.api.setBehaviour({ keywordOrder: 'keyword-text' });
				const text = (await f.get(keywordsPath(project, 'per_page=250'))).json.data.map((k: any) =>
					k.attributes.kw.toLowerCase(),
				);
				assert.equal(text.length, expected.length);
				assert.deepEqual(text, [...text].sort());
				f.api.setBehaviour({ keywordOrder: 'id-descending' });
				assert.deepEqual(
					idsOf(await f.get(keywordsPath(project, 'per_page=250'))),
					[...expected].reverse(),
				);
			} finally {
				f.api.setBehaviour({ projectListIncludesGroups: false, keywordOrder: 'id-ascending' });
			}
		});

		it("a group's list, and a project without groups, stay as they were", async () => {
			f.api.setBehaviour({ projectListIncludesGroups: true });
			try {
				for (const [name, ids] of groupIds)
					assert.deepEqual(idsOf(await f.get(keywordsPath(name, 'per_page=250'))), ids, name);
				const cafe = await f.get(keywordsPath('Café Zürich', 'per_page=250'));
				assert.equal(
					cafe.json.meta.pagination.total,
					f.api.state.findContainer('Café Zürich')!.keywordIds.length,
				);
			} finally {
				f.api.setBehaviour({ projectListIncludesGroups: false });
			}
			assert.deepEqual(idsOf(await f.get(keywordsPath(project, 'per_page=250'))), own);
		});

		it('must be a boolean', () => {
			for (const bad of ['true', 1, null])
				assert.throws(() => f.api.setBehaviour({ projectListIncludesGroups: bad as any }), Error);
		});
	});

	describe('setting the new switches', () => {
		const CHANGES: Partial<FakeBehaviour> = {
			maxPerPage: 100,
			keywordOrder: 'rank',
			alertTieOrder: 'mixed',
			timestampOffsets: 'without-offset',
			groupsLastUpdated: 'null',
			projectListIncludesGroups: true,
			projectTimeCoversGroups: false,
		};

		it('defaults, the constructor option, and the control route (a bad value is a 422 and changes nothing)', async () => {
			const f = await startFake({ seed: 'empty', behaviour: { keywordOrder: 'keyword-text' } });
			try {
				// The defaults' values are pinned once, in behaviour.test.cts.
				assert.deepEqual(f.api.behaviour, { ...DEFAULT_BEHAVIOUR, keywordOrder: 'keyword-text' });
				assert.equal(f.api.behaviour.keywordOrder, 'keyword-text');
				assert.throws(() => new (f.api.constructor as any)({ behaviour: { maxPerPage: 0 } }));
				const control = async (
					method: string,
					body?: unknown,
				): Promise<{ status: number; json: any }> => {
					const res = await fetch(`${f.base}/__control/behaviour`, {
						method,
						body: body === undefined ? undefined : JSON.stringify(body),
					});
					return { status: res.status, json: await res.json() };
				};
				const set = await control('POST', CHANGES);
				assert.equal(set.status, 200);
				assert.deepEqual(set.json, { ...DEFAULT_BEHAVIOUR, ...CHANGES });
				assert.deepEqual((await control('GET')).json, set.json);
				for (const bad of [
					{ maxPerPage: 300 },
					{ maxPerPage: '20' },
					{ keywordOrder: 'random' },
					{ alertTieOrder: 'shuffled' },
					{ timestampOffsets: 'none' },
					{ groupsLastUpdated: null },
					{ projectListIncludesGroups: 'yes' },
					{ maxPerPage: 10, keywordOrder: 'nope' },
				]) {
					const r = await control('POST', bad);
					assert.equal(r.status, 422, JSON.stringify(bad));
					assert.match(errorOf(r.json).detail, new RegExp(Object.keys(bad).at(-1)!));
				}
				assert.deepEqual(f.api.behaviour, { ...DEFAULT_BEHAVIOUR, ...CHANGES }, 'nothing changed');
				f.api.reset();
				assert.deepEqual(
					f.api.behaviour,
					{ ...DEFAULT_BEHAVIOUR, ...CHANGES },
					'reset() keeps them',
				);
				assert.match(
					(await control('POST', { bogus: 1 })).json.errors[0].detail,
					/projectListIncludesGroups/,
					'the refusal names the switches there are',
				);
			} finally {
				await f.stop();
			}
		});

		it('the CLI flags set them, and a bad value exits with code 2', async () => {
			const child = spawn(
				process.execPath,
				[
					CLI,
					'--seed',
					'empty',
					'--max-per-page',
					'100',
					'--keyword-order',
					'rank',
					'--alert-tie-order',
					'mixed',
					'--timestamp-offsets',
					'without-offset',
					'--groups-last-updated',
					'null',
					'--project-list-includes-groups',
					'--project-time-own-keywords',
				],
				{ stdio: ['ignore', 'pipe', 'pipe'] },
			);
			try {
				const info = JSON.parse(await firstLine(child)) as { baseUrl: string };
				const behaviour = await (await fetch(`${info.baseUrl}/__control/behaviour`)).json();
				assert.deepEqual(behaviour, { ...DEFAULT_BEHAVIOUR, ...CHANGES });
			} finally {
				child.kill('SIGTERM');
			}
			assert.equal((await once(child, 'exit'))[0], 0);
			for (const args of [
				['--max-per-page', '0'],
				['--max-per-page', '251'],
				['--max-per-page'],
				['--keyword-order', 'random'],
				['--alert-tie-order', 'x'],
				['--timestamp-offsets', 'naive'],
				['--groups-last-updated', 'never'],
			]) {
				const bad = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
				assert.equal((await once(bad, 'exit'))[0], 2, args.join(' '));
			}
		});
	});
});
