/**
 * Every field an example workflow reads from a Keyword.com node's items exists in those items: each Keyword.com node
 * (and trigger) of an example runs through n8n's engine against the fake API at the version and with the parameters
 * the example gives it, and the `$json.<field>` of the nodes it feeds (and `$('<node>').item.json.<field>` anywhere)
 * must be fields of what it output. An API key (`kw`, `grank`, `prevrank`…) in place of a simplified name is caught
 * here, without a real n8n. Code nodes reading `$input.all()` are not looked into (the e2e test runs them).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll } from '../harness/index.cjs';
import { run, useFake, type Fake } from './helpers.cjs';
import { EXAMPLES_DIR } from '../example-paths.cjs';

const EXAMPLES = EXAMPLES_DIR;
const ACTION = 'n8n-nodes-keyword-com.keywordCom';
const TRIGGER = 'n8n-nodes-keyword-com.keywordComTrigger';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}
interface Workflow {
	nodes: WorkflowNode[];
	connections: Record<string, { main?: Array<Array<{ node: string }> | null> }>;
}

const load = (file: string): Workflow => JSON.parse(readFileSync(file, 'utf8')) as Workflow;

/** Every string in a node's parameters (expressions, code). */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Nodes that route their input items on unchanged: what they feed reads the items of the node before them. */
const PASS_THROUGH = new Set([
	'n8n-nodes-base.switch',
	'n8n-nodes-base.if',
	'n8n-nodes-base.filter',
]);

/** The nodes `name` feeds directly. */
const feeds = (workflow: Workflow, name: string): string[] =>
	(workflow.connections[name]?.main ?? []).flatMap((branch) => branch ?? []).map((c) => c.node);

/** The nodes `source` feeds, and what those feed while they only route its items on (Switch, If, Filter). */
function fedBy(workflow: Workflow, source: string): Set<string> {
	const fed = new Set<string>();
	const next = (name: string): string[] => feeds(workflow, name);
	const queue = next(source);
	while (queue.length > 0) {
		const name = queue.shift()!;
		if (fed.has(name)) continue;
		fed.add(name);
		const node = workflow.nodes.find((candidate) => candidate.name === name);
		if (node && PASS_THROUGH.has(node.type)) queue.push(...next(name));
	}
	return fed;
}

/**
 * The fields of `source`'s items the workflow reads: `$json.x` in the nodes it feeds (through a Switch, If or Filter
 * too), `$('source')….json.x` anywhere.
 */
function fieldsRead(workflow: Workflow, source: string): Map<string, string[]> {
	const fed = fedBy(workflow, source);
	const byName = new RegExp(
		`\\$\\(\\s*['"]${escape(source)}['"]\\s*\\)\\.(?:item|first\\(\\)|last\\(\\))\\.json\\.([A-Za-z_$][\\w$]*)`,
		'g',
	);
	const read = new Map<string, string[]>();
	const note = (field: string, reader: string): void => {
		read.set(field, [...new Set([...(read.get(field) ?? []), reader])]);
	};
	for (const node of workflow.nodes) {
		for (const text of strings(node.parameters)) {
			if (fed.has(node.name))
				for (const match of text.matchAll(/\$json\.([A-Za-z_$][\w$]*)/g)) note(match[1], node.name);
			for (const match of text.matchAll(byName)) note(match[1], node.name);
		}
	}
	return read;
}

/** The Keyword.com node that alone feeds `node`, if one does. */
function keywordComSource(workflow: Workflow, node: WorkflowNode): WorkflowNode | undefined {
	const sources = workflow.nodes.filter((candidate) =>
		feeds(workflow, candidate.name).includes(node.name),
	);
	return sources.length === 1 && sources[0].type === ACTION ? sources[0] : undefined;
}

/** The keys of the items the Keyword.com node or trigger outputs, run as the workflow has it. */
async function outputFields(
	fake: Fake,
	node: WorkflowNode,
	workflow: Workflow,
): Promise<Set<string>> {
	return new Set((await outputItems(fake, node, workflow)).flatMap((item) => Object.keys(item)));
}

/**
 * The items of the Keyword.com node or trigger, run as the workflow has it. A node whose parameters read its input is
 * run on the first item of the Keyword.com node that feeds it (any other input needs the e2e test).
 */
async function outputItems(
	fake: Fake,
	node: WorkflowNode,
	workflow: Workflow,
): Promise<IDataObject[]> {
	const expressions = strings(node.parameters).filter((text) => text.startsWith('='));
	const source = expressions.length > 0 ? keywordComSource(workflow, node) : undefined;
	assert.ok(
		expressions.length === 0 || source,
		`"${node.name}" reads the input of a node that is not Keyword.com; run it in the e2e test instead`,
	);
	const input = source ? (await outputItems(fake, source, workflow)).slice(0, 1) : undefined;
	let items: IDataObject[];
	if (node.type === TRIGGER) {
		// A trigger with Filters emits only the updates that pass, each with `matched`, and its test event shows those
		// when some recent update passes (else unfiltered ones, without `matched`). Moves from outside the results to
		// rank 1 and back pass any movement filter (Moved By At Least, Crossed Top), so the sample has both ways.
		if (Object.keys((node.parameters.filters as IDataObject | undefined) ?? {}).length > 0)
			extremeMoves(fake);
		// Fetch Test Event: the same items a poll emits.
		const poll = await runPoll({
			nodeType: new KeywordComTrigger(),
			typeVersion: node.typeVersion,
			parameters: node.parameters,
			credentials: { keywordComApi: { apiToken: fake.api.token, baseUrl: fake.baseUrl } },
			mode: 'manual',
			nodeName: node.name,
		});
		assert.equal(poll.error, undefined, poll.error?.message);
		items = (poll.items?.[0] ?? []).map((item) => item.json);
	} else {
		const outcome = await run(fake, node.parameters, {
			typeVersion: node.typeVersion,
			...(input ? { items: input.map((json) => ({ json })) } : {}),
		});
		assert.equal(outcome.error, undefined, outcome.error?.message);
		items = outcome.items;
	}
	assert.ok(items.length > 0, `"${node.name}" output items to look at`);
	return items;
}

/** Two keywords of Acme Shoes re-crawled twice: one from outside the results to rank 1, one from rank 1 to outside. */
function extremeMoves(fake: Fake): void {
	const [rising, falling] = [
		...fake.api.state.keywordsOf(fake.api.state.getContainer('Acme Shoes')),
	]
		.slice(0, 2)
		.map((keyword) => String(keyword.id));
	for (const ranks of [
		{ [rising]: 0, [falling]: 1 },
		{ [rising]: 1, [falling]: 0 },
	])
		fake.api.simulateRankUpdate({ keywordIds: [rising, falling], ranks });
}

/** Fields read from a Keyword.com node that its items do not have: "<node> → <reader>: <field>". */
async function missingFields(fake: Fake, workflow: Workflow): Promise<string[]> {
	const missing: string[] = [];
	for (const node of workflow.nodes) {
		if (node.type !== ACTION && node.type !== TRIGGER) continue;
		const read = fieldsRead(workflow, node.name);
		if (read.size === 0) continue;
		const output = await outputFields(fake, node, workflow);
		for (const [field, readers] of read)
			if (!output.has(field)) missing.push(`${node.name} → ${readers.join(', ')}: ${field}`);
	}
	return missing;
}

describe('fields the examples read from Keyword.com nodes exist in their output', () => {
	const fake = useFake();
	const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));

	for (const file of files) {
		it(file, async () => {
			assert.deepEqual(await missingFields(fake, load(join(EXAMPLES, file))), []);
		});
	}

	it('the examples read Keyword.com output at all (so the check above has something to check)', () => {
		const read = files.flatMap((file) => {
			const workflow = load(join(EXAMPLES, file));
			return workflow.nodes
				.filter((node) => node.type === ACTION || node.type === TRIGGER)
				.flatMap((node) => [...fieldsRead(workflow, node.name).keys()]);
		});
		for (const field of ['keyword', 'rank', 'best_rank', 'previous_rank', 'project', 'id'])
			assert.ok(read.includes(field), `an example reads ${field}`);
	});

	it('fields read after a Switch count as read from the trigger before it (the top 10 example)', () => {
		const read = fieldsRead(
			load(join(EXAMPLES, 'keyword-top10-to-slack.json')),
			'On top 10 change',
		);
		assert.deepEqual(read.get('matched'), ['Entered or left?']);
		for (const field of ['keyword', 'previous_rank', 'rank', 'id'])
			assert.deepEqual(
				read.get(field),
				["Compose 'entered' message", "Compose 'left' message"],
				field,
			);
	});
});
