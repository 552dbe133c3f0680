/**
 * n8n's Retry On Fail runs a failed item again from the start, on top of the node's own retries
 * (shared/transport.ts): the attempts multiply. The node tells the user in its panel, in every version.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeProperties } from 'n8n-workflow';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { DEFAULT_RETRY_POLICY } from '../../nodes/shared/retryPolicy';
import { run, useFake } from './helpers.cjs';

const fake = useFake();

const notice = (): INodeProperties | undefined =>
	new KeywordCom().description.properties.find(
		(property) => property.type === 'notice' && /Retry On Fail/.test(property.displayName),
	);

describe('Retry On Fail (engine)', () => {
	it('with Retry On Fail on, a read failing with 503 is sent (n8n tries) x (node attempts) times', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: '/api/v2/groups/active',
			times: Infinity,
			status: 503,
			retryAfter: '0',
		});
		try {
			const outcome = await run(
				fake,
				{ resource: 'project', operation: 'getMany' },
				{ nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 } },
			);
			assert.equal(outcome.error?.httpCode, '503');
			assert.equal(outcome.requests.length, 2 * DEFAULT_RETRY_POLICY.maxAttempts);
		} finally {
			fake.api.clearFaults();
		}
	});

	it('the panel says so: a notice naming the setting, shown for every resource, operation and version', () => {
		const found = notice();
		assert.ok(found, 'a notice about Retry On Fail');
		assert.equal(found.default, '');
		assert.equal(found.displayOptions, undefined, 'not limited to some operations or versions');
		assert.match(found.displayName, /retries rate limits/);
		assert.match(found.displayName, /write may be sent again/);
		assert.ok(DEFAULT_RETRY_POLICY.maxAttempts > 1, 'the notice holds only while the node retries');
	});
});
