/**
 * The example workflows use the node versions a node added from the panel gets: a user copying an example must not
 * start from an older version (its Simplify toggle and version-1 field names) than the one the panel gives. The
 * versions are read from the node descriptions in the package's sources, so raising a node's `defaultVersion` makes
 * this fail until the examples follow.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { EXAMPLES_DIR, REPOSITORY, VERSION_1_EXAMPLE } from '../example-paths';

const ROOT = REPOSITORY;
const EXAMPLES = EXAMPLES_DIR;
const VERSION_1_FIXTURE = VERSION_1_EXAMPLE;
const PACKAGE_NAME = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }
).name;

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
}

/** `defaultVersion` of each node type of the package, as n8n names them (the tool variant has the action node's). */
function defaultVersions(): Map<string, number> {
	const versions = new Map<string, number>();
	for (const { description } of [new KeywordCom(), new KeywordComTrigger()]) {
		const { defaultVersion, version } = description;
		const latest = defaultVersion ?? Math.max(...[version].flat());
		versions.set(`${PACKAGE_NAME}.${description.name}`, latest);
		if (description.usableAsTool) versions.set(`${PACKAGE_NAME}.${description.name}Tool`, latest);
	}
	return versions;
}

/** What is wrong with the workflow's nodes of this package: an older version than the default, or an unknown type. */
function outdatedNodes(workflow: { nodes: WorkflowNode[] }): string[] {
	const versions = defaultVersions();
	const problems: string[] = [];
	for (const node of workflow.nodes) {
		if (!node.type.startsWith(`${PACKAGE_NAME}.`)) continue;
		const latest = versions.get(node.type);
		if (latest === undefined)
			problems.push(`"${node.name}": ${node.type} is no node of the package`);
		else if (node.typeVersion !== latest)
			problems.push(
				`"${node.name}": ${node.type} version ${node.typeVersion}, a new node is version ${latest}`,
			);
	}
	return problems;
}

const load = (file: string): { nodes: WorkflowNode[] } =>
	JSON.parse(readFileSync(file, 'utf8')) as { nodes: WorkflowNode[] };

describe('example workflows use the nodes at their default versions', () => {
	const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));

	it('reads the default versions from the nodes: action node, its AI tool and the trigger', () => {
		assert.deepEqual(Object.fromEntries(defaultVersions()), {
			'n8n-nodes-keyword-com.keywordCom': 2,
			'n8n-nodes-keyword-com.keywordComTool': 2,
			'n8n-nodes-keyword-com.keywordComTrigger': 2,
		});
	});

	it('every node of the package in examples/ is at its default version', () => {
		assert.equal(files.length, 9);
		for (const file of files) {
			const workflow = load(join(EXAMPLES, file));
			assert.ok(
				workflow.nodes.some((node) => node.type.startsWith(`${PACKAGE_NAME}.`)),
				`${file} uses the package`,
			);
			assert.deepEqual(outdatedNodes(workflow), [], file);
		}
	});

	it('the check flags a version-1 node (the released version-1 example) and an unknown node type', () => {
		assert.deepEqual(outdatedNodes(load(VERSION_1_FIXTURE)), [
			'"Get keyword ranks": n8n-nodes-keyword-com.keywordCom version 1, a new node is version 2',
		]);
		assert.deepEqual(
			outdatedNodes({
				nodes: [{ name: 'Old', type: 'n8n-nodes-keyword-com.keywordComOld', typeVersion: 1 }],
			}),
			['"Old": n8n-nodes-keyword-com.keywordComOld is no node of the package'],
		);
	});
});
