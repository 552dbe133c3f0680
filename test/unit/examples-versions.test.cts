/**
 * The example workflows use the node versions a node added from the panel gets: a user copying an example starts
 * from what the panel gives. The versions are read from the node descriptions in the package's sources, so a new
 * node version makes this fail until the examples follow.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { EXAMPLES_DIR, REPOSITORY } from '../example-paths.cjs';

const ROOT = REPOSITORY;
const EXAMPLES = EXAMPLES_DIR;
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

	it('each node ships one version, 1 (nothing was published before it): action node, its AI tool and the trigger', () => {
		for (const { description } of [new KeywordCom(), new KeywordComTrigger()]) {
			assert.equal(description.version, 1, description.name);
			assert.equal(description.defaultVersion, undefined, description.name);
		}
		assert.deepEqual(Object.fromEntries(defaultVersions()), {
			'n8n-nodes-keyword-com.keywordCom': 1,
			'n8n-nodes-keyword-com.keywordComTool': 1,
			'n8n-nodes-keyword-com.keywordComTrigger': 1,
		});
	});

	it('every node of the package in examples/ is at its default version', () => {
		assert.equal(files.length, 11);
		for (const file of files) {
			const workflow = load(join(EXAMPLES, file));
			assert.ok(
				workflow.nodes.some((node) => node.type.startsWith(`${PACKAGE_NAME}.`)),
				`${file} uses the package`,
			);
			assert.deepEqual(outdatedNodes(workflow), [], file);
		}
	});

	it('the check flags a node at another version and an unknown node type', () => {
		assert.deepEqual(
			outdatedNodes({
				nodes: [{ name: 'Later', type: 'n8n-nodes-keyword-com.keywordCom', typeVersion: 2 }],
			}),
			['"Later": n8n-nodes-keyword-com.keywordCom version 2, a new node is version 1'],
		);
		assert.deepEqual(
			outdatedNodes({
				nodes: [{ name: 'Old', type: 'n8n-nodes-keyword-com.keywordComOld', typeVersion: 1 }],
			}),
			['"Old": n8n-nodes-keyword-com.keywordComOld is no node of the package'],
		);
	});
});
