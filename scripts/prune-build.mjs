// Removes from build/ what no source compiles to any more (a file moved or deleted), so that an incremental build
// (scripts/test-one.sh) never leaves an old copy behind to be required instead of the new one.
// Usage: node scripts/prune-build.mjs   (prints what it removed)
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = join(root, 'build');

/** The sources a built file may come from (tsconfig.test.json: rootDir ".", outDir "build"). */
function sourcesOf(path) {
	const stem = path.replace(/\.map$/, '');
	if (stem.endsWith('.cjs')) return [stem.replace(/\.cjs$/, '.cts')];
	if (stem.endsWith('.mjs')) return [stem.replace(/\.mjs$/, '.mts')];
	if (stem.endsWith('.js')) return [stem.replace(/\.js$/, '.ts'), stem.replace(/\.js$/, '.tsx')];
	// A JSON module is copied as it is.
	return [stem];
}

function prune(folder) {
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) {
			prune(path);
			if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
			continue;
		}
		const inRepository = relative(build, path);
		if (inRepository.endsWith('.tsbuildinfo')) continue;
		if (sourcesOf(inRepository).some((source) => existsSync(join(root, source)))) continue;
		rmSync(path);
		console.log(`[test:one] removed build/${inRepository} (its source is gone)`);
	}
}

if (existsSync(build)) prune(build);
