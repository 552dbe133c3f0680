/**
 * `testCredential`: what n8n's credential tester (CLI CredentialsTester) does for a credential type with a
 * `test` request: run the request through n8n-core's `RoutingNode` on a temporary "No Operation" node whose
 * only property routes to `test.request` (base URL expression resolved, the credential's authenticate applied,
 * sent by n8n's real HTTP helper), then apply the `rules`.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { UnexpectedError, Workflow, createRunExecutionData } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsDecrypted,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	ITaskDataConnections,
} from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from './additional-data.cjs';
import { TestCredentialsHelper, defaultCredentialTypes } from './credentials.cjs';
import { TestNodeTypes } from './node-types.cjs';
import { ensureN8nEnvironment } from './setup.cjs';

const NOOP_TYPE = 'n8n-nodes-base.noOp';

/** lodash.get for dotted paths (what the tester uses for `responseSuccessBody` rules). */
function getPath(object: unknown, path: string): unknown {
	let current: unknown = object;
	for (const key of path.replace(/\[(\w+)\]/g, '.$1').split('.')) {
		if (current === null || current === undefined) return undefined;
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}

export interface TestCredentialOptions {
	/** Other credential types the helper should know (the tested one is always added). */
	credentialTypes?: ICredentialType[];
	loopbackOnly?: boolean;
}

export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	options: TestCredentialOptions = {},
): Promise<INodeCredentialTestResult> {
	ensureN8nEnvironment();
	const testRequest = credentialType.test;
	if (!testRequest)
		return { status: 'Error', message: 'No testing function found for this credential.' };

	const credentialsHelper = new TestCredentialsHelper(
		{ [credentialType.name]: data },
		[
			...(options.credentialTypes ?? defaultCredentialTypes()).filter(
				(t) => t.name !== credentialType.name,
			),
			credentialType,
		],
		{ loopbackOnly: options.loopbackOnly },
	);

	let credentialsDecrypted: ICredentialsDecrypted;
	try {
		credentialsDecrypted = {
			id: 'credential-under-test',
			name: `${credentialType.name} (test)`,
			type: credentialType.name,
			data: credentialsHelper.applyDefaultsAndResolve(
				structuredClone(data),
				credentialType.name,
				'internal',
			),
		};
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	const nodeTypeCopy: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: NOOP_TYPE,
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NOOP_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: {
			[credentialType.name]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name },
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ [NOOP_TYPE]: nodeTypeCopy }),
	});
	const workflowNode = workflow.getNode(node.name)!;

	const additionalData = createAdditionalData(credentialsHelper, undefined, nextExecutionId());
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node: workflowNode, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		workflowNode,
		additionalData,
		'internal',
		createRunExecutionData({ executionData: null }),
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await routingNode.runNode();
	} catch (e) {
		const error = e as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response?.[0]?.[0]?.json;
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	if (!response) throw new UnexpectedError('test harness: RoutingNode returned no data');
	return { status: 'OK', message: 'Connection successful!' };
}
