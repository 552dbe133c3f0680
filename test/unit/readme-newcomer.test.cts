/**
 * The README as a newcomer reads it: a quick start right after the introduction, recipes that link every example
 * workflow (and only files that exist), troubleshooting for the statuses the node's errors name, and the words those
 * errors use explained where the user sets the credential; short, and free of figures that go stale. The deep design
 * documents it links exist.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { describeFailure } from '../../nodes/shared/errors';

const ROOT = join(__dirname, '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of the `## title` section, up to the next `## ` heading. */
function section(title: string): string {
	const parts = README.split(`\n## ${title}\n`);
	assert.equal(parts.length, 2, `the README has one "## ${title}" section`);
	return parts[1].split('\n## ')[0];
}

const headings = [...README.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

describe('README for a newcomer', () => {
	it('starts with a quick start, then installation and credentials', () => {
		assert.deepEqual(headings.slice(0, 3), ['Quick start', 'Installation', 'Credentials']);
		const quickStart = section('Quick start');
		assert.match(
			quickStart,
			/npm run demo/,
			'the quick start names the demo for those without an account',
		);
		assert.match(quickStart, /Community Nodes/);
	});

	it('puts Recipes, Troubleshooting and FAQ before the design and development material', () => {
		for (const title of ['Recipes', 'Troubleshooting', 'FAQ'])
			assert.ok(
				headings.indexOf(title) >= 0 && headings.indexOf(title) < headings.indexOf('Development'),
				`${title} comes before Development`,
			);
	});

	it('every example workflow is a recipe, and every recipe links a file that exists', () => {
		const recipes = section('Recipes');
		const linked = [...recipes.matchAll(/\]\((examples\/[^)]+\.json)\)/g)].map((match) => match[1]);
		for (const file of linked) assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
		const examples = readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.json'));
		for (const example of examples)
			assert.ok(linked.includes(`examples/${example}`), `examples/${example} has a recipe`);
	});

	it('troubleshooting covers each status the errors give advice for that users meet', () => {
		const troubleshooting = section('Troubleshooting');
		for (const status of [401, 403, 404, 422, 429]) {
			assert.ok(describeFailure({ status }).description.length > 0);
			assert.match(troubleshooting, new RegExp(`\\*\\*${status}\\*\\*`), `HTTP ${status}`);
		}
		assert.match(troubleshooting, /Retry On Fail/);
		assert.match(troubleshooting, /first runs/);
	});

	it("the words the 403 error uses (the account's master token) are explained in Credentials", () => {
		const advice = describeFailure({ status: 403 }).description;
		assert.match(advice, /master token/);
		assert.match(section('Credentials'), /master API\s+token/);
	});

	it('speaks to users: at most 300 lines, no dated figures (timings live in BENCHMARKS.md and docs/)', () => {
		assert.ok(README.split('\n').length <= 300, `${README.split('\n').length} lines`);
		const prose = README.replace(/```[\s\S]*?```/g, '');
		assert.deepEqual(
			prose.match(/\b20\d\d-\d\d-\d\d\b/g) ?? [],
			[],
			'no date outside the code blocks',
		);
	});

	it('the documents it links for the design exist', () => {
		for (const match of README.matchAll(/\]\(((?:docs|dev|examples)\/[^)#]+)(?:#[^)]*)?\)/g))
			assert.ok(existsSync(join(ROOT, match[1])), `${match[1]} exists`);
		assert.match(README, /\]\(docs\/exactly-once\.md\)/);
		assert.match(README, /\]\(docs\/running-at-scale\.md\)/);
	});
});
