/**
 * The Keyword ID picker in a real n8n 2.x (the package installed from its tarball), against the fake API: the list
 * the editor shows, asked the way the editor asks it (`POST /rest/dynamic-node-parameters/resource-locator-results`
 * with the node's current parameters and credential), then Keyword → Get run with the value picked from that list,
 * next to the plain text a workflow saved before the picker (node versions 1 and 2).
 *
 * Run: source scripts/env.sh && npx tsc -p tsconfig.test.json && node --test build/test/e2e/keyword-picker.e2e.test.cjs
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	KEYWORD_COM_NODE,
	RealN8n,
	buildAndPackPackage,
	keywordComCredential,
	nodeOutput,
	removeTarball,
	runError,
} from '../../e2e/lib/index.cjs';

const ACME = 'Acme Shoes';
const credentials = { keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME } };
const KEYWORD_LIST = `/api/v2/groups/${ACME}/keywords/`;

interface ListAnswer {
	results: Array<{ name: string; value: string }>;
	paginationToken?: string;
}

describe('Keyword ID picker in a real n8n', { timeout: 10 * 60_000 }, () => {
	let tarball: string | undefined;
	let fake: FakeApiProcess;
	let n8n: RealN8n;

	/** What the editor sends when the Keyword ID list opens or its search box changes. */
	const listSearch = async (filter?: string, paginationToken?: string): Promise<ListAnswer> =>
		(await n8n.rest('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
			nodeTypeAndVersion: { name: KEYWORD_COM_NODE, version: 2 },
			path: 'parameters.keywordId',
			methodName: 'searchKeywords',
			currentNodeParameters: {
				resource: 'keyword',
				operation: 'get',
				project: { __rl: true, mode: 'list', value: ACME },
				group: { __rl: true, mode: 'list', value: '' },
				keywordId: { __rl: true, mode: 'list', value: '' },
			},
			credentials,
			...(filter === undefined ? {} : { filter }),
			...(paginationToken === undefined ? {} : { paginationToken }),
		})) as ListAnswer;

	before(async () => {
		tarball = buildAndPackPackage();
		fake = await FakeApiProcess.start({ seed: 'demo' });
		n8n = await RealN8n.create({ packageTarball: tarball, name: 'keyword-picker' });
		await n8n.importCredentials([keywordComCredential(fake.baseUrl, fake.token)]);
		await n8n.start();
		await n8n.setupOwnerAndLogin();
	});

	after(async () => {
		await n8n?.dispose();
		await fake?.stop();
		removeTarball(tarball);
	});

	let picked: { name: string; value: string } | undefined;

	test("the editor's list search: the project's keywords by text, from one request to the API", async () => {
		await fake.clearRequests();
		const all = await listSearch();
		const listed = (await fake.api('GET', `${KEYWORD_LIST}?page=1&per_page=250`)) as {
			data: Array<{ id: string }>;
		};
		assert.deepEqual(
			all.results.map((entry) => entry.value),
			listed.data.map((keyword) => String(keyword.id)),
		);
		assert.equal(all.paginationToken, undefined);
		const filtered = await listSearch('hiking');
		assert.ok(filtered.results.length >= 1);
		for (const entry of filtered.results) assert.match(entry.name, /hiking/i);
		picked = filtered.results[0];
		const requests = (await fake.requests()).filter((request) => request.path === KEYWORD_LIST);
		// One for each list search (the test's own read of the list above is one more).
		assert.equal(requests.length, 3, requests.map((r) => `${r.path}?${r.rawQuery}`).join(' | '));
		assert.ok(!JSON.stringify([all, filtered]).includes(fake.token), 'no token in the list');
	});

	test('Keyword → Get runs with the value picked from the list, and with the plain text of a saved workflow', async () => {
		assert.ok(picked, 'the list search gave a keyword');
		const id = picked.value;
		const nodes = [
			{
				name: 'From List (v2)',
				typeVersion: 1,
				keywordId: { __rl: true, mode: 'list', value: id, cachedResultName: picked.name },
			},
			{ name: 'By ID (v2)', typeVersion: 1, keywordId: { __rl: true, mode: 'id', value: id } },
			{ name: 'Saved text (v2)', typeVersion: 1, keywordId: id },
			{ name: 'Saved text (v1)', typeVersion: 1, keywordId: id },
		];
		const workflowId = await n8n.importWorkflow({
			id: 'kwPickerWf000001',
			name: 'Keyword picker',
			nodes: [
				{
					id: 'start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				...nodes.map((node, index) => ({
					id: `get-${index}`,
					name: node.name,
					type: KEYWORD_COM_NODE,
					typeVersion: node.typeVersion,
					position: [300, index * 120],
					parameters: {
						resource: 'keyword',
						operation: 'get',
						project: { __rl: true, mode: 'list', value: ACME },
						keywordId: node.keywordId,
					},
					credentials,
				})),
			],
			connections: {
				Start: { main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
			},
			settings: { executionOrder: 'v1' },
		});
		await fake.clearRequests();
		const result = await n8n.execute(workflowId);
		assert.ok(result.ok, `the run succeeded: ${JSON.stringify(runError(result.output)?.message)}`);
		for (const node of nodes) {
			const items = nodeOutput(result.output, node.name);
			assert.equal(items?.length, 1, node.name);
			assert.equal(String(items?.[0].id), id, node.name);
		}
		const gets = (await fake.requests()).filter(
			(request) => request.method === 'GET' && request.path === `${KEYWORD_LIST}${id}`,
		);
		assert.equal(gets.length, nodes.length, 'one request a node, to the keyword picked');
		assert.ok(!result.stdout.includes(fake.token) && !result.stderr.includes(fake.token));
		assert.ok(!n8n.logs().includes(fake.token), 'no token in the n8n log');
	});
});
