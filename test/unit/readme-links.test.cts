/**
 * The README's links and images work on the npm page (scripts/readme-links.mjs): the publish workflow makes each link
 * into the repository absolute before it publishes, since the tarball holds none of docs/, examples/ and the rest.
 * Checked here: every relative target exists in the repository, and once rewritten none is left pointing into a file
 * the tarball lacks; every address the rewrite makes names a file of the repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { parse } from 'yaml';

import { packageDir, repoRoot } from '../../e2e/lib/paths.cjs';

const README = readFileSync(join(repoRoot(), 'README.md'), 'utf8');
const REPOSITORY = 'git+https://github.com/keyword-com/n8n-nodes-keyword-com.git';

/** Every link and image target of a Markdown text. */
const targetsOf = (text: string) =>
	[...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);

/** What the packed tarball holds besides dist/ (package.json `files`, and what npm always adds). */
const IN_TARBALL = new Set(['README.md', 'LICENSE', 'package.json']);

async function rewrite(text: string, repository = REPOSITORY, ref = '0.1.0'): Promise<string> {
	const script = (await import(join(packageDir(), 'scripts', 'readme-links.mjs'))) as {
		absoluteLinks(text: string, repository: string, ref: string): string;
	};
	return script.absoluteLinks(text, repository, ref);
}

describe('README links on the npm page', () => {
	it('every relative link and image of the README is a file of the repository', () => {
		const relative = targetsOf(README).filter((target) => !/^([a-z]+:|#)/i.test(target));
		assert.ok(relative.length > 15, `${relative.length} relative links`);
		for (const target of relative)
			assert.ok(existsSync(join(repoRoot(), target.split('#')[0])), `${target} exists`);
	});

	it('made absolute, none is left pointing into a file the tarball lacks, and each names a file of the repository', async () => {
		const published = await rewrite(README);
		for (const target of targetsOf(published)) {
			if (target.startsWith('#')) continue;
			if (!/^https?:/.test(target)) {
				assert.ok(IN_TARBALL.has(target), `${target} is not in the tarball`);
				continue;
			}
			const inRepository =
				/^https:\/\/github\.com\/keyword-com\/n8n-nodes-keyword-com\/blob\/0\.1\.0\/(.+)$/.exec(
					target,
				) ??
				/^https:\/\/raw\.githubusercontent\.com\/keyword-com\/n8n-nodes-keyword-com\/0\.1\.0\/(.+)$/.exec(
					target,
				);
			if (inRepository)
				assert.ok(existsSync(join(repoRoot(), inRepository[1].split('#')[0])), target);
		}
		assert.match(
			published,
			/!\[[^\]]*\]\(https:\/\/raw\.githubusercontent\.com\/[^)]+\.jpg\)/,
			'images as raw files',
		);
	});

	it('refuses the placeholder repository (the owner fills it before the first release)', async () => {
		const pkg = JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8'));
		await assert.rejects(rewrite(README, pkg.repository.url), /not a GitHub repository yet/);
	});

	it('the publish workflow makes them absolute after lifting private and before publishing', () => {
		const steps = parse(
			readFileSync(join(repoRoot(), '.github', 'workflows', 'publish.yml'), 'utf8'),
		).jobs.publish.steps as Array<{ run?: string }>;
		const at = (text: string) => steps.findIndex((step) => String(step.run ?? '').includes(text));
		assert.ok(at('npm pkg delete private') < at('node scripts/readme-links.mjs'));
		assert.ok(at('node scripts/readme-links.mjs') < at('npm run release'));
	});
});
