/** The end-to-end driver: a real n8n 2.x from the cached host install (see scripts/install-n8n-host.sh). */
export { installN8nHost, packPackage, projectRoot, nodeEnv, node24ProcessEnv } from './host';
export { PACKAGE_NAME, buildPath, packageDir, repoRoot } from './paths';
export { buildAndPackPackage, buildPackage, removeTarball } from './package';
export { FakeApiProcess, type FakeApiOptions, type FakeRequest } from './fake-api';
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
} from './examples';
export { parseFlatted } from './flatted';
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
} from './real-n8n';
export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from './browser';
