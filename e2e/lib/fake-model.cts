/**
 * The scripted fake chat model (dev/fake-model) for end-to-end tests: an `openAiApi` credential pointing at it and
 * the n8n AI nodes that use it. The fake itself runs in the test process (`FakeModel.start({ script })`); n8n reaches
 * it over HTTP exactly as it would reach OpenAI.
 */
export {
	FakeModel,
	type ChatRequest,
	type FakeModelOptions,
	type ModelRequest,
	type ScriptStep,
	type StepContext,
	type ToolResult,
} from '../../dev/fake-model/index.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const OPENAI_CREDENTIAL_TYPE = 'openAiApi';
export const FAKE_MODEL_CREDENTIAL_ID = 'fakeModelCred001';
export const FAKE_MODEL_CREDENTIAL_NAME = 'Fake model (OpenAI-compatible)';

/** n8n 2.41.1 node types (and the versions the tests use: the newest of each). */
export const AGENT_NODE = '@n8n/n8n-nodes-langchain.agent';
export const AGENT_NODE_VERSION = 3.1;
export const OPENAI_CHAT_MODEL_NODE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
export const OPENAI_CHAT_MODEL_NODE_VERSION = 1.3;
export const MCP_TRIGGER_NODE = '@n8n/n8n-nodes-langchain.mcpTrigger';
export const MCP_TRIGGER_NODE_VERSION = 2.1;

/** An `openAiApi` credential whose base URL (`url`, e.g. `http://127.0.0.1:<port>/v1`) is the fake model's. */
export function fakeModelCredential(
	baseUrl: string,
	apiKey: string,
	id = FAKE_MODEL_CREDENTIAL_ID,
	name = FAKE_MODEL_CREDENTIAL_NAME,
): { id: string; name: string; type: string; data: Record<string, unknown> } {
	return { id, name, type: OPENAI_CREDENTIAL_TYPE, data: { apiKey, url: baseUrl, header: false } };
}

/**
 * The "OpenAI Chat Model" node on the fake: model by ID, and Chat Completions (`responsesApiEnabled: false`; version
 * 1.3 uses the Responses API by default, which the fake does not serve).
 */
export function openAiChatModelNode(
	opts: { name?: string; model?: string; position?: [number, number]; credentialId?: string } = {},
): any {
	return {
		id: 'fake-model-node',
		name: opts.name ?? 'OpenAI Chat Model',
		type: OPENAI_CHAT_MODEL_NODE,
		typeVersion: OPENAI_CHAT_MODEL_NODE_VERSION,
		position: opts.position ?? [200, 300],
		parameters: {
			model: { __rl: true, mode: 'id', value: opts.model ?? 'fake-model' },
			responsesApiEnabled: false,
			options: {},
		},
		credentials: {
			[OPENAI_CREDENTIAL_TYPE]: {
				id: opts.credentialId ?? FAKE_MODEL_CREDENTIAL_ID,
				name: FAKE_MODEL_CREDENTIAL_NAME,
			},
		},
	};
}
