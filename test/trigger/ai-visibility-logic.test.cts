/**
 * AI Visibility Updated's pure parts: the series read from answers of other shapes than the fake's, the comparison
 * with the day before (rank, competitor above, overtaking, brand lost or found), the filters, the stored state, and a
 * poll on an in-memory API (what it asks for, what it reports when one domain fails).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { aiDomainsOf } from '../../nodes/KeywordComTrigger/aiVisibilityUpdated/aiDomains';
import { compareDays } from '../../nodes/KeywordComTrigger/aiVisibilityUpdated/dayComparison';
import { matchDay } from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import { fullDay } from '../../nodes/KeywordComTrigger/aiVisibilityUpdated/dayItem';
import {
	aiSeriesOf,
	type AiDay,
} from '../../nodes/KeywordComTrigger/aiVisibilityUpdated/daySeries';
import { timestampMs } from '../../nodes/shared/aiSeries';
import {
	pollAiVisibility,
	timeframeFor,
} from '../../nodes/KeywordComTrigger/aiVisibilityUpdated/poll';
import { readEventState, storedState } from '../../nodes/KeywordComTrigger/state/storedState';
import { PollBudget } from '../../nodes/KeywordComTrigger/polling/budget';
import { MemoryApi } from './memory-api.cjs';

const DAY_S = 86_400;

function day(
	n: number,
	score: number | null,
	competitors: Array<[string, number | null]>,
	notFound: boolean | null = false,
): AiDay {
	return {
		ms: n * DAY_S * 1000,
		day: n,
		date: new Date(n * DAY_S * 1000).toISOString().slice(0, 10),
		metrics: {
			visibilityScore: score,
			sentiment: 50,
			mentions: 3,
			citations: 1,
			avgPosition: 2,
			detectionRate: 40,
			top3: 30,
		},
		brandNotFound: notFound,
		competitors: competitors.map(([name, visibilityScore]) => ({ name, visibilityScore })),
	};
}

/** A dashboard answer with `days` daily points for the own brand and one competitor. */
function answer(firstDay: number, scores: number[], rival: number[], notFound?: boolean[]) {
	const timestamps = scores.map((_, i) => new Date((firstDay + i) * DAY_S * 1000).toISOString());
	return {
		data: {
			ownBrandMetrics: {
				historicalData: {
					daily: {
						timestamps,
						visibilityScore: scores,
						mentions: scores.map(() => 2),
						brandNotFound: notFound ?? scores.map(() => false),
					},
				},
			},
			competitorTimeSeriesData: {
				daily: {
					timestamps,
					competitors: [
						{ name: 'Own', isOwnBrand: true, metrics: { visibilityScore: scores } },
						{ name: 'Rival', isOwnBrand: false, metrics: { visibilityScore: rival } },
					],
				},
			},
		},
	};
}

describe('AI Visibility Updated: days and comparisons', () => {
	it('reads the daily series of other shapes: no data envelope, numbers as text, short arrays, epoch stamps', () => {
		const series = aiSeriesOf({
			ownBrandMetrics: {
				historicalData: {
					daily: {
						timestamps: [20_000 * DAY_S, '1970-01-01T00:00:00Z'],
						visibilityScore: ['41.5'],
						brandNotFound: ['yes'],
					},
				},
			},
		});
		assert.equal(series.daily, true);
		assert.deepEqual(
			series.days.map((d) => [d.day, d.metrics.visibilityScore, d.brandNotFound, d.competitors]),
			[
				[0, null, null, []],
				[20_000, 41.5, null, []],
			],
		);
		assert.equal(aiSeriesOf({ data: { ownBrandMetrics: {} } }).daily, false);
		assert.equal(timestampMs('not a date'), undefined);
	});

	it('rank among competitors, the competitor just above, overtaking, brand lost and found', () => {
		const before = day(10, 50, [
			['A', 70],
			['B', 45],
			['C', 30],
		]);
		const today = day(11, 40, [
			['A', 70],
			['B', 45],
			['C', 30],
		]);
		const comparison = compareDays(today, before);
		assert.deepEqual(comparison, { scoreChange: -10, brandLost: null, overtakenBy: ['B'] });
		const item = fullDay({ id: 'd1', name: 'acme.com' }, today, before, comparison);
		assert.equal(item.brand_rank, 3);
		assert.equal(item.competitor_above, 'B');
		assert.deepEqual(item.overtaken_by, ['B']);
		assert.equal(item.visibility_score_change, -10);
		assert.deepEqual(matchDay(comparison, { competitorOvertook: true }), ['overtaken']);
		assert.deepEqual(
			matchDay(comparison, {
				visibilityChange: { points: 10, direction: 'dropped' },
				competitorOvertook: true,
			}),
			['visibility_dropped', 'overtaken'],
		);
		assert.equal(
			matchDay(comparison, { visibilityChange: { points: 10.01, direction: 'either' } }),
			undefined,
		);
		assert.equal(
			matchDay(comparison, { visibilityChange: { points: 1, direction: 'rose' } }),
			undefined,
		);

		const lost = compareDays(day(12, 0, [], true), day(11, 40, [], false));
		assert.equal(lost.brandLost, true);
		assert.deepEqual(matchDay(lost, { brandPresence: 'lost' }), ['brand_lost']);
		assert.equal(matchDay(lost, { brandPresence: 'found' }), undefined);
		const found = compareDays(day(13, 20, [], false), day(12, 0, [], true));
		assert.deepEqual(matchDay(found, { brandPresence: 'either' }), ['brand_found']);
		// No day before (a first day, or after a gap): no filter that compares passes.
		const alone = compareDays(day(14, 20, [['A', 90]]), undefined);
		assert.equal(matchDay(alone, { competitorOvertook: true }), undefined);
		assert.equal(matchDay(alone, { brandPresence: 'either' }), undefined);
		assert.deepEqual(matchDay(alone, {}), []);
		// A first rank without competitors' data is not known.
		assert.equal(fullDay({ id: 'd', name: 'd' }, day(15, 20, []), undefined).brand_rank, null);
	});

	it('a timestamp without an offset is UTC, whatever the n8n host’s time zone', () => {
		const zone = process.env.TZ;
		process.env.TZ = 'Europe/Berlin';
		try {
			const series = aiSeriesOf({
				ownBrandMetrics: {
					historicalData: {
						daily: {
							timestamps: ['2026-11-24 00:00:00', '2026-11-25T00:00:00'],
							visibilityScore: [1, 2],
						},
					},
				},
			});
			assert.deepEqual(
				series.days.map((d) => d.date),
				['2026-11-24', '2026-11-25'],
			);
		} finally {
			if (zone === undefined) delete process.env.TZ;
			else process.env.TZ = zone;
		}
	});

	it('reads the domain list in other shapes', () => {
		assert.deepEqual(aiDomainsOf([{ id: 7, name: 'acme.com' }, { id: 7 }, { uuid: 'u-1' }]), [
			{ id: '7', name: 'acme.com' },
			{ id: 'u-1', name: 'u-1' },
		]);
		assert.deepEqual(aiDomainsOf({ data: [{ attributes: { domain_id: 'x', url: 'x.com' } }] }), [
			{ id: 'x', name: 'x.com' },
		]);
		assert.equal(aiDomainsOf({ data: 'none' }), undefined);
	});

	it('asks for the days owed, the day before and today, never more than a year', () => {
		assert.equal(timeframeFor(99, 100), 4);
		assert.equal(timeframeFor(90, 100), 13);
		assert.equal(timeframeFor(0, 10_000), 365);
	});

	it('the stored state reads back; another event or format does not', () => {
		const state = {
			clockDay: 20_000,
			domains: new Map([
				['__proto__', 19_999],
				['d2', 20_000],
			]),
		};
		const stored = JSON.parse(JSON.stringify(storedState('aiVisibilityUpdated', state))) as never;
		assert.deepEqual(readEventState('aiVisibilityUpdated', stored)?.state, state);
		assert.equal(readEventState('newAlert', stored), undefined);
		assert.equal(
			readEventState('aiVisibilityUpdated', { ...(stored as object), v: 3 } as never),
			undefined,
		);
	});
});

describe('AI Visibility Updated: one poll on an in-memory API', () => {
	const limits = (api: MemoryApi) => ({ budget: new PollBudget(30_000, api.now) });

	it('a budget that ends before every domain is read: the rest wait for the next poll, unreported, nothing lost', async () => {
		const api = new MemoryApi();
		api.serverTime = 101 * DAY_S + 3_600;
		api.latencyMs = 1_000;
		const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
		api.aiDomainList = { data: ids.map((id) => ({ id, domain: `${id}.example` })) };
		for (const id of ids) api.aiAnswers.set(id, answer(98, [10, 20, 30, 5], [15, 15, 15, 15]));
		const settings = {
			scope: { project: '', group: '', includeGroups: true },
			output: { mode: 'simplified' as const, fields: [] },
			onlyRankChanges: false,
		};
		let state = { clockDay: 99, domains: new Map(ids.map((id) => [id, 99])) };
		const emitted: string[] = [];
		let polls = 0;
		while (emitted.length < ids.length && polls < 10) {
			polls++;
			const outcome = await pollAiVisibility(api, state, settings, {
				budget: new PollBudget(3_500, api.now),
			});
			assert.deepEqual(outcome.problems, [], 'a request not started is no failure');
			emitted.push(...outcome.items.map((item) => String(item.domain_id)));
			if (emitted.length < ids.length) assert.equal(outcome.complete, false);
			state = outcome.state;
		}
		assert.ok(polls > 1, 'the budget cut the first poll short');
		assert.deepEqual([...emitted].sort(), [...ids].sort(), 'each domain’s day once');
	});

	it('a failing domain is reported by name and keeps its place; the other one emits', async () => {
		const api = new MemoryApi();
		api.serverTime = 101 * DAY_S + 3_600;
		api.aiDomainList = {
			data: [
				{ id: 'a', domain: 'a.com' },
				{ id: 'b', domain: 'b.com' },
			],
		};
		api.aiAnswers.set('a', answer(98, [10, 20, 30, 5], [15, 15, 15, 15]));
		const settings = {
			scope: { project: '', group: '', includeGroups: true },
			output: { mode: 'simplified' as const, fields: [] },
			onlyRankChanges: false,
			token: 'secret-token-abc',
		};
		const state = { clockDay: 99, domains: new Map([['a', 99]]) };
		const outcome = await pollAiVisibility(api, state, settings, limits(api));
		// b is new: it owes the days after the poll before (day 100); its dashboard fails (404 here).
		assert.deepEqual(
			outcome.items.map((item) => [item.domain, item.date, item.visibility_score_change]),
			[['a.com', '1970-04-11', 10]],
		);
		assert.deepEqual(
			[...outcome.state.domains],
			[
				['a', 100],
				['b', 99],
			],
		);
		assert.equal(outcome.problems.length, 1);
		assert.match(String(outcome.problems[0].text), /"b\.com" could not be read \(HTTP 404\)/);
		assert.deepEqual(api.calls, ['ai-domains', 'ai-metrics:a:4', 'ai-metrics:b:4']);
		// The overtaking of day 100 (15 > 30? no): rank 1; day 101 is today, not emitted.
		assert.equal(outcome.items[0].brand_rank, 1);
	});
});
