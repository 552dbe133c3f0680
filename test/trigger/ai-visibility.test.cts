/**
 * AI Visibility Updated through n8n's engine, with real HTTP to the fake API on a clock the test moves: the first
 * poll places "now"; each completed day of each domain is emitted once, after midnight by the API's clock, with its
 * final values (never the partial day); revisions, gaps, late days, a failing domain, domains added and removed, the
 * filters, the Output choice, the scope and Fetch Test Event; and what an idle poll costs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { MAX_SIMPLIFIED_FIELDS } from '../../nodes/shared/output';
import { runPoll, type RunPollResult } from '../harness/index.cjs';
import { assertNoTokenIn } from '../reliability/helpers.cjs';
import { pollTrigger } from './poll-trigger.cjs';
import { AI_DROP_DAYS } from '../../e2e/lib/examples.cjs';
import { EXAMPLES_DIR } from '../example-paths.cjs';
import { leakPieces } from '../leak-pieces.cjs';

const DAY = 86_400_000;
/** 10:00 UTC: the day is partly measured. */
const START = Date.parse('2026-11-20T10:00:00Z');

let clock = START;
let api: FakeKeywordApi;
let state: IDataObject = {};

const AI = { event: 'aiVisibilityUpdated' };

before(async () => {
	api = new FakeKeywordApi({ seed: 'demo', now: () => clock, dateFromClock: true });
	await api.start();
});
after(async () => await api.stop());

const restart = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;
const itemsOf = (result: RunPollResult): IDataObject[] => {
	assert.equal(result.error, undefined, result.error?.message);
	return (result.items?.[0] ?? []).map((item) => item.json);
};
const domains = () => api.state.aiDomains.map((domain) => ({ id: domain.id, name: domain.domain }));
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One poll from the state of the last one (as n8n keeps it), counting the API requests it sent. */
async function poll(
	parameters: IDataObject = {},
): Promise<{ items: IDataObject[]; requests: string[] }> {
	const from = api.requests.length;
	const result = await pollTrigger(api, { ...AI, ...parameters }, state);
	const items = itemsOf(result);
	state = restart(result.staticData);
	return { items, requests: api.requests.slice(from).map((request) => request.path) };
}

/** The final values of a day of a domain, as a dashboard read now shows them. */
async function finalDay(domainId: string, date: string): Promise<IDataObject> {
	const response = await fetch(
		`${api.baseUrl}/api/v2/ai-visibility/domains/${domainId}/metrics?timeframe=10&aggregation=daily`,
		{ headers: { Authorization: `Bearer ${api.token}` } },
	);
	const body = (await response.json()) as IDataObject;
	const daily = (
		((body.data as IDataObject).ownBrandMetrics as IDataObject).historicalData as IDataObject
	).daily as Record<string, IDataObject[string][]>;
	const index = daily.timestamps.findIndex((stamp) => String(stamp).startsWith(date));
	assert.ok(index >= 0, `${date} is in the series`);
	return {
		visibility_score: daily.visibilityScore[index],
		mentions: daily.mentions[index],
		citations: daily.citations[index],
		brand_not_found: daily.brandNotFound[index],
	};
}

async function activate(parameters: IDataObject = {}): Promise<void> {
	state = {};
	const first = await poll(parameters);
	assert.deepEqual(first.items, [], 'the first poll places "now"');
	assert.deepEqual(first.requests, ['/api/v2/ai-visibility/domains'], 'one request: the domains');
}

describe('Keyword.com Trigger: AI Visibility Updated', () => {
	beforeEach(() => {
		clock = START;
		api.reset();
		api.setBehaviour({ aiToday: 'partial' });
	});

	it('emits each completed day once, with its final values, after midnight by the API clock', async () => {
		await activate();
		// Later the same day: nothing is complete, and only the domain list is asked for.
		clock += 5 * 3_600_000;
		const idle = await poll();
		assert.deepEqual(idle.items, []);
		assert.equal(idle.requests.length, 1, 'an idle poll costs one request');

		clock = START + DAY - 10 * 3_600_000 + 60_000; // 00:01 the next day
		const { items, requests } = await poll();
		assert.equal(requests.length, 1 + domains().length, 'the list, then one dashboard a domain');
		assert.deepEqual(
			items.map((item) => [item.domain_id, item.date]),
			domains().map((domain) => [domain.id, ymd(START)]),
		);
		for (const item of items) {
			assert.ok(Object.keys(item).length <= MAX_SIMPLIFIED_FIELDS);
			const final = await finalDay(String(item.domain_id), String(item.date));
			for (const [field, value] of Object.entries(final)) assert.equal(item[field], value, field);
			assert.equal(typeof item.visibility_score_change, 'number');
			assert.equal(typeof item.brand_rank, 'number');
		}
		assertNoTokenIn(items, 'AI Visibility Updated');

		// Again that day: nothing new, one request.
		clock += 3_600_000;
		const again = await poll();
		assert.deepEqual(again.items, []);
		assert.equal(again.requests.length, 1);
	});

	it('never emits a day twice: a revision after it was emitted stays unsaid, the next day compares with it', async () => {
		await activate();
		clock += DAY;
		const first = await poll();
		assert.equal(first.items.length, 2);
		for (const { id } of domains()) api.changeAiDay(id, ymd(START), { revise: true });
		clock += 3_600_000;
		assert.deepEqual((await poll()).items, [], 'the revised day is not emitted again');
		clock += DAY;
		const next = await poll();
		assert.deepEqual(
			next.items.map((item) => item.date),
			[ymd(START + DAY), ymd(START + DAY)],
		);
	});

	it('a day late in the series is asked for at every poll until it is there; a gap is passed over', async () => {
		await activate();
		const [late, other] = domains();
		api.changeAiDay(late.id, ymd(START), { missing: true });
		clock += DAY;
		const first = await poll();
		assert.deepEqual(
			first.items.map((item) => item.domain_id),
			[other.id],
		);
		clock += 60_000;
		const waiting = await poll();
		assert.deepEqual(waiting.items, []);
		assert.equal(waiting.requests.length, 2, 'the list and the late domain');
		api.changeAiDay(late.id, ymd(START), { missing: false });
		clock += 60_000;
		const arrived = await poll();
		assert.deepEqual(
			arrived.items.map((item) => [item.domain_id, item.date]),
			[[late.id, ymd(START)]],
		);

		// A day that never comes: the day after it is emitted, with no change (no day before in the series).
		api.changeAiDay(late.id, ymd(START + DAY), { missing: true });
		clock += DAY;
		await poll();
		clock += DAY;
		const afterGap = (await poll()).items.filter((item) => item.domain_id === late.id);
		assert.deepEqual(
			afterGap.map((item) => [item.date, item.visibility_score_change]),
			[[ymd(START + 2 * DAY), null]],
		);
	});

	it('one failing domain is reported and tried again; the others flow, and nothing is lost', async () => {
		await activate();
		const [failing, other] = domains();
		api.injectFault({
			path: new RegExp(`/ai-visibility/domains/${failing.id}/metrics`),
			times: Infinity,
			status: 503,
		});
		clock += DAY;
		const during = await poll();
		assert.deepEqual(
			during.items.map((item) => item.domain_id),
			[other.id],
		);
		clock += DAY;
		assert.deepEqual(
			(await poll()).items.map((item) => item.domain_id),
			[other.id],
		);
		api.clearFaults();
		clock += 60_000;
		const recovered = await poll();
		assert.deepEqual(
			recovered.items.map((item) => [item.domain_id, item.date]),
			[
				[failing.id, ymd(START)],
				[failing.id, ymd(START + DAY)],
			],
		);
	});

	it('a domain added owes the days completed after it appeared; one removed is forgotten', async () => {
		await activate();
		clock += 3_600_000;
		const added = api.addAiDomain('newbrand.example', 'New Brand');
		const removed = domains()[0];
		api.removeAiDomain(removed.id);
		clock += 60_000;
		assert.deepEqual((await poll()).items, []);
		clock += DAY;
		const { items } = await poll();
		assert.deepEqual(
			items.map((item) => item.domain).sort(),
			['cafe-zuerich.ch', 'newbrand.example'].sort(),
		);
		assert.ok(items.some((item) => item.domain_id === added.id));
	});

	it('filters: brand lost from AI answers, visibility rose; each item says why', async () => {
		const [domain] = domains();
		const filters = { brandPresence: 'lost' };
		await activate({ domainId: { __rl: true, mode: 'id', value: domain.id }, filters });
		api.changeAiDay(domain.id, ymd(START + DAY), { brandNotFound: true });
		clock += DAY;
		assert.deepEqual((await poll({ domainId: domain.id, filters })).items, []);
		clock += DAY;
		const lost = (await poll({ domainId: domain.id, filters })).items;
		assert.deepEqual(
			lost.map((item) => [item.date, item.brand_not_found, item.matched]),
			[[ymd(START + DAY), true, ['brand_lost']]],
		);
		// The brand found again: "dropped by at least 0.01" does not pass; "rose" does, with its reason.
		clock += DAY;
		const rose = (
			await poll({
				domainId: domain.id,
				filters: { visibilityChangedBy: 0.01, visibilityDirection: 'rose' },
			})
		).items;
		assert.equal(rose.length, 1);
		assert.deepEqual(rose[0].matched, ['visibility_rose']);
		assert.ok(Number(rose[0].visibility_score_change) > 0);
	});

	it('Output Raw holds each metric with its change and the competitors; Selected Fields picks', async () => {
		await activate({ output: 'raw' });
		clock += DAY;
		const [item] = (await poll({ output: 'raw' })).items;
		for (const metric of [
			'visibility_score',
			'sentiment',
			'mentions',
			'citations',
			'avg_position',
			'detection_rate',
			'top3',
		]) {
			assert.ok(metric in item, metric);
			assert.ok(`${metric}_change` in item, `${metric}_change`);
		}
		assert.ok(Array.isArray(item.competitors) && item.competitors.length > 0);
		const rank = Number(item.brand_rank);
		const higher = (item.competitors as IDataObject[]).filter(
			(competitor) => Number(competitor.visibility_score) > Number(item.visibility_score),
		);
		assert.equal(rank, higher.length + 1);
		clock += DAY;
		const picked = (await poll({ output: 'selected', fields: ['date', 'top3_change'] })).items;
		for (const each of picked) assert.deepEqual(Object.keys(each), ['date', 'top3_change']);
	});

	it('topics and engines go to the API; a day is never partial even when the API leaves today out', async () => {
		api.setBehaviour({ aiToday: 'omitted' });
		const filters = { topics: ['Running shoes'], engines: ['chatgpt_gui'] };
		await activate({ filters });
		clock += DAY;
		const from = api.requests.length;
		const { items } = await poll({ filters });
		assert.equal(items.length, 2);
		const asked = api.requests.slice(from).filter((request) => request.path.endsWith('/metrics'));
		for (const request of asked) {
			assert.deepEqual(request.query['topics[]'], ['Running shoes']);
			assert.deepEqual(request.query['engine[]'], ['chatgpt_gui']);
		}
	});

	it('Fetch Test Event shows the latest completed day of each domain, whatever the state', async () => {
		const result = await runPoll({
			nodeType: new KeywordComTrigger(),
			typeVersion: 1,
			parameters: AI,
			credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
			mode: 'manual',
		});
		const items = itemsOf(result);
		assert.deepEqual(
			items.map((item) => [item.domain_id, item.date]),
			domains().map((domain) => [domain.id, ymd(START - DAY)]),
		);
	});

	it('Fetch Test Event with one domain failing shows the others; all failing, the error', async () => {
		const manual = async () =>
			await runPoll({
				nodeType: new KeywordComTrigger(),
				typeVersion: 1,
				parameters: AI,
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
				mode: 'manual',
			});
		const [failing, ...others] = domains();
		const one = api.injectFault({
			path: new RegExp(`/ai-visibility/domains/${failing.id}/metrics`),
			times: Infinity,
			status: 500,
		});
		try {
			assert.deepEqual(
				itemsOf(await manual()).map((item) => item.domain_id),
				others.map((domain) => domain.id),
			);
			const all = api.injectFault({ path: /\/metrics/, times: Infinity, status: 500 });
			try {
				const result = await manual();
				assert.ok(result.error, 'every domain failing fails the run');
			} finally {
				api.removeFault(all);
			}
		} finally {
			api.removeFault(one);
		}
	});

	it('the drop example: its trigger emits a dropped day with the fields its test copy starts from', async () => {
		const workflow = JSON.parse(
			readFileSync(join(EXAMPLES_DIR, 'ai-visibility-dropped-to-slack.json'), 'utf8'),
		) as { nodes: Array<{ type: string; parameters: IDataObject }> };
		const trigger = workflow.nodes.find((node) => node.type.endsWith('keywordComTrigger'))!;
		const parameters = { ...trigger.parameters };
		delete parameters.pollTimes;
		await activate(parameters);
		const [dropped] = domains();
		api.changeAiDay(dropped.id, ymd(START), { brandNotFound: true });
		clock += DAY;
		const { items } = await poll(parameters);
		assert.deepEqual(
			items.map((item) => [item.domain_id, item.matched]),
			[[dropped.id, ['visibility_dropped']]],
		);
		assert.deepEqual(Object.keys(items[0]), Object.keys(AI_DROP_DAYS[0]));
		for (const fixture of AI_DROP_DAYS)
			assert.deepEqual(Object.keys(fixture), Object.keys(items[0]));
	});

	it('Fetch Test Event with the token pasted as the domain: the error holds no piece of it', async () => {
		const result = await runPoll({
			nodeType: new KeywordComTrigger(),
			typeVersion: 1,
			parameters: { ...AI, domainId: { __rl: true, mode: 'id', value: api.token } },
			credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
			mode: 'manual',
		});
		assert.ok(result.error, 'an error');
		const text = `${result.error.message} ${JSON.stringify(result.error)}`;
		for (const piece of leakPieces(api.token)) assert.ok(!text.includes(piece), text);
	});

	it('Output Simplified gives the simplified fields, Raw every field', async () => {
		const pollWith = async (parameters: IDataObject, staticData: IDataObject) =>
			await runPoll({
				nodeType: new KeywordComTrigger(),
				typeVersion: 1,
				parameters: { ...AI, ...parameters },
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
				staticData,
			});
		const first = await pollWith({}, {});
		assert.equal(first.error, undefined, first.error?.message);
		clock += DAY;
		const state = restart(first.staticData);
		const simplified = itemsOf(await pollWith({}, state));
		assert.equal(simplified.length, 2);
		assert.ok(Object.keys(simplified[0]).length <= MAX_SIMPLIFIED_FIELDS);
		const whole = itemsOf(await pollWith({ output: 'raw' }, state));
		assert.ok('top3_change' in whole[0] && 'competitors' in whole[0]);
	});

	it('bad filter values are refused before any request', async () => {
		const from = api.requests.length;
		const result = await pollTrigger(api, { ...AI, filters: { visibilityChangedBy: -3 } }, {});
		assert.match(String(result.error?.message), /Visibility Score Changed By At Least/);
		assert.equal(api.requests.length, from);
	});
});
