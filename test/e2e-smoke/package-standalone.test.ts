/**
 * The package folder builds, lints and packs on its own, outside the repository's workspace: a copy of the files git
 * tracks in packages/n8n-nodes-keyword-com, then a plain `npm install && npm run build && npm run lint && npm pack`
 * there (the commands the community package's own CI and a contributor run), with only what its package.json asks for.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';

import { node24ProcessEnv, packageDir, repoRoot } from '../../e2e/lib';

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

describe('the package folder on its own', { timeout: 10 * 60_000 }, () => {
	const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-package-alone-'));
	after(() => fs.rmSync(copy, { recursive: true, force: true }));

	test('npm install, npm run build, npm run lint and npm pack work in a copy of it outside the repository', () => {
		const relative = path.relative(repoRoot(), packageDir());
		const tracked = sh('git', ['ls-files', '-z', '--', relative], repoRoot())
			.split('\0')
			.filter(Boolean);
		assert.ok(tracked.includes(`${relative}/package.json`));
		for (const file of tracked) {
			const target = path.join(copy, path.relative(relative, file));
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.copyFileSync(path.join(repoRoot(), file), target);
		}
		assert.ok(!fs.existsSync(path.join(copy, 'node_modules')));

		sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], copy);
		sh('npm', ['run', 'build'], copy);
		const lint = sh('npm', ['run', 'lint'], copy);
		assert.doesNotMatch(lint, /\d+ (problems?|warnings?)/, lint);
		const packed = sh('npm', ['pack', '--json'], copy);
		const [{ filename, files }] = JSON.parse(packed) as Array<{
			filename: string;
			files: Array<{ path: string }>;
		}>;
		assert.ok(fs.existsSync(path.join(copy, filename)));
		const paths = files.map((file) => file.path);
		for (const expected of [
			'package.json',
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
		assert.ok(
			!paths.some((file) => file.startsWith('node_modules/') || file.startsWith('scripts/')),
			'only dist and package.json',
		);
	});
});
