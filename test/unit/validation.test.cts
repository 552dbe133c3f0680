import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	checkAiTimeframe,
	checkChartDays,
	checkCurrency,
	checkDate,
	checkDaysRange,
	checkIdList,
	checkKeywordText,
	checkName,
	checkPeriodOffset,
	InputError,
	toList,
} from '../../nodes/shared/validation';
import { encodeName } from '../../nodes/shared/groupName';

const fails = (fn: () => unknown, field: string) =>
	assert.throws(fn, (error: unknown) => error instanceof InputError && error.field === field);

describe('validation', () => {
	it('keeps a 150-character keyword and refuses 151 (counted in characters, not bytes)', () => {
		assert.equal(checkKeywordText('Keywords', 'é'.repeat(150)), 'é'.repeat(150));
		fails(() => checkKeywordText('Keywords', 'a'.repeat(151)), 'Keywords');
		fails(() => checkKeywordText('Keywords', '   '), 'Keywords');
		fails(() => checkKeywordText('Keywords', 'a\u0007b'), 'Keywords');
	});

	it('names: trims, refuses empty, control characters, a typed [sub] and non-text', () => {
		assert.equal(checkName('Project', '  Acme  '), 'Acme');
		fails(() => checkName('Project', ''), 'Project');
		fails(() => checkName('Project', 'Acme[sub]Blog'), 'Project');
		fails(() => checkName('Project', 'Acme\nShoes'), 'Project');
		fails(() => checkName('Project', { value: 'x' }), 'Project');
		assert.equal(checkName('Group', '', { allowEmpty: true }), '');
	});

	it('encodes each name on its own and keeps the [sub] separator literal', () => {
		assert.equal(
			encodeName('Ünï & Co / 50% [x] #1 +?', ''),
			'%C3%9Cn%C3%AF%20%26%20Co%20%2F%2050%25%20%5Bx%5D%20%231%20%2B%3F',
		);
		assert.equal(encodeName('Acme Shoes', 'Shop & Deals'), 'Acme%20Shoes[sub]Shop%20%26%20Deals');
	});

	it('currency, ranges, offsets, timeframes, dates', () => {
		assert.equal(checkCurrency('Currency Code', 'eur'), 'EUR');
		fails(() => checkCurrency('Currency Code', 'EURO'), 'Currency Code');
		fails(() => checkCurrency('Currency Code', 'E1R'), 'Currency Code');
		assert.equal(checkDaysRange('Range', '90'), 90);
		fails(() => checkDaysRange('Range', 60), 'Range');
		assert.equal(checkChartDays('Days', 180), 180);
		fails(() => checkChartDays('Days', 181), 'Days');
		fails(() => checkChartDays('Days', 0), 'Days');
		assert.equal(checkPeriodOffset('Period Offset', -365), -365);
		fails(() => checkPeriodOffset('Period Offset', -366), 'Period Offset');
		fails(() => checkPeriodOffset('Period Offset', 1), 'Period Offset');
		assert.equal(checkAiTimeframe('Timeframe', '3m'), '3m');
		assert.equal(checkAiTimeframe('Timeframe', '45'), '45');
		fails(() => checkAiTimeframe('Timeframe', '2w'), 'Timeframe');
		assert.equal(checkDate('Date', '2026-02-28'), '2026-02-28');
		assert.equal(checkDate('Date', '2026-02-28T10:00:00.000Z'), '2026-02-28');
		fails(() => checkDate('Date', '2026-02-30'), 'Date');
		fails(() => checkDate('Date', '28/02/2026'), 'Date');
	});

	it('id lists: comma text or lists, refuses empty, duplicates and non-numbers', () => {
		assert.deepEqual(checkIdList('Keyword IDs', '1, 2,3'), ['1', '2', '3']);
		assert.deepEqual(checkIdList('Keyword IDs', [4, '5']), ['4', '5']);
		fails(() => checkIdList('Keyword IDs', ''), 'Keyword IDs');
		fails(() => checkIdList('Keyword IDs', '1,1'), 'Keyword IDs');
		fails(() => checkIdList('Keyword IDs', '1,abc'), 'Keyword IDs');
		fails(
			() =>
				checkIdList(
					'Keyword IDs',
					Array.from({ length: 10_001 }, (_, i) => i + 1),
				),
			'Keyword IDs',
		);
		assert.deepEqual(toList('x', 'a\nb,c'), ['a', 'b', 'c']);
	});
});
