/**
 * `runNode`: runs one node (behind a pass-through "Input" node that feeds it the given items) through n8n-core's
 * `WorkflowExecute.processRunExecutionData`, in mode 'manual', and returns the node's main[0] output.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { NodeHelpers, createRunExecutionData } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from './additional-data.cjs';
import { TestCredentialsHelper, defaultCredentialTypes } from './credentials.cjs';
import { TestNodeTypes, credentialReferences, fullTypeName } from './node-types.cjs';
import { ensureN8nEnvironment } from './setup.cjs';

export const INPUT_NODE_NAME = 'Input';
export const INPUT_NODE_TYPE = 'n8n-nodes-harness.input';

/** A pass-through node that starts the workflow with the items `runNode` was given (like a trigger would). */
export class HarnessInputNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Input',
		name: INPUT_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the test items',
		defaults: { name: INPUT_NODE_NAME },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	/** Full type name; default `n8n-nodes-keyword-com.<description.name>`. */
	typeName?: string;
	/** Default: the latest version of the node type. */
	typeVersion?: number;
	/** Only what the test cares about: they are saved like the editor saves them, then defaults are filled. */
	parameters: INodeParameters;
	/** Input items; default one empty item (what a Manual Trigger emits). */
	items?: INodeExecutionData[];
	/** Decrypted credential data by credential type name, e.g. `{ keywordComApi: { apiToken, baseUrl } }`. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Maps to the node's `onError: 'continueRegularOutput'`. */
	continueOnFail?: boolean;
	/** Default 'Keyword.com'. */
	nodeName?: string;
	/** Credential types the helper knows; default the project's KeywordComApi. */
	credentialTypes?: ICredentialType[];
	/** Extra node settings (retryOnFail, alwaysOutputData, executeOnce, ...). */
	nodeSettings?: Partial<
		Pick<
			INode,
			| 'retryOnFail'
			| 'maxTries'
			| 'waitBetweenTries'
			| 'alwaysOutputData'
			| 'executeOnce'
			| 'onError'
		>
	>;
	/** Refuse non-loopback URLs in authenticated requests (default true). */
	loopbackOnly?: boolean;
}

export interface RunNodeError {
	message: string;
	description: string | null | undefined;
	httpCode: string | null | undefined;
	name: string;
	itemIndex: number | undefined;
	/** The error object n8n recorded (NodeApiError / NodeOperationError, ...). */
	raw: Error;
}

export interface RunResult {
	/** The node's main[0] output ([] when it failed or produced nothing). */
	items: INodeExecutionData[];
	/** The node's error when it failed (not set for continueOnFail error items: those are in `items`). */
	error?: RunNodeError;
	run: IRun;
	/** The node as it was saved and executed (parameters after defaults resolution). */
	node: INode;
	credentialsHelper: TestCredentialsHelper;
}

/** The node's latest version (what a freshly added node gets in the editor). */
export function latestVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The parameters as the editor would save them (non-default, displayed ones only), like NodeHelpers does. */
export function saveParametersLikeEditor(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion: number,
): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			false,
			false,
			{ typeVersion },
			description,
		) ?? {}
	);
}

/** What both runners need to place the node under test in a workflow. */
export interface NodeUnderTestOptions {
	nodeType: INodeType | IVersionedNodeType;
	typeName?: string;
	typeVersion?: number;
	nodeName?: string;
	parameters: INodeParameters;
	credentials: Record<string, unknown>;
}

/**
 * The node under test as the editor would save it (latest version, non-default parameters only, credential
 * references), and the node types it is registered with (`others`: helper nodes of the workflow).
 */
export function nodeUnderTest(
	options: NodeUnderTestOptions,
	defaults: { id: string; name: string; position: [number, number] },
	others: Record<string, INodeType | IVersionedNodeType> = {},
): { node: INode; nodeTypes: TestNodeTypes; typeName: string; typeVersion: number } {
	const typeName = options.typeName ?? fullTypeName(options.nodeType);
	const typeVersion = options.typeVersion ?? latestVersion(options.nodeType);
	const nodeTypes = new TestNodeTypes({ [typeName]: options.nodeType, ...others });
	const description = nodeTypes.getByNameAndVersion(typeName, typeVersion).description;
	const node: INode = {
		id: defaults.id,
		name: options.nodeName ?? defaults.name,
		type: typeName,
		typeVersion,
		position: defaults.position,
		parameters: saveParametersLikeEditor(
			description,
			structuredClone(options.parameters),
			typeVersion,
		),
		credentials: credentialReferences(options.credentials),
	};
	return { node, nodeTypes, typeName, typeVersion };
}

export function toRunNodeError(error: unknown): RunNodeError {
	const e = error as Error & {
		description?: string | null;
		httpCode?: string | null;
		context?: { itemIndex?: number };
	};
	return {
		message: e.message,
		description: e.description,
		httpCode: e.httpCode,
		name: e.name,
		itemIndex: e.context?.itemIndex,
		raw: e,
	};
}

export async function runNode(options: RunNodeOptions): Promise<RunResult> {
	ensureN8nEnvironment();
	const { node: placed, nodeTypes } = nodeUnderTest(
		options,
		{ id: 'node-under-test', name: 'Keyword.com', position: [200, 0] },
		{ [INPUT_NODE_TYPE]: new HarnessInputNode() },
	);
	const node: INode = { ...placed, ...options.nodeSettings };
	const nodeName = node.name;
	if (options.continueOnFail) node.onError = 'continueRegularOutput';

	const inputNode: INode = {
		id: 'harness-input',
		name: INPUT_NODE_NAME,
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	const connections = {
		[INPUT_NODE_NAME]: { main: [[{ node: nodeName, type: 'main' as const, index: 0 }]] },
	};
	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: [inputNode, node],
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;

	// The Workflow constructor fills in the defaults of the saved parameters (NodeHelpers.getNodeParameters).
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: [inputNode, node],
		connections,
		nodeTypes,
		active: false,
		settings: { executionOrder: 'v1' },
		staticData: {},
	});

	const credentialsHelper = new TestCredentialsHelper(
		options.credentials,
		options.credentialTypes ?? defaultCredentialTypes(),
		{ loopbackOnly: options.loopbackOnly },
	);
	const executionId = nextExecutionId();
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let resolveFinished!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));
	const additionalData = createAdditionalData(credentialsHelper, hooks, executionId);

	const items = structuredClone(options.items ?? [{ json: {} }]);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: workflow.getNode(INPUT_NODE_NAME)!, data: { main: [items] }, source: null },
			],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	await workflowExecute.processRunExecutionData(workflow);
	// processRunExecutionData resolves with the same IRun; the hook is what n8n itself waits for.
	const run = await finished;

	const executedNode = workflow.getNode(nodeName)!;
	const taskData = run.data.resultData.runData[nodeName]?.[0];
	const output = taskData?.data?.main?.[0] ?? [];
	const nodeError =
		taskData?.error ??
		(run.data.resultData.lastNodeExecuted === nodeName ? run.data.resultData.error : undefined);
	const result: RunResult = { items: output, run, node: executedNode, credentialsHelper };
	if (nodeError) result.error = toRunNodeError(nodeError);
	else if (run.data.resultData.error) result.error = toRunNodeError(run.data.resultData.error);
	return result;
}
