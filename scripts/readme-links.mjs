// Run by the publish workflow before it publishes: npm shows the README of the tarball, which holds dist/ and the
// README only, so a link or image pointing into the repository (docs/, examples/, CONTRIBUTING.md…) would be dead on
// the npm page. Each becomes an absolute address in the repository `repository` names, at the ref given (the release
// tag): files as GitHub pages, images as their raw bytes. Anchors (#…) and absolute addresses stay as they are.
//   node scripts/readme-links.mjs [ref]     rewrites README.md in place (ref: $GITHUB_REF_NAME, else "main")
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `https://github.com/<owner>/<repo>` of package.json's repository URL; a placeholder is refused. */
export function githubRepository(url) {
	const match = /github\.com[/:]([^/]+)\/([^/]+?)(?:\.git)?$/.exec(String(url ?? ''));
	if (!match || /REPLACE/i.test(match[1]))
		throw new Error(`package.json repository is not a GitHub repository yet: ${String(url)}`);
	return { owner: match[1], repo: match[2] };
}

/** The README with every repository-relative link and image made absolute. */
export function absoluteLinks(readme, repositoryUrl, ref) {
	const { owner, repo } = githubRepository(repositoryUrl);
	const page = (path) => `https://github.com/${owner}/${repo}/blob/${ref}/${path}`;
	const raw = (path) => `https://raw.githubusercontent.com/${owner}/${repo}/${ref}/${path}`;
	return readme.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, bang, text, target) => {
		if (/^([a-z]+:|#)/i.test(target)) return whole;
		const path = target.replace(/^\.\//, '');
		return `${bang}[${text}](${bang ? raw(path) : page(path)})`;
	});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const root = join(dirname(fileURLToPath(import.meta.url)), '..');
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const ref = process.argv[2] ?? process.env.GITHUB_REF_NAME ?? 'main';
	const file = join(root, 'README.md');
	writeFileSync(file, absoluteLinks(readFileSync(file, 'utf8'), pkg.repository?.url, ref));
	console.log(`README.md: links made absolute in ${pkg.repository.url} at ${ref}`);
}
