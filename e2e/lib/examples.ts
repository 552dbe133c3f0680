/**
 * The example workflows of `examples/` and their test copies.
 *
 * The example files are what users import; they are never changed here. prepareForTest() derives, at run time, a copy
 * that `n8n execute` can run against the fake API with nothing reaching a third party:
 * - a Schedule Trigger becomes a Manual Trigger (same name, so the connections hold);
 * - the Keyword.com Trigger (a polling trigger, which `n8n execute` cannot start from) becomes a Manual Trigger
 *   "Manual start" followed by a Keyword.com node with the trigger's name doing what one poll does
 *   (New Alert → Alert → Get Many of the last day; Keyword Updated → Keyword → Get Many); or, with
 *   `trigger: 'keep'`, stays as it is for the published-trigger path (publish + start);
 * - a node that would reach a third party (Google Sheets, Slack, e-mail, …) becomes a No Operation node of the same
 *   name that passes its input through, or — when it is a source of data — a Code node of the same name returning the
 *   fixture rows given for it (EXAMPLES[...].fixtures).
 * Keyword.com nodes keep their parameters and their credential reference (`Keyword.com account`, id
 * EXAMPLE_CREDENTIAL_ID): import a credential with that id pointing at the fake and they run as they are.
 * Node built-ins only.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { nodeOutput, type ExecuteResult, type RealN8n } from './real-n8n';
import { repoRoot } from './paths';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const KEYWORD_COM_NODE = 'n8n-nodes-keyword-com.keywordCom';
export const KEYWORD_COM_TOOL_NODE = 'n8n-nodes-keyword-com.keywordComTool';
export const KEYWORD_COM_TRIGGER_NODE = 'n8n-nodes-keyword-com.keywordComTrigger';
export const KEYWORD_COM_CREDENTIAL_TYPE = 'keywordComApi';
/** The credential every example references (by name in the editor; by id on import). */
export const EXAMPLE_CREDENTIAL_ID = 'kwcExampleCred01';
export const EXAMPLE_CREDENTIAL_NAME = 'Keyword.com account';

/** The credential the examples reference, pointing at a (fake) API. Import it with RealN8n.importCredentials. */
export function keywordComCredential(baseUrl: string, apiToken: string): {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
} {
	return { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME, type: KEYWORD_COM_CREDENTIAL_TYPE, data: { apiToken, baseUrl } };
}

/** Node types that run inside n8n without reaching anyone: kept as they are in a test copy. */
const LOCAL_NODE_TYPES = new Set([
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.stickyNote',
	'n8n-nodes-base.set',
	'n8n-nodes-base.code',
	'n8n-nodes-base.noOp',
	'n8n-nodes-base.if',
	'n8n-nodes-base.filter',
	'n8n-nodes-base.switch',
	'n8n-nodes-base.merge',
	'n8n-nodes-base.aggregate',
	'n8n-nodes-base.summarize',
	'n8n-nodes-base.splitOut',
	'n8n-nodes-base.sort',
	'n8n-nodes-base.limit',
	'n8n-nodes-base.removeDuplicates',
	'n8n-nodes-base.dateTime',
	'n8n-nodes-base.itemLists',
	KEYWORD_COM_NODE,
]);

const SCHEDULE_TYPES = new Set(['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron', 'n8n-nodes-base.interval']);

export interface PrepareOptions {
	/** 'replace' (default): Manual Trigger + Keyword.com Get Many; 'keep': leave the Keyword.com Trigger for publish + start. */
	trigger?: 'replace' | 'keep';
	/** Rows a stubbed third-party source node returns, by node name. */
	fixtures?: Record<string, Array<Record<string, unknown>>>;
	/** Id of the copy (default: derived from the example's id). */
	id?: string;
	/** Name of the copy (default: the example's name + " (test copy)"). */
	name?: string;
}

function nodeId(seed: string): string {
	const h = createHash('sha256').update(seed).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function hasIncoming(workflow: any, name: string): boolean {
	for (const outputs of Object.values<any>(workflow.connections ?? {})) {
		for (const branch of outputs?.main ?? []) {
			if ((branch ?? []).some((c: any) => c?.node === name)) return true;
		}
	}
	return false;
}

/** The Keyword.com node that does what one poll of the trigger does (same name as the trigger). */
function pollEquivalent(trigger: any): any {
	const p = trigger.parameters ?? {};
	const common = {
		...(p.project ? { project: p.project } : {}),
		...(p.group ? { group: p.group } : {}),
	};
	const parameters =
		(p.event ?? 'newAlert') === 'newAlert'
			? { resource: 'alert', operation: 'getMany', returnAll: false, limit: 10, options: { last: 1 } }
			: {
					resource: 'keyword',
					operation: 'getMany',
					project: common.project ?? { __rl: true, mode: 'name', value: 'Acme Shoes' },
					...(common.group ? { group: common.group } : {}),
					returnAll: true,
					options: {},
				};
	return {
		id: trigger.id,
		name: trigger.name,
		type: KEYWORD_COM_NODE,
		typeVersion: 1,
		position: trigger.position,
		parameters,
		credentials: trigger.credentials,
	};
}

/** A test copy of an example workflow (see the file comment). The input is not modified. */
export function prepareForTest(workflow: any, opts: PrepareOptions = {}): any {
	const copy = JSON.parse(JSON.stringify(workflow));
	const fixtures = opts.fixtures ?? {};
	const nodes: any[] = [];
	const addedConnections: Record<string, any> = {};
	for (const node of copy.nodes as any[]) {
		const base = { id: node.id, name: node.name, position: node.position };
		if (SCHEDULE_TYPES.has(node.type)) {
			nodes.push({ ...base, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
		} else if (node.type === KEYWORD_COM_TRIGGER_NODE) {
			if (opts.trigger === 'keep') {
				nodes.push(node);
				continue;
			}
			const start = 'Manual start';
			const [x, y] = node.position ?? [0, 0];
			nodes.push({ id: nodeId(`${node.id}/manual`), name: start, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [x - 220, y], parameters: {} });
			nodes.push(pollEquivalent(node));
			addedConnections[start] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		} else if (LOCAL_NODE_TYPES.has(node.type)) {
			nodes.push(node);
		} else if (fixtures[node.name] || !hasIncoming(copy, node.name)) {
			const rows = fixtures[node.name] ?? [];
			nodes.push({
				...base,
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: `// Test stand-in for "${node.type}": fixed rows.\nreturn ${JSON.stringify(rows.map((json) => ({ json })))};` },
				notes: `Stand-in for ${node.type} (test copy)`,
			});
		} else {
			nodes.push({ ...base, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {}, notes: `Stand-in for ${node.type} (test copy)` });
		}
	}
	copy.nodes = nodes;
	copy.connections = { ...addedConnections, ...(copy.connections ?? {}) };
	copy.id = opts.id ?? `${String(workflow.id ?? 'example').slice(0, 17)}Test`;
	copy.name = opts.name ?? `${String(workflow.name ?? 'Example')} (test copy)`;
	copy.pinData = {};
	copy.active = false;
	return copy;
}

// ----- the examples ---------------------------------------------------------------------------------------------

export interface ExampleSpec {
	/** File name under examples/. */
	file: string;
	/** Short title for summaries. */
	title: string;
	/** Rows of stubbed third-party source nodes (by node name). */
	fixtures?: Record<string, Array<Record<string, unknown>>>;
	/** One readable line about what a run of the test copy produced. */
	summarize(run: any): string;
}

/** Rows the stubbed "Read keyword sheet" returns (as a Google Sheet with the columns keyword, project, url would). */
export const BULK_SHEET_ROWS = [
	{ row_number: 2, keyword: 'trail running shoes women', project: 'Acme Shoes', url: 'acmeshoes.com' },
	{ row_number: 3, keyword: 'zero drop running shoes', project: 'Acme Shoes', url: 'acmeshoes.com' },
	{ row_number: 4, keyword: 'running shoes', project: 'Acme Shoes', url: 'acmeshoes.com' },
	{ row_number: 5, keyword: 'oat milk flat white zurich', project: 'Café Zürich', url: 'cafe-zuerich.ch' },
	{ row_number: 6, keyword: 'vegan brunch zurich', project: 'Café Zürich', url: 'cafe-zuerich.ch' },
];

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;
const quote = (text: unknown, max = 90): string => {
	const flat = String(text ?? '').replace(/\s+/g, ' ').trim();
	return `'${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}'`;
};

export const EXAMPLES: ExampleSpec[] = [
	{
		file: 'daily-ranks-to-google-sheet.json',
		title: 'Daily ranks → Google Sheet',
		summarize(run) {
			const rows = nodeOutput(run, 'Append to Google Sheet') ?? [];
			const first = rows[0];
			return `${plural(rows.length, 'keyword row')} ready for the sheet (Google Sheets stubbed)` +
				(first ? `, first: '${first.keyword}' rank ${first.rank} (best ${first.best_rank})` : '');
		},
	},
	{
		file: 'new-alert-to-slack.json',
		title: 'New rank alert → Slack',
		summarize(run) {
			const alerts = nodeOutput(run, 'On new rank alert') ?? [];
			const messages = nodeOutput(run, 'Post to Slack') ?? [];
			return `${plural(alerts.length, 'alert')} of the last day → ${plural(messages.length, 'Slack message')} (Slack stubbed)` +
				(messages[0] ? `, first: ${quote(messages[0].text)}` : '');
		},
	},
	{
		file: 'weekly-ai-visibility-summary.json',
		title: 'Weekly AI-visibility summary',
		summarize(run) {
			const mails = nodeOutput(run, 'Email the summary') ?? [];
			const brands: any[] = mails[0]?.brands ?? [];
			return `${plural(mails.length, 'e-mail')} covering ${plural(brands.length, 'brand')} (SMTP stubbed)` +
				(brands[0] ? `, first: ${quote(brands[0].line, 110)}` : '');
		},
	},
	{
		file: 'bulk-add-keywords-from-sheet.json',
		title: 'Keywords from a sheet, in bulk',
		fixtures: { 'Read keyword sheet': BULK_SHEET_ROWS },
		summarize(run) {
			const rows = nodeOutput(run, 'Read keyword sheet') ?? [];
			const results = nodeOutput(run, 'Add keywords') ?? [];
			const added = results.reduce((sum, r) => sum + Number(r.added ?? 0), 0);
			const duplicates = results.reduce((sum, r) => sum + Number(r.duplicates ?? 0), 0);
			return `${plural(rows.length, 'sheet row')} (fixture) → ${plural(results.length, 'project')}: ${plural(added, 'keyword')} added, ${plural(duplicates, 'duplicate')} skipped`;
		},
	},
];

export function examplesDir(): string {
	return path.join(repoRoot(), 'examples');
}

/** Parsed JSON of examples/<file>. */
export function loadExample(file: string): any {
	return JSON.parse(fs.readFileSync(path.join(examplesDir(), file), 'utf8'));
}

/** The example's test copy, with its fixtures. */
export function testCopyOf(spec: ExampleSpec, opts: Omit<PrepareOptions, 'fixtures'> = {}): any {
	return prepareForTest(loadExample(spec.file), { ...opts, fixtures: spec.fixtures });
}

export interface ExampleRun {
	spec: ExampleSpec;
	/** Id of the imported example, as in the file. */
	exampleId: string;
	/** Id of the imported test copy. */
	copyId: string;
	result: ExecuteResult;
	summary: string;
}

/**
 * Imports every example as it is (so it can be opened in the editor) and its test copy (named "… (test copy)"),
 * then runs each test copy headlessly with `n8n execute`. The Keyword.com credential must already be imported
 * (keywordComCredential()). Runs one after another (each `execute` is its own n8n process).
 */
export async function importAndRunExamples(
	n8n: RealN8n,
	opts: { specs?: ExampleSpec[]; onResult?: (run: ExampleRun) => void } = {},
): Promise<ExampleRun[]> {
	const specs = opts.specs ?? EXAMPLES;
	// One import for all: the examples as shipped and their test copies.
	const ids = await n8n.importWorkflows(specs.flatMap((spec) => [loadExample(spec.file), testCopyOf(spec)]));
	const runs: ExampleRun[] = [];
	for (const [index, spec] of specs.entries()) {
		const exampleId = ids[2 * index];
		const copyId = ids[2 * index + 1];
		const result = await n8n.execute(copyId);
		let summary: string;
		if (result.ok) {
			try {
				summary = spec.summarize(result.output);
			} catch (error) {
				summary = `ran, but its output could not be summed up: ${(error as Error).message}`;
			}
		} else {
			const error = result.output?.data?.resultData?.error;
			summary = `FAILED${error?.node?.name ? ` in "${error.node.name}"` : ''}: ${error?.message ?? `n8n execute exited ${result.exitCode}`}`;
		}
		const run = { spec, exampleId, copyId, result, summary };
		opts.onResult?.(run);
		runs.push(run);
	}
	return runs;
}
