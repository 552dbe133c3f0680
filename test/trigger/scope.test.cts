/**
 * Unit tests of polling/scope.ts, and of the items the events emit (alertRecords.ts, updateItem.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { alertItem } from '../../nodes/KeywordComTrigger/newAlert/alertRecords';
import { keywordItem } from '../../nodes/KeywordComTrigger/keywordUpdated/updateItem';
import { inScope } from '../../nodes/shared/groupName';
import { parseScope } from '../../nodes/KeywordComTrigger/polling/scope';
import { alertRecord, keywordRecord } from './memory-api.cjs';

describe('scope and items', () => {
	it('matches projects, their groups and single groups', () => {
		assert.ok(inScope('Acme', parseScope('Acme', '', true)));
		assert.ok(inScope('Acme[sub]Blog', parseScope('Acme', '', true)));
		assert.ok(!inScope('Acme[sub]Blog', parseScope('Acme', '', false)));
		assert.ok(inScope('Acme[sub]Blog', parseScope('Acme', 'Blog', true)));
		assert.ok(!inScope('Acme2', parseScope('Acme', '', true)));
		assert.throws(() => parseScope('', 'Blog', true), /project of the group/);
	});
	it('items carry no token, whatever the Output', () => {
		const token = 'secret-token-xyz';
		const alert = {
			...alertRecord({ id: 1, at: 100 }),
			links: { self: `https://x/?api_token=${token}` },
		};
		for (const mode of ['simplified', 'raw', 'selected'] as const) {
			const fields = mode === 'selected' ? ['id', 'notes', 'previous_rank'] : [];
			assert.ok(
				!JSON.stringify(alertItem(alert, { mode, fields: fields.slice(0, 1) }, token)).includes(
					token,
				),
			);
			const keyword = keywordRecord({ id: 2, category: 'A', crawled_at: 100, history: [3, 4] });
			(keyword.attributes as Record<string, unknown>).notes = `see ${token}`;
			const item = keywordItem(keyword, { mode, fields }, token, 'descending');
			assert.ok(!JSON.stringify(item).includes(token), mode);
			if (mode !== 'simplified') assert.ok(JSON.stringify(item).includes('see '), mode);
			assert.equal(item.previous_rank, 4);
		}
	});
});
