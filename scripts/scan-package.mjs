// The community-package scanner n8n runs before it verifies a package (@n8n/scan-community-package), both legs as
// it runs them: the package's source folder with its source patterns, and the packed tarball (`npm pack`, after
// `npm run build`) with its compiled `.js` and package.json. Its provenance check needs a published version and is
// not run here.
// The scanner is installed beside the repository by scripts/install-scanner.sh (see why there).
// Usage: node scripts/scan-package.mjs   (exit 1 on any finding)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const scannerDir = execFileSync(
	'bash',
	[fileURLToPath(new URL('install-scanner.sh', import.meta.url))],
	{
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	},
).trim();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	pathToFileURL(join(scannerDir, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs'))
		.href
);

// The package is the repository root (as in n8n's node starter).
const packageDir = fileURLToPath(new URL('../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kwc-scan-'));
try {
	execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: packageDir,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	const legs = [
		['source', await analyzePackage(packageDir, SOURCE_FILE_PATTERNS)],
		[tarball, await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json'])],
	];
	for (const [leg, result] of legs) {
		if (result.passed)
			console.log(
				`Community-package scanner, ${leg}: passed${result.message ? ` (${result.message})` : ''}`,
			);
		else {
			console.error(
				`Community-package scanner, ${leg}: ${result.message}\n${result.details ?? ''}`,
			);
			process.exitCode = 1;
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
