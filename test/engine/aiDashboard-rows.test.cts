/**
 * Get Dashboard (#26): Output Simplified is one flat row per day (or per period) made of the API's
 * parallel arrays, each value the one the arrays hold for that day, with its change from the day before and the top
 * competitors by name; Selected Fields picks from the whole row; Raw is the report as the API sent it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { MAX_SIMPLIFIED_FIELDS } from '../../nodes/shared/output';
import { rl, runOk, useFake } from './helpers.cjs';

const fake = useFake();
const domainId = () => fake.api.state.aiDomains[0].id;
const dashboard = (extra: IDataObject = {}) => ({
	resource: 'aiMetric',
	operation: 'getDashboard',
	domainId: rl(domainId(), 'id'),
	...extra,
});

interface Report {
	ownBrandMetrics: { historicalData: Record<string, Record<string, unknown[]>> };
	competitorTimeSeriesData: Record<
		string,
		{
			competitors: Array<{
				name: string;
				isOwnBrand: boolean;
				metrics: { visibilityScore: number[] };
			}>;
		}
	>;
}

describe('Get Dashboard: one row per period', () => {
	it('Simplified: a flat row a day, the arrays’ values, the change from the day before, top competitors', async () => {
		const [report] = (await runOk(fake, dashboard({ output: 'raw' }))).items as unknown as [Report];
		const daily = report.ownBrandMetrics.historicalData.daily;
		const { items, requests } = await runOk(fake, dashboard());
		assert.equal(requests.length, 1);
		assert.equal(items.length, daily.timestamps.length);
		const competitors = report.competitorTimeSeriesData.daily.competitors.filter(
			(competitor) => !competitor.isOwnBrand,
		);
		items.forEach((item, index) => {
			assert.ok(Object.keys(item).length <= MAX_SIMPLIFIED_FIELDS);
			assert.equal(item.date, String(daily.timestamps[index]).slice(0, 10));
			assert.equal(item.visibility_score, daily.visibilityScore[index]);
			assert.equal(item.mentions, daily.mentions[index]);
			assert.equal(item.avg_position, daily.avgPosition[index]);
			assert.equal(item.brand_not_found, daily.brandNotFound[index]);
			const change =
				index === 0
					? null
					: Math.round(
							((daily.visibilityScore[index] as number) -
								(daily.visibilityScore[index - 1] as number)) *
								100,
						) / 100;
			assert.equal(item.visibility_score_change, change);
			const top = [...competitors]
				.sort((a, b) => b.metrics.visibilityScore[index] - a.metrics.visibilityScore[index])
				.slice(0, 3)
				.map((competitor) => competitor.name)
				.join(', ');
			assert.equal(item.top_competitors, top);
		});
	});

	it('Selected Fields picks from the whole row; weekly aggregation gives a row a week', async () => {
		const { items } = await runOk(
			fake,
			dashboard({
				output: 'selected',
				fields: ['date', 'top3', 'top3_change', 'brand_rank', 'competitor_above'],
				filters: { aggregation: 'weekly', timeframe: '3m' },
			}),
		);
		assert.ok(items.length >= 12 && items.length <= 14, `${items.length} weeks`);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), [
				'date',
				'top3',
				'top3_change',
				'brand_rank',
				'competitor_above',
			]);
			assert.match(String(item.date), /^\d{4}-\d\d-\d\d$/);
			assert.equal(typeof item.brand_rank, 'number');
		}
	});

	it('the rows follow the aggregation the query was sent with (an expression’s spaces trimmed)', async () => {
		const weekly = { aggregation: 'weekly', timeframe: '3m' };
		const rows = (await runOk(fake, dashboard({ filters: weekly }))).items;
		const spaced = (
			await runOk(fake, dashboard({ filters: { ...weekly, aggregation: ' weekly ' } }))
		).items;
		assert.ok(rows.length > 0);
		assert.deepEqual(spaced, rows);
	});

	it('Raw keeps the API’s answer: the report as one item', async () => {
		const { items } = await runOk(fake, dashboard({ output: 'raw' }));
		assert.equal(items.length, 1);
		assert.deepEqual(Object.keys(items[0]).sort(), [
			'competitorMetrics',
			'competitorTimeSeriesData',
			'ownBrandMetrics',
		]);
	});
});
