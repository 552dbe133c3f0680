/**
 * The CI a contributor sees (.github/workflows/ci.yml), which cannot run here: every workflow passes GitHub's schema
 * (action-validator, from npm), a pull request gets format, lint, build, scanner and the fast tests, and the schedule
 * runs the full suite and a soak whose flags the simulation's CLI accepts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { parse } from 'yaml';

import { repoRoot } from '../../e2e/lib/paths.cjs';

const WORKFLOWS = path.join(repoRoot(), '.github', 'workflows');
const VALIDATOR = path.join(repoRoot(), 'node_modules', '.bin', 'action-validator');
const validate = (file: string) => spawnSync(VALIDATOR, [file], { encoding: 'utf8' });
const ciText = () => fs.readFileSync(path.join(WORKFLOWS, 'ci.yml'), 'utf8');
const runs = (job: any): string[] => (job.steps as any[]).map((step) => String(step.run ?? ''));

describe('CI workflow', () => {
	it('every workflow passes the GitHub Actions schema (action-validator)', () => {
		const files = fs.readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
		assert.deepEqual(files.sort(), ['ci.yml', 'publish.yml']);
		for (const name of files) {
			const result = validate(path.join(WORKFLOWS, name));
			assert.equal(result.status, 0, `${name}: ${result.stdout}${result.stderr}`);
		}
	});

	it('the validator rejects a step that neither runs nor uses anything', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-ci-'));
		try {
			const broken = path.join(dir, 'ci.yml');
			fs.writeFileSync(broken, ciText().replace('- uses: actions/checkout@v4', '- with: {}'));
			const result = validate(broken);
			assert.equal(result.status, 1, result.stdout);
			// It reports on stderr, as JSON naming the offending path.
			assert.match(result.stdout + result.stderr, /"path": "\/jobs\/check\/steps\/0"/);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('pull requests and pushes get format, both lints, build, the scanner and npm test -- --fast', () => {
		const workflow = parse(ciText());
		assert.ok('pull_request' in workflow.on && 'push' in workflow.on);
		const check = workflow.jobs.check;
		assert.match(check.if, /pull_request/);
		assert.match(check.if, /push/);
		// A fresh contributor's machine: Debian with Node 20; the scripts install the rest.
		assert.equal(check.container, 'node:20-bookworm');
		const commands = runs(check).join('\n');
		for (const script of ['format:check', 'build', 'lint:tools', 'scan'])
			assert.match(commands, new RegExp(`npm run ${script}\\b`), script);
		// The package's lint as n8n's reviewers type it.
		assert.match(commands, /npx n8n-node lint'/);
		assert.match(commands, /npm ci\b/);
		assert.ok(runs(check).includes('npm test -- --fast'));
	});

	it('the schedule (and a run by hand) gets the full npm test and a soak the CLI accepts', () => {
		const workflow = parse(ciText());
		assert.ok(workflow.on.schedule?.[0]?.cron, 'a schedule');
		assert.ok('workflow_dispatch' in workflow.on);
		const full = workflow.jobs.full;
		assert.match(full.if, /schedule/);
		assert.match(full.if, /workflow_dispatch/);
		assert.ok(runs(full).includes('npm test'));
		const soak = (full.steps as any[]).find((step) =>
			String(step.run ?? '').includes('npm run soak'),
		);
		assert.ok(soak, 'a soak step');
		const seeds = workflow.on.workflow_dispatch.inputs.soak_seeds.default as string;
		const args = String(soak.run)
			.replace(/^npm run soak -- /, '')
			.replace('"${SOAK_SEEDS}"', seeds)
			.split(/\s+/);
		const cli = spawnSync(
			process.execPath,
			[path.join(repoRoot(), 'build', 'dev', 'simulation', 'cli.cjs'), ...args, '--dry-run'],
			{ encoding: 'utf8' },
		);
		assert.equal(cli.status, 0, cli.stderr);
		assert.match(
			cli.stdout,
			/^180 simulations of 30 days: seeds 1\.\.20, in-memory, durable, durable-cursors; newAlert, keywordUpdated, aiVisibilityUpdated; 2 job\(s\)$/m,
		);
	});
});
