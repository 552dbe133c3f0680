/**
 * Release readiness: the publish workflow (which cannot run here) is valid YAML that publishes with npm provenance
 * from the repository root (the package); `npm run release` refuses while package.json holds placeholders; a plain
 * `npm publish` is refused by npm itself (the package is private until the workflow lifts it), scripts on or off; and
 * the release leaves the hand-written CHANGELOG.md as it is.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { parse } from 'yaml';

import { packageDir, repoRoot } from '../../e2e/lib/paths.cjs';

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

	it('npm run release checks package.json first; the workflow makes the package publishable before it publishes', () => {
		const pkg = readJson(path.join(packageDir(), 'package.json'));
		assert.equal(pkg.scripts.prerelease, 'node scripts/check-release.mjs');
		// Explicitly: .npmrc sets ignore-scripts, under which npm runs no pre-script by itself.
		assert.match(pkg.scripts.release, /^npm run prerelease && n8n-node release$/);
		assert.equal(pkg.scripts.prepublishOnly, 'n8n-node prerelease');
		assert.equal(pkg.private, true, 'the repository keeps the package private');
		const steps = parse(
			fs.readFileSync(path.join(repoRoot(), '.github', 'workflows', 'publish.yml'), 'utf8'),
		).jobs.publish.steps as Array<{ run?: string }>;
		const lift = steps.findIndex((step) => step.run?.trim() === 'npm pkg delete private');
		const release = steps.findIndex((step) => String(step.run ?? '').includes('npm run release'));
		assert.ok(lift >= 0 && lift < release, 'private is lifted right before the release step');
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

	describe('npm publish typed by hand, against a registry on loopback that records what it is sent', () => {
		it('is refused by npm itself before anything is uploaded, scripts off (as .npmrc has them)', async () => {
			const outcome = await publishCopy({ ignoreScripts: true });
			assert.notEqual(outcome.status, 0, outcome.output);
			assert.match(outcome.output, /EPRIVATE|marked as private/, outcome.output);
			assert.deepEqual(outcome.uploads, [], 'nothing reached the registry');
		});

		it('is refused first by the prepublishOnly guard when scripts are on, before anything is uploaded', async () => {
			const outcome = await publishCopy({ ignoreScripts: false });
			assert.notEqual(outcome.status, 0, outcome.output);
			assert.match(outcome.output, /Run `npm run release` to publish the package/, outcome.output);
			assert.deepEqual(outcome.uploads, [], 'nothing reached the registry');
		});

		it('goes through once the workflow has lifted private (the guard is exactly that)', async () => {
			const outcome = await publishCopy({ ignoreScripts: true, liftPrivate: true });
			assert.equal(outcome.status, 0, outcome.output);
			assert.deepEqual(outcome.uploads, ['/n8n-nodes-keyword-com']);
		});
	});

	it('a release leaves CHANGELOG.md as written: the hook n8n-node release runs writes elsewhere', () => {
		const cli = path.join(packageDir(), 'node_modules', '@n8n', 'node-cli', 'dist', 'commands');
		const release = fs.readFileSync(path.join(cli, 'release.js'), 'utf8');
		// What n8n-node release hands release-it; a new node-cli that changes it fails here first.
		assert.ok(release.includes(`'--hooks.after:bump="npx auto-changelog -p"'`), 'the hook');
		assert.ok(release.includes(`runCommand)('release-it'`), 'release-it, from node_modules');
		const devDependencies = readJson(path.join(packageDir(), 'package.json')).devDependencies;
		for (const tool of ['release-it', 'auto-changelog']) {
			assert.match(String(devDependencies[tool]), /^\d+\.\d+\.\d+$/, `${tool} is pinned`);
			const installed = readJson(path.join(packageDir(), 'node_modules', tool, 'package.json'));
			assert.equal(installed.version, devDependencies[tool], `${tool} as pinned`);
		}
		// The hook, run as release-it runs it after the version bump, in a clone of the repository.
		const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-changelog-'));
		try {
			execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot(), clone]);
			for (const file of ['package.json', 'CHANGELOG.md', '.auto-changelog'])
				fs.copyFileSync(path.join(repoRoot(), file), path.join(clone, file));
			fs.symlinkSync(path.join(packageDir(), 'node_modules'), path.join(clone, 'node_modules'));
			const written = fs.readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
			const hook = spawnSync('npx', ['--no-install', 'auto-changelog', '-p'], {
				cwd: clone,
				encoding: 'utf8',
			});
			assert.equal(hook.status, 0, `${hook.stdout}${hook.stderr}`);
			assert.equal(fs.readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8'), written);
			const notes = readJson(path.join(clone, '.auto-changelog')).output as string;
			assert.ok(fs.existsSync(path.join(clone, notes)), `the generated notes went to ${notes}`);
		} finally {
			fs.rmSync(clone, { recursive: true, force: true });
		}
	});
});

/** A copy of the package's manifest, README and .npmrc, published with the machine's npm to a registry on loopback. */
async function publishCopy(options: {
	ignoreScripts: boolean;
	liftPrivate?: boolean;
}): Promise<{ status: number | null; output: string; uploads: string[] }> {
	const uploads: string[] = [];
	const registry = http.createServer((request, response) => {
		if (request.method === 'PUT') uploads.push(decodeURIComponent(request.url ?? ''));
		request.resume();
		response.writeHead(request.method === 'PUT' ? 200 : 404, {
			'content-type': 'application/json',
		});
		response.end('{}');
	});
	await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
	const { port } = registry.address() as AddressInfo;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-publish-'));
	try {
		for (const file of ['package.json', 'README.md', 'LICENSE', '.npmrc'])
			fs.copyFileSync(path.join(packageDir(), file), path.join(dir, file));
		// The package's own tools (n8n-node for prepublishOnly), as in the repository.
		fs.symlinkSync(path.join(packageDir(), 'node_modules'), path.join(dir, 'node_modules'));
		if (options.liftPrivate) {
			const pkg = readJson(path.join(dir, 'package.json'));
			delete pkg.private;
			fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
		}
		const url = `http://127.0.0.1:${port}/`;
		const args = [
			'publish',
			`--registry=${url}`,
			`--//127.0.0.1:${port}/:_authToken=local-test-token`,
			`--ignore-scripts=${options.ignoreScripts}`,
			'--provenance=false',
			'--loglevel=error',
		];
		const child = spawn('npm', args, { cwd: dir, env: { ...process.env, CI: '' } });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
		return { status, output, uploads };
	} finally {
		registry.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
