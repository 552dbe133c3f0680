/**
 * The Keyword ID picker (issue 20): the resource locator's list search over the chosen project's keywords (n8n-core's
 * LoadOptionsContext, real HTTP to the fake), the values it gives (From List, By ID, and the plain text saved before
 * it was a picker, in node versions 1 and 2), and the AI tool's keyword given by its text: looked up in the project,
 * exactly one match, otherwise an error naming the candidates and nothing destructive sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { KEYWORD_SEARCH_MATCHES, KEYWORD_SEARCH_PAGES } from '../../nodes/shared/listSearch';
import { KEYWORD_LOOKUP_MAX } from '../../nodes/KeywordCom/operation/keywordLookup';
import { runListSearch } from '../harness/index.cjs';
import { findTokenLeak, serialize } from '../reliability/helpers.cjs';
import {
	PROJECT,
	TOKEN,
	assertInputError,
	assertNoTokenIn,
	assertSingleRequest,
	enc,
	keywordIdsOf,
	rl,
	run,
	runOk,
	useFake,
	type Fake,
	type Outcome,
} from './helpers.cjs';

const fake = useFake();
const asTool = { typeVersion: 1, asTool: true };

/** 1,000 generated keywords, then two whose text holds "needle" (on the fifth page of 250). */
const BULK = 'Picker Bulk';
/** Two keywords of the same text in two regions, and one other. */
const TWINS = 'Picker Twins';
/** More keywords than a text lookup reads. */
const HUGE = 'Picker Huge';

let bulkReady = false;
function ensureProjects(): void {
	if (bulkReady) return;
	bulkReady = true;
	fake.api.addKeywords(BULK, 1000);
	fake.api.addKeywords(BULK, [{ kw: 'Needle in the haystack' }, { kw: 'needle shoes' }]);
	fake.api.addKeywords(TWINS, [
		{ kw: 'running shoes', region: 'google.com' },
		{ kw: 'running shoes', region: 'google.co.uk', language: 'en' },
		{ kw: 'trail shoes' },
	]);
	fake.api.addKeywords(HUGE, KEYWORD_LOOKUP_MAX + 5);
}

/** The keyword picker's list search, as the editor asks for it, with the fake's requests it caused. */
async function search(
	parameters: INodeParameters,
	filter?: string,
	paginationToken?: string,
): Promise<{ answer: INodeListSearchResult; requests: Fake['api']['requests'] }> {
	fake.api.clearRequests();
	const answer = await runListSearch({
		nodeType: fake.node,
		method: 'searchKeywords',
		parameters: { resource: 'keyword', operation: 'get', ...parameters },
		credentials: { keywordComApi: { apiToken: TOKEN, baseUrl: fake.baseUrl } },
		filter,
		paginationToken,
	});
	return { answer, requests: [...fake.api.requests] };
}

const KEYWORDS = (name: string) => `/api/v2/groups/${name}/keywords/`;

describe('Keyword ID picker: the list search', () => {
	it("lists the project's keywords (ID as value, text with region, device and URL as name) in one request", async () => {
		const { answer, requests } = await search({ project: rl(PROJECT, 'list') });
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: KEYWORDS('Acme%20Shoes'),
			query: { page: '1', per_page: '250' },
		});
		assert.deepEqual(
			answer.results.map((entry) => entry.value),
			keywordIdsOf(fake, PROJECT),
		);
		assert.equal(answer.results[0].name, 'running shoes (google.com, desktop, acmeshoes.com)');
		assert.equal(answer.paginationToken, undefined, 'one page holds them all');
		assertNoTokenIn(answer);
	});

	it('follows the chosen group (project[sub]group)', async () => {
		const { answer, requests } = await search({
			project: rl(PROJECT, 'list'),
			group: rl('Blog', 'name'),
		});
		assertSingleRequest(requests, {
			method: 'GET',
			rawPath: KEYWORDS('Acme%20Shoes[sub]Blog'),
			query: { page: '1', per_page: '250' },
		});
		assert.deepEqual(
			answer.results.map((entry) => entry.value),
			keywordIdsOf(fake, `${PROJECT}[sub]Blog`),
		);
	});

	it('filters by keyword text (case and spaces aside) or by ID', async () => {
		const { answer, requests } = await search({ project: rl(PROJECT) }, '  RUNNING   Shoes ');
		assert.equal(requests.length, 1);
		assert.ok(answer.results.length >= 2);
		for (const entry of answer.results) assert.match(entry.name, /running shoes/i);
		const id = keywordIdsOf(fake, PROJECT)[3];
		const byId = await search({ project: rl(PROJECT) }, id);
		assert.deepEqual(
			byId.answer.results.map((entry) => entry.value),
			[id],
		);
	});

	it('pages: one page of 250 a call without a filter, the next page as the pagination token', async () => {
		ensureProjects();
		const ids = keywordIdsOf(fake, BULK);
		const first = await search({ project: rl(BULK) });
		assert.equal(first.requests.length, 1);
		assert.equal(first.answer.results.length, 250);
		assert.equal(first.answer.paginationToken, '2');
		const second = await search({ project: rl(BULK) }, undefined, first.answer.paginationToken);
		assertSingleRequest(second.requests, {
			method: 'GET',
			rawPath: KEYWORDS('Picker%20Bulk'),
			query: { page: '2', per_page: '250' },
		});
		assert.deepEqual(
			[...first.answer.results, ...second.answer.results].map((entry) => entry.value),
			ids.slice(0, 500),
		);
	});

	it(`with a filter reads at most ${KEYWORD_SEARCH_PAGES} pages a call, and goes on from there when scrolled`, async () => {
		ensureProjects();
		const first = await search({ project: rl(BULK) }, 'needle');
		assert.equal(first.requests.length, KEYWORD_SEARCH_PAGES, 'a few requests at most');
		assert.deepEqual(first.answer.results, [], 'the needles are on page 5');
		assert.equal(first.answer.paginationToken, String(KEYWORD_SEARCH_PAGES + 1));
		const next = await search({ project: rl(BULK) }, 'needle', first.answer.paginationToken);
		assert.equal(next.requests.length, 1);
		assert.deepEqual(
			next.answer.results.map((entry) => entry.name.split(' (')[0]),
			['Needle in the haystack', 'needle shoes'],
		);
		assert.deepEqual(
			next.answer.results.map((entry) => entry.value),
			keywordIdsOf(fake, BULK).slice(-2),
		);
		assert.equal(next.answer.paginationToken, undefined, 'the last page');
	});

	it(`stops reading once ${KEYWORD_SEARCH_MATCHES} keywords match`, async () => {
		ensureProjects();
		const { answer, requests } = await search({ project: rl(BULK) }, 'a');
		assert.equal(requests.length, 1);
		assert.ok(answer.results.length >= KEYWORD_SEARCH_MATCHES);
		assert.equal(answer.paginationToken, '2');
	});

	it('without a project (or with one given by an expression) lists nothing and sends nothing', async () => {
		for (const project of [rl('', 'list'), rl('={{ $json.project }}', 'name')]) {
			const { answer, requests } = await search({ project });
			assert.deepEqual(answer.results, []);
			assert.equal(requests.length, 0);
		}
	});

	it('a keyword whose text holds the token is listed without it', async () => {
		fake.api.addKeywords('Picker Leak', [{ kw: `leak ${TOKEN} here` }]);
		const { answer } = await search({ project: rl('Picker Leak') });
		assert.equal(answer.results.length, 1);
		assertNoTokenIn(answer);
		assert.equal(findTokenLeak(answer, TOKEN), undefined);
	});

	it('a failure is the API error, without the token (the API echoing it)', async () => {
		fake.api.injectFault({
			path: KEYWORDS('Acme%20Shoes'),
			times: 1,
			status: 403,
			body: JSON.stringify({ message: `token ${TOKEN} may not list ${encodeURIComponent(TOKEN)}` }),
		});
		await assert.rejects(
			async () => await search({ project: rl(PROJECT) }),
			(error: Error) => {
				assert.equal(findTokenLeak(serialize(error), TOKEN, ['node']), undefined);
				assert.match(error.message, /403/);
				return true;
			},
		);
		fake.api.clearFaults();
	});
});

describe('Keyword ID picker: the values an operation gets', () => {
	const get = (keywordId: unknown): INodeParameters => ({
		resource: 'keyword',
		operation: 'get',
		project: rl(PROJECT),
		keywordId: keywordId as INodeParameters[string],
	});

	for (const typeVersion of [1, 2]) {
		it(`version ${typeVersion}: From List, By ID and the plain text saved before the picker all read the keyword`, async () => {
			const id = keywordIdsOf(fake, PROJECT)[2];
			for (const value of [rl(id, 'list'), rl(id, 'id'), id, ` ${id} `]) {
				const { items, requests } = await runOk(fake, get(value), { typeVersion });
				assertSingleRequest(requests, {
					method: 'GET',
					rawPath: `${KEYWORDS('Acme%20Shoes')}${id}`,
				});
				assert.equal(items[0].id, id, JSON.stringify(value));
			}
		});
	}

	it('Delete and Competitor → Get History take the picker value too', async () => {
		const [id] = fake.api.addKeywords(PROJECT, [{ kw: 'picker delete me' }]);
		const deleted = await runOk(fake, {
			resource: 'keyword',
			operation: 'delete',
			project: rl(PROJECT),
			keywordId: rl(id, 'list'),
		});
		assertSingleRequest(deleted.requests, {
			method: 'DELETE',
			rawPath: `${KEYWORDS('Acme%20Shoes')}${id}`,
		});
		assert.equal(deleted.items[0].keyword_id, id);
		const kept = keywordIdsOf(fake, PROJECT)[0];
		const history = await runOk(fake, {
			resource: 'competitor',
			operation: 'getHistory',
			project: rl(PROJECT),
			keywordId: rl(kept, 'id'),
			startDate: '2026-01-10',
			endDate: '2026-01-14',
		});
		assert.equal(
			history.requests[0].rawPath,
			`/api/v2/metrics/Acme%20Shoes/competitors/${kept}/history`,
		);
	});

	it('outside the AI tool a value that is not an ID is refused before any request, naming the field', async () => {
		for (const value of ['running shoes', rl('running shoes', 'list'), '0', '12a']) {
			assertInputError(await run(fake, get(value)), 'Keyword ID');
		}
	});
});

describe('Keyword ID as an AI tool: a keyword given by its text', () => {
	/** The GET requests of the lookup, and nothing else. */
	function onlyLookups(outcome: Outcome, project: string): void {
		assert.ok(outcome.requests.length > 0, 'the list was read');
		for (const request of outcome.requests) {
			assert.equal(request.method, 'GET', `${request.method} ${request.rawPath}`);
			assert.equal(request.rawPath, KEYWORDS(enc(project)));
		}
	}

	it('one keyword has the text: the operation runs on its ID (case and spaces aside)', async () => {
		const id = keywordIdsOf(fake, PROJECT)[3];
		const outcome = await runOk(
			fake,
			{ resource: 'keyword', operation: 'get', project: rl(PROJECT), keywordId: '  ACME   shoes ' },
			asTool,
		);
		const last = outcome.requests[outcome.requests.length - 1];
		assert.equal(last.rawPath, `${KEYWORDS('Acme%20Shoes')}${id}`);
		assert.equal(outcome.requests.length, 2, 'one page of the list, then the keyword');
		assert.equal(outcome.items[0].keyword, 'acme shoes');
	});

	it('Competitor → Get History and Delete resolve the text the same way', async () => {
		ensureProjects();
		const [trail] = keywordIdsOf(fake, TWINS).slice(2);
		const history = await runOk(
			fake,
			{
				resource: 'competitor',
				operation: 'getHistory',
				project: rl(TWINS),
				keywordId: 'Trail Shoes',
				startDate: '2026-01-10',
				endDate: '2026-01-14',
			},
			asTool,
		);
		assert.equal(
			history.requests[history.requests.length - 1].rawPath,
			`/api/v2/metrics/Picker%20Twins/competitors/${trail}/history`,
		);
		const [gone] = fake.api.addKeywords(TWINS, [{ kw: 'delete me by text' }]);
		const deleted = await runOk(
			fake,
			{
				resource: 'keyword',
				operation: 'delete',
				project: rl(TWINS),
				keywordId: 'delete me by text',
			},
			asTool,
		);
		const last = deleted.requests[deleted.requests.length - 1];
		assert.equal(`${last.method} ${last.rawPath}`, `DELETE ${KEYWORDS('Picker%20Twins')}${gone}`);
		assert.equal(deleted.items[0].keyword_id, gone);
		assert.ok(!keywordIdsOf(fake, TWINS).includes(gone));
	});

	it('several keywords have the text: Delete fails naming the field and both candidates, and deletes nothing', async () => {
		ensureProjects();
		const before = keywordIdsOf(fake, TWINS);
		const [us, uk] = before;
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'delete', project: rl(TWINS), keywordId: 'running shoes' },
			asTool,
		);
		assert.ok(outcome.error, 'the item fails');
		onlyLookups(outcome, TWINS);
		assert.match(
			outcome.error.message,
			/^Invalid Keyword ID: "running shoes" is the text of 2 keywords of "Picker Twins": /,
		);
		assert.ok(outcome.error.message.includes(`${us} "running shoes (google.com, desktop`));
		assert.ok(outcome.error.message.includes(`${uk} "running shoes (google.co.uk, desktop`));
		assert.match(String(outcome.error.description), /Give the ID of the keyword you mean/);
		assert.deepEqual(keywordIdsOf(fake, TWINS), before, 'nothing deleted');
		assertNoTokenIn(outcome.error.message);
		assertNoTokenIn(outcome.error.description ?? '');
	});

	it('no keyword has the text: an error naming the keywords containing it, and nothing deleted', async () => {
		ensureProjects();
		const before = keywordIdsOf(fake, TWINS);
		const near = await run(
			fake,
			{ resource: 'keyword', operation: 'delete', project: rl(TWINS), keywordId: 'shoes' },
			asTool,
		);
		onlyLookups(near, TWINS);
		assert.match(
			near.error?.message ?? '',
			/^Invalid Keyword ID: no keyword of "Picker Twins" is "shoes"; keywords containing it: \d+ "running shoes/,
		);
		const none = await run(
			fake,
			{ resource: 'keyword', operation: 'delete', project: rl(TWINS), keywordId: 'walking boots' },
			asTool,
		);
		onlyLookups(none, TWINS);
		assert.equal(
			none.error?.message,
			'Invalid Keyword ID: no keyword of "Picker Twins" is "walking boots"',
		);
		assert.match(String(none.error?.description), /numeric ID instead/);
		assert.deepEqual(keywordIdsOf(fake, TWINS), before, 'nothing deleted');
	});

	it(`a project of more than ${KEYWORD_LOOKUP_MAX} keywords is not searched in part: refused, nothing deleted`, async () => {
		ensureProjects();
		const before = keywordIdsOf(fake, HUGE).length;
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'delete', project: rl(HUGE), keywordId: 'keyword 7' },
			asTool,
		);
		onlyLookups(outcome, HUGE);
		assert.match(
			outcome.error?.message ?? '',
			new RegExp(
				`cannot be looked up by its text: "Picker Huge" has more than ${KEYWORD_LOOKUP_MAX} keywords`,
			),
		);
		assert.ok(outcome.requests.length <= 12, `${outcome.requests.length} requests`);
		assert.equal(keywordIdsOf(fake, HUGE).length, before);
	});

	it('every other value is checked before the lookup: a bad one sends nothing at all', async () => {
		const outcome = await run(
			fake,
			{
				resource: 'competitor',
				operation: 'getHistory',
				project: rl(PROJECT),
				keywordId: 'acme shoes',
				startDate: '2026-02-30',
				endDate: '2026-03-01',
			},
			asTool,
		);
		assertInputError(outcome, 'Start Date');
		assertInputError(
			await run(
				fake,
				{
					resource: 'keyword',
					operation: 'delete',
					project: rl(PROJECT),
					keywordId: 'x'.repeat(151),
				},
				asTool,
			),
			'Keyword ID',
		);
	});

	it('the token is in no error, even when it was typed as the keyword text', async () => {
		const outcome = await run(
			fake,
			{ resource: 'keyword', operation: 'delete', project: rl(PROJECT), keywordId: `my ${TOKEN}` },
			asTool,
		);
		assert.ok(outcome.error);
		assert.ok(!outcome.requests.some((request) => request.method === 'DELETE'));
		assertNoTokenIn(outcome.error.message);
		assertNoTokenIn(outcome.error.description ?? '');
	});
});
