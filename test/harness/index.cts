/**
 * Test harness that executes our nodes through n8n's own execution engine (n8n-core WorkflowExecute /
 * RoutingNode, PollContext for polling triggers) with real HTTP. See README.md beside this file.
 */
export { TestNodeTypes, fullTypeName, PACKAGE_NAME } from './node-types.cjs';
export {
	TestCredentialsHelper,
	defaultCredentialTypes,
	assertLoopbackRequest,
} from './credentials.cjs';
export {
	runNode,
	HarnessInputNode,
	INPUT_NODE_NAME,
	INPUT_NODE_TYPE,
	latestVersion,
	saveParametersLikeEditor,
	type RunNodeOptions,
	type RunNodeError,
	type RunResult,
} from './run-node.cjs';
export { runListSearch, runLoadOptions, type ListSearchOptions } from './list-search.cjs';
export { runPoll, copyStaticData, type RunPollOptions, type RunPollResult } from './run-poll.cjs';
export { testCredential, type TestCredentialOptions } from './test-credential.cjs';
export {
	getCapturedLogs,
	clearCapturedLogs,
	setEchoLogs,
	CapturingLogger,
	type CapturedLog,
	type LogLevel,
} from './logs.cjs';
export { ensureN8nEnvironment } from './setup.cjs';
