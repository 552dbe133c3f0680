/**
 * `runPoll`: one poll of a polling trigger through n8n-core's `PollContext`, the way n8n's active-workflow
 * manager ('trigger' mode) or "Fetch Test Event" ('manual' mode) calls `nodeType.poll`.
 */
import { PollContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from './additional-data.cjs';
import { TestCredentialsHelper, defaultCredentialTypes } from './credentials.cjs';
import { nodeUnderTest } from './run-node.cjs';
import { ensureN8nEnvironment } from './setup.cjs';

export interface RunPollOptions {
	nodeType: INodeType | IVersionedNodeType;
	typeName?: string;
	typeVersion?: number;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The node's static data before the poll (stored under `node:<node name>` of the workflow's static data). */
	staticData?: IDataObject;
	/** The workflow's global static data (`getWorkflowStaticData('global')`). */
	globalStaticData?: IDataObject;
	/** 'trigger' = an active workflow's poll (default), 'manual' = "Fetch Test Event". */
	mode?: 'trigger' | 'manual';
	/** Default 'activate' in trigger mode ('init' = after an n8n start), 'manual' in manual mode. */
	activation?: WorkflowActivateMode;
	/** Default 'Keyword.com Trigger'. */
	nodeName?: string;
	/**
	 * The workflow's id. Default: a new one for every poll, so that polls run side by side in one test process (lanes
	 * standing for separate workflows) never share what n8n keys by workflow; give the same id to two polls to have
	 * them run as one workflow's (two Poll Times firing together).
	 */
	workflowId?: string;
	credentialTypes?: ICredentialType[];
	loopbackOnly?: boolean;
	/**
	 * What `this.getPollBudgetMs()` answers, as n8n's durable scheduler sets it (2.5 s at a 5 s poll timeout, 36 s at
	 * the default 45 s). Omitted: n8n-core's own default (5 minutes, the in-memory scheduler's).
	 */
	pollBudgetMs?: number;
	/** How long n8n takes to read the credential (from its database), ms. Default: no wait. */
	credentialReadMs?: number;
}

export interface RunPollResult {
	/** What `poll()` returned (null = nothing new). Not set when it threw. */
	items: INodeExecutionData[][] | null;
	/** The node's static data after the poll, in memory (what the next poll of the same running workflow sees), deep-copied. */
	staticData: IDataObject;
	/**
	 * What n8n would have written to its database, i.e. what a restarted instance sees: n8n saves the workflow's
	 * static data (if changed) only when a trigger-mode poll emits items. After a `null` poll, a throw, or any
	 * manual-mode poll, the stored data stays what it was before.
	 */
	persistedStaticData: IDataObject;
	/** Whether the workflow's static data was marked as changed (ObservableObject `__dataChanged`). */
	staticDataChanged: boolean;
	/** The workflow's global static data after the poll (n8n's activation saves it, whatever the poll returned). */
	globalStaticData: IDataObject;
	/** The error `poll()` threw. */
	error?: Error;
	credentialsHelper: TestCredentialsHelper;
}

/** A deep copy of (possibly Proxy-wrapped, ObservableObject) static data: own enumerable keys only. */
export function copyStaticData<T>(value: T): T {
	if (value === null || typeof value !== 'object') return value;
	if (value instanceof Date) return new Date(value.getTime()) as T;
	if (Array.isArray(value)) return value.map((v) => copyStaticData(v)) as T;
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(value))
		out[key] = copyStaticData((value as Record<string, unknown>)[key]);
	return out as T;
}

let workflowCount = 0;

export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	ensureN8nEnvironment();
	const mode = options.mode ?? 'trigger';
	const activation: WorkflowActivateMode =
		options.activation ?? (mode === 'manual' ? 'manual' : 'activate');
	const { node, nodeTypes, typeName, typeVersion } = nodeUnderTest(options, {
		id: 'trigger-under-test',
		name: 'Keyword.com Trigger',
		position: [0, 0],
	});
	const nodeName = node.name;

	const storedNodeData = copyStaticData(options.staticData ?? {});
	const workflowStaticData: IDataObject = {};
	if (options.globalStaticData)
		workflowStaticData.global = copyStaticData(options.globalStaticData);
	if (options.staticData)
		workflowStaticData[`node:${nodeName}`] = copyStaticData(options.staticData);

	const workflow = new Workflow({
		id: options.workflowId ?? `harness-workflow-${++workflowCount}`,
		name: 'Harness workflow',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: mode === 'trigger',
		settings: { executionOrder: 'v1' },
		staticData: workflowStaticData,
	});
	const workflowNode = workflow.getNode(nodeName)!;

	const credentialsHelper = new TestCredentialsHelper(
		options.credentials,
		options.credentialTypes ?? defaultCredentialTypes(),
		{ loopbackOnly: options.loopbackOnly, readDelayMs: options.credentialReadMs },
	);
	const additionalData = createAdditionalData(credentialsHelper, undefined, nextExecutionId());
	const emitted: INodeExecutionData[][][] = [];
	const context = new PollContext(
		workflow,
		workflowNode,
		additionalData,
		mode,
		activation,
		(data) => {
			emitted.push(data);
		},
		() => {},
		undefined,
		undefined,
		undefined,
		options.pollBudgetMs === undefined ? undefined : () => options.pollBudgetMs as number,
	);

	const pollType = nodeTypes.getByNameAndVersion(typeName, typeVersion);
	if (!pollType.poll) throw new Error(`test harness: node type "${typeName}" has no poll()`);

	let items: INodeExecutionData[][] | null = null;
	let error: Error | undefined;
	try {
		items = await pollType.poll.call(context);
	} catch (e) {
		error = e as Error;
	}

	const staticData =
		copyStaticData(workflow.staticData[`node:${nodeName}`] as IDataObject | undefined) ?? {};
	const staticDataChanged =
		(workflow.staticData as IDataObject & { __dataChanged?: boolean }).__dataChanged === true;
	const saved = mode === 'trigger' && !error && items !== null && staticDataChanged;
	const result: RunPollResult = {
		items: error ? null : items,
		staticData,
		persistedStaticData: saved ? copyStaticData(staticData) : storedNodeData,
		staticDataChanged,
		globalStaticData: copyStaticData((workflow.staticData.global as IDataObject | undefined) ?? {}),
		credentialsHelper,
	};
	if (error) result.error = error;
	return result;
}
