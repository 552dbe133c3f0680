/**
 * The example summaries the demo prints (e2e/lib/examples.cts, EXAMPLES) check the fields each example maps: given the
 * items of a run, a summary of simplified items reads them, and one of items with the API's own keys
 * (`kw`/`grank`/`prevrank`) throws, which marks the example ✘ in the demo and fails the examples e2e test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EXAMPLES, TOP10_LEFT, TOP10_UPDATES } from '../../e2e/lib/examples.cjs';

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

describe('example summaries check the fields their examples map', () => {
	it('daily ranks: simplified keywords and sheet rows are summed up; keywords with the API keys are refused', () => {
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

	it('new alert → Slack: simplified alerts are summed up; alerts with the API keys and a message without the keyword are refused', () => {
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

	it('top 10 → Slack: each branch of the Switch holds its crossings, every crossing gets a message; a wrong branch, an item with the API keys or a missing message is refused', () => {
		const top10 = spec('keyword-top10-to-slack.json');
		const [entered, left] = TOP10_UPDATES;
		const messages = [
			{ text: ':tada: *trail running shoes* entered the top 10 (12 → 8) · Acme Shoes, google.com' },
			{
				text: ':warning: *acme shoes discount code* left the top 10 (9 → 11) · Acme Shoes, google.com',
			},
		];
		/** A run: the Switch's two outputs, and "Post to Slack" run once per branch. */
		const run = (
			switched: [object[], object[]],
			posted = messages,
			trigger: object[] = TOP10_UPDATES,
		) => ({
			data: {
				resultData: {
					runData: {
						'On top 10 change': [{ data: { main: [trigger.map((json) => ({ json }))] } }],
						'Entered or left?': [
							{ data: { main: switched.map((items) => items.map((json) => ({ json }))) } },
						],
						'Post to Slack': posted.map((json) => ({ data: { main: [[{ json }]] } })),
					},
				},
			},
		});
		assert.match(
			top10.summarize(run([[entered], [left]])),
			/^2 keyword updates crossing the top 10 \(the filtered trigger's items: fixture\) → Switch: 1 entered, 1 left → 2 Slack messages \(Slack stubbed\), first: ':tada: \*trail running shoes\* entered the top 10 \(12 → 8\)/,
		);
		assert.throws(
			() => top10.summarize(run([[left], [entered]])),
			/'acme shoes discount code' \(matched \["top10_left"\]\) went to the "entered" branch/,
		);
		assert.throws(
			() => top10.summarize(run([[entered], [left]], messages.slice(0, 1))),
			/no Slack message names 'acme shoes discount code'/,
		);
		const { keyword: _dropped, ...version1 } = { ...entered, kw: entered.keyword };
		assert.throws(
			() => top10.summarize(run([[], []], [], [version1])),
			/On top 10 change: no keyword in its item/,
		);
	});

	it("bulk add: an addition's counts are required", () => {
		const bulk = spec('bulk-add-keywords-from-sheet.json');
		assert.throws(
			() => bulk.summarize(runOf({ 'Read keyword sheet': [{}], 'Add keywords': [{ added: 1 }] })),
			/Add keywords: no requested, duplicates/,
		);
	});

	it('rank sheet updated in place: one row per keyword, each with its keyword_id; two rows of one keyword are refused', () => {
		const sheet = spec('rank-sheet-updated-in-place.json');
		const sheetRow = {
			keyword_id: '100001',
			keyword: 'running shoes',
			rank: '58',
			updated: row.crawled_at,
		};
		assert.equal(
			sheet.summarize(
				runOf({ 'Get keyword ranks': [keywordV2], 'Update the rank sheet': [sheetRow] }),
			),
			"1 row to update in place by keyword_id (Google Sheets stubbed), first: 'running shoes' rank 58",
		);
		assert.throws(
			() =>
				sheet.summarize(
					runOf({
						'Get keyword ranks': [keywordV2],
						'Update the rank sheet': [sheetRow, sheetRow],
					}),
				),
			/two sheet rows share a keyword_id/,
		);
		assert.throws(
			() =>
				sheet.summarize(runOf({ 'Get keyword ranks': [keywordV1], 'Update the rank sheet': [] })),
			/Get keyword ranks: no keyword/,
		);
	});

	it('top 10 left → HubSpot: a task per keyword that left, naming it; a task without the keyword is refused', () => {
		const crm = spec('keyword-left-top10-to-hubspot-task.json');
		const [left] = TOP10_LEFT;
		const task = {
			subject: `SEO: "${left.keyword}" left the top 10 (9 → 11)`,
			body: 'Keyword: …',
			due: '2026-01-18T07:00:00.000Z',
		};
		assert.equal(
			crm.summarize(runOf({ 'On leaving the top 10': [left], 'Create a HubSpot task': [task] })),
			`1 keyword left the top 10 (the filtered trigger's items: fixture) → 1 HubSpot task (HubSpot stubbed), first: '${task.subject}'`,
		);
		assert.throws(
			() =>
				crm.summarize(
					runOf({
						'On leaving the top 10': [left],
						'Create a HubSpot task': [{ ...task, subject: 'SEO: a keyword left the top 10' }],
					}),
				),
			/the task does not name its keyword/,
		);
	});
});
