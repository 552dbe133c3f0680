/**
 * Release readiness: the publish workflow (which cannot run here) is valid YAML that publishes with npm provenance
 * from the repository root (the package), and `npm run release` refuses while package.json holds placeholders.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { parse } from 'yaml';

import { packageDir, repoRoot } from '../../e2e/lib/paths';

const CHECK = path.join(packageDir(), 'scripts', 'check-release.mjs');
const readJson = (file: string): any => JSON.parse(fs.readFileSync(file, 'utf8'));
const runCheck = (file: string) => spawnSync(process.execPath, [CHECK, file], { encoding: 'utf8' });

describe('release', () => {
	it('the publish workflow is valid YAML: on a version tag, with an OIDC token, npm provenance, from the repository root', () => {
		const workflow = parse(
			fs.readFileSync(path.join(repoRoot(), '.github', 'workflows', 'publish.yml'), 'utf8'),
		);
		assert.deepEqual(workflow.on.push.tags, ['*.*.*']);
		const job = workflow.jobs.publish;
		assert.equal(
			job.permissions['id-token'],
			'write',
			'npm signs the provenance statement with the OIDC token',
		);
		assert.equal(job.permissions.contents, 'read');
		assert.equal(path.relative(repoRoot(), packageDir()), '', 'the package is the repository');
		assert.equal(job.defaults?.run?.['working-directory'], undefined, 'runs at the root');
		assert.ok(
			(job.steps as any[]).some((step) => /^npm ci\b/.test(String(step.run ?? ''))),
			'installs from the lockfile',
		);
		const runs = (job.steps as any[]).map((step) => String(step.run ?? ''));
		assert.ok(
			runs.some((run) => run.includes('node scripts/check-release.mjs')),
			'refuses placeholders',
		);
		const release = (job.steps as any[]).find((step) =>
			String(step.run ?? '').includes('npm run release'),
		);
		assert.ok(release, 'publishes through n8n-node release');
		assert.equal(release.env.NPM_CONFIG_PROVENANCE, 'true');
		const node = (job.steps as any[]).find((step) =>
			String(step.uses ?? '').startsWith('actions/setup-node'),
		);
		assert.equal(node.with['node-version'], '24');
	});

	it('npm run release checks package.json first, and npm publish alone is refused', () => {
		const { scripts } = readJson(path.join(packageDir(), 'package.json'));
		assert.equal(scripts.prerelease, 'node scripts/check-release.mjs');
		// Explicitly: .npmrc sets ignore-scripts, under which npm runs no pre-script by itself.
		assert.match(scripts.release, /^npm run prerelease && n8n-node release$/);
		assert.equal(scripts.prepublishOnly, 'n8n-node prerelease');
	});

	it('refuses while author and repository are placeholders, naming each field', () => {
		const result = runCheck(path.join(packageDir(), 'package.json'));
		assert.equal(result.status, 1);
		for (const field of ['author.name', 'author.email', 'repository.url', 'bugs.url']) {
			assert.match(result.stderr, new RegExp(`^  ${field.replace('.', '\\.')}: `, 'm'), field);
		}
		// The homepage is the npm page (known before the repository is): filled already, still checked.
		assert.doesNotMatch(result.stderr, /^ {2}homepage: /m);
	});

	it('refuses a placeholder homepage too', () => {
		const pkg = readJson(path.join(packageDir(), 'package.json'));
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-release-'));
		try {
			const file = path.join(dir, 'package.json');
			fs.writeFileSync(
				file,
				JSON.stringify({ ...pkg, homepage: 'https://github.com/REPLACE-OWNER/x#readme' }),
			);
			assert.match(runCheck(file).stderr, /^ {2}homepage: /m);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('goes on once they are filled', () => {
		const pkg = readJson(path.join(packageDir(), 'package.json'));
		const filled = {
			...pkg,
			author: { name: 'Ada Maintainer', email: 'ada@keyword.com' },
			repository: {
				...pkg.repository,
				url: 'git+https://github.com/keyword-com/n8n-nodes-keyword-com.git',
			},
			bugs: { url: 'https://github.com/keyword-com/n8n-nodes-keyword-com/issues' },
		};
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-release-'));
		try {
			const file = path.join(dir, 'package.json');
			fs.writeFileSync(file, JSON.stringify(filled));
			const result = runCheck(file);
			assert.equal(result.status, 0, result.stderr);
			fs.writeFileSync(file, JSON.stringify({ ...filled, author: { name: 'Ada', email: '' } }));
			assert.equal(runCheck(file).status, 1, 'an empty field is refused too');
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});
