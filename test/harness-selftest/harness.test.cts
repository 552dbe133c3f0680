import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';

import { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComApi } from '../../credentials/KeywordComApi.credentials';
import {
	clearCapturedLogs,
	getCapturedLogs,
	runNode,
	runPoll,
	testCredential,
	TestNodeTypes,
	TestCredentialsHelper,
} from '../harness/index.cjs';
import { DeclarativeTestNode, PollingTestTrigger, ProgrammaticTestNode } from './nodes.cjs';

let api: FakeKeywordApi;
let baseUrl: string;
const creds = () => ({ keywordComApi: { apiToken: api.token, baseUrl } });

before(async () => {
	api = new FakeKeywordApi({ seed: 'demo' });
	baseUrl = await api.start();
});
after(async () => {
	await api.stop();
});
afterEach(() => {
	api.clearRequests();
	api.clearFaults();
});

describe('runNode with a declarative node', () => {
	it('sends the request with the generic Bearer auth and returns the items', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: {},
			credentials: creds(),
		});
		assert.equal(result.error, undefined);
		assert.equal(api.requests.length, 1);
		const [req] = api.requests;
		assert.equal(req.method, 'GET');
		assert.equal(req.path, '/api/v2/groups/active');
		assert.equal(req.authorization, 'Bearer test-token-123');
		assert.equal(req.headers.accept, 'application/json');
		assert.ok(result.items.length > 0);
		assert.equal(result.items[0].json.type, 'group');
		assert.deepEqual(result.items[0].pairedItem, { item: 0 });
		// defaults filled in by n8n's own parameter resolution
		assert.equal(result.node.parameters.operation, 'listActive');
		assert.equal(result.node.type, 'n8n-nodes-keyword-com.declarativeTest');
		assert.equal(result.run.status, 'success');
	});

	it('tolerates a trailing slash in the base URL (requestDefaults expression over $credentials)', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: {},
			credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${baseUrl}/` } },
		});
		assert.equal(result.error, undefined);
		assert.equal(api.requests[0].rawPath, '/api/v2/groups/active');
	});

	it('fills the credential defaults like n8n (baseUrl missing -> https://app.keyword.com, refused as non-loopback)', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: {},
			credentials: { keywordComApi: { apiToken: api.token } },
		});
		assert.ok(result.error);
		assert.match(
			String(result.error.raw.cause ?? result.error.message),
			/non-loopback host "app\.keyword\.com"/,
		);
		assert.equal(api.requests.length, 0);
	});

	it('resolves expression parameters against each input item', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: { operation: 'get', groupName: '={{ $json.name }}', tag: '={{ $json.tag }}' },
			items: [{ json: { name: 'Acme Shoes', tag: 'brand' } }],
			credentials: creds(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(api.requests.length, 1);
		assert.equal(api.requests[0].path, '/api/v2/groups/Acme Shoes');
		assert.equal(api.requests[0].query.tag, 'brand');
		assert.equal(result.items.length, 1);
	});

	it('drops parameters the editor would not save (not displayed for the operation)', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: { operation: 'listActive', groupName: 'ignored' },
			credentials: creds(),
		});
		assert.equal(result.node.parameters.groupName, undefined);
	});

	it('continueOnFail: an error item paired with its input item', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: { operation: 'get', groupName: '={{ $json.name }}' },
			items: [{ json: { name: 'Acme Shoes' } }, { json: { name: 'No Such Group' } }],
			credentials: creds(),
			continueOnFail: true,
		});
		assert.equal(result.error, undefined);
		assert.equal(result.items.length, 2);
		assert.equal(result.items[0].error, undefined);
		const errorItem = result.items[1];
		assert.ok(errorItem.error, 'second item carries the error');
		assert.equal(errorItem.error.name, 'NodeApiError');
		assert.equal((errorItem.error as unknown as { httpCode: string }).httpCode, '404');
		assert.deepEqual(errorItem.pairedItem, { item: 1 });
		assert.equal(result.node.onError, 'continueRegularOutput');
	});

	it('a NodeApiError surfaces in `error` with httpCode and itemIndex', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: { operation: 'get', groupName: '={{ $json.name }}' },
			items: [{ json: { name: 'Acme Shoes' } }, { json: { name: 'No Such Group' } }],
			credentials: creds(),
		});
		assert.ok(result.error);
		assert.equal(result.error.name, 'NodeApiError');
		assert.equal(result.error.httpCode, '404');
		assert.equal(result.error.itemIndex, 1);
		assert.deepEqual(result.items, []);
		assert.equal(result.run.status, 'error');
	});

	it('a wrong token gives a 401 NodeApiError', async () => {
		const result = await runNode({
			nodeType: new DeclarativeTestNode(),
			parameters: {},
			credentials: { keywordComApi: { apiToken: 'wrong', baseUrl } },
		});
		assert.equal(result.error?.httpCode, '401');
		assert.equal(api.requests[0].authorization, 'Bearer wrong');
	});
});

describe('runNode with a programmatic node', () => {
	it('runs execute() with httpRequestWithAuthentication, latest version, expressions per item', async () => {
		const result = await runNode({
			nodeType: new ProgrammaticTestNode(),
			parameters: { path: '={{ $json.p }}', perPage: 5 },
			items: [
				{ json: { p: '/api/v2/groups/active' } },
				{ json: { p: '/api/v2/groups/Acme Shoes' } },
			],
			credentials: creds(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.items.length, 2);
		assert.equal(result.items[0].json.version, 2);
		assert.deepEqual(
			api.requests.map((r) => [r.path, r.query.per_page, r.authorization]),
			[
				['/api/v2/groups/active', '5', 'Bearer test-token-123'],
				['/api/v2/groups/Acme Shoes', '5', 'Bearer test-token-123'],
			],
		);
	});

	it('continueOnFail in a programmatic node, and a NodeOperationError without it', async () => {
		const ok = await runNode({
			nodeType: new ProgrammaticTestNode(),
			parameters: { path: '={{ $json.p }}' },
			items: [{ json: { p: 'relative' } }, { json: { p: '/api/v2/groups/active' } }],
			credentials: creds(),
			continueOnFail: true,
		});
		assert.equal(ok.items.length, 2);
		assert.match(String(ok.items[0].json.error), /Bad path/);
		assert.deepEqual(ok.items[0].pairedItem, { item: 0 });

		const failed = await runNode({
			nodeType: new ProgrammaticTestNode(),
			parameters: { path: '={{ $json.p }}' },
			items: [{ json: { p: '/api/v2/groups/active' } }, { json: { p: 'relative' } }],
			credentials: creds(),
		});
		assert.equal(failed.error?.name, 'NodeOperationError');
		assert.equal(failed.error?.itemIndex, 1);
	});

	it('typeVersion can be pinned', async () => {
		const result = await runNode({
			nodeType: new ProgrammaticTestNode(),
			typeVersion: 1,
			parameters: {},
			credentials: creds(),
		});
		assert.equal(result.items[0].json.version, 1);
	});
});

describe('runPoll', () => {
	it('returns items and static data that survives a JSON round trip into the next poll', async () => {
		const first = await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: {},
			credentials: creds(),
		});
		assert.equal(first.error, undefined);
		assert.ok(first.items && first.items[0].length > 0);
		assert.equal(api.requests[0].authorization, 'Bearer test-token-123');
		assert.equal(first.staticData.polls, 1);
		assert.equal(first.staticData.lastMode, 'trigger');
		assert.equal(first.staticData.activation, 'activate');
		assert.equal(first.staticDataChanged, true);
		assert.deepEqual(first.persistedStaticData, first.staticData);

		const restored = JSON.parse(JSON.stringify(first.persistedStaticData));
		const second = await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: {},
			credentials: creds(),
			staticData: restored,
			activation: 'init',
		});
		assert.equal(second.items, null, 'nothing new after the restart');
		assert.equal(second.staticData.polls, 2);
		assert.equal(second.staticData.activation, 'init');
		// n8n only saves static data when a poll emits: the DB still holds the first poll's data
		assert.deepEqual(second.persistedStaticData, restored);
		// the input object was not mutated
		assert.equal(restored.polls, 1);
	});

	it('a failed poll: error returned, in-memory static data mutated, persisted data unchanged', async () => {
		const before = { polls: 3, seenIds: ['x'] };
		const result = await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: { fail: true },
			credentials: creds(),
			staticData: before,
		});
		assert.equal(result.items, null);
		assert.match(String(result.error?.message), /Poll failed on purpose/);
		assert.equal(result.staticData.poisoned, true);
		assert.equal(result.staticData.polls, 4);
		assert.deepEqual(result.persistedStaticData, before);
	});

	it('manual mode ("Fetch Test Event")', async () => {
		const result = await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: {},
			credentials: creds(),
			mode: 'manual',
		});
		assert.equal(result.items?.[0].length, 1);
		assert.equal(result.staticData.lastMode, 'manual');
		assert.deepEqual(result.persistedStaticData, {});
	});

	it('static data does not leak between runs', async () => {
		await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: {},
			credentials: creds(),
			staticData: { polls: 41 },
		});
		const fresh = await runPoll({
			nodeType: new PollingTestTrigger(),
			parameters: {},
			credentials: creds(),
		});
		assert.equal(fresh.staticData.polls, 1);
	});
});

describe('testCredential', () => {
	it('OK with the right token', async () => {
		const result = await testCredential(new KeywordComApi(), {
			apiToken: api.token,
			baseUrl: `${baseUrl}/`,
		});
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful!' });
		assert.equal(api.requests.length, 1);
		assert.equal(api.requests[0].authorization, 'Bearer test-token-123');
		assert.match(api.requests[0].rawPath, /^\/api\/v2\/users\/self/);
	});

	it('Error with the 401 rule message for a wrong token', async () => {
		const result = await testCredential(new KeywordComApi(), { apiToken: 'nope', baseUrl });
		assert.equal(result.status, 'Error');
		assert.match(result.message, /rejected the API token \(401\)/);
	});

	it('Error with the 404 rule message for a base URL that is not the API', async () => {
		const result = await testCredential(new KeywordComApi(), {
			apiToken: api.token,
			baseUrl: `${baseUrl}/nothing-here`,
		});
		assert.equal(result.status, 'Error');
		assert.match(result.message, /\(404\)/);
	});

	it('Error with the status message for an unlisted status', async () => {
		api.injectFault({ path: /users/, times: 1, status: 500 });
		const result = await testCredential(new KeywordComApi(), { apiToken: api.token, baseUrl });
		assert.equal(result.status, 'Error');
		assert.notEqual(result.message, '');
	});
});

describe('captured logs', () => {
	it('records the engine and node log lines, and the token never appears in them', async () => {
		clearCapturedLogs();
		const secret = 'secret-token-should-not-leak';
		const wrong = await runNode({
			nodeType: new ProgrammaticTestNode(),
			parameters: { logCredentials: true },
			credentials: { keywordComApi: { apiToken: secret, baseUrl } },
		});
		assert.equal(wrong.error?.httpCode, '401');
		const logs = getCapturedLogs();
		assert.ok(
			logs.some((l) => l.message === 'About to request'),
			'node log captured',
		);
		assert.ok(
			logs.some((l) => /Start executing node|Workflow execution/i.test(l.message)),
			'engine log captured',
		);
		for (const line of logs) assert.ok(!line.text.includes(secret), `secret in log: ${line.text}`);
		clearCapturedLogs();
		assert.equal(getCapturedLogs().length, 0);
	});
});

describe('building blocks', () => {
	it('TestNodeTypes and TestCredentialsHelper apply generic auth', async () => {
		const types = new TestNodeTypes({ 'x.y': new ProgrammaticTestNode() });
		assert.equal(types.getByNameAndVersion('x.y', 1).description.name, 'programmaticTest');
		assert.throws(() => types.getByName('nope'));
		const helper = new TestCredentialsHelper({ keywordComApi: { apiToken: 't' } });
		const decrypted = await helper.getDecrypted(
			{} as never,
			{ id: '1', name: 'c' },
			'keywordComApi',
			'manual',
		);
		assert.equal(decrypted.baseUrl, 'https://app.keyword.com');
	});

	it('overhead per run stays small', async () => {
		const t0 = performance.now();
		for (let i = 0; i < 10; i++) {
			await runNode({ nodeType: new DeclarativeTestNode(), parameters: {}, credentials: creds() });
		}
		const perRun = (performance.now() - t0) / 10;
		assert.ok(perRun < 100, `per run ${perRun.toFixed(1)} ms`);
	});
});
