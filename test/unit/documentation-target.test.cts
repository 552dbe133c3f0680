/**
 * One documentation target: the package's README on npm. The credential's documentation link, every codex file
 * (`*.node.json`) and package.json `homepage` point there, and every `#anchor` they use is a heading of the README.
 * Why npm: the repository's address is unknown until the first release (package.json holds a placeholder owner),
 * while the npm page of the package name exists as soon as it is published, shows the same README, and stays put if
 * the repository moves.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { packageDir, repoRoot } from '../../e2e/lib/paths.cjs';
import { KeywordComApi } from '../../credentials/KeywordComApi.credentials';

const pkg = JSON.parse(fs.readFileSync(path.join(packageDir(), 'package.json'), 'utf8'));
const TARGET = `https://www.npmjs.com/package/${pkg.name}`;

/** Every file under `dir` whose name ends with `suffix`. */
function filesEndingWith(dir: string, suffix: string): string[] {
	return fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(suffix))
		.map((file) => path.join(dir, file));
}

/** The anchor GitHub and npm give a README heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

const readmeAnchors = new Set(
	[...fs.readFileSync(path.join(repoRoot(), 'README.md'), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(
		(match) => headingAnchor(match[1]),
	),
);

/** Fails unless `url` is the target itself or the target with an anchor the README has. */
function assertOnTarget(url: unknown, where: string) {
	assert.equal(typeof url, 'string', `${where}: no URL`);
	const [base, anchor, ...rest] = String(url).split('#');
	assert.equal(base, TARGET, `${where}: ${String(url)} is not the package's npm page`);
	assert.equal(rest.length, 0, `${where}: ${String(url)}`);
	if (anchor !== undefined)
		assert.ok(readmeAnchors.has(anchor), `${where}: the README has no heading for #${anchor}`);
}

describe('one documentation target', () => {
	it('package.json homepage is the npm page of the package', () => {
		assert.equal(pkg.homepage, TARGET);
	});

	it("the credential's documentation link points there", () => {
		assertOnTarget(new KeywordComApi().documentationUrl, 'KeywordComApi.documentationUrl');
	});

	it('every node has a codex file, and every link of every codex file points there', () => {
		const nodesDir = path.join(packageDir(), 'nodes');
		const nodeFiles = filesEndingWith(nodesDir, '.node.ts');
		assert.ok(nodeFiles.length >= 2, 'both nodes found');
		for (const nodeFile of nodeFiles) {
			const codexFile = nodeFile.replace(/\.ts$/, '.json');
			assert.ok(fs.existsSync(codexFile), `${path.basename(nodeFile)} has no codex file`);
			const codex = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
			const links = Object.entries(codex.resources ?? {}).flatMap(([kind, list]) =>
				(list as Array<{ url?: unknown }>).map((entry) => ({ kind, url: entry.url })),
			);
			assert.ok(
				links.some((link) => link.kind === 'primaryDocumentation'),
				`${path.basename(codexFile)}: no primaryDocumentation`,
			);
			for (const { kind, url } of links) assertOnTarget(url, `${path.basename(codexFile)} ${kind}`);
		}
	});

	it('the anchor check reads headings as GitHub and npm do', () => {
		assert.equal(headingAnchor('Keyword.com Trigger'), 'keywordcom-trigger');
		assert.ok(readmeAnchors.has('credentials') && readmeAnchors.has('operations'));
		assert.throws(() => assertOnTarget(`${TARGET}#no-such-heading`, 'probe'));
		assert.throws(() => assertOnTarget('https://github.com/keyword-com/x#credentials', 'probe'));
	});
});
