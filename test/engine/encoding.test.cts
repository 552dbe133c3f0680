/**
 * Awkward names through the engine: spaces, `[`, `]`, `&`, `/`, `#`, `?`, `%`, `+` and non-ASCII letters. In paths the
 * project and the group are each encoded with encodeURIComponent and the `[sub]` separator stays literal; in bodies
 * names and keywords go exactly as typed. The fake must resolve the right records.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	assertRequest,
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

const P = 'Ünïcode & Co / 50% [x] #1 +?';
const G = 'Sub / Gröup & [y] 100%+';
const FULL = `${P}[sub]${G}`;
/** Written out by hand, so a mistake in `enc` cannot hide one in the node. */
const P_ENCODED = '%C3%9Cn%C3%AFcode%20%26%20Co%20%2F%2050%25%20%5Bx%5D%20%231%20%2B%3F';
const G_ENCODED = 'Sub%20%2F%20Gr%C3%B6up%20%26%20%5By%5D%20100%25%2B';
const KW = 'café & crème / 100% [best] #1 +? ünïcode';

let keywordId = '';

describe('encoding of awkward names (engine)', () => {
	it('the hand-written encodings match encodeURIComponent', () => {
		assert.equal(enc(P), P_ENCODED);
		assert.equal(enc(G), G_ENCODED);
	});

	it('#7 project create sends the awkward project name exactly as typed in the body', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'create',
			projectName: P,
			currencyCode: 'CHF',
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/groups',
			body: { data: { type: 'project', attributes: { category: P, currency_code: 'CHF' } } },
		});
		assert.equal(JSON.parse(requests[0].bodyText).data.attributes.category, P);
		assert.equal(items[0].id, P);
		assert.ok(fake.api.state.findContainer(P), 'the fake created the project under its exact name');
	});

	it('#7 project create of the awkward group sends <project>[sub]<group> as typed', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'create',
			projectName: P,
			groupName: G,
			currencyCode: 'USD',
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/groups',
			body: { data: { type: 'project', attributes: { category: FULL, currency_code: 'USD' } } },
		});
		assert.equal(items[0].id, FULL);
		assert.equal(items[0].is_group, true);
		const group = fake.api.state.findContainer(FULL);
		assert.ok(group, 'the fake created the group');
		assert.equal(group.parent?.name, P);
	});

	it('#2 project get encodes the project name in the path', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(P),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}`,
			query: {},
		});
		assert.equal(
			requests[0].rawQuery,
			'',
			'no part of the name leaked into the query (? and # encoded)',
		);
		assert.equal(requests[0].path, `/api/v2/groups/${P}`);
		assert.equal(items[0].id, P);
		assert.equal(items[0].project_id, projectIdOf(fake, P));
	});

	it('#2 project get of the group: each name encoded, [sub] literal', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}`,
			query: {},
		});
		assert.equal(items[0].id, FULL);
		assert.equal(items[0].project_id, projectIdOf(fake, FULL));
	});

	it('#10 keyword add to the awkward group: encoded path, keyword and category as typed in the body', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'add',
			project: rl(P),
			group: rl(G),
			keywords: [KW, 'zweites wort'],
			url: 'https://example.ch/ä/',
			additionalFields: { tags: 'Tag & [z], 100%' },
		});
		assert.equal(requests.length, 1);
		assertRequest(requests[0], {
			method: 'POST',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}/keywords`,
			query: {},
		});
		const data = (requests[0].body as { data: Array<{ attributes: IDataObject }> }).data;
		assert.deepEqual(
			data.map((entry) => entry.attributes.kw),
			[KW, 'zweites wort'],
		);
		assert.ok(
			data.every(
				(entry) =>
					entry.attributes.category === FULL && entry.attributes.url === 'https://example.ch/ä/',
			),
		);
		assert.deepEqual(data[0].attributes.tags, ['Tag & [z]', '100%']);
		assert.ok(
			requests[0].bodyText.includes(JSON.stringify(KW)),
			'the raw body carries the keyword unescaped',
		);
		assert.equal(items[0].added, 2);
		const added = (items[0].keywords as IDataObject[])[0];
		assert.equal(added.keyword, KW);
		assert.deepEqual([added.project, added.group], [P, G]);
		keywordId = String(added.id);
		assert.deepEqual(keywordIdsOf(fake, FULL), [
			keywordId,
			String((items[0].keywords as IDataObject[])[1].id),
		]);
		assert.equal(keywordIdsOf(fake, P).length, 0, 'nothing landed in the parent project');
	});

	it('#13 keyword getMany on the awkward group lists the keyword exactly as typed', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(P),
			group: rl(G),
			returnAll: true,
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}/keywords/`,
			query: { page: '1', per_page: '250' },
		});
		assert.equal(items.length, 2);
		assert.equal(items[0].keyword, KW);
		assert.deepEqual([items[0].project, items[0].group], [P, G]);
		const tagged = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(P),
			group: rl(G),
			returnAll: true,
			output: 'selected',
			fields: ['tags'],
		});
		assert.deepEqual(tagged.items[0].tags, ['Tag & [z]', '100%']);
	});

	it('#11 keyword get on the awkward group, with the &date= suffix', async () => {
		const plain = await runOk(fake, {
			resource: 'keyword',
			operation: 'get',
			project: rl(P),
			group: rl(G),
			keywordId,
		});
		assertSingleRequest(plain.requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}/keywords/${keywordId}`,
		});
		assert.equal(plain.items[0].keyword, KW);
		const dated = await runOk(fake, {
			resource: 'keyword',
			operation: 'get',
			project: rl(P),
			group: rl(G),
			keywordId,
			options: { date: '2026-01-15' },
		});
		assertSingleRequest(dated.requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}/keywords/${keywordId}&date=2026-01-15`,
			query: {},
		});
		assert.equal(dated.items[0].id, keywordId);
	});

	it('#6 #9 #18 #21 #2(tags) reads on the awkward group all reach the right container', async () => {
		const base = `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}`;
		const regions = await runOk(fake, {
			resource: 'project',
			operation: 'getRegions',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(regions.requests, { method: 'GET', rawPath: `${base}/regions` });
		assert.deepEqual(regions.items, [
			{ region: 'google.com', language: 'en', device: 'desktop', keywords: 2 },
		]);

		const metrics = await runOk(fake, {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(metrics.requests, {
			method: 'GET',
			rawPath: `${base}/metrics`,
			query: { timeframe: 'monthly' },
		});
		assert.equal(metrics.items[0].total, 2);
		assert.equal(metrics.items[0].id, String(projectIdOf(fake, FULL)));

		const sov = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getLatest',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(sov.requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/${P_ENCODED}[sub]${G_ENCODED}/mindshare/latest`,
		});

		const pages = await runOk(fake, {
			resource: 'topPage',
			operation: 'getMany',
			project: rl(P),
			group: rl(G),
			returnAll: true,
		});
		assertSingleRequest(pages.requests, {
			method: 'GET',
			rawPath: `${base}/keywords/ranking-urls`,
			query: { page: '1', per_page: '250' },
		});
		assert.equal(pages.items.length, 0, 'keywords added over HTTP have no ranks yet');

		const tags = await runOk(fake, {
			resource: 'tag',
			operation: 'getMany',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(tags.requests, { method: 'GET', rawPath: base });
		assert.deepEqual(tags.items.map((tag) => tag.name).sort(), ['100%', 'Tag & [z]']);
	});

	it('#15 competitor getHistory on the awkward group encodes the metrics path', async () => {
		fake.api.simulateRankUpdate({ category: FULL });
		const { items, requests } = await runOk(fake, {
			resource: 'competitor',
			operation: 'getHistory',
			project: rl(P),
			group: rl(G),
			keywordId,
			startDate: '2026-01-15',
			endDate: '2026-01-15',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/${P_ENCODED}[sub]${G_ENCODED}/competitors/${keywordId}/history`,
			query: { dateRange: '2026-01-15.2026-01-15' },
		});
		assert.ok(items.length <= 1);
	});

	it('#12 keyword delete on the awkward group removes the keyword from that group', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'keyword',
			operation: 'delete',
			project: rl(P),
			group: rl(G),
			keywordId,
		});
		assertSingleRequest(requests, {
			method: 'DELETE',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}/keywords/${keywordId}`,
		});
		assert.equal(items[0].deleted, true);
		assert.equal(items[0].project, FULL);
		assert.ok(!keywordIdsOf(fake, FULL).includes(keywordId));
	});

	it('#3 #8 archive and restore of the awkward project', async () => {
		const archived = await runOk(fake, {
			resource: 'project',
			operation: 'archive',
			project: rl(P),
		});
		assertSingleRequest(archived.requests, {
			method: 'PUT',
			rawPath: `/api/v2/groups/${P_ENCODED}`,
			body: { data: { type: 'group', attributes: { status: 2 } } },
		});
		assert.equal(fake.api.state.findContainer(P)?.archived, true);
		const restored = await runOk(fake, {
			resource: 'project',
			operation: 'restore',
			project: rl(P),
		});
		assertSingleRequest(restored.requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${P_ENCODED}/undo/archive`,
		});
		assert.equal(fake.api.state.findContainer(P)?.archived, false);
	});

	it('#4 project delete of the awkward group then project; the project is gone', async () => {
		const group = await runOk(fake, {
			resource: 'project',
			operation: 'delete',
			project: rl(P),
			group: rl(G),
		});
		assertSingleRequest(group.requests, {
			method: 'DELETE',
			rawPath: `/api/v2/groups/${P_ENCODED}[sub]${G_ENCODED}`,
		});
		assert.equal(fake.api.state.findContainer(FULL), undefined);
		assert.ok(fake.api.state.findContainer(P), 'deleting the group keeps the project');
		const project = await runOk(fake, { resource: 'project', operation: 'delete', project: rl(P) });
		assertSingleRequest(project.requests, {
			method: 'DELETE',
			rawPath: `/api/v2/groups/${P_ENCODED}`,
		});
		assert.equal(project.items[0].project, P);
		assert.equal(fake.api.state.findContainer(P), undefined);
		const gone = await run(fake, { resource: 'project', operation: 'get', project: rl(P) });
		assert.equal(gone.error?.httpCode, '404');
	});

	it('#2 a group name that is a prefix-lookalike ("Shop & Deals" vs "Shop") resolves exactly', async () => {
		const shop = await runOk(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl('Acme Shoes'),
			group: rl('Shop & Deals'),
			returnAll: true,
		});
		assertSingleRequest(shop.requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Shop%20%26%20Deals/keywords/',
			query: { page: '1', per_page: '250' },
		});
		assert.equal(shop.items.length, 5);
		const missing = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('Acme Shoes'),
			group: rl('Shop'),
		});
		assert.equal(missing.requests[0].rawPath, '/api/v2/groups/Acme%20Shoes[sub]Shop');
		assert.equal(missing.error?.httpCode, '404');
	});
});
