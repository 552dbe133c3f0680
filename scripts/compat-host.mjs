// The package.json of an n8n host folder for `npm run compat -- <version>` (scripts/install-n8n-host.sh <version>):
// that n8n, with the overrides it needs to install from the npm registry here.
// - 1.x: `xlsx` from a CDN tarball that cannot be reached → the registry's 0.18.5; @langchain/langgraph-checkpoint
//   1.2.x breaks `n8n start` ("Package subpath './utils/uuid' is not defined by exports") → 1.0.0; 1.9x import
//   `zod/v3` (zod 3.25 and later), which an unlocked install may resolve older.
// - 2.x: the overrides of the pinned host (e2e/host/n8n-host.package.json).
import { readFileSync } from 'node:fs';

const version = process.argv[2];
const major = Number(version.split('.')[0]);
const pinned = JSON.parse(
	readFileSync(new URL('../e2e/host/n8n-host.package.json', import.meta.url), 'utf8'),
);
const minor = Number(version.split('.')[1]);
const overrides =
	major < 2
		? {
				xlsx: '0.18.5',
				'@langchain/langgraph-checkpoint': '1.0.0',
				// Resolved without n8n's lock, some 1.x releases get a dependency older than what imports it needs.
				...(minor >= 90 && minor < 100 ? { zod: '3.25.76' } : {}),
			}
		: { ...pinned.overrides };
const host = {
	private: true,
	description: `n8n ${version} for the compatibility smoke (npm run compat). Outside the repository, cached.`,
	dependencies: { n8n: version },
	overrides,
};
console.log(JSON.stringify(host, null, 2));
