/**
 * The behaviour switches (alertOrder, historyOrder, churn, pageLatencyMs): each one over real HTTP, and how they are
 * set (constructor, setBehaviour, control routes; the CLI flags are in cli.test.cts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_BEHAVIOUR, type ChurnLogEntry } from '../../dev/fake-api/index.cjs';
import { enc, errorOf, FIXED_NOW, startFake, type Fake } from './helpers.cjs';

const NOW_S = Math.floor(FIXED_NOW / 1000);

/** Ids of a keyword or alert list answer. */
const idsOf = (reply: { json: any }): string[] => reply.json.data.map((x: any) => x.id);

describe('fake API: behaviour switches', () => {
	describe('alertOrder', () => {
		let f: Fake;
		/** Alert ids newest first by created_at then id; ids ascend in creation order but created_at does not. */
		let newestFirst: string[];
		before(async () => {
			f = await startFake({ seed: 'empty' });
			const add = (count: number, createdAt: number): string[] =>
				f.api.addAlerts(count, { createdAt }).map((a) => a.id as string);
			const a = add(3, NOW_S - 300);
			const b = add(2, NOW_S - 100);
			const c = add(3, NOW_S - 200);
			newestFirst = [...b.reverse(), ...c.reverse(), ...a.reverse()];
		});
		after(() => f.stop());

		const SORTS = [
			'',
			'sort_direction=asc',
			'sort_direction=desc',
			'sort_field=id&sort_direction=asc',
			'sort_field=id&sort_direction=desc',
			'sort_field=time&sort_direction=asc',
			'sort_field=created_at',
		];
		const INVALID = [
			'sort_field=kw',
			'sort_direction=sideways',
			'sort_field=priority&sort_direction=up',
		];
		/** The whole list, read 3 per page (paging must keep the forced order across pages). */
		const readAll = async (query: string): Promise<{ statuses: number[]; ids: string[] }> => {
			const statuses: number[] = [];
			const ids: string[] = [];
			for (let page = 1; page <= 3; page++) {
				const r = await f.get(`/api/v2/alerts?${query}${query ? '&' : ''}per_page=3&page=${page}`);
				statuses.push(r.status);
				if (r.status === 200) ids.push(...idsOf(r));
			}
			return { statuses, ids };
		};

		it("'as-asked' (default) honours the sort parameters and refuses invalid ones", async () => {
			assert.equal(f.api.behaviour.alertOrder, 'as-asked');
			assert.deepEqual((await readAll('')).ids, newestFirst);
			assert.deepEqual((await readAll('sort_direction=asc')).ids, [...newestFirst].reverse());
			const byId = (await readAll('sort_field=id&sort_direction=desc')).ids;
			assert.deepEqual(
				byId,
				[...newestFirst].sort((x, y) => Number(y) - Number(x)),
			);
			assert.notDeepEqual(byId, newestFirst, 'the data tells id order from created_at order');
			for (const q of INVALID) {
				const r = await f.get(`/api/v2/alerts?${q}`);
				assert.equal(r.status, 422, q);
				errorOf(r.json);
			}
		});

		for (const [order, expected] of [
			['newest-first', (): string[] => newestFirst],
			['oldest-first', (): string[] => [...newestFirst].reverse()],
		] as const) {
			it(`'${order}' serves that order whatever sort parameters are sent, and ignores invalid ones`, async () => {
				f.api.setBehaviour({ alertOrder: order });
				try {
					for (const q of [...SORTS, ...INVALID]) {
						const { statuses, ids } = await readAll(q);
						assert.deepEqual(statuses, [200, 200, 200], q);
						assert.deepEqual(ids, expected(), q);
					}
					// The filters still apply, and the links still echo what was sent.
					const r = await f.get('/api/v2/alerts?sort_field=kw&last=1&per_page=3');
					assert.equal(r.json.meta.pagination.total, 8);
					assert.equal(new URL(r.json.links.next).searchParams.get('sort_field'), 'kw');
				} finally {
					f.api.setBehaviour({ alertOrder: 'as-asked' });
				}
			});
		}
	});

	describe('historyOrder', () => {
		let plain: Fake;
		let f: Fake;
		const project = 'Acme Shoes';
		const list = (x: Fake, query = ''): Promise<any> =>
			x.get(`/api/v2/groups/${enc(project)}/keywords?per_page=250${query}`);
		before(async () => {
			plain = await startFake();
			f = await startFake({ behaviour: { historyOrder: 'oldest-first' } });
		});
		after(async () => {
			await plain.stop();
			await f.stop();
		});

		it('#13: every grankhistory reversed, the current rank at its end; nothing else changes', async () => {
			const [a, b] = [await list(plain), await list(f)];
			assert.equal(a.json.data.length, b.json.data.length);
			let longer = 0;
			a.json.data.forEach((ka: any, i: number) => {
				const kb = b.json.data[i];
				const ha: number[] | null = ka.attributes.grankhistory;
				if (ha === null) return assert.equal(kb.attributes.grankhistory, null);
				if (ha.length > 1) longer++;
				assert.deepEqual(kb.attributes.grankhistory, [...ha].reverse());
				assert.equal(kb.attributes.grankhistory.at(-1), kb.attributes.grank_int);
				assert.equal(ha[0], ka.attributes.grank_int);
				assert.deepEqual(
					{ ...kb.attributes, grankhistory: null },
					{ ...ka.attributes, grankhistory: null },
				);
			});
			assert.ok(longer > 5, 'histories long enough to tell the orders apart');
		});

		it('#13 with date=: the history up to that day, reversed', async () => {
			const date = new Date(FIXED_NOW - 3 * 86_400_000).toISOString().slice(0, 10);
			const [a, b] = [await list(plain, `&date=${date}`), await list(f, `&date=${date}`)];
			a.json.data.forEach((ka: any, i: number) => {
				const ha = ka.attributes.grankhistory;
				assert.deepEqual(
					b.json.data[i].attributes.grankhistory,
					ha === null ? null : [...ha].reverse(),
				);
			});
		});

		it('#11 single retrieval: reversed, the current rank at its end', async () => {
			const id = (await list(plain)).json.data[0].id;
			const path = `/api/v2/groups/${enc(project)}/keywords/${id}`;
			const [a, b] = [
				(await plain.get(path)).json.data.attributes,
				(await f.get(path)).json.data.attributes,
			];
			assert.ok(a.grankhistory.length > 1);
			assert.deepEqual(b.grankhistory, [...a.grankhistory].reverse());
			assert.equal(b.grankhistory.at(-1), b.grank_int);
		});

		it('#10 add answers carry no history (settings only); the keyword added then reads reversed in #11 and #16', async () => {
			const path = `/api/v2/groups/${enc(project)}/keywords`;
			const added = await f.call('POST', path, {
				data: [
					{ type: 'keyword', attributes: { kw: 'history order probe', url: 'acme-shoes.com' } },
				],
			});
			assert.equal(added.status, 201, added.text);
			const record = added.json.data[0];
			assert.equal('grankhistory' in record.attributes, false);
			const first = f.api.simulateRankUpdate({ keywordIds: [record.id] })[0].attributes
				.grank_int as number;
			const updated = f.api.simulateRankUpdate({ keywordIds: [record.id] });
			const second = updated[0].attributes.grank_int as number;
			assert.deepEqual(
				updated[0].attributes.grankhistory,
				[first, second],
				'simulateRankUpdate returns records in the switch order too',
			);
			assert.deepEqual((await f.get(`${path}/${record.id}`)).json.data.attributes.grankhistory, [
				first,
				second,
			]);
			const patch = await f.call(
				'PATCH',
				`/api/v2/projects/${record.attributes.project_id}/keywords`,
				{
					data: { ids: [record.id], type: 'keyword', attributes: { notes: 'x' } },
				},
			);
			assert.equal(patch.status, 200, patch.text);
			assert.deepEqual(patch.json.data[0].attributes.grankhistory, [first, second]);
		});

		it('only the serialisation changes: switching back serves the stored newest-first history', async () => {
			const reversed = (await list(f)).json.data;
			f.api.setBehaviour({ historyOrder: 'newest-first' });
			try {
				const restored = (await list(f)).json.data;
				restored.forEach((k: any, i: number) => {
					const h = reversed[i].attributes.grankhistory;
					assert.deepEqual(k.attributes.grankhistory, h === null ? null : [...h].reverse());
					if (h !== null) assert.equal(k.attributes.grankhistory[0], k.attributes.grank_int);
				});
			} finally {
				f.api.setBehaviour({ historyOrder: 'oldest-first' });
			}
		});
	});

	describe('churn: keyword list', () => {
		const project = 'Churn Project';
		const listPath = (query: string): string => `/api/v2/groups/${enc(project)}/keywords?${query}`;

		/** A fake whose clock moves a minute before every request, so changed timestamps show. */
		const churnFake = async (cacheReads = false): Promise<Fake & { tick(): void }> => {
			let clock = FIXED_NOW;
			const f = await startFake({ seed: 'empty', now: () => clock, cacheReads });
			f.api.addKeywords(project, 60);
			return { ...f, tick: () => (clock += 60_000) };
		};

		it('changes the list after each page: added ids appear, deleted ids vanish, crawled keywords move, and churnLog says so', async () => {
			const f = await churnFake();
			try {
				const group = async (): Promise<string> =>
					(await f.get(`/api/v2/groups/${enc(project)}`)).json.data.attributes
						.keywords_last_updated_at;
				const r1 = await f.get(listPath('per_page=250'));
				const g1 = await group();
				assert.equal(f.api.churnLog.length, 0, 'no churn by default');
				f.api.setBehaviour({ churn: { addKeywords: 2, deleteKeywords: 3, crawlKeywords: 4 } });
				f.tick();
				const r2 = await f.get(listPath('per_page=250'));
				assert.deepEqual(idsOf(r2), idsOf(r1), 'the page is answered before the changes');
				const afterRequest = f.api.requests.length - 1;
				assert.equal(f.api.churnLog.length, 1);
				const entry = f.api.churnLog[0];
				assert.equal(entry.afterRequest, afterRequest);
				assert.equal(f.api.requests[afterRequest].rawQuery, 'per_page=250');
				assert.equal(entry.list, 'keywords');
				assert.equal(entry.category, project);
				assert.equal(entry.added.length, 2);
				assert.equal(entry.deleted.length, 3);
				assert.equal(entry.crawled.length, 4);
				assert.deepEqual(entry.alerts, []);
				// Deletions spread over the list: one from each third.
				const before = idsOf(r1);
				assert.deepEqual(
					entry.deleted.map((id) => Math.floor(before.indexOf(id) / 20)),
					[0, 1, 2],
				);
				for (const id of entry.crawled)
					assert.ok(before.includes(id) && !entry.deleted.includes(id));
				for (const id of entry.added) assert.ok(!before.includes(id));

				f.tick();
				const g2 = await group();
				const r3 = await f.get(listPath('per_page=250'));
				const expected = [...before.filter((id) => !entry.deleted.includes(id)), ...entry.added];
				assert.deepEqual(idsOf(r3), expected);
				assert.equal(r3.json.meta.pagination.total, 59);
				assert.ok(g2 > g1, `keywords_last_updated_at moved: ${g1} -> ${g2}`);
				const byId = (r: any): Map<string, any> =>
					new Map(r.json.data.map((k: any) => [k.id, k.attributes]));
				const [old, now] = [byId(r1), byId(r3)];
				for (const id of expected) {
					if (entry.added.includes(id)) {
						assert.equal(typeof now.get(id).grank_int, 'number', 'added keywords are tracked');
						assert.ok(now.get(id).grankhistory.length > 0);
						continue;
					}
					const [b, a] = [old.get(id), now.get(id)];
					if (entry.crawled.includes(id)) {
						assert.ok(a.crawled_at > b.crawled_at, `crawled ${id}: crawled_at moved`);
						assert.equal(a.grankhistory.length, b.grankhistory.length + 1);
					} else assert.equal(a.crawled_at, b.crawled_at, `${id} untouched`);
				}
				assert.equal(f.api.churnLog.length, 2, 'the read of r3 churned again');
				assert.equal(f.api.churnLog[1].afterRequest, f.api.requests.length - 1);
			} finally {
				await f.stop();
			}
		});

		it('paging through a changing list: every page is what churnLog predicts, with everyPages', async () => {
			const f = await churnFake();
			try {
				const truth = idsOf(await f.get(listPath('per_page=250')));
				f.api.setBehaviour({
					churn: { everyPages: 2, addKeywords: 3, deleteKeywords: 2, crawlKeywords: 1 },
				});
				const seen: string[] = [];
				const totals: number[] = [];
				const pageRequests: number[] = [];
				for (let page = 1; page <= 5; page++) {
					f.tick();
					const r = await f.get(listPath(`per_page=20&page=${page}`));
					assert.equal(r.status, 200);
					const index = f.api.requests.length - 1;
					pageRequests.push(index);
					assert.deepEqual(idsOf(r), truth.slice((page - 1) * 20, page * 20), `page ${page}`);
					assert.equal(r.json.meta.pagination.total, truth.length, `total on page ${page}`);
					totals.push(r.json.meta.pagination.total);
					seen.push(...idsOf(r));
					// Apply what churnLog says happened after this request; the next page must match it.
					for (const e of f.api.churnLog.filter((x) => x.afterRequest === index)) {
						const gone = new Set(e.deleted);
						truth.splice(0, truth.length, ...truth.filter((id) => !gone.has(id)), ...e.added);
					}
				}
				assert.deepEqual(
					f.api.churnLog.map((e) => e.afterRequest),
					[pageRequests[1], pageRequests[3]],
					'after every second page',
				);
				assert.deepEqual(totals, [60, 60, 61, 61, 62]);
				const added = f.api.churnLog.flatMap((e) => e.added);
				assert.ok(
					added.some((id) => seen.includes(id)),
					'an added keyword showed up on a later page',
				);
			} finally {
				await f.stop();
			}
		});

		it('is deterministic, and a read cache never serves a page from before the changes', async () => {
			const a = await churnFake(true);
			const b = await churnFake();
			try {
				const log: ChurnLogEntry[][] = [];
				for (const f of [a, b]) {
					f.api.setBehaviour({ churn: { addKeywords: 1, deleteKeywords: 1, crawlKeywords: 1 } });
					const r1 = await f.get(listPath('per_page=250'));
					const r2 = await f.get(listPath('per_page=250'));
					assert.notEqual(r2.text, r1.text);
					assert.ok(idsOf(r2).includes(f.api.churnLog[0].added[0]));
					log.push(f.api.churnLog.map((e) => ({ ...e, afterRequest: 0 })));
				}
				assert.deepEqual(log[0], log[1]);
			} finally {
				await a.stop();
				await b.stop();
			}
		});

		it('acts on the project or group read only, and not on other routes or failed pages', async () => {
			const f = await startFake();
			try {
				f.api.setBehaviour({ churn: { addKeywords: 1 } });
				const count = async (name: string): Promise<number> => {
					const counts = (await f.get(`/api/v2/groups/${enc(name)}`)).json.data.attributes
						.keywords_count;
					return Object.values(counts).reduce((n: number, v) => n + (v as number), 0);
				};
				const before = {
					blog: await count('Acme Shoes[sub]Blog'),
					project: await count('Acme Shoes'),
				};
				await f.get(`/api/v2/groups/${enc('Acme Shoes[sub]Blog')}/keywords`);
				assert.equal(f.api.churnLog.at(-1)?.category, 'Acme Shoes[sub]Blog');
				assert.equal(await count('Acme Shoes[sub]Blog'), before.blog + 1);
				assert.equal(await count('Acme Shoes'), before.project);
				const n = f.api.churnLog.length;
				assert.equal(
					(await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords?per_page=0`)).status,
					422,
				);
				assert.equal((await f.get(`/api/v2/groups/${enc('No Such')}/keywords`)).status, 404);
				await f.get('/api/v2/groups/active');
				await f.get('/api/v2/alerts');
				assert.equal(
					f.api.churnLog.length,
					n,
					'no churn after an error, another route, or a list without counts',
				);
				f.api.setBehaviour({ churn: null });
				await f.get(`/api/v2/groups/${enc('Acme Shoes')}/keywords`);
				assert.equal(f.api.churnLog.length, n, 'churn: null turns it off');
			} finally {
				await f.stop();
			}
		});
	});

	describe('churn: alert list', () => {
		it('adds alerts between pages; churnLog names them', async () => {
			const f = await startFake({ seed: 'empty', behaviour: { churn: { addAlerts: 2 } } });
			try {
				for (let i = 0; i < 30; i++) f.api.addAlerts(1, { createdAt: NOW_S - 3600 - i * 60 });
				const pages: any[] = [];
				for (let page = 1; page <= 3; page++)
					pages.push(await f.get(`/api/v2/alerts?per_page=10&page=${page}`));
				assert.deepEqual(
					pages.map((p) => p.json.meta.pagination.total),
					[30, 32, 34],
				);
				const log = f.api.churnLog;
				assert.equal(log.length, 3);
				for (const [i, e] of log.entries()) {
					assert.equal(e.list, 'alerts');
					assert.equal(e.category, undefined);
					assert.equal(e.alerts.length, 2);
					assert.deepEqual([e.added, e.deleted, e.crawled], [[], [], []]);
					assert.equal(f.api.requests[e.afterRequest].rawQuery, `per_page=10&page=${i + 1}`);
				}
				// The new alerts are the newest: the list shifts, and page 2 repeats the end of page 1.
				assert.deepEqual(idsOf(pages[1]).slice(0, 2), idsOf(pages[0]).slice(-2));
				const added = log.flatMap((e) => e.alerts);
				const all = await f.get('/api/v2/alerts?per_page=250');
				assert.equal(all.json.data.length, 36);
				assert.deepEqual(new Set(idsOf(all).slice(0, 6)), new Set(added));
				assert.ok(
					all.json.data.slice(0, 6).every((a: any) => a.attributes.created_at === NOW_S),
					'created now',
				);
			} finally {
				await f.stop();
			}
		});
	});

	describe('pageLatencyMs', () => {
		const DELAY = 400;
		let f: Fake;
		before(async () => (f = await startFake({ behaviour: { pageLatencyMs: DELAY } })));
		after(() => f.stop());
		const timed = async (method: string, path: string, body?: unknown): Promise<number> => {
			const t = performance.now();
			const r = await f.call(method, path, body);
			assert.ok(r.status < 300, `${method} ${path}: ${r.status}`);
			return performance.now() - t;
		};

		it('delays each page of #13 and #20', async () => {
			for (const path of [
				`/api/v2/groups/${enc('Acme Shoes')}/keywords`,
				`/api/v2/groups/${enc('Acme Shoes')}/keywords/?page=2&per_page=5`,
				'/api/v2/alerts',
			]) {
				const ms = await timed('GET', path);
				assert.ok(ms >= 0.9 * DELAY, `${path} took ${ms.toFixed(0)} ms`);
			}
		});

		it('adds to the global latency', async () => {
			f.api.setLatency(200);
			try {
				const ms = await timed('GET', '/api/v2/alerts');
				assert.ok(ms >= 0.9 * (DELAY + 200), `took ${ms.toFixed(0)} ms`);
			} finally {
				f.api.setLatency(0);
			}
		});

		it('leaves every other route alone', async () => {
			const id = f.api.state.findContainer('Acme Shoes')!.keywordIds[0];
			for (const [method, path, body] of [
				['GET', '/api/v2/groups/active'],
				['GET', `/api/v2/groups/${enc('Acme Shoes')}`],
				['GET', `/api/v2/groups/${enc('Acme Shoes')}/keywords/${id}`],
				['GET', `/api/v2/groups/${enc('Acme Shoes')}/keywords/ranking-urls`],
				[
					'POST',
					`/api/v2/groups/${enc('Acme Shoes')}/keywords`,
					{ data: [{ type: 'keyword', attributes: { kw: 'fast add', url: 'acme-shoes.com' } }] },
				],
			] as Array<[string, string, unknown?]>) {
				const ms = await timed(method, path, body);
				assert.ok(ms < 0.5 * DELAY, `${method} ${path} took ${ms.toFixed(0)} ms`);
			}
		});
	});

	describe('chartMaxKeywords / chartOverCap (#14)', () => {
		let f: Fake;
		before(async () => (f = await startFake()));
		after(() => f.stop());
		const chart = (ids: number[]) =>
			f.call('POST', '/api/v2/keywords/chart?action=chart&limit=2', { keyword_ids: ids });
		const kwids = (reply: { json: any }): number[] => reply.json.data.map((x: any) => x.kwid);

		it('no cap by default: every id asked for is charted; a cap serves the first ids only, or refuses with a 422', async () => {
			const ids = f.api.state.findContainer('Acme Shoes')!.keywordIds.slice(0, 5);
			assert.deepEqual(kwids(await chart(ids)), ids);
			f.api.setBehaviour({ chartMaxKeywords: 2 });
			try {
				assert.deepEqual(kwids(await chart(ids)), ids.slice(0, 2));
				assert.deepEqual(kwids(await chart(ids.slice(0, 2))), ids.slice(0, 2));
				f.api.setBehaviour({ chartOverCap: 'reject' });
				const refused = await chart(ids);
				assert.equal(refused.status, 422);
				assert.match(errorOf(refused.json).detail, /At most 2 keyword ids/);
				assert.deepEqual(kwids(await chart(ids.slice(0, 2))), ids.slice(0, 2));
				assert.throws(() => f.api.setBehaviour({ chartMaxKeywords: 0 }), /chartMaxKeywords/);
				assert.throws(() => f.api.setBehaviour({ chartOverCap: 'drop' as never }), /chartOverCap/);
			} finally {
				f.api.setBehaviour({ chartMaxKeywords: null, chartOverCap: 'serve-first' });
			}
		});
	});

	describe('dateSkewMs', () => {
		it("the Date header follows the fake's clock (dateFromClock), skewed by dateSkewMs; without dateFromClock it is the real time", async () => {
			const clocked = await startFake({ dateFromClock: true });
			const plain = await startFake();
			try {
				const date = async (f: Fake) =>
					Date.parse((await f.get('/api/v2/groups/active')).headers.get('date') ?? '');
				assert.equal(await date(clocked), FIXED_NOW - (FIXED_NOW % 1000));
				clocked.api.setBehaviour({ dateSkewMs: -600_000 });
				assert.equal(await date(clocked), FIXED_NOW - 600_000 - (FIXED_NOW % 1000));
				clocked.api.setBehaviour({ dateSkewMs: 7_200_000 });
				assert.equal(await date(clocked), FIXED_NOW + 7_200_000 - (FIXED_NOW % 1000));
				assert.ok(Math.abs((await date(plain)) - Date.now()) < 5_000);
				assert.throws(() => clocked.api.setBehaviour({ dateSkewMs: 1.5 }), /dateSkewMs/);
				assert.throws(() => clocked.api.setBehaviour({ dateSkewMs: '0' as never }), /dateSkewMs/);
			} finally {
				await clocked.stop();
				await plain.stop();
			}
		});
	});

	describe('setting the behaviour', () => {
		it('defaults, constructor option, setBehaviour merging, bad values refused, reset() keeps it', async () => {
			const plain = await startFake({ seed: 'empty' });
			const f = await startFake({ seed: 'empty', behaviour: { alertOrder: 'oldest-first' } });
			try {
				assert.deepEqual(plain.api.behaviour, {
					alertOrder: 'as-asked',
					historyOrder: 'newest-first',
					churn: null,
					pageLatencyMs: 0,
					maxPerPage: 250,
					keywordOrder: 'id-ascending',
					alertTieOrder: 'by-id',
					timestampOffsets: 'with-offset',
					groupsLastUpdated: 'stamped',
					projectListIncludesGroups: false,
					projectTimeCoversGroups: true,
					chartMaxKeywords: null,
					chartOverCap: 'serve-first',
					dateSkewMs: 0,
					aiToday: 'partial',
					alertCategory: 'own-name',
					chartEntries: 'per-day-filled',
					chartLimit: 'days-from-last-crawl',
					aiDomainIds: 'hex24',
				});
				assert.deepEqual(plain.api.behaviour, DEFAULT_BEHAVIOUR);
				assert.equal(f.api.behaviour.alertOrder, 'oldest-first');
				const next = f.api.setBehaviour({ historyOrder: 'oldest-first', churn: { addAlerts: 1 } });
				assert.deepEqual(next, {
					...DEFAULT_BEHAVIOUR,
					alertOrder: 'oldest-first',
					historyOrder: 'oldest-first',
					churn: {
						everyPages: 1,
						addKeywords: 0,
						deleteKeywords: 0,
						crawlKeywords: 0,
						addAlerts: 1,
					},
					pageLatencyMs: 0,
				});
				const copy = f.api.behaviour;
				copy.churn!.addAlerts = 99;
				assert.equal(f.api.behaviour.churn!.addAlerts, 1, 'the getter hands out a copy');
				for (const bad of [
					{ alertOrder: 'sideways' },
					{ historyOrder: 'random' },
					{ pageLatencyMs: -1 },
					{ churn: { addKeywords: 1.5 } },
					{ churn: { everyPages: 0 } },
					{ churn: { bogus: 1 } },
					{ churn: 3 },
					{ somethingElse: true },
				]) {
					assert.throws(() => f.api.setBehaviour(bad as any), Error, JSON.stringify(bad));
				}
				assert.deepEqual(f.api.behaviour, next, 'a refused change changes nothing');
				assert.throws(() => new (f.api.constructor as any)({ behaviour: { alertOrder: 'up' } }));
				f.api.reset();
				assert.deepEqual(f.api.behaviour, next, 'reset() keeps the behaviour');
				assert.equal(f.api.setBehaviour({ churn: null }).churn, null);
			} finally {
				await plain.stop();
				await f.stop();
			}
		});

		it('control routes: POST/GET /__control/behaviour, state carries behaviour and a bounded churnLog, DELETE churn-log', async () => {
			const f = await startFake({ seed: 'empty' });
			try {
				const control = async (
					method: string,
					route: string,
					body?: unknown,
				): Promise<{ status: number; json: any }> => {
					const res = await fetch(`${f.base}/__control/${route}`, {
						method,
						body: body === undefined ? undefined : JSON.stringify(body),
					});
					return { status: res.status, json: await res.json() };
				};
				assert.deepEqual((await control('GET', 'behaviour')).json, DEFAULT_BEHAVIOUR);
				const set = await control('POST', 'behaviour', {
					alertOrder: 'newest-first',
					pageLatencyMs: 5,
					churn: { addAlerts: 1, everyPages: 1 },
				});
				assert.equal(set.status, 200);
				const expected = {
					...DEFAULT_BEHAVIOUR,
					alertOrder: 'newest-first',
					historyOrder: 'newest-first',
					churn: {
						everyPages: 1,
						addKeywords: 0,
						deleteKeywords: 0,
						crawlKeywords: 0,
						addAlerts: 1,
					},
					pageLatencyMs: 5,
				};
				assert.deepEqual(set.json, expected);
				assert.deepEqual(f.api.behaviour, expected);
				assert.deepEqual((await control('GET', 'behaviour')).json, expected);
				// The switch is in force: an otherwise-refused sort value is ignored, and the page churned.
				assert.equal((await f.get('/api/v2/alerts?sort_field=bogus')).status, 200);
				const state = (await control('GET', 'state')).json;
				assert.deepEqual(state.behaviour, expected);
				assert.equal(state.churnLog.length, 1);
				assert.equal(state.churnLog[0].list, 'alerts');
				assert.equal(state.alerts, 1);
				assert.deepEqual((await control('GET', 'churn-log')).json.data, state.churnLog);
				// Refused: bad values and non-object bodies, with nothing changed.
				for (const bad of [
					{ alertOrder: 'random' },
					{ churn: { addAlerts: -1 } },
					{ typo: 1 },
					[1],
				]) {
					const r = await control('POST', 'behaviour', bad);
					assert.equal(r.status, 422, JSON.stringify(bad));
					errorOf(r.json);
				}
				assert.deepEqual(f.api.behaviour, expected);
				// Merging over HTTP, and churn: null.
				assert.deepEqual(
					(await control('POST', 'behaviour', { churn: null, historyOrder: 'oldest-first' })).json,
					{
						...expected,
						churn: null,
						historyOrder: 'oldest-first',
					},
				);
				// The state carries the newest 1,000 entries only.
				for (let i = 0; i < 1005; i++)
					f.api.churnLog.push({
						afterRequest: i,
						list: 'alerts',
						added: [],
						deleted: [],
						crawled: [],
						alerts: [],
					});
				const bounded = (await control('GET', 'state')).json.churnLog;
				assert.equal(bounded.length, 1000);
				assert.equal(bounded.at(-1).afterRequest, 1004);
				assert.equal((await control('DELETE', 'churn-log')).status, 200);
				assert.equal(f.api.churnLog.length, 0);
				assert.deepEqual((await control('GET', 'state')).json.churnLog, []);
			} finally {
				await f.stop();
			}
		});
	});
});
