/**
 * The ports the end-to-end tier gives its servers (e2e/lib/processes.cts freePorts): all different, bindable, and
 * outside the kernel's ephemeral range, so no `listen(0)` or outgoing connection takes one before its server binds
 * it. A queue-mode cluster once lost its main's broker port that way in the half minute between choosing and binding.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { test } from 'node:test';

import { freePorts } from '../../e2e/lib/processes.cjs';

test('freePorts: distinct, bindable, below the ephemeral range, never handed out twice', async () => {
	const first = await freePorts(12);
	const second = await freePorts(12, [first[0]]);
	const all = [...first, ...second];
	assert.equal(new Set(all).size, all.length, 'no port twice in one process');
	const range = '/proc/sys/net/ipv4/ip_local_port_range';
	if (fs.existsSync(range)) {
		const ephemeralLow = Number(fs.readFileSync(range, 'utf8').trim().split(/\s+/)[0]);
		for (const port of all) assert.ok(port < ephemeralLow, `${port} is below ${ephemeralLow}`);
	}
	// The ports handed out are bindable.
	const servers = await Promise.all(
		second.slice(0, 3).map(
			async (port) =>
				await new Promise<net.Server>((resolve, reject) => {
					const server = net.createServer();
					server.once('error', reject);
					server.listen(port, '127.0.0.1', () => resolve(server));
				}),
		),
	);
	for (const server of servers) await new Promise((resolve) => server.close(resolve));
});
