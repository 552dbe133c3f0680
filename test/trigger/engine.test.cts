/**
 * The trigger's poll() run through n8n-core's PollContext (test/harness) against the fake API over HTTP, on the fake's
 * clock (its Date header follows it). A Keyword Updated poll comes AFTER_CRAWL_MS after what it is to report (./clock.ts);
 * a crawl in the second of a poll is covered by plan.test.cts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import {
	clearCapturedLogs,
	getCapturedLogs,
	runPoll,
	type RunPollResult,
} from '../harness/index.cjs';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { AFTER_CRAWL_MS } from './clock.cjs';

interface Fixture {
	api: FakeKeywordApi;
	tick(seconds?: number): void;
	poll(
		parameters: IDataObject,
		staticData?: IDataObject,
		mode?: 'trigger' | 'manual',
	): Promise<RunPollResult>;
	items(result: RunPollResult): IDataObject[];
	paths(): string[];
}

async function fixture(seed: 'demo' | 'empty' = 'demo'): Promise<Fixture> {
	let clock = Date.now() - 10 * 60_000;
	const api = new FakeKeywordApi({ seed, now: () => clock, dateFromClock: true });
	await api.start();
	const nodeType = new KeywordComTrigger();
	return {
		api,
		tick: (seconds = 1) => {
			clock += seconds * 1000;
		},
		poll: async (parameters, staticData, mode = 'trigger') => {
			if (parameters.event === 'keywordUpdated' && staticData) clock += AFTER_CRAWL_MS;
			api.clearRequests();
			return await runPoll({
				nodeType,
				typeVersion: 1,
				parameters: parameters as INodeParameters,
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
				staticData,
				mode,
			});
		},
		items: (result) => {
			assert.equal(result.error, undefined, result.error?.message);
			return (result.items?.[0] ?? []).map((item) => item.json);
		},
		paths: () =>
			api.requests.map((r) => `${r.path}${r.query.page ? `#${String(r.query.page)}` : ''}`),
	};
}

/** What a restarted n8n reads back: the static data as JSON. */
const restart = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

const ALERTS = { event: 'newAlert' };
const KEYWORDS = { event: 'keywordUpdated' };

describe('New Alert through n8n', () => {
	let f: Fixture;
	before(async () => {
		f = await fixture();
	});
	after(async () => await f.api.stop());

	let state: IDataObject = {};

	it('first activation emits nothing, with one request, and records where "now" is', async () => {
		const activation = await f.poll(ALERTS);
		assert.equal(activation.items, null);
		assert.deepEqual(f.paths(), ['/api/v2/alerts#1']);
		assert.deepEqual(f.api.requests[0].query, {
			sort_field: 'created_at',
			sort_direction: 'desc',
			per_page: '250',
			page: '1',
		});
		// n8n saves static data after activation (the activator does, even for a null poll).
		state = restart(activation.staticData);
		assert.equal(state.e, 'newAlert');
		const idle = await f.poll(ALERTS, state);
		assert.equal(idle.items, null);
		assert.equal(f.api.requests.length, 1);
	});

	it('600 new alerts (one second): exactly 600 items, oldest first, then nothing', async () => {
		f.tick();
		const added = f.api.addAlerts(600).map((a) => String(a.id));
		const poll = await f.poll(ALERTS, state);
		const items = f.items(poll);
		assert.deepEqual(
			items.map((i) => String(i.id)),
			added,
		);
		// Newest first: page 1 shows how far the floor moved, then the pages from the floor up are read, each overlapping
		// the one before (so an alert arriving meanwhile cannot shift another out of sight): ⌈600/250⌉ + 1 requests.
		const paths = f.paths();
		assert.ok(
			paths.every((p) => p.startsWith('/api/v2/alerts#')),
			JSON.stringify(paths),
		);
		assert.ok(paths.length <= 4, JSON.stringify(paths));
		state = restart(poll.persistedStaticData);
		assert.ok(JSON.stringify(state).length < 4000);
		const idle = await f.poll(ALERTS, state);
		assert.equal(idle.items, null);
		assert.equal(f.api.requests.length, 1);
	});

	it('alerts sharing one timestamp across polls, and a late one stamped a little earlier', async () => {
		// Past the lookback window of the 600-alert burst (a window holding more than 200 alerts catches no late ones).
		f.tick(400);
		const shared = f.api.addAlerts(2);
		const stamp = (shared[0].attributes as IDataObject).created_at as number;
		const a = await f.poll(ALERTS, state);
		assert.deepEqual(
			f.items(a).map((i) => String(i.id)),
			shared.map((x) => String(x.id)),
		);
		state = restart(a.persistedStaticData);
		const more = f.api.addAlerts(2, { createdAt: stamp }).map((x) => String(x.id)); // the same second
		const late = f.api.addAlerts(1, { createdAt: stamp - 60 }).map((x) => String(x.id)); // arrives late
		const b = await f.poll(ALERTS, state);
		assert.deepEqual(
			f.items(b).map((i) => String(i.id)),
			[...late, ...more],
		); // oldest first
		state = restart(b.persistedStaticData);
		assert.equal((await f.poll(ALERTS, state)).items, null);
	});

	for (const fault of [
		{ kind: 'status' as const, status: 500 },
		{ kind: 'status' as const, status: 429, retryAfter: '0' },
		{ kind: 'drop' as const },
		{ kind: 'truncated' as const },
		{ kind: 'non-json' as const },
	]) {
		// Newest first, 520 new alerts: request 1 (page 1) finds how far the floor moved, request 2 reads the oldest new
		// alerts. A failure from request 2 on leaves nothing read: the poll fails and changes nothing. A failure from
		// request 3 on comes after the oldest alerts were read: they are emitted, and the next poll goes on after them.
		for (const { from, partial } of [
			{ from: 2, partial: false },
			{ from: 3, partial: true },
		]) {
			const label = `${fault.kind}${fault.status ? ` ${fault.status}` : ''}`;
			it(`a ${label} on every request from the ${from === 2 ? '2nd' : '3rd'} on: ${partial ? 'the alerts read before it are emitted, oldest first' : 'the poll fails and changes nothing'}; the next poll emits the rest, each alert once`, async () => {
				f.tick();
				const added = f.api.addAlerts(520).map((a) => String(a.id));
				let seen = 0;
				// Fault every request (and every retry) from the `from`-th on.
				const fromNth = { test: () => ++seen >= from } as unknown as RegExp;
				f.api.injectFault({ path: fromNth, times: 1000, ...fault });
				const failed = await f.poll(ALERTS, state);
				f.api.clearFaults();
				let emitted: string[] = [];
				if (!partial) {
					assert.ok(failed.error, 'the poll threw');
					assert.ok(!failed.error.message.includes(f.api.token));
					assert.deepEqual(failed.staticData, state, 'static data untouched');
					assert.deepEqual(failed.persistedStaticData, state);
				} else {
					emitted = f.items(failed).map((i) => String(i.id));
					assert.ok(
						emitted.length > 0 && emitted.length < added.length,
						`partial: ${emitted.length}`,
					);
					assert.deepEqual(emitted, added.slice(0, emitted.length), 'the oldest part, in order');
				}
				const retry = await f.poll(ALERTS, restart(failed.persistedStaticData));
				const rest = f.items(retry).map((i) => String(i.id));
				assert.deepEqual([...emitted, ...rest], added, 'every alert once, oldest first');
				state = restart(retry.persistedStaticData);
				assert.equal((await f.poll(ALERTS, state)).items, null);
			});
		}
	}

	it('a single transient failure is retried within the poll', async () => {
		f.tick();
		const added = f.api.addAlerts(300).map((a) => String(a.id));
		f.api.injectFault({ path: '/api/v2/alerts', times: 1, kind: 'drop' });
		const poll = await f.poll(ALERTS, state);
		assert.deepEqual(
			f.items(poll).map((i) => String(i.id)),
			added,
		);
		state = restart(poll.persistedStaticData);
	});

	it('project filter, Output Simplified, and no token in what is emitted', async () => {
		f.tick();
		f.api.addAlerts(2, { category: 'Café Zürich' });
		const blog = f.api.addAlerts(2, { category: 'Acme Shoes[sub]Blog' }).map((a) => String(a.id));
		const scoped = {
			...ALERTS,
			project: { mode: 'name', value: 'Acme Shoes' },
			group: { mode: 'name', value: 'Blog' },
		};
		const poll = await f.poll(scoped, state);
		const items = f.items(poll);
		assert.deepEqual(
			items.map((i) => String(i.id)),
			blog,
		);
		assert.equal(items[0].project, 'Acme Shoes');
		assert.equal(items[0].group, 'Blog');
		assert.equal(typeof items[0].change, 'number');
		assert.ok(!JSON.stringify(poll.items).includes(f.api.token));
		state = restart(poll.persistedStaticData);
		// The Café alerts were consumed by that poll's bookkeeping: an unfiltered poll does not bring them back.
		assert.equal((await f.poll(ALERTS, state)).items, null);
		f.tick();
		f.api.addAlerts(1);
		const raw = await f.poll({ ...ALERTS, output: 'raw' }, state);
		const [record] = f.items(raw);
		assert.equal(record.type, 'alert');
		assert.ok((record.attributes as IDataObject).created_at);
		state = restart(raw.persistedStaticData);
	});

	it('manual run ("Fetch Test Event") returns the latest alerts and moves no cursor', async () => {
		const manual = await f.poll(ALERTS, state, 'manual');
		const items = f.items(manual);
		assert.ok(items.length >= 1 && items.length <= 5);
		assert.equal(manual.staticDataChanged, false);
		assert.deepEqual(manual.staticData, state);
		const empty = await fixture('empty');
		try {
			const none = await empty.poll(ALERTS, {}, 'manual');
			assert.match(String(none.error?.message), /No alert yet/);
		} finally {
			await empty.api.stop();
		}
	});
});

describe('New Alert on an account with no alert yet at activation', () => {
	// The activation poll finds an empty list: no order to see, no alert to place the cursor on. Whatever order the API
	// serves later, the alerts that come after are emitted, once. (Newest first once emitted nothing here, for good.)
	for (const alertOrder of ['as-asked', 'newest-first', 'oldest-first'] as const) {
		it(`${alertOrder}: 1 alert, then 700, then 1: each once, oldest first`, async () => {
			const f = await fixture('empty');
			try {
				f.api.setBehaviour({ alertOrder });
				const activation = await f.poll(ALERTS);
				assert.equal(activation.items, null);
				let state = restart(activation.staticData);
				const emitted: string[] = [];
				const expected: string[] = [];
				for (const count of [1, 700, 1]) {
					f.tick(5);
					expected.push(...f.api.addAlerts(count).map((a) => String(a.id)));
					const poll = await f.poll(ALERTS, state);
					emitted.push(...f.items(poll).map((i) => String(i.id)));
					state = restart(poll.persistedStaticData);
				}
				assert.deepEqual(emitted, expected);
				assert.equal((await f.poll(ALERTS, state)).items, null, 'nothing repeated');
			} finally {
				await f.api.stop();
			}
		});
	}
});

describe('Keyword Updated through n8n', () => {
	let f: Fixture;
	let state: IDataObject = {};
	const BIG = 'Big Project';
	before(async () => {
		f = await fixture();
		f.api.addKeywords(BIG, 50_000);
		f.api.addProject('Small One');
		f.api.addKeywords('Small One', 30);
		f.api.addProject('Small Two');
		f.api.addKeywords('Small Two', 12);
		f.tick(5);
	});
	after(async () => await f.api.stop());

	it('first activation: one request, nothing emitted', async () => {
		const activation = await f.poll(KEYWORDS);
		assert.equal(activation.items, null);
		assert.deepEqual(f.paths(), ['/api/v2/groups/active']);
		state = restart(activation.staticData);
		assert.ok(JSON.stringify(state).length < 2000);
	});

	it('idle poll with 50,000 keywords: one request', async () => {
		const idle = await f.poll(KEYWORDS, state);
		assert.equal(idle.items, null);
		assert.deepEqual(f.paths(), ['/api/v2/groups/active']);
	});

	it('a small project moved: only its list is read, one item per keyword with rank, previous rank and change', async () => {
		f.tick();
		const updated = f.api.simulateRankUpdate({ category: 'Small Two' });
		const poll = await f.poll(KEYWORDS, state);
		assert.deepEqual(f.paths(), ['/api/v2/groups/active', '/api/v2/groups/Small Two/keywords/#1']);
		assert.equal(f.api.requests[1].query.per_page, '250');
		const items = f.items(poll);
		assert.equal(items.length, 12);
		const byId = new Map(updated.map((k) => [String(k.id), k.attributes as IDataObject]));
		for (const item of items) {
			const record = byId.get(String(item.id))!;
			const history = record.grankhistory as number[];
			assert.equal(item.rank, record.grank);
			assert.equal(item.previous_rank, history[1] > 0 ? history[1] : null);
			assert.equal(item.project, 'Small Two');
			assert.equal(item.group, null);
			assert.equal(item.crawled_at, new Date(Number(record.crawled_at) * 1000).toISOString());
		}
		assert.ok(!JSON.stringify(poll.items).includes(f.api.token));
		state = restart(poll.persistedStaticData);
		assert.equal((await f.poll(KEYWORDS, state)).items, null);
		assert.equal(f.api.requests.length, 1);
	});

	it('the 50,000-keyword project moved: groups/active + about ⌈50,000/250⌉ overlapping list requests, 50,000 items once', async () => {
		f.tick();
		f.api.simulateRankUpdate({ category: BIG });
		const poll = await f.poll(KEYWORDS, state);
		const paths = f.paths();
		const lists = paths.filter((p) => p.startsWith(`/api/v2/groups/${BIG}/keywords`));
		assert.equal(
			paths.length,
			1 + lists.length,
			JSON.stringify(paths.filter((p) => !p.startsWith(`/api/v2/groups/${BIG}/`))),
		);
		// Each page overlaps the one before by at least one keyword (so that a keyword added or deleted between two
		// requests cannot shift another out of sight): at most 10 % more than the 200 pages of a plain read.
		assert.ok(lists.length >= 200 && lists.length <= 220, `${lists.length} list requests`);
		assert.equal(f.items(poll).length, 50_000);
		state = restart(poll.persistedStaticData);
		assert.ok(JSON.stringify(state).length < 6000, `state ${JSON.stringify(state).length} bytes`);
		assert.equal((await f.poll(KEYWORDS, state)).items, null);
		assert.equal(f.api.requests.length, 1);
	});

	for (const covers of [true, false])
		it(`a group's crawl, the API's project times ${covers ? 'covering its groups: the 5,000-keyword parent list is read too (it cannot tell its own keywords were not crawled) and finds nothing' : 'of its own keywords only: only the group list is read'}`, async () => {
			const parent = covers ? 'Parent Covered' : 'Parent Own';
			const group = `${parent}[sub]Blog`;
			f.api.setBehaviour({ projectTimeCoversGroups: covers });
			try {
				f.api.addProject(parent);
				f.api.addKeywords(parent, 5_000);
				f.api.addGroup(parent, 'Blog');
				f.api.addKeywords(group, 20);
				f.tick();
				// (Kept as in memory: this poll emits nothing, so n8n's database would not save it.)
				state = restart((await f.poll(KEYWORDS, state)).staticData);
				f.tick();
				f.api.simulateRankUpdate({ category: group });
				const poll = await f.poll(KEYWORDS, state);
				const parentPages = f.paths().filter((p) => p.startsWith(`/api/v2/groups/${parent}/`));
				assert.deepEqual(
					f.paths().filter((p) => !p.startsWith(`/api/v2/groups/${parent}/`)),
					['/api/v2/groups/active', `/api/v2/groups/${group}/keywords/#1`],
				);
				if (covers) assert.ok(parentPages.length >= 20, `${parentPages.length} parent pages`);
				else assert.deepEqual(parentPages, []);
				assert.equal(f.items(poll).length, 20);
				state = restart(poll.persistedStaticData);
				assert.equal((await f.poll(KEYWORDS, state)).items, null);
				assert.equal(f.api.requests.length, 1);
			} finally {
				f.api.setBehaviour({ projectTimeCoversGroups: true });
			}
		});

	it('a keyword refreshed twice between polls: one item with the latest rank', async () => {
		const [keyword] = f.api.simulateRankUpdate({ category: 'Small One' }).slice(0, 1);
		void keyword;
		state = restart((await f.poll(KEYWORDS, state)).persistedStaticData);
		f.tick();
		const id = String(keyword.id);
		f.api.simulateRankUpdate({ keywordIds: [id] });
		f.tick();
		const [latest] = f.api.simulateRankUpdate({ keywordIds: [id] });
		const poll = await f.poll(KEYWORDS, state);
		const items = f.items(poll);
		assert.deepEqual(
			items.map((i) => String(i.id)),
			[id],
		);
		const attributes = latest.attributes as IDataObject;
		assert.equal(items[0].rank, attributes.grank);
		state = restart(poll.persistedStaticData);
	});

	it('Only Rank Changes, project filter (groups included or not)', async () => {
		f.tick();
		f.api.simulateRankUpdate({ category: 'Acme Shoes', changeRanks: false });
		const acme = { ...KEYWORDS, project: { mode: 'list', value: 'Acme Shoes' } };
		const only = await f.poll({ ...acme, onlyRankChanges: true }, state);
		assert.equal(only.items, null);
		// Acme Shoes and its two groups were read (a project's list holds only its own keywords); Café Zürich was not.
		assert.deepEqual(f.paths().sort(), [
			'/api/v2/groups/Acme Shoes/keywords/#1',
			'/api/v2/groups/Acme Shoes[sub]Blog/keywords/#1',
			'/api/v2/groups/Acme Shoes[sub]Shop & Deals/keywords/#1',
			'/api/v2/groups/active',
		]);
		f.tick();
		f.api.simulateRankUpdate({ category: 'Acme Shoes' });
		const noGroups = await f.poll(
			{
				...acme,
				options: { includeGroups: false },
				output: 'selected',
				fields: ['id', 'project', 'group', 'rank_changed'],
			},
			state,
		);
		const items = f.items(noGroups);
		assert.ok(
			items.length > 0 && items.every((i) => i.project === 'Acme Shoes' && i.group === null),
		);
		assert.ok(items.every((i) => i.rank_changed === true));
		state = restart(noGroups.persistedStaticData);
	});

	it('manual run returns the latest updated keywords and moves no cursor; a failing list is parked, reported, then read', async () => {
		const manual = await f.poll(KEYWORDS, state, 'manual');
		const items = f.items(manual);
		assert.ok(items.length >= 1 && items.length <= 5);
		assert.deepEqual(manual.staticData, state);
		assert.equal(manual.staticDataChanged, false);
		f.tick();
		f.api.simulateRankUpdate({ category: 'Small One' });
		f.api.injectFault({ path: /\/keywords\/?$/, times: 50, kind: 'status', status: 503 });
		clearCapturedLogs();
		// The list fails: the poll does not (groups/active answered); the project is parked, and n8n's log says so.
		const failed = await f.poll(KEYWORDS, state);
		assert.equal(failed.error, undefined, failed.error?.message);
		assert.equal(failed.items, null);
		const warning = getCapturedLogs().find(
			(log) => log.level === 'warn' && log.message.includes('"Small One"'),
		);
		assert.match(warning?.message ?? '', /HTTP 503.*tried again at every poll/);
		// A manual run reads the failing list too, and says which one fails.
		const manualFailing = await f.poll(KEYWORDS, failed.staticData, 'manual');
		assert.match(
			manualFailing.error?.message ?? '',
			/keyword list of "Small One".*could not be read/,
		);
		f.api.clearFaults();
		const retry = await f.poll(KEYWORDS, failed.staticData);
		assert.equal(f.items(retry).length, 30);
	});
});
