/** Project or Group resource: endpoints #1–#9 through the n8n engine, with the exact requests and the output items. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	CAFE,
	PROJECT,
	assertPaired,
	assertProjectLookupThen,
	assertSingleRequest,
	enc,
	projectIdOf,
	rl,
	run,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

const ALL_NAMES = [PROJECT, `${PROJECT}[sub]Blog`, `${PROJECT}[sub]Shop & Deals`, CAFE];

describe('project (engine)', () => {
	it('#1 project getMany lists every active project and group, one simplified item each', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getMany',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/active',
			query: {},
			body: null,
		});
		assert.deepEqual(items.map((item) => item.id).sort(), [...ALL_NAMES].sort());
		assertPaired(raw, 0);
		const acme = items.find((item) => item.id === PROJECT)!;
		assert.equal(acme.project_id, projectIdOf(fake, PROJECT));
		assert.equal(acme.name, PROJECT);
		assert.equal(acme.keywords, 12);
		assert.equal(acme.is_group, false);
		assert.ok(
			Array.isArray(acme.tags) && (acme.tags as unknown[]).every((tag) => typeof tag === 'string'),
		);
		assert.ok((acme.tags as string[]).includes('Running'));
		assert.equal(acme.auth_key, undefined, 'Simplified leaves the auth key out');
		const blog = items.find((item) => item.id === `${PROJECT}[sub]Blog`)!;
		assert.equal(blog.is_group, true);
	});

	it('#1 project getMany Output Raw returns the API records with their auth keys and tag counts', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getMany',
			output: 'raw',
		});
		assertSingleRequest(requests, { method: 'GET', rawPath: '/api/v2/groups/active', query: {} });
		assert.equal(items.length, 4);
		for (const item of items) {
			assert.equal(item.type, 'group');
			const attributes = item.attributes as Record<string, any>;
			assert.equal(typeof attributes.auth, 'string');
			assert.equal(attributes.name, item.id);
		}
		const acme = items.find((item) => item.id === PROJECT)!;
		const tags = (acme.attributes as Record<string, any>).tags as Array<Record<string, unknown>>;
		assert.ok(
			tags.every((tag) => typeof tag.keywords_count === 'number'),
			'#1 tags carry keywords_count',
		);
	});

	it('#1 project getMany Include filters projects only / groups only', async () => {
		const projects = await runOk(fake, {
			resource: 'project',
			operation: 'getMany',
			include: 'projects',
		});
		assertSingleRequest(projects.requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/active',
			query: {},
		});
		assert.deepEqual(projects.items.map((item) => item.id).sort(), [PROJECT, CAFE].sort());
		const groups = await runOk(fake, {
			resource: 'project',
			operation: 'getMany',
			include: 'groups',
		});
		assert.deepEqual(
			groups.items.map((item) => item.id).sort(),
			[`${PROJECT}[sub]Blog`, `${PROJECT}[sub]Shop & Deals`].sort(),
		);
	});

	it('#2 project get reads one project by name (encoded path), simplified', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(CAFE),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${enc(CAFE)}`,
			query: {},
			body: null,
		});
		assert.equal(requests[0].rawPath, '/api/v2/groups/Caf%C3%A9%20Z%C3%BCrich');
		assert.equal(items.length, 1);
		assert.equal(items[0].id, CAFE);
		assert.equal(items[0].currency_code, 'CHF');
		assert.equal(items[0].keywords, 8);
		assert.equal(items[0].is_group, false);
	});

	it('#2 project get reads a group: <project>[sub]<group> with each name encoded and [sub] literal; raw shape', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(PROJECT),
			group: rl('Shop & Deals'),
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Shop%20%26%20Deals',
			query: {},
		});
		assert.equal(items.length, 1);
		assert.equal(items[0].type, 'group');
		assert.equal(items[0].id, `${PROJECT}[sub]Shop & Deals`);
		const attributes = items[0].attributes as Record<string, any>;
		assert.equal(attributes.project_id, projectIdOf(fake, `${PROJECT}[sub]Shop & Deals`));
		assert.ok(
			attributes.tags.every((tag: Record<string, unknown>) => tag.keywords_count === undefined),
			'#2 tags carry no keywords_count',
		);
	});

	it('#2 project get selected from the list mode works like by-name', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl(PROJECT, 'list'),
			group: rl('Blog', 'list'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog',
		});
		assert.equal(items[0].id, `${PROJECT}[sub]Blog`);
		assert.equal(items[0].is_group, true);
	});

	it('#7 project create creates a project (currency upper-cased) and #2 then finds it', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'create',
			projectName: 'Engine Test Project',
			currencyCode: 'eur',
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/groups',
			query: {},
			body: {
				data: {
					type: 'project',
					attributes: { category: 'Engine Test Project', currency_code: 'EUR' },
				},
			},
		});
		assert.equal(requests[0].status, 201);
		assert.equal(items.length, 1);
		assert.equal(items[0].id, 'Engine Test Project');
		assert.equal(items[0].currency_code, 'EUR');
		assert.equal(items[0].keywords, 0);
		assert.deepEqual(items[0].tags, []);
		assert.equal(items[0].is_group, false);
		assert.equal(items[0].project_id, projectIdOf(fake, 'Engine Test Project'));

		const read = await runOk(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('Engine Test Project'),
		});
		assert.equal(read.items[0].currency_code, 'EUR');
	});

	it('#7 project create with a Group Name creates <project>[sub]<group> (raw shape)', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'create',
			projectName: 'Engine Test Project',
			groupName: 'Landing Pages',
			currencyCode: 'USD',
			output: 'raw',
		});
		assertSingleRequest(requests, {
			method: 'POST',
			rawPath: '/api/v2/groups',
			body: {
				data: {
					type: 'project',
					attributes: { category: 'Engine Test Project[sub]Landing Pages', currency_code: 'USD' },
				},
			},
		});
		assert.equal(items[0].type, 'group');
		assert.equal(items[0].id, 'Engine Test Project[sub]Landing Pages');
		const attributes = items[0].attributes as Record<string, any>;
		assert.ok(
			attributes.project_overview_settings,
			'a new record carries project_overview_settings',
		);
		const list = await runOk(fake, {
			resource: 'project',
			operation: 'getMany',
			include: 'groups',
		});
		assert.ok(list.items.some((item) => item.id === 'Engine Test Project[sub]Landing Pages'));
	});

	it('#4 project delete deletes a group, then a project; #2 then answers 404', async () => {
		const group = await runOk(fake, {
			resource: 'project',
			operation: 'delete',
			project: rl('Engine Test Project'),
			group: rl('Landing Pages'),
		});
		assertSingleRequest(group.requests, {
			method: 'DELETE',
			rawPath: '/api/v2/groups/Engine%20Test%20Project[sub]Landing%20Pages',
			query: {},
			body: null,
		});
		assert.equal(group.items.length, 1);
		assert.equal(group.items[0].deleted, true);
		assert.equal(group.items[0].project, 'Engine Test Project[sub]Landing Pages');

		const project = await runOk(fake, {
			resource: 'project',
			operation: 'delete',
			project: rl('Engine Test Project'),
		});
		assertSingleRequest(project.requests, {
			method: 'DELETE',
			rawPath: '/api/v2/groups/Engine%20Test%20Project',
			body: null,
		});
		assert.deepEqual(
			{ deleted: project.items[0].deleted, project: project.items[0].project },
			{ deleted: true, project: 'Engine Test Project' },
		);
		assert.equal(fake.api.state.findContainer('Engine Test Project'), undefined);

		const gone = await run(fake, {
			resource: 'project',
			operation: 'get',
			project: rl('Engine Test Project'),
		});
		assert.ok(gone.error, 'get after delete fails');
		assert.equal(gone.error.httpCode, '404');
		assert.equal(gone.requests[0].status, 404);
	});

	it('#3 project archive archives (PUT status 2) and the project leaves #1', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'archive',
			project: rl(CAFE),
		});
		assertSingleRequest(requests, {
			method: 'PUT',
			rawPath: `/api/v2/groups/${enc(CAFE)}`,
			query: {},
			body: { data: { type: 'group', attributes: { status: 2 } } },
		});
		assert.equal(items.length, 1);
		assert.equal(items[0].archived, true);
		assert.equal(items[0].project, CAFE);
		assert.equal(fake.api.state.findContainer(CAFE)?.archived, true);
		const list = await runOk(fake, { resource: 'project', operation: 'getMany' });
		assert.ok(!list.items.some((item) => item.id === CAFE), 'an archived project is not in #1');
	});

	it('#8 project restore restores the archived project (GET undo/archive) and it is back in #1', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'restore',
			project: rl(CAFE),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: `/api/v2/groups/${enc(CAFE)}/undo/archive`,
			query: {},
			body: null,
		});
		assert.equal(items.length, 1);
		assert.equal(items[0].restored, true);
		assert.equal(items[0].project, CAFE);
		assert.equal(fake.api.state.findContainer(CAFE)?.archived, false);
		const list = await runOk(fake, { resource: 'project', operation: 'getMany' });
		assert.ok(list.items.some((item) => item.id === CAFE));
		// Restoring again: the fake answers 422 (not archived), and the node reports it.
		const again = await run(fake, { resource: 'project', operation: 'restore', project: rl(CAFE) });
		assert.equal(again.error?.httpCode, '422');
		assert.equal(again.requests.length, 1);
	});

	it('#3 project archive of a group archives only that group', async () => {
		const archived = await runOk(fake, {
			resource: 'project',
			operation: 'archive',
			project: rl(PROJECT),
			group: rl('Blog'),
		});
		assertSingleRequest(archived.requests, {
			method: 'PUT',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog',
			body: { data: { type: 'group', attributes: { status: 2 } } },
		});
		assert.equal(archived.items[0].project, `${PROJECT}[sub]Blog`);
		const restored = await runOk(fake, {
			resource: 'project',
			operation: 'restore',
			project: rl(PROJECT),
			group: rl('Blog'),
		});
		assertSingleRequest(restored.requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog/undo/archive',
		});
		assert.equal(fake.api.state.findContainer(`${PROJECT}[sub]Blog`)?.archived, false);
	});

	it('#5 project refresh: the project picked by name, its id read from its record, posted with include_sub_groups; one refresh spent', async () => {
		const id = projectIdOf(fake, PROJECT);
		const before = fake.api.state.account.refreshes.used;
		const { items, raw, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'refresh',
			project: rl(PROJECT),
		});
		assertProjectLookupThen(requests, 'Acme%20Shoes', {
			method: 'POST',
			rawPath: '/api/v2/keywords/refresh',
			query: {},
			body: { data: { include_sub_groups: true, project_ids: [id] } },
		});
		assert.equal(items.length, 1);
		assertPaired(raw, 0);
		assert.match(
			String(items[0].message),
			/Refresh started\. \d+ on-demand refreshes remaining today\./,
		);
		assert.equal(fake.api.state.account.refreshes.used, before + 1);

		const withoutGroups = await runOk(fake, {
			resource: 'project',
			operation: 'refresh',
			project: rl(PROJECT),
			includeSubGroups: false,
		});
		assertProjectLookupThen(withoutGroups.requests, 'Acme%20Shoes', {
			method: 'POST',
			rawPath: '/api/v2/keywords/refresh',
			body: { data: { include_sub_groups: false, project_ids: [id] } },
		});
		assert.equal(fake.api.state.account.refreshes.used, before + 2);
	});

	it('#6 project getRegions returns one item per tracked region of the project', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getRegions',
			project: rl(PROJECT),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes/regions',
			query: {},
			body: null,
		});
		assert.equal(items.length, 5);
		for (const item of items)
			assert.deepEqual(Object.keys(item), ['region', 'language', 'device', 'keywords']);
		assert.equal(
			items.reduce((sum, item) => sum + (item.keywords as number), 0),
			12,
		);
		assert.ok(items.some((item) => item.region === 'google.de' && item.language === 'de'));
	});

	it('#6 project getRegions of a group', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getRegions',
			project: rl(PROJECT),
			group: rl('Blog'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes[sub]Blog/regions',
		});
		assert.equal(
			items.reduce((sum, item) => sum + (item.keywords as number), 0),
			5,
		);
	});

	it('#9 project getMetrics sends timeframe (default monthly) and returns the metrics record', async () => {
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes/metrics',
			query: { timeframe: 'monthly' },
			body: null,
		});
		assert.equal(items.length, 1);
		const metrics = items[0] as Record<string, any>;
		assert.equal(metrics.timeframe, 'monthly');
		assert.equal(metrics.total, 12);
		assert.equal(metrics.ranges.length, 5);
		const everyTimeframe = await runOk(fake, {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
			output: 'selected',
			fields: ['movements_by_timeframe'],
		});
		assert.deepEqual(Object.keys(everyTimeframe.items[0].movements_by_timeframe as object).sort(), [
			'daily',
			'life',
			'monthly',
			'semester',
			'weekly',
			'yearly',
		]);
	});

	it('#9 project getMetrics with a tag id narrows the keywords', async () => {
		const running = [...fake.api.state.findContainer(PROJECT)!.tags.values()].find(
			(tag) => tag.name === 'Running',
		)!;
		const { items, requests } = await runOk(fake, {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
			timeframe: 'weekly',
			options: { tagId: String(running.id) },
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/groups/Acme%20Shoes/metrics',
			query: { timeframe: 'weekly', tagId: String(running.id) },
		});
		const metrics = items[0] as Record<string, any>;
		assert.equal(metrics.timeframe, 'weekly');
		assert.equal(metrics.total, running.count);
		assert.ok(metrics.total < 12);
	});
});
