/**
 * Where things are. Two roots, on purpose kept apart:
 * - repoRoot(): the repository (scripts/, e2e/host/, examples/, docs/; buildRoot(): build/ of the test compile);
 * - packageDir(): the folder of the n8n package itself (its package.json, `n8n-node build`, dist/, `npm pack`).
 * The package lives in  so that `n8n-node lint` sees only the package's code.
 * Nothing else in e2e/, test/e2e/ or e2e/demo/ may hard-code either path, nor any path under build/ (use buildPath()).
 * Node built-ins only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PACKAGE_NAME = 'n8n-nodes-keyword-com';

/**
 * The pinned real n8n's manifest and lockfile (e2e/host/): kept under these names so that the repository holds one
 * package.json; scripts/install-n8n-host.sh copies them into the host's cache folder as package.json and
 * package-lock.json.
 */
export const HOST_MANIFEST = 'n8n-host.package.json';
export const HOST_LOCKFILE = 'n8n-host.package-lock.json';

let repoRootMemo: string | undefined;

/** The repository root: the nearest folder above this file that holds `scripts/env.sh` and `e2e/host/` (works from e2e/lib and build/e2e/lib). */
export function repoRoot(): string {
	if (repoRootMemo) return repoRootMemo;
	let dir = __dirname;
	for (;;) {
		if (
			fs.existsSync(path.join(dir, 'scripts', 'env.sh')) &&
			fs.existsSync(path.join(dir, 'e2e', 'host', HOST_MANIFEST))
		) {
			repoRootMemo = dir;
			return dir;
		}
		const parent = path.dirname(dir);
		if (parent === dir)
			throw new Error(
				`e2e: cannot find the repository root (scripts/env.sh + e2e/host/) above ${__dirname}`,
			);
		dir = parent;
	}
}

/**
 * The folder `npx tsc -p tsconfig.test.json` compiled into: `build/` by default. When this file itself runs compiled
 * from another output folder (`--outDir build-queue`: `<repo>/build-queue/e2e/lib/paths.cjs`), that folder, so a
 * test compiled elsewhere finds its own fake API; KEYWORD_COM_BUILD_DIR overrides both.
 */
export function buildRoot(): string {
	const fromEnv = process.env.KEYWORD_COM_BUILD_DIR;
	if (fromEnv) return path.resolve(repoRoot(), fromEnv);
	const compiledInto = path.resolve(__dirname, '..', '..');
	const compiled =
		path.basename(__dirname) === 'lib' &&
		path.basename(path.dirname(__dirname)) === 'e2e' &&
		path.dirname(compiledInto) === repoRoot();
	return compiled && compiledInto !== repoRoot() ? compiledInto : path.join(repoRoot(), 'build');
}

/** A path under the compiled tests' folder (buildRoot(): `build/` unless compiled elsewhere), e.g. buildPath('dev', 'fake-api', 'cli.cjs'). */
export function buildPath(...segments: string[]): string {
	return path.join(buildRoot(), ...segments);
}

/** The folder of the n8n package (package.json named n8n-nodes-keyword-com, `n8n-node build` → dist/). */
export function packageDir(): string {
	const dir = repoRoot();
	const manifest = path.join(dir, 'package.json');
	let name: string | undefined;
	try {
		name = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name;
	} catch {
		name = undefined;
	}
	if (name !== PACKAGE_NAME) {
		throw new Error(
			`e2e: packageDir() expected the ${PACKAGE_NAME} package.json at ${manifest} (found ${name ?? 'none'}); update e2e/lib/paths.cts`,
		);
	}
	return dir;
}
