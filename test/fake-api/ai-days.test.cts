/**
 * The fake's AI-visibility series move with its clock: a day completes at midnight UTC, the day not over yet holds
 * what was measured so far (or is left out: `aiToday`), and a day can be revised, go missing or lose the brand;
 * domains are added and removed. Each also through the control routes (the demo and the real-n8n tests use them).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { startFake, type Fake } from './helpers.cjs';

const DAY = 86_400_000;
const NOON = Date.UTC(2026, 0, 15, 12, 0, 0);

interface Daily {
	timestamps: string[];
	visibilityScore: number[];
	brandNotFound: boolean[];
}

describe('fake API: AI-visibility days follow the clock', () => {
	let clock = NOON;
	let f: Fake;
	let id: string;
	before(async () => {
		f = await startFake({ now: () => clock });
		id = f.api.state.aiDomains[0].id;
	});
	after(() => f.stop());

	const daily = async (query = 'timeframe=5'): Promise<Daily> =>
		(await f.get(`/api/v2/ai-visibility/domains/${id}/metrics?${query}`)).json.data.ownBrandMetrics
			.historicalData.daily as Daily;
	const valueOn = (series: Daily, date: string) =>
		series.visibilityScore[series.timestamps.findIndex((stamp) => stamp.startsWith(date))];

	it('today is partial until midnight; then it is a complete day and a new one starts', async () => {
		clock = NOON;
		const midday = await daily();
		assert.equal(midday.timestamps.at(-1), '2026-01-15T00:00:00.000Z');
		clock = NOON + 11 * 3_600_000;
		const evening = await daily();
		clock = NOON + DAY / 2 + 60_000; // 00:01 the next day
		const next = await daily();
		assert.equal(next.timestamps.at(-1), '2026-01-16T00:00:00.000Z');
		const complete = valueOn(next, '2026-01-15');
		// The complete day no longer moves; what was shown during the day was what had been measured then.
		clock += 5 * 3_600_000;
		assert.equal(valueOn(await daily(), '2026-01-15'), complete);
		assert.ok(
			valueOn(midday, '2026-01-15') !== complete || valueOn(evening, '2026-01-15') !== complete,
			'the day changed while it was not over',
		);
		f.api.setBehaviour({ aiToday: 'omitted' });
		assert.equal((await daily()).timestamps.at(-1), '2026-01-15T00:00:00.000Z');
		f.api.setBehaviour({ aiToday: 'partial' });
	});

	it('a day revised, missing, without the brand; through the control routes too', async () => {
		clock = NOON + 3 * DAY;
		const before = valueOn(await daily(), '2026-01-16');
		f.api.changeAiDay(id, '2026-01-16', { revise: true });
		assert.notEqual(valueOn(await daily(), '2026-01-16'), before);
		await f.call('POST', '/__control/ai-days', { domainId: id, date: '2026-01-16', missing: true });
		assert.ok(!(await daily()).timestamps.some((stamp) => stamp.startsWith('2026-01-16')));
		await f.call('POST', '/__control/ai-days', {
			domainId: id,
			date: '2026-01-16',
			missing: false,
			brandNotFound: true,
		});
		const series = await daily();
		const index = series.timestamps.findIndex((stamp) => stamp.startsWith('2026-01-16'));
		assert.equal(series.brandNotFound[index], true);
		assert.equal(series.visibilityScore[index], 0);
		const bad = await f.call('POST', '/__control/ai-days', { domainId: id, date: '16.01.2026' });
		assert.equal(bad.status, 422);
	});

	it('a domain added is measured from the day it was added; one removed answers 404', async () => {
		clock = NOON + 5 * DAY;
		const added = await f.call('POST', '/__control/ai-domains', { domain: 'new.example' });
		assert.equal(added.status, 201);
		const newId = String((added.json.data as { id: string }).id);
		const series = (await f.get(`/api/v2/ai-visibility/domains/${newId}/metrics?timeframe=10`)).json
			.data.ownBrandMetrics.historicalData.daily as Daily;
		assert.deepEqual(series.timestamps, ['2026-01-20T00:00:00.000Z']);
		await f.call('POST', '/__control/ai-domains/delete', { id: newId });
		assert.equal((await f.get(`/api/v2/ai-visibility/domains/${newId}`)).status, 404);
	});

	it('the clock moved forward by the control route: the data and the Date header follow it', async () => {
		clock = NOON + 7 * DAY;
		const moved = await f.call('POST', '/__control/clock', { advanceMs: DAY });
		assert.equal(moved.status, 200);
		assert.equal((moved.json as { now: string }).now, new Date(NOON + 8 * DAY).toISOString());
		const response = await fetch(`${f.api.baseUrl}/api/v2/ai-visibility/domains`, {
			headers: { Authorization: `Bearer ${f.api.token}` },
		});
		assert.equal(response.headers.get('date'), new Date(NOON + 8 * DAY).toUTCString());
		assert.equal((await daily()).timestamps.at(-1), '2026-01-23T00:00:00.000Z');
		assert.equal((await f.call('POST', '/__control/clock', { advanceMs: -1 })).status, 422);
	});
});
