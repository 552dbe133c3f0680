/**
 * The pickers of the panel and the project ID the node reads for the user: the keyword list (loadOptions getKeywords),
 * the tag list by ID (getProjectTagIds), each answered through n8n-core's LoadOptionsContext with real HTTP to the
 * fake; and the operations whose endpoint wants a numeric project ID (Update Many, Delete Many, Refresh Ranks, Share
 * of Voice → Get History), given a project picked by name: one read of its record, then the request, and nothing
 * written when the record gives no ID or the project is not there.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { INodeParameters } from 'n8n-workflow';

import { KEYWORD_OPTIONS_PAGES } from '../../nodes/shared/loadOptions';
import { MAX_PAGE_SIZE } from '../../nodes/shared/constants';
import { runLoadOptions } from '../harness/index.cjs';
import { PROJECT, TOKEN, keywordIdsOf, rl, run, useFake } from './helpers.cjs';

const fake = useFake();

async function options(method: string, parameters: INodeParameters) {
	fake.api.clearRequests();
	const answer = await runLoadOptions({
		nodeType: fake.node,
		method,
		parameters: { resource: 'keyword', operation: 'deleteMany', ...parameters },
		credentials: { keywordComApi: { apiToken: TOKEN, baseUrl: fake.baseUrl } },
	});
	return { answer, requests: fake.api.requests.map((r) => `${r.method} ${r.rawPath}`) };
}

describe('pickers', () => {
	it('Keyword Names or IDs: the chosen project’s keywords by ID, named with where they are tracked, sorted', async () => {
		const { answer, requests } = await options('getKeywords', { project: rl(PROJECT) });
		assert.deepEqual(
			answer.map((option) => option.value).sort(),
			[...keywordIdsOf(fake, PROJECT)].sort(),
		);
		assert.ok(
			answer.every((option) => /\(google\./.test(option.name)),
			answer[0]?.name,
		);
		const names = answer.map((option) => option.name);
		assert.deepEqual(
			names,
			[...names].sort((a, b) => a.localeCompare(b)),
		);
		assert.deepEqual(requests, ['GET /api/v2/groups/Acme%20Shoes/keywords/']);
	});

	it('a group’s keywords when a group is chosen; nothing (and no request) before a project is', async () => {
		const group = await options('getKeywords', { project: rl(PROJECT), group: rl('Blog') });
		assert.deepEqual(
			group.answer.map((option) => option.value).sort(),
			[...keywordIdsOf(fake, `${PROJECT}[sub]Blog`)].sort(),
		);
		const none = await options('getKeywords', { project: rl('') });
		assert.deepEqual(none.answer, []);
		assert.deepEqual(none.requests, []);
	});

	it(`a large project lists its first ${KEYWORD_OPTIONS_PAGES * MAX_PAGE_SIZE} keywords, in ${KEYWORD_OPTIONS_PAGES} requests`, async () => {
		fake.api.addKeywords('Picker Many', KEYWORD_OPTIONS_PAGES * MAX_PAGE_SIZE + 30);
		const { answer, requests } = await options('getKeywords', { project: rl('Picker Many') });
		assert.equal(answer.length, KEYWORD_OPTIONS_PAGES * MAX_PAGE_SIZE);
		assert.equal(requests.length, KEYWORD_OPTIONS_PAGES);
	});

	it('Tag Name or ID (Get Metrics): the chosen project’s tags, named, by ID', async () => {
		const { answer, requests } = await options('getProjectTagIds', {
			resource: 'project',
			operation: 'getMetrics',
			project: rl(PROJECT),
		});
		const tags = [...fake.api.state.findContainer(PROJECT)!.tags.values()];
		assert.deepEqual(
			answer.map((option) => [option.name, option.value]).sort(),
			tags.map((tag) => [tag.name, String(tag.id)]).sort(),
		);
		assert.deepEqual(requests, ['GET /api/v2/groups/Acme%20Shoes']);
	});
});

describe('a project picked by name where the endpoint wants its numeric ID', () => {
	const deleteMany = (project: string) => ({
		resource: 'keyword',
		operation: 'deleteMany',
		project: rl(project),
		keywordIds: keywordIdsOf(fake, PROJECT).slice(0, 1),
	});

	it('a project Keyword.com does not know: its record is not found, and nothing is deleted', async () => {
		const before = keywordIdsOf(fake, PROJECT).length;
		const outcome = await run(fake, deleteMany('No Such Project'));
		assert.equal(outcome.error?.httpCode, '404');
		assert.deepEqual(
			outcome.requests.map((request) => request.method),
			['GET'],
		);
		assert.equal(keywordIdsOf(fake, PROJECT).length, before);
	});

	it('a record without a usable project_id: a clear error, and nothing is deleted', async () => {
		fake.api.injectFault({
			method: 'GET',
			path: '/api/v2/groups/Acme%20Shoes',
			times: 1,
			status: 200,
			body: JSON.stringify({ data: { type: 'group', id: PROJECT, attributes: { name: PROJECT } } }),
		});
		const before = keywordIdsOf(fake, PROJECT).length;
		const outcome = await run(fake, deleteMany(PROJECT));
		assert.match(outcome.error?.message ?? '', /^Invalid Project: Keyword\.com gave no numeric ID/);
		assert.deepEqual(
			outcome.requests.map((request) => request.method),
			['GET'],
		);
		assert.equal(keywordIdsOf(fake, PROJECT).length, before);
	});

	it('a bad keyword list is refused before the project is even looked up', async () => {
		const outcome = await run(fake, { ...deleteMany(PROJECT), keywordIds: '={{ "1, 1" }}' });
		assert.match(outcome.error?.message ?? '', /^Invalid Keywords: /);
		assert.equal(outcome.requests.length, 0);
	});
});
