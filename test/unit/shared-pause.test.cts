import assert from 'node:assert/strict';
import { it } from 'node:test';

import { SharedPause } from '../../nodes/shared/retryPolicy';

it('a 429 pause held by one page makes every page that asks wait until it ends, and no longer', async () => {
	const pause = new SharedPause();
	const started = Date.now();
	await pause.wait();
	assert.ok(Date.now() - started < 20, 'no pause held: no wait');

	pause.hold(150);
	pause.hold(50); // a shorter hold never shortens the pause
	const waits = await Promise.all(
		[0, 1, 2].map(async () => {
			const t0 = Date.now();
			await pause.wait();
			return Date.now() - t0;
		}),
	);
	for (const waited of waits) assert.ok(waited >= 140 && waited < 400, `waited ${waited} ms`);
});
