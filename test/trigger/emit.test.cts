/**
 * Keyword Updated's emit step (keywordUpdated/emit.ts): a parked list (one that failed at the last polls) is said to
 * be failing still at every poll that leaves it for later, however far the poll got. On a starved machine a poll may
 * run out of time while it shapes an earlier list's items; the parked list's warning must not depend on that.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { emitRuns } from '../../nodes/KeywordComTrigger/keywordUpdated/emit';
import type { JobRun } from '../../nodes/KeywordComTrigger/keywordUpdated/listReads';
import type { KeywordState } from '../../nodes/KeywordComTrigger/keywordUpdated/plan';
import type { KeywordEvent } from '../../nodes/KeywordComTrigger/keywordUpdated/windowEvents';
import { PollBudget } from '../../nodes/KeywordComTrigger/polling/budget';
import { ALL } from '../../nodes/shared/groupName';

const read = { windowEnd: 1_800_000_000, lastIndex: -1, listLength: 0 };

function event(id: number): KeywordEvent {
	const at = 1_799_999_000 + id;
	return { id: String(id), at, record: { id: String(id), attributes: { crawled_at: at } } };
}

describe('emitRuns: a parked list is spoken of however far the poll got', () => {
	const state = (): KeywordState => ({ mark: 0, containers: new Map(), known: new Map() });
	const parked = { status: '500', polls: 3 };
	const runs: JobRun[] = [
		{
			job: { key: 'alpha', name: 'Alpha', reportedUpTo: 0, read },
			name: 'Alpha',
			outcome: { records: [], read: 'done' },
			answered: 1,
		},
		{
			job: { key: 'beta', name: 'Beta', reportedUpTo: 0, read, parked },
			name: 'Beta',
			outcome: { records: [], read },
			answered: 0,
		},
	] as JobRun[];
	const found = [[event(1), event(2)], []];
	const settings = {
		scope: ALL,
		output: { mode: 'raw' as const, fields: [] },
		onlyRankChanges: false,
	};

	it('time left: Alpha emitted, Beta said to be failing still', () => {
		const budget = new PollBudget(30_000, () => 0);
		const out = emitRuns(runs, found, state(), settings, undefined, { budget });
		assert.equal(out.items.length, 2);
		assert.deepEqual(
			out.problems.map((p) => [p.container, p.status]),
			[['Beta', '500']],
		);
	});

	it("the hard deadline reached while Alpha's items are shaped: Beta is still spoken of", () => {
		let now = 0;
		const budget = new PollBudget(30_000, () => now);
		now = 60_000; // a starved machine: the poll is past its hard deadline when it shapes
		const next = state();
		const out = emitRuns(runs, found, next, settings, undefined, { budget });
		assert.equal(out.items.length, 0, 'nothing shaped: read again at the next poll');
		assert.equal(out.complete, false);
		assert.deepEqual(
			out.problems.map((p) => [p.container, p.status, p.polls]),
			[['Beta', '500', 3]],
		);
		assert.deepEqual(next.containers.get('beta')?.failure, parked, 'Beta stays parked');
	});
});
