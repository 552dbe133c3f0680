/**
 * BENCHMARKS.md says what the last run measured (bench/results/latest.json): the memory table is the real-n8n run's
 * memory rows, for the Output a new node defaults to and its alternatives, with the goal (Simplified adds at least
 * 50 % less memory above n8n itself than Raw) holding in those numbers.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { repoRoot } from '../../e2e/lib/paths.cjs';
import { SELECTED_FIELDS } from '../../bench/realN8n.cjs';
import { outputModeField } from '../../nodes/shared/output';
import { keywordCatalogue } from '../../nodes/shared/recordKinds/keyword';

interface Row {
	section: string;
	scenario: string;
	peakRssMb?: number;
}

const latest = JSON.parse(
	fs.readFileSync(path.join(repoRoot(), 'bench', 'results', 'latest.json'), 'utf8'),
) as { sections: Record<string, { rows: Row[] }> };
const memory = Object.values(latest.sections)
	.flatMap((section) => section.rows)
	.filter((row) => row.section === 'memory');
const doc = fs.readFileSync(path.join(repoRoot(), 'BENCHMARKS.md'), 'utf8');
const mb = (value: number) => `${value.toLocaleString('en')} MB`;

function peak(label: string): number {
	const row = memory.find((r) => r.scenario.includes(label));
	assert.ok(row?.peakRssMb, `a memory row for ${label}`);
	return row.peakRssMb;
}

describe('BENCHMARKS.md memory table', () => {
	it("measures the Output a new node defaults to (Simplified), Raw, Selected Fields and n8n's own footprint", () => {
		assert.equal(outputModeField().default, 'simplified');
		assert.deepEqual(
			memory.map((row) =>
				row.scenario.replace(/^Real n8n: n8n execute, Keyword.com Return All, /, ''),
			),
			[
				'Output Simplified (default)',
				'Output Raw',
				`Output Selected Fields (${SELECTED_FIELDS.join(', ')})`,
				'Limit 1 (n8n itself)',
			],
		);
	});

	it('selects fields the keyword record offers (a name it does not know fails the run)', () => {
		for (const field of SELECTED_FIELDS)
			assert.ok(field in keywordCatalogue.fields, `"${field}" is a field of a keyword`);
	});

	it('shows the last run: each peak, and each above n8n itself', () => {
		const base = peak('Limit 1');
		const table = doc.slice(doc.indexOf('| Memory, real n8n'));
		for (const [label, line] of [
			['Output Simplified', '| Output Simplified (default) |'],
			['Output Raw', '| Output Raw |'],
			[
				'Output Selected Fields',
				`| Output Selected Fields (${SELECTED_FIELDS.map((f) => `\`${f}\``).join(', ')}) |`,
			],
		] as const) {
			const row = table.split('\n').find((text) => text.startsWith(line));
			assert.ok(row, `BENCHMARKS.md has the row ${line}`);
			assert.ok(row.includes(mb(peak(label))), `${label}: peak ${mb(peak(label))} in "${row}"`);
			assert.ok(
				row.includes(mb(peak(label) - base)),
				`${label}: ${mb(peak(label) - base)} above n8n in "${row}"`,
			);
		}
		assert.match(table, new RegExp(`\\| Limit 1 \\(n8n's own footprint\\) \\| ${mb(base)} \\|`));
	});

	it('holds the goal: Simplified adds at least 50 % less memory above n8n itself than Raw', () => {
		const base = peak('Limit 1');
		assert.ok(peak('Output Simplified') - base <= (peak('Output Raw') - base) * 0.5);
	});
});
