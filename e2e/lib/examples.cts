/**
 * The example workflows of `examples/` and their test copies.
 *
 * The example files are what users import; they are never changed here. prepareForTest() derives, at run time, a copy
 * that `n8n execute` can run against the fake API with nothing reaching a third party:
 * - a Schedule Trigger becomes a Manual Trigger (same name, so the connections hold);
 * - the Keyword.com Trigger (a polling trigger, which `n8n execute` cannot start from) becomes a Manual Trigger
 *   "Manual start" followed by a Keyword.com node with the trigger's name doing what one poll does
 *   (New Alert → Alert → Get Many of the last day; Keyword Updated → Keyword → Get Many); or, when fixture items are
 *   given for it (a trigger with Filters: no action-node call gives its `previous_rank` and `matched`), by a Code node
 *   of that name returning them; or, with `trigger: 'keep'`, it stays as it is for the published-trigger path
 *   (publish + start), where the real trigger runs;
 * - a Chat Trigger (which `n8n execute` cannot start from either) becomes a Manual Trigger "Manual start" followed by a
 *   Code node with the trigger's name giving what a chat message gives (`{sessionId, action, chatInput}`, the question
 *   of EXAMPLES[...].chatInput);
 * - a node that would reach a third party (Google Sheets, Slack, e-mail, …) becomes a No Operation node of the same
 *   name that passes its input through, or — when it is a source of data — a Code node of the same name returning the
 *   fixture rows given for it (EXAMPLES[...].fixtures).
 * Keyword.com nodes and tools keep their parameters and their credential reference (`Keyword.com account`, id
 * EXAMPLE_CREDENTIAL_ID): import a credential with that id pointing at the fake and they run as they are. Likewise the
 * AI Agent, its memory and its OpenAI Chat Model are kept: the model's credential (`OpenAI account`,
 * EXAMPLE_OPENAI_CREDENTIAL_ID) is imported pointing at the scripted fake model (startExampleModel()).
 *
 * An MCP example (`kind: 'mcp'`) gets no test copy: it is imported as shipped, published, and once n8n runs an MCP
 * client (the official SDK) lists its tools and calls one, with the bearer token of the credential it references
 * (`MCP bearer token`, EXAMPLE_MCP_CREDENTIAL_ID; exampleMcpCredential()).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	FakeModel,
	fakeModelCredential,
	type ScriptStep,
	type StepContext,
} from './fake-model.cjs';
import { nodeOutput, type ExecuteResult, type RealN8n } from './real-n8n.cjs';
import { repoRoot } from './paths.cjs';
import { retryUntil } from './waits.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const KEYWORD_COM_NODE = 'n8n-nodes-keyword-com.keywordCom';
export const KEYWORD_COM_TOOL_NODE = 'n8n-nodes-keyword-com.keywordComTool';
export const KEYWORD_COM_TRIGGER_NODE = 'n8n-nodes-keyword-com.keywordComTrigger';
export const KEYWORD_COM_CREDENTIAL_TYPE = 'keywordComApi';
/** The credential every example references (by name in the editor; by id on import). */
export const EXAMPLE_CREDENTIAL_ID = 'kwcExampleCred01';
export const EXAMPLE_CREDENTIAL_NAME = 'Keyword.com account';
/** The OpenAI credential the agent example references; imported pointing at the fake model. */
export const EXAMPLE_OPENAI_CREDENTIAL_ID = 'openAiCred000001';
export const EXAMPLE_OPENAI_CREDENTIAL_NAME = 'OpenAI account';
/** The model the agent example names (the fake model lists it, so the editor's model picker shows it). */
export const EXAMPLE_MODEL = 'gpt-4.1-mini';
/** The Bearer Auth credential of the MCP example's trigger. */
export const EXAMPLE_MCP_CREDENTIAL_ID = 'mcpBearerCred001';
export const EXAMPLE_MCP_CREDENTIAL_NAME = 'MCP bearer token';
export const CHAT_TRIGGER_NODE = '@n8n/n8n-nodes-langchain.chatTrigger';
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The credential the examples reference, pointing at a (fake) API. Import it with RealN8n.importCredentials. */
export function keywordComCredential(
	baseUrl: string,
	apiToken: string,
): {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
} {
	return {
		id: EXAMPLE_CREDENTIAL_ID,
		name: EXAMPLE_CREDENTIAL_NAME,
		type: KEYWORD_COM_CREDENTIAL_TYPE,
		data: { apiToken, baseUrl },
	};
}

/** The "OpenAI account" credential of the agent example, pointing at a (fake) OpenAI-compatible model. */
export function exampleModelCredential(
	baseUrl: string,
	apiKey: string,
): ReturnType<typeof fakeModelCredential> {
	return fakeModelCredential(
		baseUrl,
		apiKey,
		EXAMPLE_OPENAI_CREDENTIAL_ID,
		EXAMPLE_OPENAI_CREDENTIAL_NAME,
	);
}

/** The "MCP bearer token" credential of the MCP example (an MCP client sends `Authorization: Bearer <token>`). */
export function exampleMcpCredential(token: string): {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
} {
	return {
		id: EXAMPLE_MCP_CREDENTIAL_ID,
		name: EXAMPLE_MCP_CREDENTIAL_NAME,
		type: 'httpBearerAuth',
		data: { token },
	};
}

/**
 * Node types kept as they are in a test copy: they run inside n8n, or reach only what their credential points at
 * (imported pointing at the fake API or the fake model).
 */
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
	'@n8n/n8n-nodes-langchain.agent',
	'@n8n/n8n-nodes-langchain.memoryBufferWindow',
	KEYWORD_COM_NODE,
	KEYWORD_COM_TOOL_NODE,
	// Reaches OpenAI, but through its credential: imported pointing at the fake model (exampleModelCredential()).
	'@n8n/n8n-nodes-langchain.lmChatOpenAi',
]);

const SCHEDULE_TYPES = new Set([
	'n8n-nodes-base.scheduleTrigger',
	'n8n-nodes-base.cron',
	'n8n-nodes-base.interval',
]);

export interface PrepareOptions {
	/** 'replace' (default): Manual Trigger + Keyword.com Get Many; 'keep': leave the Keyword.com Trigger for publish + start. */
	trigger?: 'replace' | 'keep';
	/** Rows a stubbed third-party source node returns, by node name. */
	fixtures?: Record<string, Array<Record<string, unknown>>>;
	/** Id of the copy (default: derived from the example's id). */
	id?: string;
	/** Name of the copy (default: the example's name + " (test copy)"). */
	name?: string;
	/** The message the stand-in for a Chat Trigger gives (default: DEFAULT_CHAT_INPUT). */
	chatInput?: string;
}

export const DEFAULT_CHAT_INPUT = 'Which projects do I track in Keyword.com?';
/** The session the stand-in for a Chat Trigger gives (the agent's memory is keyed by it). */
export const TEST_CHAT_SESSION_ID = 'kwc-example-test-session';

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

/**
 * The Keyword.com node that does what one poll of the trigger does (same name as the trigger): a New Alert item is
 * the Alert → Get Many item.
 */
function pollEquivalent(trigger: any): any {
	const p = trigger.parameters ?? {};
	const common = {
		...(p.project ? { project: p.project } : {}),
		...(p.group ? { group: p.group } : {}),
	};
	const parameters =
		(p.event ?? 'newAlert') === 'newAlert'
			? {
					resource: 'alert',
					operation: 'getMany',
					returnAll: false,
					limit: 10,
					options: { last: 1 },
				}
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
		typeVersion: trigger.typeVersion ?? 1,
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
			nodes.push({
				id: nodeId(`${node.id}/manual`),
				name: start,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [x - 220, y],
				parameters: {},
			});
			const items = fixtures[node.name];
			nodes.push(
				items
					? {
							...base,
							type: 'n8n-nodes-base.code',
							typeVersion: 1,
							parameters: {
								jsCode: `// Test stand-in for the Keyword.com Trigger: the items one poll emits (fixture).\nreturn ${JSON.stringify(items.map((json) => ({ json })))};`,
							},
							notes: `Stand-in for ${node.type} (test copy)`,
						}
					: pollEquivalent(node),
			);
			addedConnections[start] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		} else if (node.type === CHAT_TRIGGER_NODE) {
			const start = 'Manual start';
			const [x, y] = node.position ?? [0, 0];
			const message = {
				sessionId: TEST_CHAT_SESSION_ID,
				action: 'sendMessage',
				chatInput: opts.chatInput ?? DEFAULT_CHAT_INPUT,
			};
			nodes.push({
				id: nodeId(`${node.id}/manual`),
				name: start,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [x - 220, y],
				parameters: {},
			});
			nodes.push({
				...base,
				type: 'n8n-nodes-base.code',
				typeVersion: 1,
				parameters: {
					jsCode: `// Test stand-in for the Chat Trigger: one chat message.\nreturn [{ json: ${JSON.stringify(message)} }];`,
				},
				notes: `Stand-in for ${node.type} (test copy)`,
			});
			addedConnections[start] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		} else if (LOCAL_NODE_TYPES.has(node.type)) {
			nodes.push(node);
		} else if (fixtures[node.name] || !hasIncoming(copy, node.name)) {
			const rows = fixtures[node.name] ?? [];
			nodes.push({
				...base,
				type: 'n8n-nodes-base.code',
				typeVersion: 1,
				parameters: {
					jsCode: `// Test stand-in for "${node.type}": fixed rows.\nreturn ${JSON.stringify(rows.map((json) => ({ json })))};`,
				},
				notes: `Stand-in for ${node.type} (test copy)`,
			});
		} else {
			nodes.push({
				...base,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				parameters: {},
				notes: `Stand-in for ${node.type} (test copy)`,
			});
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
	/**
	 * How the example is exercised: 'execute' (default), its test copy is run by `n8n execute`; 'mcp', it is published
	 * as shipped and, once n8n runs, an MCP client lists its tools and makes `mcpCall` (no test copy).
	 */
	kind?: 'execute' | 'mcp';
	/** Rows of stubbed third-party source nodes (by node name). */
	fixtures?: Record<string, Array<Record<string, unknown>>>;
	/** An agent example: the chat message its test copy starts with (the stand-in for the Chat Trigger gives it). */
	chatInput?: string;
	/** An MCP example: the tool call the client makes after listing the tools. */
	mcpCall?: { name: string; arguments: Record<string, unknown> };
	/**
	 * One readable line about what a run produced: the test copy's run (n8n's IRun), or an McpExampleResult. It throws
	 * when the output lacks what the example should give (the run then counts as failed).
	 */
	summarize(run: any): string;
}

/** What the MCP client saw of an MCP example. */
export interface McpExampleResult {
	/** The production URL (`<n8n>/mcp/<path>`). */
	url: string;
	/** tools/list. */
	tools: Array<{ name: string; description?: string; inputSchema?: any }>;
	/** The tools/call of the spec's `mcpCall`. */
	call: {
		name: string;
		arguments: Record<string, unknown>;
		isError: boolean;
		text: string;
		records: any[];
	};
	/** HTTP status of an `initialize` request sent without the bearer token. */
	withoutTokenStatus: number;
}

/**
 * What the top 10 example's trigger (Keyword Updated, Filters → Crossed Top 10, Entered or Left) emits for a poll in
 * which one keyword entered and one left the top 10: its test copy starts from these (a filtered trigger's items need
 * the trigger). Their fields are those of the real trigger's items (the published-trigger test compares them).
 */
export const TOP10_UPDATES = [
	{
		id: '100002',
		keyword: 'trail running shoes',
		project: 'Acme Shoes',
		group: null,
		region: 'google.com',
		rank: 8,
		previous_rank: 12,
		change: 4,
		ranking_url: 'https://acmeshoes.com/trail/',
		crawled_at: '2026-01-15T12:03:00.000Z',
		matched: ['top10_entered'],
	},
	{
		id: '100005',
		keyword: 'acme shoes discount code',
		project: 'Acme Shoes',
		group: null,
		region: 'google.com',
		rank: 11,
		previous_rank: 9,
		change: -2,
		ranking_url: 'https://acmeshoes.com/',
		crawled_at: '2026-01-15T12:03:00.000Z',
		matched: ['top10_left'],
	},
];

/** The top-10 updates the CRM example's trigger (Crossed Top 10, Crossing Left) emits: those that left. */
export const TOP10_LEFT = TOP10_UPDATES.filter((update) => update.matched.includes('top10_left'));

/**
 * What the AI-visibility drop example's trigger (AI Visibility Updated, Filters → visibility score dropped by at least
 * 5 points) emits for a poll after midnight: its test copy starts from these (a filtered trigger's items need the
 * trigger). Their fields are those of the real trigger's Simplified items with `matched` (test/trigger holds them).
 */
export const AI_DROP_DAYS = [
	{
		domain_id: '6650a1c2e4b0f1a2b3c4d5e6',
		domain: 'acmeshoes.com',
		date: '2026-01-14',
		visibility_score: 21.4,
		visibility_score_change: -8.6,
		mentions: 9,
		citations: 4,
		brand_not_found: false,
		brand_rank: 4,
		competitor_above: 'Hoka',
		matched: ['visibility_dropped'],
	},
	{
		domain_id: '6650a1c2e4b0f1a2b3c4d5e7',
		domain: 'cafe-zuerich.ch',
		date: '2026-01-14',
		visibility_score: 0,
		visibility_score_change: -12.5,
		mentions: 0,
		citations: 0,
		brand_not_found: true,
		brand_rank: 4,
		competitor_above: 'Babu’s Bakery',
		matched: ['visibility_dropped'],
	},
];

/** The items a node output over all its runs (a node fed by two branches runs once per branch), in run order. */
export function nodeOutputAllRuns(run: any, nodeName: string, outputIndex = 0): any[] {
	const tasks: any[] = run?.data?.resultData?.runData?.[nodeName] ?? [];
	return tasks.flatMap((task) =>
		(task?.data?.main?.[outputIndex] ?? []).map((item: any) => item.json),
	);
}

/** Rows the stubbed "Read keyword sheet" returns (as a Google Sheet with the columns keyword, project, url would). */
export const BULK_SHEET_ROWS = [
	{
		row_number: 2,
		keyword: 'trail running shoes women',
		project: 'Acme Shoes',
		url: 'acmeshoes.com',
	},
	{
		row_number: 3,
		keyword: 'zero drop running shoes',
		project: 'Acme Shoes',
		url: 'acmeshoes.com',
	},
	{ row_number: 4, keyword: 'running shoes', project: 'Acme Shoes', url: 'acmeshoes.com' },
	{
		row_number: 5,
		keyword: 'oat milk flat white zurich',
		project: 'Café Zürich',
		url: 'cafe-zuerich.ch',
	},
	{ row_number: 6, keyword: 'vegan brunch zurich', project: 'Café Zürich', url: 'cafe-zuerich.ch' },
];

const plural = (n: number, word: string, many = `${word}s`): string =>
	`${n} ${n === 1 ? word : many}`;
const quote = (text: unknown, max = 90): string => {
	const flat = String(text ?? '')
		.replace(/\s+/g, ' ')
		.trim();
	return `'${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}'`;
};

/** Records in a tool answer: n8n hands over the tool node's items as JSON (an array, or one object); a note has no id. */
export function toolRecords(content: string | undefined): any[] {
	if (!content) return [];
	try {
		const parsed = JSON.parse(content);
		return (Array.isArray(parsed) ? parsed : [parsed]).filter(
			(r) => r && typeof r === 'object' && 'id' in r,
		);
	} catch {
		return [];
	}
}

/** The tool nodes an agent's run called, in the order of the calls (a node called twice is listed twice). */
export function toolCallsOf(run: any): string[] {
	const calls: Array<{ name: string; at: number }> = [];
	for (const [name, tasks] of Object.entries<any>(run?.data?.resultData?.runData ?? {})) {
		for (const task of tasks ?? [])
			if (task?.data?.ai_tool) calls.push({ name, at: Number(task.startTime ?? 0) });
	}
	return calls.sort((a, b) => a.at - b.at).map((c) => c.name);
}

/**
 * The record, after checking it has each of the fields (null allowed, absent not): a summary names the fields an
 * example maps, so an example mapping fields its node does not output fails its run instead of printing blanks.
 */
function withFields(record: any, fields: string[], where: string): any {
	if (!record || typeof record !== 'object') throw new Error(`${where} gave no item`);
	const missing = fields.filter((field) => record[field] === undefined);
	if (missing.length > 0)
		throw new Error(
			`${where}: no ${missing.join(', ')} in its item (it has ${Object.keys(record).join(', ')})`,
		);
	return record;
}

export const ACME = 'Acme Shoes';
/** The question the agent example's test copy asks. */
export const AGENT_EXAMPLE_QUESTION = `Which projects do I track, and how do the keywords of ${ACME} rank?`;

/** The final answer of the scripted model: made from what the two tools returned, as a model would. */
function agentExampleAnswer(ctx: StepContext): string {
	const result = (tool: string): string | undefined =>
		ctx.toolResults.find((r) => r.name === tool)?.content;
	const projects = toolRecords(result('Get_many_projects')).map((p) => String(p.name ?? p.id));
	const keywords = toolRecords(result('Get_many_keywords'));
	const ranked = keywords.filter((k) => typeof k.rank === 'number').sort((a, b) => a.rank - b.rank);
	const best = ranked.slice(0, 3).map((k) => `'${k.keyword}' (rank ${k.rank})`);
	const names =
		projects.length > 1
			? `${projects.slice(0, -1).join(', ')} and ${projects[projects.length - 1]}`
			: projects.join('');
	return (
		`You track ${plural(projects.length, 'project')}${names ? `: ${names}` : ''}. ${ACME} has ${plural(keywords.length, 'keyword')}` +
		(best.length > 0 ? `; the best placed: ${best.join(', ')}.` : '.')
	);
}

/** What the fake model does in the agent example: list the projects, then the keywords of Acme Shoes, then answer. */
export const AGENT_EXAMPLE_SCRIPT: ScriptStep[] = [
	{ tool: 'Get many projects', arguments: {} },
	{ tool: 'Get many keywords', arguments: { project: ACME } },
	{ text: agentExampleAnswer },
];

/**
 * The scripted fake model for the agent example, in this process (stop it when done). It lists EXAMPLE_MODEL, so the
 * example's model picker shows it; import exampleModelCredential(model.baseUrl, model.apiKey) into n8n.
 */
export async function startExampleModel(opts: { port?: number } = {}): Promise<FakeModel> {
	return await FakeModel.start({
		script: AGENT_EXAMPLE_SCRIPT,
		models: [EXAMPLE_MODEL],
		port: opts.port,
	});
}

export const EXAMPLES: ExampleSpec[] = [
	{
		file: 'daily-ranks-to-google-sheet.json',
		title: 'Daily ranks → Google Sheet',
		summarize(run) {
			// The Simplified keyword, mapped to the sheet's columns.
			withFields(
				nodeOutput(run, 'Get keyword ranks')?.[0],
				['keyword', 'project', 'group', 'rank', 'best_rank', 'ranking_url', 'crawled_at'],
				'Get keyword ranks',
			);
			const rows = nodeOutput(run, 'Append to Google Sheet') ?? [];
			const first = withFields(
				rows[0],
				['keyword', 'project', 'rank', 'best_rank', 'ranking_url', 'crawled_at'],
				'the sheet row',
			);
			return `${plural(rows.length, 'keyword row')} ready for the sheet (Google Sheets stubbed), first: '${first.keyword}' rank ${first.rank} (best ${first.best_rank})`;
		},
	},
	{
		file: 'ranks-last-30-days-to-google-sheet.json',
		title: '30 days of ranks → Google Sheet',
		summarize(run) {
			const rows = nodeOutput(run, 'Append to Google Sheet') ?? [];
			const keywords = new Set(rows.map((row) => row.keyword_id)).size;
			const days = new Set(rows.map((row) => row.date)).size;
			const first = rows[0];
			return (
				`${plural(rows.length, 'row')} (${plural(keywords, 'keyword')} × ${plural(days, 'day')}) ready for the sheet (Google Sheets stubbed)` +
				(first ? `, first: ${first.date} '${first.keyword}' rank ${first.rank}` : '')
			);
		},
	},
	{
		file: 'new-alert-to-slack.json',
		title: 'New rank alert → Slack',
		summarize(run) {
			const alerts = nodeOutput(run, 'On new rank alert') ?? [];
			const messages = nodeOutput(run, 'Post to Slack') ?? [];
			// The Simplified alert, as the message maps it.
			for (const alert of alerts)
				withFields(
					alert,
					['keyword', 'project', 'group', 'region', 'previous_rank', 'rank', 'change'],
					'On new rank alert',
				);
			messages.forEach((message, i) => {
				if (!String(message.text).includes(`*${alerts[i]?.keyword}*`))
					throw new Error(`the message does not name its alert's keyword: ${message.text}`);
			});
			return (
				`${plural(alerts.length, 'alert')} of the last day → ${plural(messages.length, 'Slack message')} (Slack stubbed)` +
				(messages[0] ? `, first: ${quote(messages[0].text)}` : '')
			);
		},
	},
	{
		file: 'keyword-top10-to-slack.json',
		title: 'Top 10 entered or left → Slack',
		fixtures: { 'On top 10 change': TOP10_UPDATES },
		summarize(run) {
			const updates = nodeOutput(run, 'On top 10 change') ?? [];
			// The Simplified keyword update with the filter's reasons, as the Switch and the messages read it.
			for (const update of updates)
				withFields(
					update,
					['id', 'keyword', 'project', 'group', 'region', 'previous_rank', 'rank', 'matched'],
					'On top 10 change',
				);
			const branches = { entered: 0, left: 1 } as const;
			for (const [crossing, output] of Object.entries(branches)) {
				for (const update of nodeOutput(run, 'Entered or left?', output) ?? [])
					if (!update.matched.includes(`top10_${crossing}`))
						throw new Error(
							`'${update.keyword}' (matched ${JSON.stringify(update.matched)}) went to the "${crossing}" branch`,
						);
			}
			const entered = nodeOutput(run, 'Entered or left?', branches.entered) ?? [];
			const left = nodeOutput(run, 'Entered or left?', branches.left) ?? [];
			const messages = nodeOutputAllRuns(run, 'Post to Slack');
			for (const update of updates)
				if (!messages.some((message) => String(message.text).includes(`*${update.keyword}*`)))
					throw new Error(`no Slack message names '${update.keyword}'`);
			return (
				`${plural(updates.length, 'keyword update')} crossing the top 10 (the filtered trigger's items: fixture) → Switch: ` +
				`${entered.length} entered, ${left.length} left → ${plural(messages.length, 'Slack message')} (Slack stubbed)` +
				(messages[0] ? `, first: ${quote(messages[0].text)}` : '')
			);
		},
	},
	{
		file: 'weekly-ai-visibility-summary.json',
		title: 'Weekly AI-visibility summary',
		summarize(run) {
			withFields(
				nodeOutput(run, 'Get AI domains')?.[0],
				['id', 'domain', 'brand'],
				'Get AI domains',
			);
			// Get Dashboard's Simplified rows (one a week), as the filter and the lines read them: no Code node.
			withFields(
				nodeOutput(run, 'Get the last weeks')?.[0],
				['date', 'visibility_score', 'visibility_score_change', 'mentions', 'top_competitors'],
				'Get the last weeks',
			);
			const mails = nodeOutput(run, 'Compose the e-mail') ?? [];
			const brands: any[] = mails[0]?.brands ?? [];
			for (const brand of brands)
				withFields(brand, ['brand', 'domain', 'visibility', 'mentions', 'line'], 'the summary');
			return (
				`${plural(mails.length, 'e-mail')} covering ${plural(brands.length, 'brand')} (SMTP stubbed)` +
				(brands[0] ? `, first: ${quote(brands[0].line, 110)}` : '')
			);
		},
	},
	{
		file: 'ai-visibility-dropped-to-slack.json',
		title: 'AI visibility dropped → Slack',
		fixtures: { 'On AI visibility drop': AI_DROP_DAYS },
		summarize(run) {
			const days = nodeOutput(run, 'On AI visibility drop') ?? [];
			for (const day of days)
				withFields(
					day,
					['domain', 'date', 'visibility_score', 'visibility_score_change', 'competitor_above'],
					'On AI visibility drop',
				);
			const messages = nodeOutput(run, 'Post to Slack') ?? [];
			messages.forEach((message, i) => {
				if (!String(message.text).includes(`*${days[i]?.domain}*`))
					throw new Error(`the message does not name its domain: ${message.text}`);
			});
			return (
				`${plural(days.length, 'day')} whose visibility dropped (the filtered trigger's items: fixture) → ${plural(messages.length, 'Slack message')} (Slack stubbed)` +
				(messages[0] ? `, first: ${quote(messages[0].text)}` : '')
			);
		},
	},
	{
		file: 'rank-sheet-updated-in-place.json',
		title: 'Rank sheet, one row per keyword',
		summarize(run) {
			withFields(
				nodeOutput(run, 'Get keyword ranks')?.[0],
				['id', 'keyword', 'project', 'group', 'region', 'rank', 'best_rank', 'ranking_url'],
				'Get keyword ranks',
			);
			const rows = nodeOutput(run, 'Update the rank sheet') ?? [];
			const first = withFields(
				rows[0],
				['keyword_id', 'keyword', 'rank', 'updated'],
				'the sheet row',
			);
			const keys = new Set(rows.map((row) => row.keyword_id));
			if (keys.size !== rows.length) throw new Error('two sheet rows share a keyword_id');
			return `${plural(rows.length, 'row')} to update in place by keyword_id (Google Sheets stubbed), first: '${first.keyword}' rank ${first.rank}`;
		},
	},
	{
		file: 'keyword-left-top10-to-hubspot-task.json',
		title: 'Top 10 left → HubSpot task',
		fixtures: { 'On leaving the top 10': TOP10_LEFT },
		summarize(run) {
			const updates = nodeOutput(run, 'On leaving the top 10') ?? [];
			for (const update of updates)
				withFields(
					update,
					['id', 'keyword', 'project', 'group', 'region', 'previous_rank', 'rank', 'ranking_url'],
					'On leaving the top 10',
				);
			const tasks = nodeOutput(run, 'Create a HubSpot task') ?? [];
			updates.forEach((update, i) => {
				const task = withFields(tasks[i], ['subject', 'body', 'due'], 'the task');
				if (!String(task.subject).includes(`"${update.keyword}" left the top 10`))
					throw new Error(`the task does not name its keyword: ${task.subject}`);
			});
			return (
				`${plural(updates.length, 'keyword')} left the top 10 (the filtered trigger's items: fixture) → ` +
				`${plural(tasks.length, 'HubSpot task')} (HubSpot stubbed)` +
				(tasks[0] ? `, first: ${quote(tasks[0].subject)}` : '')
			);
		},
	},
	{
		file: 'bulk-add-keywords-from-sheet.json',
		title: 'Keywords from a sheet, in bulk',
		fixtures: { 'Read keyword sheet': BULK_SHEET_ROWS },
		summarize(run) {
			const rows = nodeOutput(run, 'Read keyword sheet') ?? [];
			const results = nodeOutput(run, 'Add keywords') ?? [];
			for (const result of results)
				withFields(result, ['requested', 'added', 'duplicates'], 'Add keywords');
			const added = results.reduce((sum, r) => sum + Number(r.added ?? 0), 0);
			const duplicates = results.reduce((sum, r) => sum + Number(r.duplicates ?? 0), 0);
			return `${plural(rows.length, 'sheet row')} (fixture) → ${plural(results.length, 'project')}: ${plural(added, 'keyword')} added, ${plural(duplicates, 'duplicate')} skipped`;
		},
	},
	{
		file: 'ai-agent-keyword-com-tools.json',
		title: 'AI Agent with Keyword.com tools',
		chatInput: AGENT_EXAMPLE_QUESTION,
		summarize(run) {
			const answer = nodeOutput(run, 'AI Agent')?.[0]?.output;
			const calls = toolCallsOf(run);
			return (
				`asked ${quote(AGENT_EXAMPLE_QUESTION)}, the agent called ${calls.length > 0 ? calls.join(' → ') : 'no tool'} ` +
				`and answered ${quote(answer, 220)} (model: the scripted fake)`
			);
		},
	},
	{
		file: 'keyword-com-mcp-server.json',
		title: 'Keyword.com as an MCP server',
		kind: 'mcp',
		mcpCall: { name: 'Get_many_keywords', arguments: { project: ACME } },
		summarize(result: McpExampleResult) {
			const { call } = result;
			const first = call.records[0];
			return (
				`an MCP client listed ${plural(result.tools.length, 'tool')} (${result.tools.map((t) => t.name).join(', ')}); ` +
				`${call.name} ${JSON.stringify(call.arguments)} returned ${call.isError ? `an error: ${quote(call.text)}` : plural(call.records.length, 'record')}` +
				(first && !call.isError
					? `, first: '${first.keyword ?? first.name ?? first.id}'${typeof first.rank === 'number' ? ` rank ${first.rank}` : ''}`
					: '') +
				`; without the bearer token: HTTP ${result.withoutTokenStatus}`
			);
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
	return prepareForTest(loadExample(spec.file), {
		chatInput: spec.chatInput,
		...opts,
		fixtures: spec.fixtures,
	});
}

export interface ExampleRun {
	spec: ExampleSpec;
	/** Id of the imported example, as in the file. */
	exampleId: string;
	/** Id of the imported test copy (an MCP example has none). */
	copyId?: string;
	ok: boolean;
	durationMs: number;
	/** The test copy's run (`n8n execute`), for an 'execute' example. */
	result?: ExecuteResult;
	/** What the MCP client saw, for an 'mcp' example. */
	mcp?: McpExampleResult;
	summary: string;
}

/**
 * Calls a published MCP example with the official MCP SDK (Streamable HTTP) at its production URL, with the bearer
 * token: tools/list, then the spec's `mcpCall`; then checks that an `initialize` without the token is refused.
 */
export async function callMcpExample(
	n8n: RealN8n,
	spec: ExampleSpec,
	token: string,
): Promise<McpExampleResult> {
	const workflow = loadExample(spec.file);
	const trigger = (workflow.nodes as any[]).find((n) => n.type === MCP_TRIGGER);
	if (!trigger) throw new Error(`${spec.file} has no MCP Server Trigger`);
	if (!spec.mcpCall) throw new Error(`${spec.file}: the spec names no mcpCall`);
	const url = `${n8n.baseUrl}/mcp/${String(trigger.parameters?.path ?? '')}`;
	// Loaded here, so the rest of the driver does not need the SDK.
	const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
	const { StreamableHTTPClientTransport } = await import(
		'@modelcontextprotocol/sdk/client/streamableHttp.js'
	);
	const client = await retryUntil(`connecting to the MCP server ${url}`, async () => {
		const c = new Client({ name: 'keyword-com-examples', version: '1.0.0' });
		await c.connect(
			new StreamableHTTPClientTransport(new URL(url), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
		return c;
	});
	try {
		const { tools } = await client.listTools();
		const answer: any = await client.callTool({
			name: spec.mcpCall.name,
			arguments: spec.mcpCall.arguments,
		});
		const text = ((answer.content ?? []) as any[])
			.filter((c) => c.type === 'text')
			.map((c) => c.text)
			.join('\n');
		const withoutToken = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {
					protocolVersion: '2025-03-26',
					capabilities: {},
					clientInfo: { name: 'no-token', version: '1.0.0' },
				},
			}),
			signal: AbortSignal.timeout(10_000),
		});
		await withoutToken.body?.cancel().catch(() => undefined);
		return {
			url,
			tools: tools.map((t) => ({
				name: t.name,
				description: t.description,
				inputSchema: t.inputSchema,
			})),
			call: {
				...spec.mcpCall,
				isError: answer.isError === true,
				text,
				records: answer.isError === true ? [] : toolRecords(text),
			},
			withoutTokenStatus: withoutToken.status,
		};
	} finally {
		await client.close().catch(() => undefined);
	}
}

/**
 * Imports every example as it is (so it can be opened in the editor) and the test copy (named "… (test copy)") of
 * each 'execute' example, then runs each test copy headlessly with `n8n execute`, one after another (each `execute`
 * is its own n8n process). Then the MCP examples: each is published, n8n is started (and left running: stop or dispose
 * it when done) and an MCP client calls it (callMcpExample()).
 *
 * The credentials must already be imported: keywordComCredential(); exampleModelCredential() pointing at
 * startExampleModel() for the agent example; exampleMcpCredential(mcpToken) for an MCP example. Runs come back in
 * the order of the specs (onResult gets the MCP examples last).
 */
export async function importAndRunExamples(
	n8n: RealN8n,
	opts: { specs?: ExampleSpec[]; onResult?: (run: ExampleRun) => void; mcpToken?: string } = {},
): Promise<ExampleRun[]> {
	const specs = opts.specs ?? EXAMPLES;
	const isMcp = (spec: ExampleSpec): boolean => spec.kind === 'mcp';
	// One import for all: the examples as shipped and the test copies.
	const ids = await n8n.importWorkflows(
		specs.flatMap((spec) =>
			isMcp(spec) ? [loadExample(spec.file)] : [loadExample(spec.file), testCopyOf(spec)],
		),
	);
	const runs: ExampleRun[] = [];
	let next = 0;
	const idsOf = specs.map((spec) => ({
		exampleId: ids[next++],
		copyId: isMcp(spec) ? undefined : ids[next++],
	}));
	/** The summary, or why the output is not what the example should give (then the run counts as failed). */
	const summarize = (spec: ExampleSpec, what: unknown): { ok: boolean; summary: string } => {
		try {
			return { ok: true, summary: spec.summarize(what) };
		} catch (error) {
			return {
				ok: false,
				summary: `FAILED: ran, but not with the expected output: ${(error as Error).message}`,
			};
		}
	};
	const done = (run: ExampleRun): void => {
		opts.onResult?.(run);
		runs.push(run);
	};

	for (const [index, spec] of specs.entries()) {
		if (isMcp(spec)) continue; // after the others: they need n8n running
		const { exampleId, copyId } = idsOf[index];
		const result = await n8n.execute(copyId!, { timeoutMs: 180_000 });
		let outcome: { ok: boolean; summary: string };
		if (result.ok) {
			outcome = summarize(spec, result.output);
		} else {
			const error = result.output?.data?.resultData?.error;
			outcome = {
				ok: false,
				summary: `FAILED${error?.node?.name ? ` in "${error.node.name}"` : ''}: ${error?.message ?? `n8n execute exited ${result.exitCode}`}`,
			};
		}
		done({ spec, exampleId, copyId, durationMs: result.durationMs, result, ...outcome });
	}

	const mcpSpecs = specs.map((spec, index) => ({ spec, index })).filter(({ spec }) => isMcp(spec));
	if (mcpSpecs.length > 0) {
		for (const { index } of mcpSpecs) await n8n.publish(idsOf[index].exampleId);
		await n8n.start();
		for (const { spec, index } of mcpSpecs) {
			const started = Date.now();
			const { exampleId } = idsOf[index];
			try {
				if (!opts.mcpToken)
					throw new Error(
						'no MCP token given (import exampleMcpCredential(token) and pass mcpToken)',
					);
				const mcp = await callMcpExample(n8n, spec, opts.mcpToken);
				const outcome = summarize(spec, mcp);
				done({
					spec,
					exampleId,
					durationMs: Date.now() - started,
					mcp,
					summary: outcome.summary,
					ok: outcome.ok && !mcp.call.isError && mcp.tools.length > 0,
				});
			} catch (error) {
				done({
					spec,
					exampleId,
					ok: false,
					durationMs: Date.now() - started,
					summary: `FAILED: ${(error as Error).message}`,
				});
			}
		}
	}
	return runs.sort((a, b) => specs.indexOf(a.spec) - specs.indexOf(b.spec));
}
