/**
 * Return All and Limit through n8n's engine, real HTTP, while the list changes between page requests: the fake's
 * `churn` switch deletes, re-crawls and adds keywords after every page of #13, and adds alerts after every page of
 * #20 (in whichever order the alert list runs). The expected output comes from the fake's own record of what changed
 * (`churnLog`): every record present from the first request of the read to the last is returned exactly once, in the
 * list's order; a record added or deleted during the read may be there or not, and nothing else is.
 *
 * A list in no order the node can check (top pages #21, aggregates without ids) is read as served; when every read
 * of it shows a change, the item fails with a clear error (with Continue On Fail, an error item) instead of returning
 * a partial list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { ChurnLogEntry } from '../../dev/fake-api/behaviour.cjs';
import { quietReadRequests } from '../../dev/quiet-read.cjs';
import {
	assertOperationError,
	enc,
	keywordIdsOf,
	rl,
	run,
	runOk,
	useFake,
	type Fake,
} from './helpers.cjs';

const LIST = 'Changing List';
const KEYWORDS = 2_000;

/** What the fake says the read must return, and may return. */
function groundTruth(
	initial: readonly string[],
	log: readonly ChurnLogEntry[],
): { required: string[]; allowed: Set<string>; deleted: number } {
	// Every change but the last happened before the last page was answered (the fake changes the list right after
	// answering a page): a record deleted then was not there throughout the read.
	const during = log.slice(0, -1);
	const deleted = new Set(during.flatMap((entry) => entry.deleted));
	const added = log.flatMap((entry) => [...entry.added, ...entry.alerts]);
	return {
		required: initial.filter((id) => !deleted.has(id)),
		allowed: new Set([...initial, ...added]),
		deleted: deleted.size,
	};
}

function assertExactRead(
	ids: string[],
	initial: readonly string[],
	log: readonly ChurnLogEntry[],
	before: (a: string, b: string) => boolean,
	label: string,
): void {
	const seen = new Set<string>();
	const twice = ids.filter((id) => seen.has(id) || !seen.add(id));
	assert.deepEqual(twice, [], `${label}: no record twice`);
	const { required, allowed } = groundTruth(initial, log);
	const missing = required.filter((id) => !seen.has(id));
	assert.deepEqual(
		missing,
		[],
		`${label}: ${missing.length} records present during the whole read are missing`,
	);
	const unknown = ids.filter((id) => !allowed.has(id));
	assert.deepEqual(unknown, [], `${label}: only records that were in the list`);
	for (let n = 1; n < ids.length; n++)
		assert.ok(
			before(ids[n - 1], ids[n]),
			`${label}: in the list's order (${ids[n - 1]}, ${ids[n]})`,
		);
}

const ascendingIds = (a: string, b: string) => Number(a) < Number(b);

async function changingRead(fake: Fake, parameters: Record<string, unknown>) {
	fake.api.clearChurnLog();
	const outcome = await runOk(fake, parameters as never);
	const log = fake.api.churnLog.map((entry) => ({ ...entry }));
	fake.api.setBehaviour({ churn: null });
	return { outcome, log, ids: outcome.items.map((item) => String(item.id)) };
}

describe('Return All while the list changes (engine)', () => {
	describe('#13 keywords: deleted, re-crawled and added between pages', () => {
		const fake = useFake({ seed: 'empty', behaviour: { pageLatencyMs: 3 } });

		for (const concurrency of [4, 1]) {
			it(`Return All, concurrency ${concurrency}: every keyword there throughout the read, once, in id order`, async () => {
				fake.api.reset('empty');
				fake.api.addKeywords(LIST, KEYWORDS);
				const initial = keywordIdsOf(fake, LIST);
				fake.api.setBehaviour({ churn: { deleteKeywords: 3, crawlKeywords: 2, addKeywords: 2 } });
				const options = concurrency === 4 ? {} : { concurrency };
				const { outcome, log, ids } = await changingRead(fake, {
					resource: 'keyword',
					operation: 'getMany',
					project: rl(LIST),
					returnAll: true,
					options,
				});
				assert.ok(
					log.length >= quietReadRequests(KEYWORDS),
					`the list changed after every page (${log.length} times)`,
				);
				const truth = groundTruth(initial, log);
				assert.ok(truth.deleted > 20, `keywords deleted during the read: ${truth.deleted}`);
				assertExactRead(ids, initial, log, ascendingIds, `concurrency ${concurrency}`);
				// Re-crawled keywords are there once, as served at the moment their window was read.
				const crawled = new Set(log.flatMap((entry) => entry.crawled));
				assert.ok(ids.some((id) => crawled.has(id)));
				const requests = outcome.requests.length;
				assert.ok(requests <= 3 * quietReadRequests(KEYWORDS), `${requests} requests`);
				assert.ok(
					outcome.requests.every(
						(request) =>
							Number(request.query.per_page) >= 125 && Number(request.query.per_page) <= 250,
					),
				);
			});
		}

		it('Limit 1,000 while the list changes: the first 1,000 keywords, none skipped, none twice', async () => {
			fake.api.reset('empty');
			fake.api.addKeywords(LIST, KEYWORDS);
			const initial = keywordIdsOf(fake, LIST);
			fake.api.setBehaviour({ churn: { deleteKeywords: 4, addKeywords: 1 } });
			const { log, ids } = await changingRead(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(LIST),
				limit: 1_000,
			});
			assert.equal(ids.length, 1_000);
			const last = Number(ids[ids.length - 1]);
			assertExactRead(
				ids,
				initial.filter((id) => Number(id) <= last),
				log,
				ascendingIds,
				'Limit 1,000',
			);
		});
	});

	describe('#20 alerts: new alerts arrive between pages', () => {
		const fake = useFake({ seed: 'empty', behaviour: { pageLatencyMs: 3 } });

		/** Alerts in several seconds, many sharing one (ties are ordered by id). */
		const seedAlerts = () => {
			fake.api.reset('empty');
			const now = Math.floor(fake.api.state.nowSeconds());
			for (let batch = 0; batch < 12; batch++)
				fake.api.addAlerts(150, { createdAt: now - 3_600 + batch * 60 });
			return fake.api.state.alerts.map((alert) => String(alert.id));
		};
		const timeOf = () =>
			new Map(fake.api.state.alerts.map((alert) => [String(alert.id), alert.createdAt]));
		const newestFirst = (times: Map<string, number>) => (a: string, b: string) =>
			(times.get(a) ?? 0) > (times.get(b) ?? 0) ||
			((times.get(a) ?? 0) === (times.get(b) ?? 0) && Number(a) > Number(b));
		const oldestFirst = (times: Map<string, number>) => (a: string, b: string) =>
			(times.get(a) ?? 0) < (times.get(b) ?? 0) ||
			((times.get(a) ?? 0) === (times.get(b) ?? 0) && Number(a) < Number(b));

		for (const [alertOrder, sortDirection, expectOrder] of [
			['newest-first', undefined, newestFirst],
			['oldest-first', undefined, oldestFirst],
			['as-asked', 'asc', oldestFirst],
			['newest-first', 'asc', newestFirst],
		] as const) {
			it(`the API lists them ${alertOrder}${sortDirection ? `, sort_direction=${sortDirection} asked` : ''}: every alert once, in that order`, async () => {
				const initial = seedAlerts();
				fake.api.setBehaviour({ alertOrder, churn: { addAlerts: 7 } });
				try {
					const options = sortDirection ? { sortDirection } : {};
					const { log, ids } = await changingRead(fake, {
						resource: 'alert',
						operation: 'getMany',
						returnAll: true,
						options,
					});
					assert.ok(
						log.length >= quietReadRequests(initial.length),
						`alerts arrived after every page (${log.length} times)`,
					);
					assertExactRead(ids, initial, log, expectOrder(timeOf()), alertOrder);
				} finally {
					fake.api.setBehaviour({ alertOrder: 'as-asked' });
				}
			});
		}
	});

	describe('#21 top pages: no order to check, so a change fails the item rather than give a partial list', () => {
		const fake = useFake();
		const PAGES = 'Top Pages Changing';
		const path = `/api/v2/groups/${PAGES}/keywords/ranking-urls`;
		/** A page that claims a list of 600 in 3 pages but holds the same 250 pages each time (as if the list moved). */
		const shiftingPage = (total: number) =>
			JSON.stringify({
				data: Array.from({ length: 250 }, (_, index) => ({
					current_ranking_url: `https://pages.example/${index}/`,
					total_keyword_count: 1,
				})),
				meta: { current_page: 1, last_page: 3, per_page: 250, total },
				links: { next: null },
			});

		it('every read shows the list changing: after 3 reads, an error that says so and what to do', async () => {
			fake.api.addKeywords(PAGES, 20);
			fake.api.injectFault({ method: 'GET', path, times: 9, status: 200, body: shiftingPage(600) });
			const outcome = await run(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES),
				returnAll: true,
			});
			fake.api.clearFaults();
			assert.ok(outcome.error, `the node must fail, it returned ${outcome.items.length} items`);
			assertOperationError(outcome.error);
			assert.match(
				outcome.error.message,
				/^The list changed while it was being read \(\d+ records added or removed during the read, 3 tries\); run the node again$/,
			);
			assert.match(outcome.error.description ?? '', /Run the node again/);
			assert.equal(outcome.requests.length, 9, '3 reads of 3 pages');
			assert.ok(
				outcome.requests.every(
					(request) => request.rawPath === `/api/v2/groups/${enc(PAGES)}/keywords/ranking-urls`,
				),
			);
		});

		it('with Continue On Fail: an error item for that item, the other items go on', async () => {
			fake.api.injectFault({ method: 'GET', path, times: 9, status: 200, body: shiftingPage(600) });
			const outcome = await run(
				fake,
				{
					resource: 'topPage',
					operation: 'getMany',
					project: rl('={{ $json.project }}' as string),
					returnAll: true,
				},
				{
					continueOnFail: true,
					items: [{ json: { project: PAGES } }, { json: { project: 'Acme Shoes' } }],
				},
			);
			fake.api.clearFaults();
			assert.equal(outcome.error, undefined);
			const errors = outcome.raw.filter((item) => item.json.error !== undefined);
			assert.equal(errors.length, 1);
			assert.match(String(errors[0].json.error), /The list changed while it was being read/);
			assert.equal(
				outcome.raw[0],
				errors[0],
				"the first item's error comes first (n8n's routing engine gives it no pairedItem)",
			);
			const pages = outcome.raw.filter((item) => item.json.error === undefined);
			assert.ok(
				pages.length > 0 && pages.every((item) => (item.pairedItem as { item: number }).item === 1),
			);
		});

		it('a change seen by one read only: read again, and the consistent second read is returned', async () => {
			fake.api.injectFault({ method: 'GET', path, times: 2, status: 200, body: shiftingPage(600) });
			const outcome = await runOk(fake, {
				resource: 'topPage',
				operation: 'getMany',
				project: rl(PAGES),
				returnAll: true,
			});
			fake.api.clearFaults();
			const urls = outcome.items.map((item: IDataObject) => String(item.ranking_url));
			assert.equal(new Set(urls).size, urls.length);
			assert.ok(urls.length > 0 && urls.length < 250, `${urls.length} top pages`);
			assert.ok(outcome.requests.length >= 3);
		});
	});
});
