// Run before every release (`npm run release` runs it first; the publish workflow runs it too): refuses to go on
// while package.json still holds the placeholders a maintainer must replace. n8n's verification matches
// `repository` against the GitHub repository that published the package with provenance, and shows `author`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PLACEHOLDER = /REPLACE|\.invalid\b|example\.(com|org)|<|>/i;

/** The fields still holding a placeholder, as `field: value` lines. */
export function placeholdersIn(pkg) {
	const fields = {
		'author.name': pkg.author?.name,
		'author.email': pkg.author?.email,
		'repository.url': pkg.repository?.url,
		homepage: pkg.homepage,
		'bugs.url': pkg.bugs?.url,
	};
	return Object.entries(fields)
		.filter(
			([, value]) => typeof value !== 'string' || value.trim() === '' || PLACEHOLDER.test(value),
		)
		.map(
			([field, value]) => `${field}: ${value === undefined ? '(missing)' : JSON.stringify(value)}`,
		);
}

const file = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const wrong = placeholdersIn(JSON.parse(readFileSync(file, 'utf8')));
	if (wrong.length > 0) {
		console.error(
			`Not released: fill these fields of ${file} first (see CONTRIBUTING.md, "Releasing"):\n  ${wrong.join('\n  ')}`,
		);
		process.exit(1);
	}
	console.log('Release check: author and repository are filled.');
}
