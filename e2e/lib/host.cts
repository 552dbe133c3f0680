/**
 * Where the real n8n lives: the project root, the pinned Node 24, the cached n8n host install, and `npm pack`.
 * Node built-ins only.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { packageDir, repoRoot } from './paths.cjs';

/**
 * The package folder (kept for callers of the first driver version): same as packageDir(). Scripts and the host
 * files are found from repoRoot(); the package to build and pack from packageDir() (see paths.cts).
 */
export function projectRoot(): string {
	return packageDir();
}

export interface NodeEnv {
	/** Folder of the pinned Node 24 (its `bin/node` runs n8n). */
	node24Home: string;
	/** `$NODE24_HOME/bin/node`. */
	nodeBin: string;
	/** The version-keyed cache folder outside the repository. */
	cacheDir: string;
}

let nodeEnvMemo: NodeEnv | undefined;

/** Sources scripts/env.sh once (installing Node 24 if needed) and returns where it put things. */
export function nodeEnv(): NodeEnv {
	if (nodeEnvMemo) return nodeEnvMemo;
	const root = repoRoot();
	const out = execFileSync(
		'bash',
		[
			'-c',
			'source "$1/scripts/env.sh" >&2 && printf "%s\\n%s\\n" "$NODE24_HOME" "$KEYWORD_COM_CACHE"',
			'env',
			root,
		],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 5 * 60_000 },
	);
	const [node24Home, cacheDir] = out.trim().split('\n');
	const nodeBin = path.join(node24Home, 'bin', 'node');
	if (!fs.existsSync(nodeBin))
		throw new Error(`e2e: scripts/env.sh did not provide Node 24 at ${nodeBin}`);
	nodeEnvMemo = { node24Home, nodeBin, cacheDir };
	// `npm run compat` may run an older n8n on the Node its engines name (scripts/compat.sh).
	const n8nNodeHome = process.env.KEYWORD_COM_N8N_NODE_HOME;
	if (n8nNodeHome)
		nodeEnvMemo = {
			node24Home: n8nNodeHome,
			nodeBin: path.join(n8nNodeHome, 'bin', 'node'),
			cacheDir,
		};
	return nodeEnvMemo;
}

/** Environment for child processes: Node 24 first on PATH, native builds against its headers. */
export function node24ProcessEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const { node24Home, cacheDir } = nodeEnv();
	return {
		...base,
		PATH: `${path.join(node24Home, 'bin')}${path.delimiter}${base.PATH ?? ''}`,
		npm_config_nodedir: node24Home,
		NODE24_HOME: node24Home,
		KEYWORD_COM_CACHE: cacheDir,
	};
}

let hostMemo: string | undefined;

/**
 * Installs (once, cached outside the repository) the pinned real n8n and returns its folder, which holds
 * `node_modules/.bin/n8n`. Cold: a few minutes; warm: a fraction of a second.
 */
export function installN8nHost(): string {
	if (hostMemo) return hostMemo;
	// `npm run compat -- <version>` points the tier at another n8n (installed by install-n8n-host.sh <version>).
	const chosen = process.env.KEYWORD_COM_N8N_HOST_DIR;
	if (chosen) {
		if (!fs.existsSync(path.join(chosen, 'node_modules', 'n8n', 'bin', 'n8n'))) {
			throw new Error(`e2e: KEYWORD_COM_N8N_HOST_DIR=${chosen} holds no node_modules/n8n/bin/n8n`);
		}
		hostMemo = chosen;
		return chosen;
	}
	const root = repoRoot();
	let out: string;
	try {
		out = execFileSync('bash', [path.join(root, 'scripts', 'install-n8n-host.sh')], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			timeout: 30 * 60_000,
			maxBuffer: 16 * 1024 * 1024,
		});
	} catch (error) {
		throw new Error(`e2e: scripts/install-n8n-host.sh failed: ${(error as Error).message}`);
	}
	const host = out.trim().split('\n').pop() ?? '';
	if (!host || !fs.existsSync(path.join(host, 'node_modules', 'n8n', 'bin', 'n8n'))) {
		throw new Error(
			`e2e: install-n8n-host.sh printed "${host}", which holds no node_modules/n8n/bin/n8n`,
		);
	}
	hostMemo = host;
	return host;
}

/**
 * `npm pack` of the project (already built: `npm run build`) into a fresh temp folder; returns the tarball's path.
 * Lifecycle scripts are skipped, so packing never rebuilds.
 */
export function packPackage(projectDir: string = packageDir()): string {
	if (!fs.existsSync(path.join(projectDir, 'dist'))) {
		throw new Error(`e2e: ${projectDir}/dist is missing: run \`npm run build\` before packing`);
	}
	const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pack-'));
	let out: string;
	try {
		out = execFileSync(
			'npm',
			['pack', '--json', '--ignore-scripts', '--pack-destination', dest, '--loglevel=error'],
			{
				cwd: projectDir,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
				timeout: 2 * 60_000,
				env: node24ProcessEnv(),
			},
		);
	} catch (error) {
		const e = error as Error & { stderr?: string };
		throw new Error(`e2e: npm pack failed in ${projectDir}: ${e.message}\n${e.stderr ?? ''}`);
	}
	// npm may print warnings before the JSON; the JSON array starts at the first "[" line.
	const start = out.indexOf('[');
	const parsed = JSON.parse(out.slice(start)) as Array<{ filename: string }>;
	const tarball = path.join(dest, parsed[0].filename.replace(/^@/, '').replace(/\//, '-'));
	if (!fs.existsSync(tarball))
		throw new Error(`e2e: npm pack reported ${parsed[0].filename}, but ${tarball} is missing`);
	return tarball;
}
