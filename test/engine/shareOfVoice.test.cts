/** Share of Voice resource: #18 latest, #19 history. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import {
	CAFE,
	PROJECT,
	assertPaired,
	assertProjectLookupThen,
	assertSingleRequest,
	enc,
	projectIdOf,
	rl,
	runOk,
	useFake,
} from './helpers.cjs';

const fake = useFake();

describe('shareOfVoice (engine)', () => {
	it('#18 shareOfVoice getLatest returns the top 10 domains, one item each', async () => {
		const { items, raw, requests } = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getLatest',
			project: rl(PROJECT),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: '/api/v2/metrics/Acme%20Shoes/mindshare/latest',
			query: {},
			body: null,
		});
		assert.equal(items.length, 10);
		assertPaired(raw, 0);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), ['domain', 'title', 'clicks', 'share', 'change_month']);
			assert.equal(typeof item.change_month, 'number');
		}
		assert.ok(items.some((item) => item.domain === 'acmeshoes.com'));
	});

	it('#18 shareOfVoice getLatest of a group and of a non-ASCII project', async () => {
		const group = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getLatest',
			project: rl(PROJECT),
			group: rl('Blog'),
		});
		assertSingleRequest(group.requests, {
			method: 'GET',
			rawPath: '/api/v2/metrics/Acme%20Shoes[sub]Blog/mindshare/latest',
		});
		assert.ok(group.items.length > 0);
		const cafe = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getLatest',
			project: rl(CAFE),
		});
		assertSingleRequest(cafe.requests, {
			method: 'GET',
			rawPath: `/api/v2/metrics/${enc(CAFE)}/mindshare/latest`,
		});
		assert.equal(cafe.items.length, 10);
		assert.ok(
			cafe.items.every((item) => typeof item.domain === 'string' && typeof item.share === 'number'),
		);
	});

	it('#19 shareOfVoice getHistory sends daysrange and returns one item per data point (7 days → 7 points)', async () => {
		const id = projectIdOf(fake, PROJECT);
		const { items, requests } = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(PROJECT),
			daysRange: 7,
		});
		assertProjectLookupThen(requests, 'Acme%20Shoes', {
			method: 'GET',
			rawPath: `/api/v2/projects/${id}/mindshare/from-cache`,
			query: { daysrange: '7' },
			body: null,
		});
		assert.deepEqual(
			items.map((item) => item.date),
			[
				'2026-01-09',
				'2026-01-10',
				'2026-01-11',
				'2026-01-12',
				'2026-01-13',
				'2026-01-14',
				'2026-01-15',
			],
		);
		for (const item of items) {
			const domains = item.domains as IDataObject[];
			assert.ok(Array.isArray(domains) && domains.length > 0);
			assert.deepEqual(Object.keys(domains[0]), [
				'domain',
				'title',
				'clicks',
				'share',
				'change_month',
			]);
		}
	});

	it('#19 shareOfVoice getHistory default range 30 days gives a point every 7 days; 365 every 60', async () => {
		const id = projectIdOf(fake, CAFE);
		const thirty = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(CAFE),
		});
		assertProjectLookupThen(thirty.requests, 'Caf%C3%A9%20Z%C3%BCrich', {
			method: 'GET',
			rawPath: `/api/v2/projects/${id}/mindshare/from-cache`,
			query: { daysrange: '30' },
		});
		assert.equal(thirty.items.length, 5);
		assert.deepEqual(
			thirty.items.map((item) => item.date),
			['2025-12-18', '2025-12-25', '2026-01-01', '2026-01-08', '2026-01-15'],
		);
		const year = await runOk(fake, {
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: rl(CAFE),
			daysRange: 365,
		});
		assertProjectLookupThen(year.requests, 'Caf%C3%A9%20Z%C3%BCrich', {
			method: 'GET',
			rawPath: `/api/v2/projects/${id}/mindshare/from-cache`,
			query: { daysrange: '365' },
		});
		assert.equal(year.items.length, 7);
	});
});
