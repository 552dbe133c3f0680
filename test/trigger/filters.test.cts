/**
 * The trigger's Filters: the pure rules against crafted ranks (outside the top results, unknown previous
 * rank), then each filter through n8n's engine against the fake API with known ranks, ranking URLs and tags: which
 * keywords and alerts pass, with which reasons (`matched`), that the cursor moves past filtered events, that a poll's
 * requests do not change, and that bad settings fail before any request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import type { RankMove } from '../../nodes/KeywordComTrigger/filters/subjects';
import { matchFilters } from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import {
	chartUrls,
	rankingUrlChanged,
	sameRankingUrl,
} from '../../nodes/KeywordComTrigger/keywordUpdated/rankingUrls';
import { RankingUrlHistory } from '../../nodes/KeywordComTrigger/keywordUpdated/rankingUrlHistory';
import { readAlertTags } from '../../nodes/KeywordComTrigger/newAlert/alertTags';
import { PollBudget } from '../../nodes/KeywordComTrigger/polling/budget';
import {
	RequestAllowance,
	type TriggerApi,
} from '../../nodes/KeywordComTrigger/polling/pollContract';
import {
	clearCapturedLogs,
	getCapturedLogs,
	runLoadOptions,
	type RunPollResult,
} from '../harness/index.cjs';
import { pollTrigger } from './poll-trigger.cjs';

const move = (previousRank: number | null, rank: number | null, known = true): RankMove => ({
	previousRank,
	rank,
	previousKnown: known,
});

describe('trigger filters: the rules', () => {
	it("New Alert's Tags: a keyword its whole list did not show is asked for alone (#11), then in the project's groups; found nowhere, it is unknown and said", async () => {
		const record = (id: number, tags: string[]) => ({
			type: 'keyword',
			id: String(id),
			attributes: { tags: tags.map((name, n) => ({ id: n + 1, name })) },
		});
		// The list (one page) no longer shows 9 (it moved ahead of the part read, in rank order) nor 8 (deleted).
		const asked: string[] = [];
		let single = async (name: string, id: string): Promise<unknown> => {
			if (id === '9' && name === 'Acme') return { data: record(9, ['brand']) };
			throw Object.assign(new Error('Keyword not found'), { httpCode: '404' });
		};
		// The project has one group (an alert naming only the project may be about its keywords).
		const groups = [
			{ type: 'group', id: 'Acme[sub]Blog', attributes: { category: 'Acme[sub]Blog' } },
		];
		const api = {
			keywordPage: async (name: string, page: number) => {
				asked.push(`${name} page ${page}`);
				return {
					data: [record(1, ['brand']), record(2, [])],
					meta: {
						pagination: { total: 2, count: 2, per_page: 250, current_page: 1, total_pages: 1 },
					},
				};
			},
			keyword: async (name: string, id: string) => {
				asked.push(`${name} keyword ${id}`);
				return await single(name, id);
			},
			activeGroups: async () => {
				asked.push('groups/active');
				return { body: { data: groups }, serverTime: 0 };
			},
		} as unknown as TriggerApi;
		const read = async () =>
			await readAlertTags(
				api,
				new Map([['Acme', new Set(['1', '2', '8', '9'])]]),
				{ budget: new PollBudget(36_000) },
				new RequestAllowance(240),
			);
		const found = await read();
		assert.deepEqual(Object.fromEntries(found.tags), {
			1: ['brand', '1'],
			2: [],
			9: ['brand', '1'],
		});
		assert.deepEqual([...found.unknown], ['8']);
		assert.equal(found.problems.length, 1, 'a keyword in none of the lists is said');
		assert.match(
			String(found.problems[0].text),
			/of "Acme" are in none of its lists.*tags_unknown/,
		);
		assert.deepEqual(asked, [
			'Acme page 1',
			'Acme keyword 8',
			'Acme keyword 9',
			'groups/active',
			'Acme[sub]Blog keyword 8',
		]);

		// 8 is in the group (the API names only the project in an alert): found there.
		asked.length = 0;
		const before = single;
		single = async (name, id) =>
			name === 'Acme[sub]Blog' && id === '8' ? { data: record(8, ['q1']) } : await before(name, id);
		const inGroup = await read();
		assert.deepEqual(inGroup.tags.get('8'), ['q1', '1']);
		assert.deepEqual([...inGroup.unknown], []);
		assert.deepEqual(inGroup.problems, []);

		// The lookup alone fails: those left are unknown, and the poll says so, naming the list.
		single = async () => {
			throw Object.assign(new Error('Server error'), { httpCode: '500' });
		};
		const failed = await read();
		assert.deepEqual([...failed.unknown].sort(), ['8', '9']);
		assert.equal(failed.problems.length, 1);
		assert.match(String(failed.problems[0].text), /"Acme" could not be read.*tags_unknown/);
	});

	it('Moved By At Least counts positions, outside the top results as 101, in the direction asked', () => {
		const up5 = { movedBy: { positions: 5, direction: 'up' as const } };
		assert.deepEqual(matchFilters(move(15, 10), up5), ['moved_up']);
		assert.equal(matchFilters(move(14, 10), up5), undefined, 'four positions');
		assert.equal(matchFilters(move(10, 15), up5), undefined, 'down');
		assert.deepEqual(matchFilters(move(null, 96), up5), ['moved_up'], 'outside (101) to 96');
		assert.equal(matchFilters(move(null, 97), up5), undefined, 'outside (101) to 97: four');
		const down = { movedBy: { positions: 1, direction: 'down' as const } };
		assert.deepEqual(matchFilters(move(100, null), down), ['moved_down'], '100 to outside');
		assert.equal(matchFilters(move(null, null), down), undefined, 'outside to outside');
		const either = { movedBy: { positions: 3, direction: 'either' as const } };
		assert.deepEqual(matchFilters(move(3, 6), either), ['moved_down']);
		assert.deepEqual(matchFilters(move(6, 3), either), ['moved_up']);
		assert.equal(
			matchFilters(move(6, 6), { movedBy: { positions: 1, direction: 'either' } }),
			undefined,
		);
	});

	it('Crossed Top N: entered, left or either, with the edge itself inside the top', () => {
		const top10 = (crossing: 'either' | 'entered' | 'left') => ({
			crossedTop: { n: 10, crossing },
		});
		assert.deepEqual(matchFilters(move(11, 10), top10('either')), ['top10_entered']);
		assert.deepEqual(matchFilters(move(10, 11), top10('either')), ['top10_left']);
		assert.equal(matchFilters(move(10, 1), top10('either')), undefined, 'inside all along');
		assert.equal(matchFilters(move(11, 10), top10('left')), undefined);
		assert.equal(matchFilters(move(10, 11), top10('entered')), undefined);
		assert.deepEqual(
			matchFilters(move(null, 100), { crossedTop: { n: 100, crossing: 'entered' } }),
			['top100_entered'],
		);
		assert.deepEqual(matchFilters(move(3, null), { crossedTop: { n: 3, crossing: 'left' } }), [
			'top3_left',
		]);
	});

	it('an unknown previous rank never passes a movement filter, and never fails a tag filter', () => {
		const unknown = { ...move(null, 2, false), tags: ['Brand'] };
		assert.equal(
			matchFilters(unknown, { movedBy: { positions: 1, direction: 'either' } }),
			undefined,
		);
		assert.equal(matchFilters(unknown, { crossedTop: { n: 3, crossing: 'either' } }), undefined);
		assert.deepEqual(matchFilters(unknown, { tags: ['brand'] }), ['tagged']);
		assert.equal(matchFilters(unknown, { tags: ['other'] }), undefined);
		assert.equal(matchFilters({ ...unknown, tags: undefined }, { tags: ['brand'] }), undefined);
	});

	it('filters combine: every one must pass, and each says why', () => {
		const all = {
			movedBy: { positions: 2, direction: 'either' as const },
			crossedTop: { n: 10, crossing: 'either' as const },
			rankingUrlChanged: true,
			tags: ['Brand'],
		};
		const passing = { ...move(12, 9), rankingUrlChanged: true, tags: ['brand', '7'] };
		assert.deepEqual(matchFilters(passing, all), [
			'moved_up',
			'top10_entered',
			'ranking_url_changed',
			'tagged',
		]);
		assert.equal(matchFilters({ ...passing, rankingUrlChanged: undefined }, all), undefined);
		assert.equal(matchFilters({ ...passing, rankingUrlChanged: false }, all), undefined);
		assert.equal(matchFilters({ ...passing, tags: ['other'] }, all), undefined);
		assert.deepEqual(matchFilters(move(5, 5), {}), [], 'no filter: everything passes');
		assert.deepEqual(
			matchFilters({ ...move(5, 5), tags: ['7'] }, { tags: ['7'] }),
			['tagged'],
			'by id',
		);
	});

	it('the ranking URL before an update: the history entry before its date; none before: unknown; NOT FOUND is no URL', () => {
		const day = (date: string) => Date.parse(`${date}T09:00:00Z`) / 1000;
		// #14's ranking URLs, newest first (in any order here: they are sorted by date).
		const entries = chartUrls({
			data: [
				{
					kwid: 7,
					data: [
						[],
						[],
						'',
						'',
						{
							days: 3,
							rankingurls: [
								{ date: '2026-03-02', rank: 4, rankingurl: 'https://a/' },
								{ date: '2026-03-04', rank: 3, rankingurl: 'https://a/b' },
								{ date: '2026-03-03', rank: null, rankingurl: 'NOT FOUND' },
							],
						},
					],
				},
			],
		}).get('7')!;
		assert.deepEqual(
			entries.map((entry) => entry.date),
			['2026-03-04', '2026-03-03', '2026-03-02'],
		);
		const at = (date: string) => day(date);
		// The crawl before outside the top results: it had no URL.
		assert.equal(rankingUrlChanged(entries, at('2026-03-04'), 'https://a/b', 'outside'), true);
		assert.equal(rankingUrlChanged([], at('2026-03-04'), 'NOT FOUND', 'outside'), false);
		// The crawl before ranked 4: the first entry after the update's own with a rank (a filler has none).
		assert.equal(rankingUrlChanged(entries, at('2026-03-04'), 'https://a/b', 4), true, 'a/ → a/b');
		assert.equal(rankingUrlChanged(entries, at('2026-03-04'), 'https://a/', 4), false, 'a/ → a/');
		assert.equal(rankingUrlChanged(entries, at('2026-03-03'), null, 4), true, 'out of the results');
		// The history shows another rank before: it does not show the crawl before (one entry a day).
		assert.equal(rankingUrlChanged(entries, at('2026-03-04'), 'https://a/b', 7), 'unknown');
		// A first update; one whose crawl before the answer does not reach.
		assert.equal(rankingUrlChanged(entries, at('2026-03-02'), 'https://a/', 'none'), undefined);
		assert.equal(rankingUrlChanged(entries, at('2026-03-02'), 'https://a/', 5, true), 'further');
		assert.equal(rankingUrlChanged(entries, at('2026-03-02'), 'https://a/', 5), 'unknown');
		// The rank before not known: the next entry, unless it has no rank and an older one has (filler or not?).
		assert.equal(rankingUrlChanged(entries, at('2026-03-04'), 'https://a/', 'unknown'), 'unknown');
		assert.equal(rankingUrlChanged(entries, at('2026-03-03'), 'https://a/', 'unknown'), false);
		assert.ok(sameRankingUrl('NOT FOUND', ''));
		assert.ok(!sameRankingUrl('https://a/', 'https://a/b'));
	});

	it('Ranking URL Changed: a keyword deleted before its history is asked, on an API that refuses the whole request for it (404): the others are told', async () => {
		const day = '2026-03-04';
		const at = Date.parse(`${day}T09:00:00Z`) / 1000;
		const deleted = new Set(['3', '57']);
		const asked: number[] = [];
		// URL before: https://a/ for each; the update's URL: https://a/b for even ids (changed), https://a/ for odd.
		const api = {
			chart: async (ids: readonly string[]) => {
				asked.push(ids.length);
				if (ids.some((id) => deleted.has(id)))
					throw Object.assign(new Error('Keyword not found'), { httpCode: '404' });
				return {
					data: ids.map((id) => ({
						kwid: Number(id),
						data: [
							[],
							[],
							'',
							'',
							{
								rankingurls: [
									{ date: day, rankingurl: Number(id) % 2 === 0 ? 'https://a/b' : 'https://a/' },
									{ date: '2026-03-03', rankingurl: 'https://a/' },
								],
							},
						],
					})),
				};
			},
		} as unknown as TriggerApi;
		const events = Array.from({ length: 120 }, (_, n) => ({
			id: String(n),
			at,
			record: {
				id: n,
				attributes: {
					rankingurl: n % 2 === 0 ? 'https://a/b' : 'https://a/',
					grankhistory: [1, 2],
				},
			},
		}));
		const history = new RankingUrlHistory(
			api,
			{ budget: new PollBudget(36_000) },
			new RequestAllowance(240),
		);
		await history.lookUp(events as never);
		for (const event of events) {
			const expected = deleted.has(event.id) ? undefined : Number(event.id) % 2 === 0;
			assert.equal(history.verdict(event as never), expected, `keyword ${event.id}`);
		}
		assert.ok(
			// About 2 × log2(100) requests for each deleted keyword, besides the 2 the 120 take.
			asked.length <= 30,
			`${asked.length} requests for 120 keywords, 2 of them deleted`,
		);
	});
});

let clock = Date.now() - 10 * 60_000;
let api: FakeKeywordApi;

before(async () => {
	api = new FakeKeywordApi({ seed: 'demo', now: () => clock, dateFromClock: true });
	await api.start();
});
after(async () => await api.stop());

async function poll(parameters: IDataObject, staticData?: IDataObject): Promise<RunPollResult> {
	return await pollTrigger(api, parameters, staticData);
}

const copy = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;
const itemsOf = (result: RunPollResult): IDataObject[] => {
	assert.equal(result.error, undefined, result.error?.message);
	return (result.items?.[0] ?? []).map((item) => item.json);
};

describe('trigger filters through n8n', () => {
	/** Keyword ids of Acme Shoes used below, and the state after a first update read with the filters on. */
	let ids: string[];
	let afterFirst: IDataObject;
	/** What the second update gives: id → matched for each filter. */
	const KEYWORD_UPDATED = {
		event: 'keywordUpdated',
		project: { __rl: true, mode: 'name', value: 'Acme Shoes' },
	};

	before(async () => {
		// Two crawls a few seconds apart: a history of one entry a crawl shows both (one a day: see below).
		api.setBehaviour({ chartEntries: 'per-crawl' });
		const keywords = [...api.state.keywordsOf(api.state.getContainer('Acme Shoes'))].slice(0, 7);
		ids = keywords.map((keyword) => String(keyword.id));
		api.state.setKeywordTags(keywords[0], ['Filter Mark']);
		api.state.setKeywordTags(keywords[1], ['filter mark', 'Shoes']);
		const parameters = { ...KEYWORD_UPDATED, filters: { rankingUrlChanged: true } };
		const baseline = copy((await poll(parameters)).staticData);
		clock += 2_000;
		// Before: ranks 15, 8, 5, outside, 50, 2, 30 (ranking URLs follow the ranks, #3's is set).
		api.simulateRankUpdate({
			keywordIds: ids,
			ranks: Object.fromEntries(ids.map((id, n) => [id, [15, 8, 5, 0, 50, 2, 30][n]])),
			rankingUrls: { [ids[2]]: 'https://acmeshoes.com/old-page/' },
		});
		clock += 2_000;
		const first = await poll(parameters, baseline);
		// The ranking history tells the URL before, from the first update the trigger reads: #3's moved to old-page;
		// the others' follow their ranks (outside the top results: none).
		assert.deepEqual(
			itemsOf(first).map((item) => [item.id, item.matched]),
			[ids[2], ids[3]].map((id) => [id, ['ranking_url_changed']]),
		);
		// The state in memory (nothing was emitted, so n8n would not store it; the running workflow keeps it).
		afterFirst = copy(first.staticData);
		clock += 2_000;
		// After: 9 (up 6, into the top 10), 12 (down 4, out of it), 5 with a new ranking URL, 7 from outside, outside
		// from 50, 4 (out of the top 3), 30 unchanged.
		api.simulateRankUpdate({
			keywordIds: ids,
			ranks: Object.fromEntries(ids.map((id, n) => [id, [9, 12, 5, 7, 0, 4, 30][n]])),
			rankingUrls: { [ids[2]]: 'https://acmeshoes.com/new-page/' },
		});
		clock += 2_000;
	});

	/** The second update polled with `filters`: id → matched, in emitted order. */
	async function matchedWith(filters: IDataObject): Promise<Record<string, unknown>> {
		const items = itemsOf(await poll({ ...KEYWORD_UPDATED, filters }, copy(afterFirst)));
		return Object.fromEntries(items.map((item) => [String(item.id), item.matched]));
	}
	const at = (...pairs: Array<[number, string[]]>) =>
		Object.fromEntries(pairs.map(([n, matched]) => [ids[n], matched]));

	it('Moved By At Least, in each direction (alone, Move Direction means a move of at least 1)', async () => {
		assert.deepEqual(
			await matchedWith({ movedBy: 5 }),
			at([0, ['moved_up']], [3, ['moved_up']], [4, ['moved_down']]),
		);
		assert.deepEqual(await matchedWith({ movedBy: 5, direction: 'down' }), at([4, ['moved_down']]));
		assert.deepEqual(
			await matchedWith({ direction: 'up' }),
			at([0, ['moved_up']], [3, ['moved_up']]),
		);
	});

	it('Crossed Top: 10 either way, 10 left, and a Top N of 3', async () => {
		assert.deepEqual(
			await matchedWith({ crossedTop: 10 }),
			at([0, ['top10_entered']], [1, ['top10_left']], [3, ['top10_entered']]),
		);
		assert.deepEqual(
			await matchedWith({ crossedTop: 10, crossing: 'left' }),
			at([1, ['top10_left']]),
		);
		assert.deepEqual(await matchedWith({ crossedTop: 0, topN: 3 }), at([5, ['top3_left']]));
	});

	it('Ranking URL Changed: the keyword whose URL moved, and those that left or entered the results', async () => {
		assert.deepEqual(
			await matchedWith({ rankingUrlChanged: true }),
			at([2, ['ranking_url_changed']], [3, ['ranking_url_changed']], [4, ['ranking_url_changed']]),
		);
	});

	it('Ranking URL Changed on a history of one entry a day: a second crawl of the day is passed on as unknown, and said', async () => {
		api.setBehaviour({ chartEntries: 'per-day-filled' });
		try {
			clearCapturedLogs();
			const result = await poll(
				{ ...KEYWORD_UPDATED, filters: { rankingUrlChanged: true } },
				copy(afterFirst),
			);
			const matched = Object.fromEntries(
				itemsOf(result).map((item) => [String(item.id), item.matched]),
			);
			// The day's entry is the second crawl: the first one's rank and URL are gone from the history. Where the rank
			// before is not the one the history shows, the update cannot be told: passed on, not lost.
			assert.ok(Object.keys(matched).length > 0);
			for (const reasons of Object.values(matched))
				assert.ok(
					['ranking_url_changed', 'ranking_url_unknown'].includes((reasons as string[])[0]),
					JSON.stringify(reasons),
				);
			assert.ok(
				Object.values(matched).some(
					(reasons) => (reasons as string[])[0] === 'ranking_url_unknown',
				),
			);
			assert.ok(
				getCapturedLogs().some(
					(line) => line.level === 'warn' && line.message.includes('ranking_url_unknown'),
				),
				"n8n's log says why",
			);
		} finally {
			api.setBehaviour({ chartEntries: 'per-crawl' });
		}
	});

	it('Tags (case ignored), and filters combined', async () => {
		assert.deepEqual(
			await matchedWith({ tags: ['FILTER MARK'] }),
			at([0, ['tagged']], [1, ['tagged']]),
		);
		assert.deepEqual(
			await matchedWith({ movedBy: 5, crossedTop: 10, crossing: 'entered' }),
			at([0, ['moved_up', 'top10_entered']], [3, ['moved_up', 'top10_entered']]),
		);
	});

	it('a filtered poll sends the same requests, and its cursor moves past what it dropped', async () => {
		const count = async (filters: IDataObject) => {
			const before = api.requests.length;
			const result = await poll({ ...KEYWORD_UPDATED, filters }, copy(afterFirst));
			return { requests: api.requests.length - before, state: copy(result.staticData) };
		};
		const plain = await count({});
		const filtered = await count({ movedBy: 50, direction: 'up' });
		assert.equal(filtered.requests, plain.requests);
		// Nothing passed: the next poll has nothing left of that update to emit, with or without the filter.
		assert.deepEqual(itemsOf(await poll({ ...KEYWORD_UPDATED, filters: {} }, filtered.state)), []);
	});

	it('New Alert: minimum change and direction, with why', async () => {
		const keywords = [...api.state.keywordsOf(api.state.getContainer('Acme Shoes'))].slice(10, 13);
		const alertIds = keywords.map((keyword) => String(keyword.id));
		api.simulateRankUpdate({
			keywordIds: alertIds,
			ranks: Object.fromEntries(alertIds.map((id) => [id, 4])),
		});
		clock += 2_000;
		const parameters = { event: 'newAlert', filters: { movedBy: 3, direction: 'down' } };
		const state = copy((await poll(parameters)).staticData);
		clock += 2_000;
		// 4 → 9 (down 5), 4 → 2 (up 2), 4 → 6 (down 2): one alert each.
		api.simulateRankUpdate({
			keywordIds: alertIds,
			ranks: Object.fromEntries(alertIds.map((id, n) => [id, [9, 2, 6][n]])),
			createAlerts: true,
		});
		clock += 2_000;
		const items = itemsOf(await poll(parameters, state));
		assert.deepEqual(
			items.map((item) => [item.previous_rank, item.rank, item.matched]),
			[[4, 9, ['moved_down']]],
		);
	});

	it("the Tags list: the chosen project's tags, or every project's, from one request", async () => {
		const tagsOf = async (project: string) => {
			const before = api.requests.length;
			const options = await runLoadOptions({
				nodeType: new KeywordComTrigger(),
				method: 'getTags',
				parameters: {
					event: 'keywordUpdated',
					project: { __rl: true, mode: 'name', value: project },
				},
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: api.baseUrl } },
			});
			assert.equal(api.requests.length - before, 1, 'one request');
			return options.map((option) => option.name);
		};
		const acme = await tagsOf('Acme Shoes');
		assert.ok(acme.includes('Filter Mark') && acme.includes('filter mark'), acme.join(', '));
		assert.deepEqual(
			acme,
			[...acme].sort((a, b) => a.localeCompare(b)),
		);
		const all = await tagsOf('');
		for (const name of acme) assert.ok(all.includes(name));
		assert.ok(all.length > acme.length, 'other projects have tags of their own');
	});

	it('New Alert, Tags: the keyword list is read once for the alerts that pass; unreadable tags are marked, not dropped', async () => {
		const keywords = [...api.state.keywordsOf(api.state.getContainer('Acme Shoes'))].slice(7, 9);
		const alertIds = keywords.map((keyword) => String(keyword.id));
		api.state.setKeywordTags(keywords[0], ['Alert Mark']);
		api.simulateRankUpdate({
			keywordIds: alertIds,
			ranks: Object.fromEntries(alertIds.map((id) => [id, 20])),
		});
		clock += 2_000;
		const parameters = { event: 'newAlert', filters: { tags: ['ALERT MARK'] } };
		const state = copy((await poll(parameters)).staticData);
		clock += 2_000;
		api.simulateRankUpdate({
			keywordIds: alertIds,
			ranks: Object.fromEntries(alertIds.map((id) => [id, 25])),
			createAlerts: true,
		});
		clock += 2_000;
		const countRequests = async (filters: IDataObject) => {
			const before = api.requests.length;
			const result = await poll({ event: 'newAlert', filters }, copy(state));
			return { items: itemsOf(result), requests: api.requests.length - before };
		};
		const plain = await countRequests({});
		assert.equal(plain.items.length, 2);
		const tagged = await countRequests(parameters.filters);
		assert.deepEqual(
			tagged.items.map((item) => [item.keyword, item.matched]),
			[[keywords[0].kw, ['tagged']]],
		);
		const keywordListRequests = api.requests
			.slice(-tagged.requests)
			.filter((request) => request.path.includes('/keywords'));
		assert.equal(keywordListRequests.length, 1, "one page of the project's keyword list");
		assert.equal(tagged.requests, plain.requests + 1);
		// The list fails: both alerts are emitted, marked, and n8n's log says why.
		const fault = api.injectFault({
			path: '/api/v2/groups/Acme Shoes/keywords/',
			times: Infinity,
			status: 503,
		});
		try {
			clearCapturedLogs();
			const unknown = await countRequests(parameters.filters);
			assert.deepEqual(
				unknown.items.map((item) => item.matched),
				[['tags_unknown'], ['tags_unknown']],
			);
			assert.ok(
				getCapturedLogs().some(
					(line) => line.level === 'warn' && /Acme Shoes.*tags_unknown/.test(line.message),
				),
				'a warning names the project',
			);
		} finally {
			api.removeFault(fault);
		}
	});

	it('bad settings fail with an error naming the field, before any request', async () => {
		for (const [filters, field] of [
			[{ movedBy: 0 }, 'Moved By At Least'],
			[{ crossing: 'left' }, 'Crossing'],
			[{ crossedTop: 0 }, 'Top N'],
			[{ crossedTop: 0, topN: 101 }, 'Top N'],
		] as const) {
			const before = api.requests.length;
			const result = await poll({ ...KEYWORD_UPDATED, filters }, copy(afterFirst));
			assert.match(String(result.error?.message), new RegExp(field), JSON.stringify(filters));
			assert.equal(api.requests.length, before, 'nothing sent');
		}
	});
});
