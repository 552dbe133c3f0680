import type { ExecutionLifecycleHooks } from 'n8n-core';
import { UnexpectedError } from 'n8n-workflow';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentials.cjs';

let executionCounter = 0;

export function nextExecutionId(): string {
	executionCounter += 1;
	return String(executionCounter);
}

/** A fresh `IWorkflowExecuteAdditionalData` for one run (nothing in it is shared between runs). */
export function createAdditionalData(
	credentialsHelper: TestCredentialsHelper,
	hooks: ExecutionLifecycleHooks | undefined,
	executionId: string,
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new UnexpectedError(`test harness: ${what} is not supported`);
	};
	const data = {
		credentialsHelper,
		hooks,
		executionId,
		userId: 'harness-user',
		workflowId: 'harness-workflow',
		projectId: 'harness-project',
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		evalLlmMockHandler: undefined,
		logAiEvent: () => {},
		executeWorkflow: unsupported('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('startRunnerTask'),
	};
	return data as unknown as IWorkflowExecuteAdditionalData;
}
