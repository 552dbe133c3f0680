/** Keyword resource: endpoints #10–#13, #16, #17 through the n8n engine; mutations observed through the fake. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { RECORD_CATALOGUE } from '../../nodes/shared/recordKinds';
import {
	CAFE,
	PROJECT,
	assertPaired,
	assertRequest,
	assertProjectLookupThen,
	assertSingleRequest,
	enc,
	keywordIdsOf,
	projectIdOf,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

/** The keys of a simplified keyword, from the record catalogue. */
const SIMPLIFIED_KEYWORD_KEYS = RECORD_CATALOGUE.keyword.simplified;

const KEYWORD_LIST = (name: string) => `/api/v2/groups/${name}/keywords/`;

describe('keyword (engine)', () => {
	describe('#13 getMany', () => {
		it('#13 keyword getMany with Limit 5: one request per_page=5 page=1, five simplified items in id order', async () => {
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(PROJECT),
				limit: 5,
			});
			assertSingleRequest(requests, {
				method: 'GET',
				rawPath: KEYWORD_LIST('Acme%20Shoes'),
				query: { page: '1', per_page: '5' },
				body: null,
			});
			assert.deepEqual(
				items.map((item) => item.id),
				keywordIdsOf(fake, PROJECT).slice(0, 5),
			);
			assertPaired(raw, 0);
			const first = items[0];
			assert.deepEqual(Object.keys(first).sort(), [...SIMPLIFIED_KEYWORD_KEYS].sort());
			assert.equal(first.keyword, 'running shoes');
			assert.equal(first.project, PROJECT);
			assert.equal(first.group, null);
			assert.ok(first.rank === null || typeof first.rank === 'number');
			assert.equal(first.rank_history, undefined, 'Simplified leaves the rank history out');
		});

		it('#13 keyword getMany Return All of a group (raw records), one request per_page=250', async () => {
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(PROJECT),
				group: rl('Shop & Deals'),
				returnAll: true,
				output: 'raw',
			});
			assertSingleRequest(requests, {
				method: 'GET',
				rawPath: KEYWORD_LIST('Acme%20Shoes[sub]Shop%20%26%20Deals'),
				query: { page: '1', per_page: '250' },
			});
			assert.equal(items.length, 5);
			assert.deepEqual(
				items.map((item) => item.id),
				keywordIdsOf(fake, `${PROJECT}[sub]Shop & Deals`),
			);
			for (const item of items) {
				assert.equal(item.type, 'keyword');
				const attributes = item.attributes as IDataObject;
				assert.equal(attributes.category, `${PROJECT}[sub]Shop & Deals`);
				assert.ok(Array.isArray(attributes.grankhistory));
			}
		});

		it("#13 keyword getMany with a date sends date in the query and returns that day's ranks", async () => {
			const latest = await runOk(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(CAFE),
				limit: 3,
				output: 'raw',
			});
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(CAFE),
				limit: 3,
				output: 'raw',
				options: { date: '2026-01-10' },
			});
			assertSingleRequest(requests, {
				method: 'GET',
				rawPath: KEYWORD_LIST(enc(CAFE)),
				query: { date: '2026-01-10', page: '1', per_page: '3' },
			});
			assert.equal(items.length, 3);
			const history = (latest.items[0].attributes as IDataObject).grankhistory as number[];
			const dated = items[0].attributes as IDataObject;
			// 2026-01-10 is five days before the fixed clock's day: the rank of that day is history[5] when crawled today.
			const crawled = new Date(
				((latest.items[0].attributes as IDataObject).crawled_at as number) * 1000,
			)
				.toISOString()
				.slice(0, 10);
			const offset = Math.round((Date.parse(crawled) - Date.parse('2026-01-10')) / 86_400_000);
			const expected = history[offset] || null;
			assert.equal(dated.grank, expected);
		});
	});

	describe('#11 get', () => {
		it('#11 keyword get reads one keyword (simplified)', async () => {
			const id = keywordIdsOf(fake, PROJECT)[0];
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				keywordId: id,
			});
			assertSingleRequest(requests, {
				method: 'GET',
				rawPath: `/api/v2/groups/Acme%20Shoes/keywords/${id}`,
				query: {},
				body: null,
			});
			assert.equal(items.length, 1);
			assertPaired(raw, 0);
			assert.equal(items[0].id, id);
			assert.equal(items[0].keyword, 'running shoes');
			assert.deepEqual(Object.keys(items[0]).sort(), [...SIMPLIFIED_KEYWORD_KEYS].sort());
		});

		it('#11 keyword get with a date appends &date=YYYY-MM-DD to the keyword id segment (raw shape)', async () => {
			const id = keywordIdsOf(fake, `${PROJECT}[sub]Blog`)[1];
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				group: rl('Blog'),
				keywordId: id,
				options: { date: '2026-01-12' },
				output: 'raw',
			});
			assertSingleRequest(requests, {
				method: 'GET',
				rawPath: `/api/v2/groups/Acme%20Shoes[sub]Blog/keywords/${id}&date=2026-01-12`,
				query: {},
			});
			assert.equal(requests[0].rawQuery, '', 'the date is on the path, not in the query');
			assert.equal(items[0].type, 'keyword');
			assert.equal(items[0].id, id);
			const attributes = items[0].attributes as IDataObject;
			assert.ok(attributes.serp_features, 'single retrieval attributes');
			assert.equal(typeof attributes.currency_symbol, 'string');
		});

		it('#11 keyword get of a keyword id that does not exist reports the API 404', async () => {
			const outcome = await run(fake, {
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				keywordId: '999999',
			});
			assert.equal(outcome.requests.length, 1);
			assert.equal(outcome.error?.httpCode, '404');
		});
	});

	describe('#10 add', () => {
		it('#10 keyword add adds one keyword with the default attributes; #13 then lists it', async () => {
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords: ['engine test keyword'],
				url: 'acmeshoes.com',
			});
			assertSingleRequest(requests, {
				method: 'POST',
				rawPath: '/api/v2/groups/Acme%20Shoes/keywords',
				query: {},
				body: {
					data: [
						{
							type: 'keyword',
							attributes: {
								category: PROJECT,
								url: 'acmeshoes.com',
								region: 'google.com',
								language: 'en',
								type: 'se',
								source: 1,
								kw: 'engine test keyword',
							},
						},
					],
				},
			});
			assert.equal(requests[0].status, 201);
			assert.equal(items.length, 1);
			assertPaired(raw, 0);
			assert.equal(items[0].added, 1);
			assert.equal(items[0].duplicates, 0);
			assert.equal(items[0].requested, 1);
			assert.equal(items[0].title, '1 keyword added');
			const keywords = items[0].keywords as IDataObject[];
			assert.equal(keywords.length, 1);
			assert.equal(keywords[0].keyword, 'engine test keyword');
			assert.equal(keywords[0].project, PROJECT);

			const list = await runOk(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(PROJECT),
				returnAll: true,
			});
			const found = list.items.find((item) => item.keyword === 'engine test keyword');
			assert.ok(found, 'the added keyword is listed');
			assert.equal(found.id, keywords[0].id);
		});

		it('#10 keyword add sends many keywords of one item in one request with the extra fields, and surfaces duplicates', async () => {
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				group: rl('Blog'),
				keywords: ['trail tips', 'running shoes', 'trail tips', 'marathon training plan'],
				url: 'https://acmeshoes.com/blog/',
				region: 'google.co.uk',
				language: 'en',
				device: 'sem',
				additionalFields: {
					tags: 'Guides, New',
					near: 'London',
					ignore_local: true,
					url_tracking_method: 'Exact',
					gmb: 'Acme',
				},
				output: 'selected',
				fields: ['keyword', 'device', 'region', 'tags', 'exact_url', 'location'],
			});
			assert.equal(requests.length, 1);
			const base = {
				category: `${PROJECT}[sub]Blog`,
				url: 'https://acmeshoes.com/blog/',
				region: 'google.co.uk',
				language: 'en',
				type: 'sem',
				source: 1,
				tags: ['Guides', 'New'],
				near: 'London',
				ignore_local: true,
				url_tracking_method: 'Exact',
				gmb: 'Acme',
			};
			assertRequest(requests[0], {
				method: 'POST',
				rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog/keywords',
				body: {
					data: ['trail tips', 'running shoes', 'trail tips', 'marathon training plan'].map(
						(kw) => ({
							type: 'keyword',
							attributes: { ...base, kw },
						}),
					),
				},
			});
			assert.equal(items.length, 1);
			assert.equal(items[0].added, 3);
			assert.equal(items[0].duplicates, 1);
			assert.equal(items[0].requested, 4);
			assert.equal(items[0].title, '3 keywords added');
			const keywords = items[0].keywords as IDataObject[];
			assert.deepEqual(
				keywords.map((keyword) => keyword.keyword),
				['trail tips', 'running shoes', 'marathon training plan'],
			);
			assert.ok(
				keywords.every(
					(keyword) =>
						keyword.device === 'mobile' &&
						keyword.region === 'google.co.uk' &&
						keyword.exact_url === true &&
						keyword.location === 'London',
				),
			);
			assert.deepEqual(keywords[0].tags, ['Guides', 'New']);
		});

		it('#10 keyword add of a keyword that exists already counts a duplicate, adds nothing', async () => {
			const before = keywordIdsOf(fake, PROJECT).length;
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords: ['running shoes'],
				url: 'acmeshoes.com',
			});
			assert.equal(requests.length, 1);
			assert.deepEqual(
				{ added: items[0].added, duplicates: items[0].duplicates },
				{ added: 0, duplicates: 1 },
			);
			assert.deepEqual(items[0].keywords, []);
			assert.equal(keywordIdsOf(fake, PROJECT).length, before);
		});

		it('#10 keyword add with comma-separated text from an expression, one summary item per input item', async () => {
			const { items, raw, requests } = await runOk(
				fake,
				{
					resource: 'keyword',
					operation: 'add',
					project: rl(CAFE),
					keywords: '={{ $json.kws }}',
					url: 'cafe-zuerich.ch',
					region: 'google.ch',
					language: 'de',
				},
				{
					items: [
						{ json: { kws: 'espresso zürich, latte art kurs' } },
						{ json: { kws: ['cold brew zürich'] } },
					],
				},
			);
			assert.equal(requests.length, 2);
			const kwsOf = (index: number) =>
				(requests[index].body as { data: Array<{ attributes: IDataObject }> }).data.map(
					(entry) => entry.attributes.kw,
				);
			assert.deepEqual(kwsOf(0), ['espresso zürich', 'latte art kurs']);
			assert.deepEqual(kwsOf(1), ['cold brew zürich']);
			for (const request of requests)
				assertRequest(request, { method: 'POST', rawPath: `/api/v2/groups/${enc(CAFE)}/keywords` });
			assert.equal(items.length, 2);
			assert.equal(items[0].added, 2);
			assert.equal(items[1].added, 1);
			assert.deepEqual(
				raw.map((item) => (item.pairedItem as { item: number }).item),
				[0, 1],
			);
		});

		it('#10 keyword add with Chunk Size 2 sends 5 keywords in 3 requests and adds up the counts', async () => {
			const keywords = ['chunk a', 'chunk b', 'chunk c', 'chunk d', 'chunk e'];
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords,
				url: 'acmeshoes.com',
				options: { chunkSize: 2 },
			});
			assert.equal(requests.length, 3);
			assert.deepEqual(
				requests.map((request) =>
					(request.body as { data: Array<{ attributes: IDataObject }> }).data.map(
						(entry) => entry.attributes.kw,
					),
				),
				[['chunk a', 'chunk b'], ['chunk c', 'chunk d'], ['chunk e']],
			);
			for (const request of requests)
				assertRequest(request, { method: 'POST', rawPath: '/api/v2/groups/Acme%20Shoes/keywords' });
			assert.equal(items.length, 1);
			assert.equal(items[0].added, 5);
			assert.equal(items[0].requested, 5);
			assert.equal((items[0].keywords as unknown[]).length, 5);
		});

		it('#10 keyword add Output Raw keeps the API records', async () => {
			const { items } = await runOk(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords: ['raw shape keyword'],
				url: 'acmeshoes.com',
				output: 'raw',
			});
			const keywords = items[0].keywords as IDataObject[];
			assert.equal(keywords[0].type, 'keyword');
			const attributes = keywords[0].attributes as IDataObject;
			assert.equal(attributes.kw, 'raw shape keyword');
			assert.equal(attributes.url_tracking_method, 'broad');
		});
	});

	describe('#16 updateMany', () => {
		it('#16 keyword updateMany PATCHes the ids and attributes; #11 then shows the change', async () => {
			const projectId = projectIdOf(fake, PROJECT);
			const [a, b] = keywordIdsOf(fake, PROJECT).slice(1, 3);
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'updateMany',
				project: rl(PROJECT),
				keywordIds: [a, b],
				updateFields: {
					notes: ' checked by n8n ',
					isfav: true,
					tagsSplited: 'Priority, Brand',
					type: 'sem',
				},
			});
			assertProjectLookupThen(requests, 'Acme%20Shoes', {
				method: 'PATCH',
				rawPath: `/api/v2/projects/${projectId}/keywords`,
				query: {},
				body: {
					data: {
						ids: [a, b],
						type: 'keyword',
						attributes: {
							notes: 'checked by n8n',
							isfav: true,
							tagsSplited: ['Priority', 'Brand'],
							type: 'sem',
						},
					},
				},
			});
			assert.equal(items.length, 1);
			assertPaired(raw, 0);
			assert.equal(items[0].updated, true);
			assert.deepEqual(items[0].keyword_ids, [a, b]);

			for (const id of [a, b]) {
				const read = await runOk(fake, {
					resource: 'keyword',
					operation: 'get',
					project: rl(PROJECT),
					keywordId: id,
					output: 'selected',
					fields: ['notes', 'favourite', 'device', 'tags'],
				});
				assert.equal(read.items[0].notes, 'checked by n8n');
				assert.equal(read.items[0].favourite, true);
				assert.equal(read.items[0].device, 'mobile');
				assert.deepEqual([...(read.items[0].tags as string[])].sort(), ['Brand', 'Priority']);
			}
		});

		it('#16 keyword updateMany with ids as a list from an expression and extra JSON attributes', async () => {
			const projectId = projectIdOf(fake, CAFE);
			const ids = keywordIdsOf(fake, CAFE).slice(0, 3);
			const { items, requests } = await runOk(
				fake,
				{
					resource: 'keyword',
					operation: 'updateMany',
					project: rl(CAFE),
					keywordIds: '={{ $json.ids }}',
					updateFields: { json: '{"ignore_featured": true, "notes": "Überprüft"}' },
				},
				{ items: [{ json: { ids: ids.map(Number) } }] },
			);
			assertProjectLookupThen(requests, 'Caf%C3%A9%20Z%C3%BCrich', {
				method: 'PATCH',
				rawPath: `/api/v2/projects/${projectId}/keywords`,
				body: {
					data: { ids, type: 'keyword', attributes: { ignore_featured: true, notes: 'Überprüft' } },
				},
			});
			assert.deepEqual(items[0].keyword_ids, ids);
			const read = await runOk(fake, {
				resource: 'keyword',
				operation: 'get',
				project: rl(CAFE),
				keywordId: ids[2],
				output: 'raw',
			});
			const attributes = read.items[0].attributes as IDataObject;
			assert.equal(attributes.notes, 'Überprüft');
			assert.equal(attributes.ignore_featured, true);
		});
	});

	describe('#12 and #17 delete', () => {
		it('#12 keyword delete deletes one keyword: {deleted: true, ...}; #11 then 404s', async () => {
			const id = keywordIdsOf(fake, PROJECT)[4];
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'delete',
				project: rl(PROJECT),
				keywordId: id,
			});
			assertSingleRequest(requests, {
				method: 'DELETE',
				rawPath: `/api/v2/groups/Acme%20Shoes/keywords/${id}`,
				query: {},
				body: null,
			});
			assert.equal(items.length, 1);
			assertPaired(raw, 0);
			assert.equal(items[0].deleted, true);
			assert.equal(items[0].keyword_id, id);
			assert.equal(items[0].project, PROJECT);
			assert.ok(!keywordIdsOf(fake, PROJECT).includes(id));
			const gone = await run(fake, {
				resource: 'keyword',
				operation: 'get',
				project: rl(PROJECT),
				keywordId: id,
			});
			assert.equal(gone.error?.httpCode, '404');
		});

		it('#12 keyword delete in a group with the &date= suffix on the id segment', async () => {
			const id = keywordIdsOf(fake, `${PROJECT}[sub]Shop & Deals`)[0];
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'delete',
				project: rl(PROJECT),
				group: rl('Shop & Deals'),
				keywordId: id,
				options: { date: '2026-01-14' },
			});
			assertSingleRequest(requests, {
				method: 'DELETE',
				rawPath: `/api/v2/groups/Acme%20Shoes[sub]Shop%20%26%20Deals/keywords/${id}&date=2026-01-14`,
				query: {},
			});
			assert.deepEqual(
				{ deleted: items[0].deleted, keyword_id: items[0].keyword_id, project: items[0].project },
				{ deleted: true, keyword_id: id, project: `${PROJECT}[sub]Shop & Deals` },
			);
			assert.ok(!keywordIdsOf(fake, `${PROJECT}[sub]Shop & Deals`).includes(id));
		});

		it('#17 keyword deleteMany deletes the ids given: {deleted: true, count, keyword_ids}; they are gone', async () => {
			const projectId = projectIdOf(fake, PROJECT);
			const ids = keywordIdsOf(fake, PROJECT).slice(-2);
			const { items, raw, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'deleteMany',
				project: rl(PROJECT),
				keywordIds: ids,
			});
			assertProjectLookupThen(requests, 'Acme%20Shoes', {
				method: 'DELETE',
				rawPath: `/api/v2/projects/${projectId}/keywords`,
				query: {},
				body: { data: { type: 'keyword', ids } },
			});
			assert.equal(items.length, 1);
			assertPaired(raw, 0);
			assert.equal(items[0].deleted, true);
			assert.equal(items[0].count, 2);
			assert.deepEqual(items[0].keyword_ids, ids);
			for (const id of ids) {
				assert.ok(!keywordIdsOf(fake, PROJECT).includes(id));
				const gone = await run(fake, {
					resource: 'keyword',
					operation: 'get',
					project: rl(PROJECT),
					keywordId: id,
				});
				assert.equal(gone.error?.httpCode, '404');
			}
		});

		it('#17 keyword deleteMany of a group keyword, the group picked: its own project id', async () => {
			const projectId = projectIdOf(fake, `${PROJECT}[sub]Blog`);
			const id = keywordIdsOf(fake, `${PROJECT}[sub]Blog`)[0];
			const { items, requests } = await runOk(fake, {
				resource: 'keyword',
				operation: 'deleteMany',
				project: rl(PROJECT),
				group: rl('Blog'),
				keywordIds: [id],
			});
			assertProjectLookupThen(requests, 'Acme%20Shoes[sub]Blog', {
				method: 'DELETE',
				rawPath: `/api/v2/projects/${projectId}/keywords`,
				body: { data: { type: 'keyword', ids: [id] } },
			});
			assert.equal(items[0].count, 1);
			assert.ok(!keywordIdsOf(fake, `${PROJECT}[sub]Blog`).includes(id));
		});
	});
});
