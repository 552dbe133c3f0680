/**
 * Scenario 1 in n8n's engine (test/harness `runNode`, real HTTP): Keyword → Get Many, Return All, on an account
 * with N keywords, at each injected latency; the node at its default concurrency against the same node at
 * concurrency 1 (one page after another), measured in the same run. Also Limit (stops reading early) and a 429 in
 * the middle of the run (retried, nothing lost).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEFAULT_PAGE_CONCURRENCY } from '../nodes/shared/constants';
import { quietReadRequests } from '../dev/quiet-read.cjs';
import {
	PAGE_SIZE,
	check,
	listRequests,
	log,
	overlapCheck,
	startFake,
	rl,
	round,
	runKeywordCom,
	sameOrder,
	type SectionResult,
} from './lib.cjs';

export const PROJECT = 'Bulk Project';

export interface ReturnAllOptions {
	keywords: number;
	latencies: number[];
	/** Concurrency values to run besides 1 (default: the node's default only). */
	concurrencies?: number[];
	/** Runs of each setting, alternated; the fastest counts (the machine is shared: the least disturbed run). */
	repeat?: number;
}

function getMany(options: IDataObject, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'keyword',
		operation: 'getMany',
		project: rl(PROJECT),
		returnAll: true,
		options: options as INodeParameters,
		...extra,
	};
}

export async function benchReturnAll({
	keywords,
	latencies,
	concurrencies,
	repeat = 3,
}: ReturnAllOptions): Promise<SectionResult> {
	const result: SectionResult = { rows: [], checks: [] };
	const fake = await startFake({ cacheReads: true });
	try {
		const ids = await fake.addKeywords(PROJECT, keywords);
		// Page 1, then windows of 125–250 that each hold the last keyword read (so a list that changes meanwhile loses
		// and repeats nothing): ⌈n/250⌉ plus about 8 %.
		const pages = quietReadRequests(keywords, PAGE_SIZE);
		const fast = concurrencies?.length ? concurrencies : [DEFAULT_PAGE_CONCURRENCY];
		// Warm-up (not measured): the first run pays for JIT compilation and the fake building its records.
		await runKeywordCom(fake, getMany({}));
		for (const latencyMs of latencies) {
			await fake.setLatency(latencyMs);
			const measured: Record<number, number> = {};
			const runs: Record<number, number[]> = {};
			for (let round_ = 0; round_ < repeat; round_++) {
				for (const concurrency of [...fast, 1]) {
					await fake.reset();
					// The default run sets no option at all (what a user gets); the others set Concurrency.
					const options = concurrency === DEFAULT_PAGE_CONCURRENCY ? {} : { concurrency };
					const run = await runKeywordCom(fake, getMany(options));
					const lists = listRequests(await fake.requests());
					const peak = await fake.peakInFlight();
					const items = run.result.items.map((item) => item.json);
					(runs[concurrency] ??= []).push(round(run.ms));
					log(
						`Return All ${keywords} @${latencyMs} ms, concurrency ${concurrency}, run ${round_ + 1}/${repeat}: ${round(run.ms)} ms, ${lists.length} requests, peak ${peak} in flight`,
					);
					const label = `Return All @${latencyMs} ms c=${concurrency} run ${round_ + 1}`;
					check(
						result,
						`${label}: ${pages} list requests`,
						lists.length === pages,
						`${lists.length}`,
					);
					check(
						result,
						`${label}: page 1 per_page=250, the windows 125–250`,
						lists[0]?.query.per_page === String(PAGE_SIZE) &&
							lists.every(
								(r) =>
									Number(r.query.per_page) >= PAGE_SIZE / 2 &&
									Number(r.query.per_page) <= PAGE_SIZE,
							),
					);
					check(result, `${label}: ${keywords} records in the API's order`, sameOrder(items, ids));
					check(
						result,
						`${label}: at most ${concurrency} in flight`,
						peak <= concurrency,
						`peak ${peak}`,
					);
					if (measured[concurrency] === undefined || run.ms < measured[concurrency]) {
						measured[concurrency] = run.ms;
						const row = {
							section: 'return-all',
							scenario: `Keyword.com Return All, ${keywords.toLocaleString('en')} keywords, concurrency ${concurrency}${concurrency === DEFAULT_PAGE_CONCURRENCY ? ' (default)' : ''}`,
							latencyMs,
							requests: lists.length,
							ms: round(run.ms),
							peakInFlight: peak,
							items: items.length,
						};
						const at = result.rows.findIndex(
							(r) =>
								r.section === 'return-all' &&
								r.latencyMs === latencyMs &&
								r.scenario === row.scenario,
						);
						if (at >= 0) result.rows[at] = row;
						else result.rows.push(row);
					}
				}
			}
			for (const concurrency of [...fast, 1]) {
				const row = result.rows.find(
					(r) =>
						r.latencyMs === latencyMs &&
						r.scenario.includes(`concurrency ${concurrency}`) &&
						r.section === 'return-all',
				);
				if (row && repeat > 1)
					row.note = `fastest of ${repeat} runs: ${runs[concurrency].join(', ')} ms`;
			}
			for (const concurrency of fast) {
				const ratio = measured[1] / measured[concurrency];
				const row = result.rows.find(
					(r) =>
						r.latencyMs === latencyMs &&
						r.scenario.includes(`concurrency ${concurrency}`) &&
						r.section === 'return-all',
				);
				if (row)
					Object.assign(row, { ratio: round(ratio, 2), ratioLabel: 'faster than concurrency 1' });
				overlapCheck(result, `Return All @${latencyMs} ms`, {
					oneAtATimeMs: measured[1],
					concurrentMs: measured[concurrency],
					requests: pages,
					latencyMs,
					concurrency,
				});
			}
		}

		// Limit: reading stops as soon as enough records are in (latency of the last setting).
		await fake.reset();
		const limited = await runKeywordCom(fake, { ...getMany({}), returnAll: false, limit: 260 });
		const limitLists = listRequests(await fake.requests());
		check(result, 'Limit 260: 2 list requests', limitLists.length === 2, `${limitLists.length}`);
		check(
			result,
			'Limit 260: 260 records, the first ones',
			sameOrder(
				limited.result.items.map((i) => i.json),
				ids.slice(0, 260),
			),
		);
		result.rows.push({
			section: 'return-all',
			scenario: 'Keyword.com Limit 260',
			latencyMs: latencies[latencies.length - 1],
			requests: limitLists.length,
			ms: round(limited.ms),
			items: limited.result.items.length,
		});

		// A 429 in the middle (Retry-After: 0): the page is asked again, nothing is lost or duplicated.
		await fake.reset();
		await fake.faultAtRequest(Math.floor(pages / 2), {
			method: 'GET',
			path: /\/keywords\/?$/,
			times: 1,
			status: 429,
			retryAfter: '0',
		});
		const throttled = await runKeywordCom(fake, getMany({}));
		const throttledLists = listRequests(await fake.requests());
		const got429 = throttledLists.filter((r) => r.status === 429).length;
		check(
			result,
			'a 429 mid-way: answered once, retried, all records in order',
			got429 === 1 &&
				sameOrder(
					throttled.result.items.map((i) => i.json),
					ids,
				),
			`${got429} × 429, ${throttledLists.length} requests`,
		);
		result.rows.push({
			section: 'return-all',
			scenario: `Keyword.com Return All with one 429 mid-way (Retry-After 0)`,
			latencyMs: latencies[latencies.length - 1],
			requests: throttledLists.length,
			ms: round(throttled.ms),
			items: throttled.result.items.length,
			note: `${pages} windows + 1 retry`,
		});
	} finally {
		await fake.stop();
	}
	return result;
}
