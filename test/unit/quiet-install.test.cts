/**
 * A quiet first run: the installers' tools (npm, apt-get, the C compiler while n8n's sqlite3 builds) write to a log
 * file through `run_logged` (scripts/quiet.sh), so the demo and `npm test` print one line per step; on a failure the
 * log's last lines and its path are printed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { repoRoot } from '../../e2e/lib/paths.cjs';

const SCRIPTS = path.join(repoRoot(), 'scripts');

function runLogged(command: string) {
	const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-quiet-'));
	const result = spawnSync(
		'bash',
		['-c', `set -euo pipefail; source scripts/quiet.sh; run_logged step bash -c '${command}'`],
		{ cwd: repoRoot(), encoding: 'utf8', env: { ...process.env, KEYWORD_COM_CACHE: cache } },
	);
	const logs = fs.readdirSync(path.join(cache, 'logs'));
	fs.rmSync(cache, { recursive: true, force: true });
	return { ...result, logs };
}

describe('quiet installs', () => {
	it('a step that succeeds prints nothing: its 150 lines of warnings are in the log', () => {
		const result = runLogged(
			'for i in $(seq 150); do echo "warning: unused variable $i" >&2; done',
		);
		assert.equal(result.status, 0);
		assert.equal(result.stdout + result.stderr, '');
		assert.equal(result.logs.length, 1);
		assert.match(result.logs[0], /^step-\d{8}T\d{6}Z-\d+\.log$/);
	});

	it('a step that fails prints its last lines and the path of its whole log, and fails with its status', () => {
		const result = runLogged(
			'for i in $(seq 100); do echo "line $i"; done; echo "error: no compiler" >&2; exit 7',
		);
		assert.equal(result.status, 7);
		assert.equal(result.stdout, '');
		assert.match(result.stderr, /^\[step\] failed \(exit 7\): bash -c/m);
		assert.match(result.stderr, /^ {2}\| error: no compiler$/m);
		assert.doesNotMatch(result.stderr, /line 80\n/, 'only the last lines');
		assert.match(result.stderr, /^\[step\] its whole output: .*\/logs\/step-.*\.log$/m);
	});

	it('every install command of the scripts goes through run_logged', () => {
		const loud: string[] = [];
		for (const name of fs.readdirSync(SCRIPTS).filter((file) => file.endsWith('.sh'))) {
			fs.readFileSync(path.join(SCRIPTS, name), 'utf8')
				.split('\n')
				.forEach((line, index) => {
					// Comments and the messages that name a step are not commands.
					if (/^\s*(#|echo |log )/.test(line)) return;
					if (
						/\b(npm (install|ci|rebuild)|apt-get (update|install))\b/.test(line) &&
						!/run_logged /.test(line)
					)
						loud.push(`${name}:${index + 1}: ${line.trim()}`);
				});
		}
		assert.deepEqual(loud, []);
	});
});
