/**
 * The soak's command line (dev/simulation/cli.cts) as a wide soak uses it: `--jobs` children take simulations from one
 * queue (each runs once), and `--journal` lets a soak stopped part-way go on where it stopped, on the same code and
 * settings only, its totals counting the simulations it holds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const CLI = path.join(__dirname, '..', '..', 'dev', 'simulation', 'cli.cjs');
/** A few simulated hours: each simulation takes about a second. */
const SHORT = ['--days', '0.2', '--mode', 'in-memory', '--event', 'newAlert'];

const soak = (...flags: string[]) =>
	spawnSync(process.execPath, [CLI, ...flags], { encoding: 'utf8' });
const keysIn = (journal: string) =>
	fs
		.readFileSync(journal, 'utf8')
		.split('\n')
		.filter(Boolean)
		.slice(1)
		.map((line) => (JSON.parse(line) as { key: string }).key);
const reportsIn = (stdout: string) =>
	stdout.split('\n').filter((line) => /^(PASS|FAIL) seed /.test(line));

describe('soak command line', { timeout: 5 * 60_000 }, () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-cli-'));
	const journal = path.join(dir, 'journal.jsonl');

	it('--jobs: three children run five simulations, each once; the journal holds them all', () => {
		const run = soak(...SHORT, '--seeds', '1..5', '--jobs', '3', '--journal', journal);
		assert.equal(run.status, 0, run.stderr);
		assert.equal(reportsIn(run.stdout).length, 5);
		assert.deepEqual(
			keysIn(journal).sort(),
			['1', '2', '3', '4', '5'].map((s) => `${s} in-memory newAlert`),
		);
		assert.match(run.stdout, /^0 of 5 simulations failed/m);
	});

	it('run again with the journal: only the new seeds run, the totals count all', () => {
		const run = soak(...SHORT, '--seeds', '1..7', '--journal', journal);
		assert.equal(run.status, 0, run.stderr);
		assert.deepEqual(
			reportsIn(run.stdout).map((line) => /^PASS seed (\d+),/.exec(line)?.[1]),
			['6', '7'],
		);
		assert.match(run.stdout, /^5 of 7 simulations from /m);
		assert.match(run.stdout, /^0 of 7 simulations failed/m);
		assert.equal(keysIn(journal).length, 7);
	});

	it('a line cut short by a killed run is run again, on a line of its own', () => {
		const text = fs.readFileSync(journal, 'utf8');
		fs.writeFileSync(journal, text.slice(0, text.trimEnd().lastIndexOf('\n') + 40));
		const dry = soak(...SHORT, '--seeds', '1..7', '--journal', journal, '--dry-run');
		assert.equal(dry.status, 0, dry.stderr);
		assert.match(dry.stdout, /; 6 already in /);
		// The totals so far, from the journal alone.
		assert.match(dry.stdout, /^0 of 6 simulations failed$/m);
		// Each line keeps its simulation's own time; the dry run adds them up.
		assert.match(dry.stdout, /^ {2}simulation time \d+\.\d hours /m);
		assert.equal(reportsIn(dry.stdout).length, 0);
		const run = soak(...SHORT, '--seeds', '1..8', '--journal', journal);
		assert.equal(run.status, 0, run.stderr);
		assert.equal(reportsIn(run.stdout).length, 2);
		assert.deepEqual(
			keysIn(journal).sort(),
			['1', '2', '3', '4', '5', '6', '7', '8'].map((s) => `${s} in-memory newAlert`),
		);
	});

	it('--event and --mode take a list: the wide soak is one command', () => {
		const run = soak(
			'--days',
			'30',
			'--seeds',
			'1..200',
			'--mode',
			'all',
			'--event',
			'keywordUpdated,newAlert',
			'--dry-run',
		);
		assert.equal(run.status, 0, run.stderr);
		assert.match(run.stdout, /^1200 simulations of 30 days: .*; newAlert, keywordUpdated;/);
		const modes = soak('--seed', '1', '--mode', 'durable,in-memory', '--dry-run');
		assert.match(modes.stdout, /^2 simulations .*: seeds 1\.\.1, in-memory, durable;/);
		assert.equal(soak('--mode', 'durable,sometimes', '--dry-run').status, 2);
	});

	it('--trace: the polls asked for, each request with its status and the state left; no token', () => {
		const run = soak(...SHORT, '--seed', '3', '--trace', '1..2');
		assert.equal(run.status, 0, run.stderr);
		const polls = [...run.stderr.matchAll(/^ {2}poll (\d+) at /gm)].map((m) => Number(m[1]));
		assert.deepEqual(polls, [1, 2]);
		assert.match(run.stderr, /^ {4}200 GET \/api\/v2\/alerts\?/m);
		assert.equal(run.stderr.match(/^ {4}state after: \{/gm)?.length, 2);
		assert.doesNotMatch(run.stderr, /sim-3-token|token/i);
	});

	it('other settings: refused, nothing runs', () => {
		const days = soak(...SHORT, '--days', '0.3', '--seeds', '1..8', '--journal', journal);
		assert.equal(days.status, 2);
		assert.match(days.stderr, /was begun with days 0\.2, not 0\.3/);
		assert.equal(reportsIn(days.stdout).length, 0);
	});

	it('other code: refused when the trigger, the fake or the harness changed, not the command line', () => {
		// A copy of the compiled code, changed file by file.
		const copy = path.join(dir, 'copy');
		fs.cpSync(path.join(__dirname, '..', '..'), path.join(copy, 'build'), { recursive: true });
		fs.symlinkSync(
			path.join(__dirname, '..', '..', '..', 'node_modules'),
			path.join(copy, 'node_modules'),
		);
		const cli = path.join(copy, 'build', 'dev', 'simulation', 'cli.cjs');
		const other = path.join(dir, 'other.jsonl');
		const inCopy = (...flags: string[]) =>
			spawnSync(process.execPath, [cli, ...SHORT, '--seed', '1', '--journal', other, ...flags], {
				encoding: 'utf8',
			});
		assert.equal(inCopy().status, 0);
		const change = (file: string) =>
			fs.appendFileSync(path.join(copy, 'build', file), '\n// changed\n');
		change(path.join('dev', 'simulation', 'cli.cjs'));
		assert.match(inCopy('--dry-run').stdout, /; 1 already in /);
		for (const file of [
			path.join('nodes', 'KeywordComTrigger', 'newAlert', 'poll.js'),
			path.join('dev', 'fake-api', 'handlers', 'alerts.cjs'),
			path.join('test', 'harness', 'run-poll.cjs'),
		]) {
			const before = fs.readFileSync(path.join(copy, 'build', file));
			change(file);
			const run = inCopy('--dry-run');
			assert.equal(run.status, 2, file);
			assert.match(
				run.stderr,
				/was begun on other code \(digest [0-9a-f]{16}, this build [0-9a-f]{16}\)/,
			);
			fs.writeFileSync(path.join(copy, 'build', file), before);
		}
		assert.match(inCopy('--dry-run').stdout, /; 1 already in /);
		fs.rmSync(dir, { recursive: true, force: true });
	});
});
