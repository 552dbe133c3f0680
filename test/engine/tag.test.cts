/** Tag resource: read from the project record (#2), one item per tag. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	CAFE,
	PROJECT,
	assertPaired,
	assertSingleRequest,
	enc,
	projectIdOf,
	rl,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

describe('tag (engine)', () => {
	it('#2 tag getMany returns one item per tag of the project, read from GET /groups/{project}', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'tag',
			operation: 'getMany',
			project: rl(PROJECT),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes',
			query: {},
			body: null,
		});
		const expected = [...fake.api.state.findContainer(PROJECT)!.tags.values()].filter(
			(tag) => tag.count > 0,
		);
		assert.equal(items.length, expected.length);
		assert.equal(items.length, 7);
		assert.deepEqual(
			items.map((item) => item.name),
			expected.map((tag) => tag.name),
		);
		for (const item of items) {
			assert.equal(typeof item.id, 'number');
			assert.equal(item.project_id, projectIdOf(fake, PROJECT));
			assert.match(String(item.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
		}
		assertPaired(raw, 0);
	});

	it("#2 tag getMany of a group lists the group's own tags", async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'tag',
			operation: 'getMany',
			project: rl(PROJECT),
			group: rl('Blog'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog',
			query: {},
		});
		assert.deepEqual(items.map((item) => item.name).sort(), ['Guides', 'Long tail']);
		for (const item of items)
			assert.equal(item.project_id, projectIdOf(fake, `${PROJECT}[sub]Blog`));
	});

	it('#2 tag getMany with a non-ASCII project name', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'tag',
			operation: 'getMany',
			project: rl(CAFE),
		});
		assertSingleRequest(requests, { method: 'GET', rawPath: `/api/v2/groups/${enc(CAFE)}` });
		assert.deepEqual(items.map((item) => item.name).sort(), ['Karte', 'Lokal', 'Marke', 'Top']);
	});

	it('#2 tag getMany of a project without keywords gives no items', async () => {
		fake.api.addProject('Empty Tags Project');
		const { items, requests } = await runOk(fake, {
			resource: 'tag',
			operation: 'getMany',
			project: rl('Empty Tags Project'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Empty%20Tags%20Project',
		});
		assert.equal(items.length, 0);
	});
});
