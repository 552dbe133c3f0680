/**
 * Item 2 of the hardening issue: rate limits and retries. A 429 is retried after Retry-After (seconds or an HTTP
 * date, a default when absent), a bounded number of times with a cap on the wait, then a clear error; a 429 deep in
 * a paged read loses nothing; creates, changes and deletes are never repeated after an ambiguous failure, reads are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { RecordedRequest } from '../../dev/fake-api/index.cjs';
import { quietReadWindows } from '../../dev/quiet-read.cjs';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from '../../nodes/shared/retryPolicy';
import { OPERATIONS, registered } from '../operations/index.cjs';
import { parametersOf } from '../operations/engine.cjs';
import { PROJECT, describeRequests, rl, run, runOk, useFake, type Fake } from './helpers.cjs';

const fake = useFake();
const PROJECT_GET = { resource: 'project', operation: 'get', project: rl(PROJECT) };

describe('the retry policy (pure)', () => {
	const now = Date.UTC(2026, 0, 15, 12, 0, 0);

	it('reads Retry-After as seconds or as an HTTP date', () => {
		assert.equal(parseRetryAfter('0', now), 0);
		assert.equal(parseRetryAfter('3', now), 3000);
		assert.equal(parseRetryAfter(' 2.5 ', now), 2500);
		assert.equal(parseRetryAfter(['7'], now), 7000);
		assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30_000);
		assert.equal(parseRetryAfter('Thu, 15 Jan 2026 12:01:00 GMT', now), 60_000);
		assert.equal(
			parseRetryAfter(new Date(now - 30_000).toUTCString(), now),
			0,
			'a date in the past: no wait',
		);
		for (const nonsense of [undefined, null, '', '  ', 'soon', '-5', '1e3x']) {
			assert.equal(parseRetryAfter(nonsense, now), undefined, `${String(nonsense)} is ignored`);
		}
	});

	it('waits what Retry-After says, backs off exponentially without it, and caps every wait', () => {
		const policy = DEFAULT_RETRY_POLICY;
		assert.deepEqual(policy, { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 });
		assert.equal(retryDelay(policy, 1, 0), 0);
		assert.equal(retryDelay(policy, 3, 4000), 4000, 'Retry-After wins over the back-off');
		assert.deepEqual(
			[1, 2, 3, 4].map((attempt) => retryDelay(policy, attempt)),
			[1000, 2000, 4000, 8000],
		);
		assert.equal(retryDelay(policy, 12), 60_000, 'the back-off is capped');
		assert.equal(retryDelay(policy, 1, 3_600_000), 60_000, 'Retry-After is capped');
		assert.equal(retryDelay(policy, 1, -5), 0);
		// Worst case of a run of 429s without Retry-After: 1 + 2 + 4 + 8 s.
		const total = [1, 2, 3, 4].reduce((sum, attempt) => sum + retryDelay(policy, attempt), 0);
		assert.equal(total, 15_000);
	});
});

describe('429 Too Many Requests', () => {
	it('is retried after Retry-After: 0 and the read succeeds', async () => {
		fake.api.injectFault({
			path: `/api/v2/groups/${PROJECT}`,
			times: 2,
			status: 429,
			retryAfter: '0',
		});
		const outcome = await runOk(fake, PROJECT_GET);
		assert.equal(outcome.items[0].name, PROJECT);
		assert.deepEqual(
			outcome.requests.map((request) => request.status),
			[429, 429, 200],
		);
	});

	it('is retried on a create too (the API refused it, so nothing happened), and the project is created once', async () => {
		fake.api.injectFault({
			method: 'POST',
			path: '/api/v2/groups',
			times: 1,
			status: 429,
			retryAfter: '0',
		});
		const outcome = await runOk(fake, {
			resource: 'project',
			operation: 'create',
			projectName: 'Rate Limited',
			currencyCode: 'USD',
		});
		assert.deepEqual(
			outcome.requests.map((request) => request.status),
			[429, 201],
		);
		assert.equal(fake.api.state.findContainer('Rate Limited')?.name, 'Rate Limited');
	});

	it('gives up after 5 attempts with a clear error', async () => {
		fake.api.injectFault({
			times: 6,
			status: 429,
			retryAfter: '0',
			body: JSON.stringify({ message: 'Too Many Attempts.' }),
		});
		const outcome = await run(fake, PROJECT_GET);
		assert.equal(outcome.requests.length, 5, describeRequests(outcome.requests));
		assert.equal(outcome.error?.message, 'Rate limit reached (HTTP 429): Too Many Attempts.');
		assert.match(
			outcome.error?.description ?? '',
			/limits how many requests.*Concurrency.*plan.*\(after 5 attempts, GET \/api\/v2\/groups\/Acme%20Shoes\)/,
		);
		assert.equal(outcome.error?.httpCode, '429');
	});

	it('honours Retry-After given as an HTTP date', async () => {
		// HTTP dates have whole seconds: ask for the next whole second plus one, so the wait is 1 to 2 s.
		const until = (Math.floor(Date.now() / 1000) + 2) * 1000;
		fake.api.injectFault({
			path: `/api/v2/groups/${PROJECT}`,
			times: 1,
			status: 429,
			retryAfter: new Date(until).toUTCString(),
		});
		const outcome = await runOk(fake, PROJECT_GET);
		assert.equal(outcome.requests.length, 2);
		const retriedAt = Date.now() - outcome.ms; // start of the run, close to the first request
		assert.ok(
			outcome.ms >= until - retriedAt - 50,
			`waited ${outcome.ms} ms, asked until ${until - retriedAt} ms after the start`,
		);
		assert.ok(outcome.ms < 4000, `waited ${outcome.ms} ms`);
	});

	it('without Retry-After waits the default first back-off (1 s), then succeeds', async () => {
		fake.api.injectFault({ path: `/api/v2/groups/${PROJECT}`, times: 1, status: 429 });
		const outcome = await runOk(fake, PROJECT_GET);
		assert.equal(outcome.requests.length, 2);
		assert.ok(outcome.ms >= 950 && outcome.ms < 3000, `waited ${outcome.ms} ms`);
	});

	it('stops at once when Retry-After is longer than the cap, and says how long Keyword.com asked to wait', async () => {
		fake.api.injectFault({ times: 5, status: 429, retryAfter: '3600' });
		const outcome = await run(fake, PROJECT_GET);
		assert.equal(outcome.requests.length, 1, 'no pointless wait-and-retry');
		assert.ok(outcome.ms < 1000, `took ${outcome.ms} ms`);
		assert.match(outcome.error?.message ?? '', /^Rate limit reached \(HTTP 429\)/);
		assert.match(
			outcome.error?.description ?? '',
			/asked to wait 3600 seconds.*longer than the node waits \(60 seconds\)/,
		);
	});
});

describe('ambiguous failures', () => {
	it('a dropped read is retried and succeeds (2 requests)', async () => {
		fake.api.injectFault({ method: 'GET', times: 1, kind: 'drop' });
		const outcome = await runOk(fake, PROJECT_GET);
		assert.equal(outcome.items[0].name, PROJECT);
		assert.deepEqual(
			outcome.requests.map((request) => request.status),
			[0, 200],
		);
	});

	it('the chart (a POST that only reads) is retried after a dropped connection', async () => {
		const chart = parametersOf(registered('rankingHistory getChart'), fake);
		fake.api.injectFault({ method: 'POST', times: 1, kind: 'drop' });
		const outcome = await runOk(fake, chart);
		assert.deepEqual(
			outcome.requests.map((request) => request.status),
			[0, 200],
		);
	});

	it('a read answered 503 (Retry-After: 0), cut off or not JSON is retried and succeeds', async () => {
		fake.api.injectFault({ method: 'GET', times: 1, status: 503, retryAfter: '0' });
		assert.equal((await runOk(fake, PROJECT_GET)).requests.length, 2);
		fake.api.injectFault({ method: 'GET', times: 1, kind: 'stall', stallMs: 150 });
		assert.equal(
			(await runOk(fake, PROJECT_GET)).requests.length,
			1,
			'a slow answer is waited for',
		);
	});

	it('no create, change or delete is ever sent twice after a dropped connection or a server error', async (t) => {
		// Restore is a GET in the API, and the chart a POST that only reads: both are reads for the retry policy.
		const writes = OPERATIONS.filter(
			(operation) => operation.mutates && operation.method !== 'GET',
		);
		assert.ok(writes.length > 0, 'the registry has writes');
		for (const operation of writes) {
			const parameters = parametersOf(operation, fake);
			for (const fault of [
				{ kind: 'drop' as const },
				{ kind: 'status' as const, status: 500, retryAfter: '0' },
				{ kind: 'status' as const, status: 502 },
			]) {
				await t.test(
					`${operation.label} + ${fault.kind}${fault.status ? ` ${fault.status}` : ''}`,
					async () => {
						const before = snapshot(fake);
						fake.api.injectFault({ method: operation.method, times: 3, ...fault });
						const outcome = await run(fake, parameters);
						assert.ok(outcome.error, 'the node reports the failure');
						// The write itself, once (an operation that names its project by ID reads its record first).
						const sent = outcome.requests.filter((request) => request.method === operation.method);
						assert.equal(sent.length, 1, `sent once: ${describeRequests(outcome.requests)}`);
						assert.ok(
							outcome.requests.every(
								(request) => request.method === operation.method || request.method === 'GET',
							),
							describeRequests(outcome.requests),
						);
						assert.match(
							outcome.error.description ?? '',
							/may have been carried out.*did not send it again/,
						);
						assert.deepEqual(snapshot(fake), before, 'nothing changed in the fake');
					},
				);
			}
		}
	});
});

/** What would move if something were added, changed, archived, refreshed or deleted. */
function snapshot(fake: Fake): unknown {
	const { state } = fake.api;
	return {
		...state.summary(),
		archived: state.projects.map((project) => project.archived),
		refreshes: state.account.refreshes.used,
		added: state.account.dailyAdded.used,
		keywordRows: [...state.keywords.values()].map(
			(k) => `${k.id}|${k.kw}|${k.notes}|${k.tags.join(',')}|${k.history.length}`,
		),
	};
}

describe('a 429 deep in a paged read', () => {
	const bulk = useFake({ seed: 'empty' });

	it('on page 37 retries that page and loses none of the keywords before it (50,000 keywords)', async () => {
		const ids = bulk.api.addKeywords('Bulk', 50_000);
		assert.equal(ids.length, 50_000);
		let injected = 0;
		const requests = bulk.api.requests as RecordedRequest[] & {
			push: (...records: RecordedRequest[]) => number;
		};
		// The fake records a request and then, in the same tick, looks for a fault to apply: arming one for the request
		// that carries page=37 faults exactly that request, whatever order the concurrent pages arrive in.
		requests.push = function (...records: RecordedRequest[]): number {
			for (const record of records) {
				if (
					record.path === '/api/v2/groups/Bulk/keywords/' &&
					record.query.page === '37' &&
					injected === 0
				) {
					injected++;
					bulk.api.injectFault({ path: record.path, times: 1, status: 429, retryAfter: '0' });
				}
			}
			return Array.prototype.push.apply(this, records);
		};
		try {
			const outcome = await runOk(bulk, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl('Bulk'),
				returnAll: true,
			});
			assert.equal(injected, 1);
			// The keyword list is read in overlapping windows (shared/paging/): 217 of them for 50,000 keywords.
			const windows = quietReadWindows(50_000).map((window) => `${window.page}/${window.perPage}`);
			assert.equal(windows.length, 217);
			assert.equal(
				outcome.requests.length,
				windows.length + 1,
				'one request per window plus the retry',
			);
			const faulted = outcome.requests.filter((request) => request.status === 429);
			assert.equal(faulted.length, 1);
			const again = outcome.requests.filter(
				(request) =>
					request.query.page === '37' && request.query.per_page === faulted[0].query.per_page,
			);
			assert.deepEqual(
				again.map((request) => request.status),
				[429, 200],
			);
			const served = outcome.requests
				.filter((request) => request.status === 200)
				.map((request) => `${request.query.page}/${request.query.per_page}`);
			assert.deepEqual([...served].sort(), [...windows].sort());
			assert.equal(outcome.items.length, 50_000);
			assert.deepEqual(
				outcome.items.map((item) => String(item.id)),
				ids,
				'every keyword once, in order',
			);
		} finally {
			delete (requests as { push?: unknown }).push;
		}
	});
});
