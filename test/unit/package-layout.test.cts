/**
 * The package stays readable in one sitting per file: no source file of the nodes or the credential over 350 lines
 * (a file that grows past it is split by job, as paging/, operation/ and the trigger's event folders are).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { packageDir } from '../../e2e/lib/paths.cjs';

const MAX_LINES = 350;

function sourceFiles(dir: string): string[] {
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) =>
			entry.isDirectory()
				? sourceFiles(path.join(dir, entry.name))
				: entry.name.endsWith('.ts')
					? [path.join(dir, entry.name)]
					: [],
		);
}

test(`no source file of the package is over ${MAX_LINES} lines`, () => {
	const files = ['nodes', 'credentials'].flatMap((dir) =>
		sourceFiles(path.join(packageDir(), dir)),
	);
	assert.ok(files.length > 50, 'the package sources were found');
	const long = files
		.map((file) => ({
			file: path.relative(packageDir(), file),
			lines: fs.readFileSync(file, 'utf8').split('\n').length - 1,
		}))
		.filter(({ lines }) => lines > MAX_LINES);
	assert.deepEqual(long, [], 'split these by job');
});
