/**
 * The trigger's Output choice, as in the action node, and items of the same shape as the action node's for the same
 * record (one output model).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { MAX_SIMPLIFIED_FIELDS } from '../../nodes/shared/output';
import { runNode, type RunPollResult } from '../harness/index.cjs';
import { AFTER_CRAWL_MS } from './clock.cjs';
import { pollTrigger } from './poll-trigger.cjs';

let clock = Date.now() - 10 * 60_000;
let api: FakeKeywordApi;
const credentials = () => ({ keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } });

before(async () => {
	api = new FakeKeywordApi({ seed: 'demo', now: () => clock, dateFromClock: true });
	await api.start();
});
after(async () => await api.stop());

async function poll(parameters: IDataObject, staticData?: IDataObject): Promise<RunPollResult> {
	return await pollTrigger(api, parameters, staticData);
}

const itemsOf = (result: RunPollResult): IDataObject[] => {
	assert.equal(result.error, undefined, result.error?.message);
	return (result.items?.[0] ?? []).map((item) => item.json);
};
const restart = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

describe('Keyword.com Trigger: Output', () => {
	it('New Alert: simplified items are the action node’s Alert → Get Many items, at most 10 fields', async () => {
		const state = restart((await poll({ event: 'newAlert' })).staticData);
		clock += 1000;
		const added = api.addAlerts(3).map((alert) => String(alert.id));
		const items = itemsOf(await poll({ event: 'newAlert' }, state));
		assert.deepEqual(
			items.map((item) => String(item.id)),
			added,
		);
		const action = await runNode({
			nodeType: new KeywordCom(),
			typeVersion: 1,
			parameters: { resource: 'alert', operation: 'getMany', returnAll: true },
			credentials: credentials(),
		});
		const byId = new Map(action.items.map((item) => [String(item.json.id), item.json]));
		for (const item of items) {
			assert.ok(Object.keys(item).length <= MAX_SIMPLIFIED_FIELDS);
			assert.deepEqual(item, byId.get(String(item.id)), 'the same item from both nodes');
		}
	});

	it('Keyword Updated: simplified items hold the rank, previous rank and change, at most 10 fields', async () => {
		let state = restart((await poll({ event: 'keywordUpdated' })).staticData);
		clock += 1000;
		const updated = api.simulateRankUpdate({ category: 'Acme Shoes' });
		clock += AFTER_CRAWL_MS;
		const result = await poll({ event: 'keywordUpdated' }, state);
		const items = itemsOf(result);
		state = restart(result.persistedStaticData);
		assert.equal(items.length, updated.length);
		for (const item of items) {
			assert.deepEqual(Object.keys(item), [
				'id',
				'keyword',
				'project',
				'group',
				'region',
				'rank',
				'previous_rank',
				'change',
				'ranking_url',
				'crawled_at',
			]);
			assert.equal(item.project, 'Acme Shoes');
			assert.match(String(item.crawled_at), /^\d{4}-\d\d-\d\dT/);
		}
		// Raw: the record with the update's ranks; Selected Fields: only the fields picked.
		clock += 1000;
		api.simulateRankUpdate({ category: 'Acme Shoes' });
		clock += AFTER_CRAWL_MS;
		const picked = itemsOf(
			await poll(
				{ event: 'keywordUpdated', output: 'selected', fields: ['keyword', 'rank', 'change'] },
				state,
			),
		);
		assert.ok(picked.length > 0);
		for (const item of picked) assert.deepEqual(Object.keys(item), ['keyword', 'rank', 'change']);
	});

	it('Output Raw gives the API record', async () => {
		const state = restart((await poll({ event: 'newAlert', output: 'raw' })).staticData);
		clock += 1000;
		api.addAlerts(1);
		const [item] = itemsOf(await poll({ event: 'newAlert', output: 'raw' }, state));
		assert.equal(item.type, 'alert');
		assert.ok(item.attributes && typeof item.attributes === 'object');
	});
});
