/**
 * The benchmarks measure what users run: the nodes at the version a new workflow gets, with its parameters (Output),
 * wherever a benchmark or its counts test places a node.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { BENCH_NODE_VERSIONS } from '../../bench/lib.cjs';
import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { repoRoot } from '../../e2e/lib/paths.cjs';

const SOURCES = [
	...fs
		.readdirSync(path.join(repoRoot(), 'bench'))
		.filter((name) => name.endsWith('.cts'))
		.map((name) => path.join('bench', name)),
	path.join('test', 'bench-counts', 'request-counts.test.cts'),
];

describe('benchmark node versions', () => {
	it("are the nodes' versions", () => {
		assert.equal(BENCH_NODE_VERSIONS.keywordCom, new KeywordCom().description.version);
		assert.equal(
			BENCH_NODE_VERSIONS.keywordComTrigger,
			new KeywordComTrigger().description.version,
		);
	});

	it('no benchmark places a node at a version of its own, or sets a Simplify toggle', () => {
		const found: string[] = [];
		for (const file of SOURCES) {
			fs.readFileSync(path.join(repoRoot(), file), 'utf8')
				.split('\n')
				.forEach((line, index) => {
					if (/typeVersion:\s*\d/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
					if (/\bsimplify:/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
				});
		}
		assert.deepEqual(found, []);
	});
});
