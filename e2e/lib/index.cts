/** The end-to-end driver: a real n8n 2.x from the cached host install (see scripts/install-n8n-host.sh). */
export { installN8nHost, packPackage, projectRoot, nodeEnv, node24ProcessEnv } from './host.cjs';
export { PACKAGE_NAME, buildPath, buildRoot, packageDir, repoRoot } from './paths.cjs';
export { buildAndPackPackage, buildPackage, removeTarball } from './package.cjs';
export { sleep, untilSecond } from './clock.cjs';
export {
	FakeApiProcess,
	behaviourFlags,
	type FakeApiBehaviour,
	type FakeApiChurn,
	type FakeApiOptions,
	type FakeChurnLogEntry,
	type FakeRequest,
} from './fake-api.cjs';
export {
	BULK_SHEET_ROWS,
	EXAMPLES,
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	KEYWORD_COM_CREDENTIAL_TYPE,
	KEYWORD_COM_NODE,
	KEYWORD_COM_TOOL_NODE,
	KEYWORD_COM_TRIGGER_NODE,
	examplesDir,
	importAndRunExamples,
	keywordComCredential,
	loadExample,
	prepareForTest,
	testCopyOf,
	type ExampleRun,
	type ExampleSpec,
	type PrepareOptions,
} from './examples.cjs';
export { parseFlatted } from './flatted.cjs';
export { retryUntil, waitUntil, type WaitOptions } from './waits.cjs';
export {
	AGENT_NODE,
	AGENT_NODE_VERSION,
	FAKE_MODEL_CREDENTIAL_ID,
	FAKE_MODEL_CREDENTIAL_NAME,
	FakeModel,
	MCP_TRIGGER_NODE,
	MCP_TRIGGER_NODE_VERSION,
	OPENAI_CHAT_MODEL_NODE,
	OPENAI_CHAT_MODEL_NODE_VERSION,
	OPENAI_CREDENTIAL_TYPE,
	fakeModelCredential,
	openAiChatModelNode,
	type ChatRequest,
	type FakeModelOptions,
	type ModelRequest,
	type ScriptStep,
	type StepContext,
	type ToolResult,
} from './fake-model.cjs';
export {
	RealN8n,
	freePort,
	nodeOutput,
	parseExecuteOutput,
	runError,
	stableId,
	type CliResult,
	type ExecuteResult,
	type OwnerLogin,
	type RealN8nOptions,
	type Timeouts,
} from './real-n8n.cjs';
export { UNFINISHED_STATUSES } from './n8n-instance.cjs';
export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from './browser.cjs';
export {
	LogSink,
	ManagedProcess,
	freePorts,
	keepTempFolders,
	killGroup,
	processMemory,
	type ExitInfo,
	type ProcessMemory,
} from './processes.cjs';
export {
	PostgresServer,
	RedisServer,
	installQueueServices,
	type PostgresOptions,
	type PostgresStopMode,
	type RedisOptions,
	type RedisReply,
} from './services.cjs';
export {
	EXECUTION_CREATIONS_TABLE,
	POLL_TRIGGER_TASK_TYPE,
	QueueN8n,
	SCHEDULER_MODES,
	schedulerEnv,
	type ExecutionNow,
	type QueueN8nOptions,
	type QueueProcessName,
	type SchedulerEvidence,
	type SchedulerMode,
	type TriggerEmission,
} from './queue-n8n.cjs';
export {
	KEYWORD_COM_CREDENTIAL_REF,
	triggerWorkflow,
	webhookWorkflow,
	type TriggerWorkflowOptions,
	type WebhookWorkflowOptions,
} from './workflows.cjs';
export { addDays, chartedDays, lastCrawlDays, utcDay } from './rank-days.cjs';
