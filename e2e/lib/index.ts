/** The end-to-end driver: a real n8n 2.x from the cached host install (see scripts/install-n8n-host.sh). */
export { installN8nHost, packPackage, projectRoot, nodeEnv, node24ProcessEnv } from './host';
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
