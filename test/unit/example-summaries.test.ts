/**
 * The example summaries the demo prints (e2e/lib/examples.ts, EXAMPLES) check the version-2 fields each example maps:
 * given the items of a run, a summary of version-2 items reads them, and one of version-1 items (the node's
 * `kw`/`grank`/`prevrank` names) throws, which marks the example ✘ in the demo and fails the examples e2e test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EXAMPLES } from '../../e2e/lib/examples';

/** An n8n run (as `n8n execute --rawOutput` gives it) whose nodes output these items. */
function runOf(outputs: Record<string, Array<Record<string, unknown>>>): unknown {
	const runData = Object.fromEntries(
		Object.entries(outputs).map(([name, items]) => [
			name,
			[{ data: { main: [items.map((json) => ({ json }))] } }],
		]),
	);
	return { data: { resultData: { runData } } };
}

const spec = (file: string) => {
	const found = EXAMPLES.find((example) => example.file === file);
	assert.ok(found, file);
	return found;
};

const keywordV2 = {
	id: '100001',
	keyword: 'running shoes',
	project: 'Acme Shoes',
	group: null,
	region: 'google.com',
	rank: 58,
	best_rank: 51,
	ranking_url: 'https://acmeshoes.com/',
	search_volume: 4400,
	crawled_at: '2026-01-15T12:00:00.000Z',
};
const keywordV1 = {
	id: '100001',
	kw: 'running shoes',
	category: 'Acme Shoes',
	grank: 58,
	best: 51,
	rankingurl: 'https://acmeshoes.com/',
	ms: 4400,
	crawled_at: 1768478400,
};
const row = {
	date: '2026-01-15',
	project: 'Acme Shoes',
	group: '',
	keyword: 'running shoes',
	rank: '58',
	best_rank: 51,
	ranking_url: 'https://acmeshoes.com/',
	region: 'google.com',
	search_volume: 4400,
	crawled_at: '2026-01-15T12:00:00.000Z',
};
const alertV2 = {
	id: '9012',
	keyword: 'kaffee altstadt zürich',
	project: 'Café Zürich',
	group: null,
	region: 'google.ch',
	url: 'cafe-zuerich.ch',
	previous_rank: 65,
	rank: 66,
	change: -1,
	created_at: '2026-01-15T11:00:00.000Z',
};
const alertV1 = {
	id: '9012',
	kw: 'kaffee altstadt zürich',
	category: 'Café Zürich',
	region: 'google.ch',
	prevrank: 65,
	result: 66,
	change: -1,
};
const message = {
	text: ':arrow_down: *kaffee altstadt zürich* (Café Zürich, google.ch) moved from 65 to 66',
};

describe('example summaries check the version-2 fields their examples map', () => {
	it('daily ranks: version-2 keywords and sheet rows are summed up; version-1 keywords are refused', () => {
		const daily = spec('daily-ranks-to-google-sheet.json');
		assert.equal(
			daily.summarize(runOf({ 'Get keyword ranks': [keywordV2], 'Append to Google Sheet': [row] })),
			"1 keyword row ready for the sheet (Google Sheets stubbed), first: 'running shoes' rank 58 (best 51)",
		);
		assert.throws(
			() =>
				daily.summarize(
					runOf({ 'Get keyword ranks': [keywordV1], 'Append to Google Sheet': [row] }),
				),
			/Get keyword ranks: no keyword, project, group, rank, best_rank, ranking_url in its item/,
		);
		const { keyword: _dropped, ...rowWithoutKeyword } = row;
		assert.throws(
			() =>
				daily.summarize(
					runOf({
						'Get keyword ranks': [keywordV2],
						'Append to Google Sheet': [rowWithoutKeyword],
					}),
				),
			/the sheet row: no keyword/,
		);
	});

	it('new alert → Slack: version-2 alerts are summed up; version-1 alerts and a message without the keyword are refused', () => {
		const slack = spec('new-alert-to-slack.json');
		assert.match(
			slack.summarize(runOf({ 'On new rank alert': [alertV2], 'Post to Slack': [message] })),
			/^1 alert of the last day → 1 Slack message \(Slack stubbed\), first: ':arrow_down: \*kaffee altstadt zürich\*/,
		);
		assert.throws(
			() => slack.summarize(runOf({ 'On new rank alert': [alertV1], 'Post to Slack': [message] })),
			/On new rank alert: no keyword, project, group, previous_rank, rank in its item/,
		);
		assert.throws(
			() =>
				slack.summarize(
					runOf({
						'On new rank alert': [alertV2],
						'Post to Slack': [{ text: ':arrow_down: ** (, google.ch) moved from >100 to >100' }],
					}),
				),
			/the message does not name its alert's keyword/,
		);
	});

	it("bulk add: an addition's counts are required", () => {
		const bulk = spec('bulk-add-keywords-from-sheet.json');
		assert.throws(
			() => bulk.summarize(runOf({ 'Read keyword sheet': [{}], 'Add keywords': [{ added: 1 }] })),
			/Add keywords: no requested, duplicates/,
		);
	});
});
