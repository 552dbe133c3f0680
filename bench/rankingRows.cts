/**
 * Scenario 4, one row per keyword per day (test/harness `runNode`, real HTTP): Ranking History → Get Many on N
 * keywords × D days (the API's last D days) against the naive way in the same run: the keyword list (Keyword → Get
 * Many, Return All), then one chart request per keyword (Ranking History → Get Chart, one item per keyword; n8n's
 * routing engine sends the requests of all items at once). Also the same operation with Keywords per Request 1, to show what the chunks alone save.
 */
import { DEFAULT_CHART_CHUNK_SIZE } from '../nodes/shared/constants';
import { quietReadRequests } from '../dev/quiet-read.cjs';
import {
	ceilDiv,
	check,
	listRequests,
	log,
	rl,
	round,
	runKeywordCom,
	startFake,
	type BenchFake,
	type SectionResult,
} from './lib.cjs';

export interface RankingRowsOptions {
	keywords: number;
	days: number;
	latencyMs: number;
}

const PROJECT = 'Rank Export';

const chartRequests = (requests: Array<{ method: string; path: string }>) =>
	requests.filter(
		(request) => request.method === 'POST' && request.path.endsWith('/keywords/chart'),
	);

export async function benchRankingRows({
	keywords,
	days,
	latencyMs,
}: RankingRowsOptions): Promise<SectionResult> {
	const result: SectionResult = { rows: [], checks: [] };
	const fake: BenchFake = await startFake();
	try {
		await fake.addProject(PROJECT);
		const ids = await fake.addKeywords(PROJECT, keywords);
		await fake.setLatency(latencyMs);
		const listPages = quietReadRequests(keywords);
		const exportRows = {
			resource: 'rankingHistory',
			operation: 'getMany',
			project: rl(PROJECT),
			returnAll: true,
			// The last `days` days, up to today.
			startDate: `={{ $now.toUTC().minus({ days: ${days - 1} }).toFormat('yyyy-MM-dd') }}`,
			endDate: `={{ $now.toUTC().toFormat('yyyy-MM-dd') }}`,
		};
		const label = `${keywords.toLocaleString('en')} keywords × ${days} days`;

		const measure = async (chunkSize: number) => {
			await fake.reset();
			const run = await runKeywordCom(fake, { ...exportRows, options: { chunkSize } });
			const seen = await fake.requests();
			const peak = await fake.peakInFlight();
			return {
				run,
				seen,
				peak,
				charts: chartRequests(seen).length,
				lists: listRequests(seen).length,
			};
		};

		const chunked = await measure(DEFAULT_CHART_CHUNK_SIZE);
		const expectedCharts = ceilDiv(keywords, DEFAULT_CHART_CHUNK_SIZE);
		log(`rows ${label}: ${chunked.seen.length} requests, ${round(chunked.run.ms)} ms`);
		check(
			result,
			`rows ${label}: ${listPages} list requests + ⌈${keywords}/${DEFAULT_CHART_CHUNK_SIZE}⌉ = ${expectedCharts} chart requests`,
			chunked.lists === listPages &&
				chunked.charts === expectedCharts &&
				chunked.seen.length === listPages + expectedCharts,
			`${chunked.lists} + ${chunked.charts}`,
		);
		check(
			result,
			`rows ${label}: one row per keyword per day`,
			chunked.run.result.items.length === keywords * days,
			String(chunked.run.result.items.length),
		);

		check(
			result,
			`rows ${label}: at most 4 requests in flight (Concurrency)`,
			chunked.peak <= 4,
			String(chunked.peak),
		);

		const perKeyword = await measure(1);
		check(
			result,
			`rows ${label}, Keywords per Request 1: ${listPages} + ${keywords} requests`,
			perKeyword.seen.length === listPages + keywords,
			String(perKeyword.seen.length),
		);

		// Naive: the list, then one item (one chart request) per keyword.
		await fake.reset();
		const list = await runKeywordCom(fake, {
			resource: 'keyword',
			operation: 'getMany',
			project: rl(PROJECT),
			returnAll: true,
		});
		const charts = await runKeywordCom(
			fake,
			{ resource: 'rankingHistory', operation: 'getChart', keywordIds: '={{ $json.id }}', days },
			list.result.items.map((item) => ({ json: { id: item.json.id } })),
		);
		const naiveRequests = (await fake.requests()).length;
		const naivePeak = await fake.peakInFlight();
		const naiveMs = list.ms + charts.ms;
		check(
			result,
			`naive ${label}: ${listPages} list requests + one chart request per keyword`,
			naiveRequests === listPages + keywords && charts.result.items.length === ids.length,
			String(naiveRequests),
		);

		result.rows.push(
			{
				section: 'rows',
				scenario: `Ranking History → Get Many, ${label}, Keywords per Request ${DEFAULT_CHART_CHUNK_SIZE} (default), concurrency 4`,
				latencyMs,
				requests: chunked.seen.length,
				ms: round(chunked.run.ms),
				peakInFlight: chunked.peak,
				items: chunked.run.result.items.length,
				ratio: round(naiveMs / chunked.run.ms, 1),
				ratioLabel: 'faster than the naive way',
				note: `${chunked.lists} list + ${chunked.charts} chart requests; ${round(naiveRequests / chunked.seen.length, 1)}× fewer requests than the naive way`,
			},
			{
				section: 'rows',
				scenario: `Ranking History → Get Many, ${label}, Keywords per Request 1, concurrency 4`,
				latencyMs,
				requests: perKeyword.seen.length,
				ms: round(perKeyword.run.ms),
				peakInFlight: perKeyword.peak,
				items: perKeyword.run.result.items.length,
				note: `${perKeyword.lists} list + ${perKeyword.charts} chart requests`,
			},
			{
				section: 'rows',
				scenario: `Naive: Keyword → Get Many, then Get Chart once per keyword (${keywords.toLocaleString('en')} items)`,
				latencyMs,
				requests: naiveRequests,
				ms: round(naiveMs),
				peakInFlight: naivePeak,
				items: charts.result.items.length,
				note: `list ${round(list.ms)} ms + charts ${round(charts.ms)} ms (n8n sends a declarative node's items at once: every chart request in flight together); one item per keyword with its ${days} days inside, not one per day`,
			},
		);
	} finally {
		await fake.stop();
	}
	return result;
}
