/** The scripted OpenAI-compatible fake chat model (see README.md). */
export {
	FakeModel,
	type ChatRequest,
	type FakeModelOptions,
	type ModelRequest,
} from './server.cjs';
export {
	ScriptError,
	contentText,
	matchTool,
	offeredToolNames,
	parseScript,
	replyFor,
	stepIndexOf,
	toolResultsOf,
	type Arguments,
	type Reply,
	type ScriptStep,
	type StepContext,
	type TextStep,
	type ToolCallSpec,
	type ToolCallStep,
	type ToolCallsStep,
	type ToolMatcher,
	type ToolResult,
} from './script.cjs';
