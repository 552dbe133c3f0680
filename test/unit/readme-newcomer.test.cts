/**
 * The README as a no-code builder reads it on npm: install (queue-mode workers too), the credential and what AI
 * Visibility needs, a first workflow, the trigger, recipes linking every example, AI agents, troubleshooting for the
 * statuses the node's errors name, compatibility; at most 200 lines, every detail beyond that one link away in docs/,
 * and the two commands a newcomer to the code needs.
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

describe('README for a no-code builder (the npm page)', () => {
	it('goes from installing to a first workflow, then the trigger, recipes, AI, troubleshooting', () => {
		assert.deepEqual(headings, [
			'Installation',
			'Credentials',
			'Your first workflow',
			'Operations',
			'Keyword.com Trigger',
			'Recipes',
			'AI Agent and MCP',
			'Troubleshooting',
			'Compatibility',
			'Try it without an account',
			'License',
		]);
		assert.match(section('Installation'), /Community Nodes/);
		assert.match(section('Installation'), /Queue mode[\s\S]*each worker/, 'queue-mode workers too');
		assert.match(
			section('Credentials'),
			/AI\s+Visibility\*\*/,
			'which subscription AI Visibility needs',
		);
	});

	it('at most 200 lines, with no endpoint, request count or dated figure: those are one link away in docs/', () => {
		assert.ok(README.split('\n').length <= 200, `${README.split('\n').length} lines`);
		const prose = README.replace(/```[\s\S]*?```/g, '');
		assert.deepEqual(
			prose.match(/\b20\d\d-\d\d-\d\d\b/g) ?? [],
			[],
			'no date outside the code blocks',
		);
		assert.doesNotMatch(prose, /\/api\/v2|#\d+\b|\d+ requests/, 'no endpoints or request counts');
		for (const doc of [
			'operations',
			'trigger',
			'exactly-once',
			'running-at-scale',
			'recipes',
			'demo',
			'compatibility',
		])
			assert.match(README, new RegExp(`\\]\\(docs/${doc}\\.md\\)`), `links docs/${doc}.md`);
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

	it('gives a newcomer to the code the two commands: the demo and every test', () => {
		const commands = section('Try it without an account');
		assert.match(commands, /^npm run demo\b/m);
		assert.match(commands, /^npm test\b/m);
	});
});
