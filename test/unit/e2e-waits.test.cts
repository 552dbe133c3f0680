/**
 * The one wait every e2e suite uses (e2e/lib/waits.cts waitUntil): it returns what the probe saw (0 and '' too), it
 * looks once more at the deadline rather than failing on a stale look, it fails loudly with what it last saw, and a
 * probe that throws (a process gone) ends it at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { retryUntil, waitUntil } from '../../e2e/lib/waits.cjs';

test('waitUntil returns the first answer, 0 and empty string included', async () => {
	let calls = 0;
	const zero = await waitUntil('zero', () => (++calls < 3 ? undefined : 0), {
		timeoutMs: 5_000,
		everyMs: 1,
	});
	assert.equal(zero, 0);
	assert.equal(calls, 3);
	assert.equal(await waitUntil('empty', () => '', { timeoutMs: 10 }), '');
	assert.equal(
		await waitUntil('true', async () => await Promise.resolve(true), { timeoutMs: 10 }),
		true,
	);
});

test('waitUntil probes again after the last pause: what holds at the deadline counts', async () => {
	const start = Date.now();
	const seen = await waitUntil('late', () => Date.now() - start >= 60 && 'ok', {
		timeoutMs: 50,
		everyMs: 70,
	});
	assert.equal(seen, 'ok');
});

test('waitUntil fails after its time, saying what and what it saw; error() builds the error', async () => {
	let last = 0;
	await assert.rejects(
		waitUntil('the number reaching 1,000', () => ++last >= 1_000, {
			timeoutMs: 30,
			everyMs: 5,
			explain: () => `last ${last}`,
		}),
		(error: Error) => {
			assert.match(
				error.message,
				/^e2e: the number reaching 1,000 did not happen within 0\.03 s\nlast \d+$/,
			);
			return true;
		},
	);
	class Tagged extends Error {}
	await assert.rejects(
		waitUntil('never', () => false, { timeoutMs: 1, error: (m) => new Tagged(`${m} (tail)`) }),
		(error: Error) => error instanceof Tagged && error.message.endsWith('within 0.001 s (tail)'),
	);
});

test('a probe that throws ends the wait at once with its own error', async () => {
	const start = Date.now();
	await assert.rejects(
		waitUntil(
			'a process',
			() => {
				throw new Error('exited');
			},
			{ timeoutMs: 60_000 },
		),
		/^Error: exited$/,
	);
	assert.ok(Date.now() - start < 5_000);
});

test('retryUntil retries a failing attempt, then gives up with the last failure', async () => {
	let tries = 0;
	assert.equal(
		await retryUntil('third time', async () => {
			if (++tries < 3) throw new Error(`try ${tries}`);
			return 'done';
		}),
		'done',
	);
	await assert.rejects(
		retryUntil('never', async () => await Promise.reject(new Error('down')), 50),
		/^Error: e2e: never did not succeed within 0\.05 s: Error: down$/,
	);
});

test('retryUntil tries once more after the pause that crossed its deadline', async () => {
	const start = Date.now();
	let tries = 0;
	const result = await retryUntil(
		'late',
		async () => {
			tries++;
			if (Date.now() - start < 150) throw new Error('not yet');
			return await Promise.resolve('up');
		},
		120,
	);
	assert.equal(result, 'up');
	assert.ok(tries >= 2);
});
