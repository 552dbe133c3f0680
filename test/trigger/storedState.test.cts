/**
 * Unit tests of state/storedState.ts and state/activationBaseline.ts: the stored state and the activation
 * baseline.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { cursorAt } from '../../nodes/KeywordComTrigger/polling/windowCursor';
import { type AlertCursor } from '../../nodes/KeywordComTrigger/newAlert/alertCursor';
import { type KeywordState } from '../../nodes/KeywordComTrigger/keywordUpdated/plan';
import type { ListOrder } from '../../nodes/shared/paging';
import {
	encodeAlertCursor,
	readEventState,
	storedState,
} from '../../nodes/KeywordComTrigger/state/storedState';
import {
	BASELINE_KEY,
	dropBaseline,
	findBaseline,
	putBaseline,
} from '../../nodes/KeywordComTrigger/state/activationBaseline';
import { stateOf } from './keyword-states.cjs';

describe('stored state and the activation baseline', () => {
	it('reads its own event and format only', () => {
		const alert = storedState('newAlert', cursorAt(5));
		assert.deepEqual(alert, { v: 1, e: 'newAlert', c: { t: 5, f: [5, null], k: [] } });
		assert.deepEqual(readEventState('newAlert', alert as never)?.state, cursorAt(5));
		assert.equal(readEventState('keywordUpdated', alert as never), undefined);
		for (const v of [0, 2, 4, '1'])
			assert.equal(
				readEventState('newAlert', { v, e: 'newAlert', c: encodeAlertCursor(cursorAt(1)) }),
				undefined,
				`format ${String(v)}`,
			);
	});

	it('list orders are one letter each in static data, ListOrder once read back', () => {
		for (const [letter, order] of [
			['a', 'ascending'],
			['d', 'descending'],
			['u', 'unordered'],
		] as const) {
			const saved = `{"v":1,"e":"newAlert","c":{"t":9,"f":[8,"4"],"k":["5"],"i":-1,"o":"${letter}","x":12,"n":400},"l":[120,30]}`;
			const found = readEventState('newAlert', JSON.parse(saved) as never)!;
			assert.equal((found.state as AlertCursor).listOrder, order);
			// Stored again byte for byte.
			assert.equal(JSON.stringify(storedState('newAlert', found.state, found.measured)), saved);
		}
		const read = (idOrder?: ListOrder) => ({ windowEnd: 3, lastIndex: 0, listLength: 9, idOrder });
		const state = stateOf(7, {
			A: { reportedUpTo: 1, read: read('descending') },
			B: { reportedUpTo: 2, read: read('unordered') },
			C: { reportedUpTo: 3, read: read('ascending') },
		});
		state.historyOrder = 'descending';
		const c = storedState('keywordUpdated', state).c as {
			o?: string;
			p: Array<{ r: IDataObject }>;
		};
		assert.equal(c.o, 'n');
		assert.deepEqual(
			c.p.map((entry) => entry.r.o),
			['d', '?', undefined],
		);
		const saved =
			'{"v":1,"e":"keywordUpdated","c":{"s":7,"p":[{"k":"name:A","n":"A","w":1,"r":{"h":3,"x":0,"n":9,"e":"5","o":"d"}},' +
			'{"k":"name:B","n":"B","w":2,"r":{"h":3,"x":4,"n":9,"o":"?","z":100,"a":["1","2"]}},' +
			'{"k":"name:C","n":"C","w":3,"r":{"h":3,"x":0,"n":9}}],"m":[[1001,"A"],["name:B"]],"o":"o"}}';
		const back = readEventState('keywordUpdated', JSON.parse(saved) as never)!
			.state as KeywordState;
		assert.equal(back.historyOrder, 'ascending');
		assert.deepEqual(
			[...back.containers.values()].map((entry) => entry.read?.idOrder),
			['descending', 'unordered', undefined],
		);
		assert.deepEqual(
			[...back.known],
			[
				['id:1001', 'A'],
				['name:B', 'B'],
			],
		);
		assert.equal(JSON.stringify(storedState('keywordUpdated', back)), saved);
	});

	it('a baseline is found by node and event, until the node writes its own state', () => {
		const global: Record<string, unknown> = {};
		putBaseline('newAlert', cursorAt(42), global as never, 'node-1');
		assert.equal(
			findBaseline('keywordUpdated', global as never, 'node-1'),
			undefined,
			'another event',
		);
		assert.equal(findBaseline('newAlert', global as never, 'node-2'), undefined, 'another node');
		assert.deepEqual(findBaseline('newAlert', global as never, 'node-1')?.state, cursorAt(42));
		assert.deepEqual(findBaseline('newAlert', global as never, 'node-1')?.state, cursorAt(42));
		dropBaseline(global as never, 'node-1');
		assert.equal(findBaseline('newAlert', global as never, 'node-1'), undefined, 'removed');
		assert.ok(!(BASELINE_KEY in global), 'nothing left behind');
	});
});
