/**
 * docs/assumptions.md, the register of what the API document leaves open, keeps up with the fake API's switches: a
 * switch added to the fake (dev/fake-api/behaviour.cts) without a row, a row naming a switch that is gone, or a
 * switch the simulation starts (or stops) drawing without the register saying so fails here. So the register stays a
 * true list of which open behaviours the tests can play, and which only the register names.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { DEFAULT_BEHAVIOUR } from '../../dev/fake-api/behaviour.cjs';
import { drawAiSettings } from '../../dev/simulation/aiVisibilityRun.cjs';
import { drawBehaviour } from '../../dev/simulation/run.cjs';

const ROOT = join(__dirname, '..', '..', '..');
const REGISTER = readFileSync(join(ROOT, 'docs', 'assumptions.md'), 'utf8');

const COLUMNS = [
	'Point',
	'Document',
	'Plausible behaviours',
	'Fake switch',
	'Values',
	'Simulation draws',
	'What the nodes do',
];

/** The cells of a table line, trimmed (an escaped `\|` is not a border). */
const cellsOf = (line: string): string[] =>
	line
		.trim()
		.replace(/^\||\|$/g, '')
		.split(/(?<!\\)\|/)
		.map((cell) => cell.trim());

const tableLines = REGISTER.split('\n').filter((line) => line.startsWith('|'));
const headers = tableLines.map(cellsOf).filter((cells) => cells[0] === 'Point');
const rows = tableLines
	.filter((line) => !/^\|[-|: ]+\|$/.test(line.trim()))
	.map(cellsOf)
	.filter((cells) => cells[0] !== 'Point');

const SWITCHES = Object.keys(DEFAULT_BEHAVIOUR);
// The AI simulation draws its switch (aiToday) among settings that are not switches (scope, filters).
const DRAWN = new Set([
	...Object.keys(drawBehaviour('1')),
	...Object.keys(drawAiSettings('1')).filter((key) => SWITCHES.includes(key)),
]);

/** The switch a row names (its "Fake switch" cell: a backticked key, or — for none). */
function switchOf(cells: string[]): string | undefined {
	const cell = cells[COLUMNS.indexOf('Fake switch')];
	if (cell === '—') return undefined;
	const match = /^`(\w+)`$/.exec(cell);
	assert.ok(match, `"${cells[0]}": the Fake switch is a backticked key or —, not "${cell}"`);
	return match[1];
}

describe('the open-point register (docs/assumptions.md)', () => {
	it('is tables of the seven columns, one row a point', () => {
		assert.ok(headers.length > 0, 'it has tables');
		for (const header of headers) assert.deepEqual(header, COLUMNS);
		assert.ok(rows.length >= 40, `${rows.length} rows`);
		for (const cells of rows) assert.equal(cells.length, COLUMNS.length, `"${cells[0]}"`);
	});

	it('names every switch of the fake in exactly one row', () => {
		const named = rows.map(switchOf).filter((key): key is string => key !== undefined);
		for (const key of SWITCHES)
			assert.equal(named.filter((name) => name === key).length, 1, `rows naming ${key}`);
	});

	it('names no switch the fake does not have', () => {
		for (const cells of rows) {
			const key = switchOf(cells);
			if (key !== undefined) assert.ok(SWITCHES.includes(key), `"${cells[0]}": ${key}`);
		}
	});

	it('says yes under Simulation draws exactly for the switches the simulation draws', () => {
		for (const cells of rows) {
			const key = switchOf(cells);
			const drawn = key !== undefined && DRAWN.has(key);
			assert.equal(
				cells[COLUMNS.indexOf('Simulation draws')],
				drawn ? 'yes' : 'no',
				`"${cells[0]}" (${key ?? '—'})`,
			);
		}
	});
});
