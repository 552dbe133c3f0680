/**
 * The repository is the package, as in n8n's node starter: a clean clone (the files git tracks, copied outside the
 * repository) installs with `npm ci`, then `npm run build`, `npx n8n-node lint` (strict, as n8n's reviewers type it) and
 * `npm pack` work there — the commands a reviewer, a contributor and the release workflow run. The tarball holds the package only: dist/ (the
 * compiled nodes, credential and icons), package.json, README and LICENSE; nothing of the tests, tools, docs or
 * examples around it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';

import { node24ProcessEnv, repoRoot } from '../../e2e/lib/index.cjs';

function sh(command: string, args: string[], cwd: string): string {
	try {
		return execFileSync(command, args, {
			cwd,
			env: { ...node24ProcessEnv(), CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 8 * 60_000,
			maxBuffer: 64 * 1024 * 1024,
		});
	} catch (error) {
		const e = error as Error & { stdout?: string; stderr?: string };
		throw new Error(
			`\`${command} ${args.join(' ')}\` failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
		);
	}
}

/** What the published tarball may hold: the package and nothing of what surrounds it in the repository. */
const SHIPPED =
	/^(package\.json|README\.md|LICENSE|dist\/(credentials|nodes|icons)\/.+|dist\/package\.json)$/;

describe('a clean clone of the repository, as the package', { timeout: 12 * 60_000 }, () => {
	const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-clean-clone-'));
	after(() => fs.rmSync(clone, { recursive: true, force: true }));

	test('npm ci, npm run build, npx n8n-node lint and npm pack work, and the tarball holds the package only', () => {
		const tracked = sh('git', ['ls-files', '-z'], repoRoot()).split('\0').filter(Boolean);
		const manifests = tracked.filter((file) => path.basename(file) === 'package.json');
		assert.deepEqual(manifests, ['package.json'], 'one package.json: the package’s, at the root');
		for (const file of tracked) {
			if (!fs.existsSync(path.join(repoRoot(), file))) continue; // deleted in the work tree, not committed yet
			const target = path.join(clone, file);
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.copyFileSync(path.join(repoRoot(), file), target);
		}
		assert.ok(!fs.existsSync(path.join(clone, 'node_modules')));

		sh('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], clone);
		sh('npm', ['run', 'build'], clone);
		const lint = sh('npx', ['n8n-node', 'lint'], clone);
		assert.doesNotMatch(lint, /\d+ (problems?|warnings?)/, lint);
		const packed = sh('npm', ['pack', '--json'], clone);
		const [{ filename, files }] = JSON.parse(packed) as Array<{
			filename: string;
			files: Array<{ path: string }>;
		}>;
		assert.ok(fs.existsSync(path.join(clone, filename)));
		const paths = files.map((file) => file.path).sort();
		for (const expected of [
			'package.json',
			'README.md',
			'LICENSE',
			'dist/credentials/KeywordComApi.credentials.js',
			'dist/nodes/KeywordCom/KeywordCom.node.js',
			'dist/nodes/KeywordCom/KeywordCom.node.json',
			'dist/nodes/KeywordComTrigger/KeywordComTrigger.node.js',
			'dist/nodes/KeywordComTrigger/KeywordComTrigger.node.json',
			'dist/icons/keyword-com.svg',
			'dist/icons/keyword-com.dark.svg',
		]) {
			assert.ok(
				paths.includes(expected),
				`the tarball ships ${expected} (it has ${paths.length} files)`,
			);
		}
		const extra = paths.filter((file) => !SHIPPED.test(file));
		assert.deepEqual(
			extra,
			[],
			'nothing from test/, dev/, e2e/, bench/, docs/, examples/ or scripts/',
		);
	});
});
