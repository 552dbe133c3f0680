/**
 * What AI Visibility Updated costs over a day of polls, every 5 minutes on the fake's clock, with five domains: each
 * poll asks the domain list, and each domain's dashboard is asked once, after midnight (the API's clock), when its
 * day is over. The naive way (every domain's dashboard at every poll) is counted from the same polls.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { BENCH_NODE_VERSIONS } from '../../bench/lib.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll } from '../harness/index.cjs';

const FIVE_MINUTES = 5 * 60_000;
const START = Date.parse('2026-03-02T00:02:00Z');

describe('benchmark request counts: AI Visibility Updated over a day', () => {
	let clock = START;
	let api: FakeKeywordApi;
	before(async () => {
		api = new FakeKeywordApi({ seed: 'demo', now: () => clock, dateFromClock: true });
		await api.start();
		clock = START - 3 * 86_400_000;
		for (const name of ['one.example', 'two.example', 'three.example']) api.addAiDomain(name);
		clock = START;
	});
	after(async () => await api.stop());

	it('an activation and a day of 288 polls, 5 domains: 289 + 5 requests (the naive way: 288 × 6 = 1,728)', async () => {
		const trigger = new KeywordComTrigger();
		let state: IDataObject = {};
		let emitted = 0;
		api.clearRequests();
		const polls = 288;
		for (let poll = 0; poll <= polls; poll++) {
			clock = START - FIVE_MINUTES + poll * FIVE_MINUTES;
			const result = await runPoll({
				nodeType: trigger,
				typeVersion: BENCH_NODE_VERSIONS.keywordComTrigger,
				parameters: { event: 'aiVisibilityUpdated' },
				credentials: { keywordComApi: { apiToken: api.token, baseUrl: api.baseUrl } },
				staticData: state,
			});
			assert.equal(result.error, undefined, result.error?.message);
			state = result.staticData;
			emitted += result.items?.[0]?.length ?? 0;
		}
		const domains = api.state.aiDomains.length;
		assert.equal(domains, 5);
		const lists = api.requests.filter((request) => request.path.endsWith('/ai-visibility/domains'));
		const dashboards = api.requests.filter((request) => request.path.endsWith('/metrics'));
		// The activation poll at 23:57 places "now"; the 288 polls of the day ask the list; the first one after
		// midnight asks each domain's dashboard once, and emits its day.
		assert.equal(lists.length, polls + 1);
		assert.equal(dashboards.length, domains);
		assert.equal(emitted, domains);
		const naive = polls * (1 + domains);
		assert.equal(naive, 1728);
		assert.ok(naive / (lists.length + dashboards.length) > 5.8);
	});
});
