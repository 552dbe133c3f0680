// The package's README and LICENSE are the repository's: copied next to package.json at build time so that
// `npm pack` ships them (they are git-ignored here). A copy of this folder outside the repository keeps whatever
// README and LICENSE it already has.
import { copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(packageRoot, '..', '..');
for (const file of ['README.md', 'LICENSE']) {
	const source = join(repositoryRoot, file);
	if (
		existsSync(source) &&
		existsSync(join(repositoryRoot, 'packages', 'n8n-nodes-keyword-com', 'package.json'))
	) {
		copyFileSync(source, join(packageRoot, file));
	}
}
