/**
 * Build and pack the n8n package the way it is published: `n8n-node build` in packageDir() (under Node 24), then
 * `npm pack` (packPackage). The tarball is what RealN8n installs as a community package.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { node24ProcessEnv, packPackage } from './host.cjs';
import { packageDir } from './paths.cjs';

/** `npm run build` in packageDir() (Node 24 env): `n8n-node build` plus the README and LICENSE the tarball ships. */
export function buildPackage(): void {
	const dir = packageDir();
	try {
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: dir,
			env: { ...node24ProcessEnv(), CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 5 * 60_000,
			maxBuffer: 32 * 1024 * 1024,
		});
	} catch (error) {
		const e = error as Error & { stdout?: string; stderr?: string };
		throw new Error(
			`e2e: \`npm run build\` failed in ${dir}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
		);
	}
	if (!fs.existsSync(path.join(dir, 'dist')))
		throw new Error(`e2e: \`npm run build\` left no dist/ in ${dir}`);
}

/** Builds the package (see buildPackage) and packs it; returns the tarball's path (in a fresh temp folder). */
export function buildAndPackPackage(): string {
	buildPackage();
	return packPackage(packageDir());
}

/** Deletes the temp folder of a tarball made by packPackage / buildAndPackPackage. */
export function removeTarball(tarball: string | undefined): void {
	if (!tarball) return;
	const dir = path.dirname(tarball);
	if (path.basename(dir).startsWith('n8n-e2e-pack-'))
		fs.rmSync(dir, { recursive: true, force: true });
}
