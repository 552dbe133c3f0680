// The package's README and LICENSE are the repository's: copied next to package.json at build time so that
// `npm pack` ships them (they are git-ignored there).
import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const file of ['README.md', 'LICENSE']) {
	copyFileSync(join(root, file), join(root, 'packages', 'n8n-nodes-keyword-com', file));
}
