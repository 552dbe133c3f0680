/**
 * The layering rules of .dependency-cruiser.cjs (`npm run lint:deps`) fail a change that breaks them: each rule is
 * tried on a small tree of its own, written to a temporary folder with the repository's folder names, holding one
 * import that breaks it — and the same tree without that import passes. The repository itself is checked by
 * `npm test`'s layering step.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

import { repoRoot } from '../../e2e/lib/paths.cjs';

const CONFIG = path.join(repoRoot(), '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(
	repoRoot(),
	'node_modules',
	'dependency-cruiser',
	'bin',
	'dependency-cruiser.mjs',
);

/** Files present in every tree: one per layer, each importing only what sits below it. */
const BASE: Record<string, string> = {
	'tsconfig.test.json':
		'{ "compilerOptions": { "module": "commonjs", "moduleResolution": "node" } }',
	'nodes/shared/names.ts': 'export const NAME = 1;\n',
	'nodes/KeywordCom/KeywordCom.node.ts':
		"import { NAME } from '../shared/names';\nexport const A = NAME;\n",
	'nodes/KeywordComTrigger/filters/movedBy.ts':
		"import { NAME } from '../../shared/names';\nexport const MOVED = NAME;\n",
	'nodes/KeywordComTrigger/polling/clock.ts':
		"import { MOVED } from '../filters/movedBy';\nexport const SETTLE = MOVED;\n",
	'nodes/KeywordComTrigger/newAlert/poll.ts':
		"import { SETTLE } from '../polling/clock';\nexport const ALERTS = SETTLE;\n",
	'nodes/KeywordComTrigger/keywordUpdated/plan.ts': 'export const MARK = 1;\n',
	'nodes/KeywordComTrigger/keywordUpdated/poll.ts':
		"import { MARK } from './plan';\nexport const KEYWORDS = MARK;\n",
	'nodes/KeywordComTrigger/state/storedState.ts':
		"import { ALERTS } from '../newAlert/poll';\nimport { KEYWORDS } from '../keywordUpdated/poll';\nexport const STATE = ALERTS + KEYWORDS;\n",
	'nodes/KeywordComTrigger/KeywordComTrigger.node.ts':
		"import { STATE } from './state/storedState';\nexport const T = STATE;\n",
	'dev/fake/server.ts': 'export const FAKE = 1;\n',
	'e2e/lib/host.ts': "import { FAKE } from '../../dev/fake/server';\nexport const HOST = FAKE;\n",
	'test/harness/engine.ts': 'export const ENGINE = 1;\n',
	'test/unit/a.test.ts': "import { ENGINE } from '../harness/engine';\nexport const U = ENGINE;\n",
	'bench/run.ts': "import { ENGINE } from '../test/harness/engine';\nexport const B = ENGINE;\n",
};

/** Each rule, and a file that breaks it and no other rule (added to BASE, or replacing one of its files). */
const BREAKS: Array<{ rule: string; file: string; text: string }> = [
	{
		rule: 'no-circular',
		file: 'nodes/KeywordComTrigger/keywordUpdated/plan.ts',
		text: "import type { KEYWORDS } from './poll';\nexport const MARK = 1;\nexport type K = typeof KEYWORDS;\n",
	},
	{
		rule: 'nodes-not-tooling',
		file: 'nodes/shared/names.ts',
		text: "import { FAKE } from '../../dev/fake/server';\nexport const NAME = FAKE;\n",
	},
	{
		rule: 'trigger-not-action',
		file: 'nodes/KeywordComTrigger/newAlert/poll.ts',
		text: "import { A } from '../../KeywordCom/KeywordCom.node';\nexport const ALERTS = A;\n",
	},
	{
		rule: 'action-not-trigger',
		file: 'nodes/KeywordCom/KeywordCom.node.ts',
		text: "import { SETTLE } from '../KeywordComTrigger/polling/clock';\nexport const A = SETTLE;\n",
	},
	{
		rule: 'events-apart',
		file: 'nodes/KeywordComTrigger/newAlert/poll.ts',
		text: "import { MARK } from '../keywordUpdated/plan';\nexport const ALERTS = MARK;\n",
	},
	{
		rule: 'trigger-polling-below',
		file: 'nodes/KeywordComTrigger/polling/clock.ts',
		text: "import { MARK } from '../keywordUpdated/plan';\nexport const SETTLE = MARK;\n",
	},
	{
		rule: 'trigger-filters-below',
		file: 'nodes/KeywordComTrigger/filters/crossedTop.ts',
		text: "import { SETTLE } from '../polling/clock';\nexport const CROSSED = SETTLE;\n",
	},
	{
		rule: 'events-below-state',
		file: 'nodes/KeywordComTrigger/aiVisibilityUpdated/poll.ts',
		text: "import { STATE } from '../state/storedState';\nexport const DAYS = STATE;\n",
	},
	{
		rule: 'nodes-shared-below',
		file: 'nodes/shared/fields.ts',
		text: "import { A } from '../KeywordCom/KeywordCom.node';\nexport const FIELDS = A;\n",
	},
	{
		rule: 'dev-not-e2e',
		file: 'dev/fake/control.ts',
		text: "import { HOST } from '../../e2e/lib/host';\nexport const CONTROL = HOST;\n",
	},
	{
		rule: 'tooling-not-tests',
		file: 'bench/run.ts',
		text: "import { U } from '../test/unit/a.test';\nexport const B = U;\n",
	},
];

const folders: string[] = [];
after(() => {
	for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** Writes a tree and runs the layering check on it: its exit status and what it printed. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kwc-layering-'));
	folders.push(folder);
	for (const [file, text] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
		fs.writeFileSync(path.join(folder, file), text);
	}
	const run = spawnSync(
		process.execPath,
		[DEPCRUISE, '--config', CONFIG, 'nodes', 'dev', 'e2e', 'test', 'bench'],
		{ cwd: folder, encoding: 'utf8' },
	);
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the layering rules (.dependency-cruiser.cjs)', () => {
	it('pass a tree whose imports all point down', () => {
		const { status, output } = cruise(BASE);
		assert.equal(status, 0, output);
		assert.match(output, /no dependency violations found/);
	});

	it('name every rule of the configuration, each tried below', async () => {
		const config = (await import(CONFIG)) as { default: { forbidden: Array<{ name: string }> } };
		assert.deepEqual(
			config.default.forbidden.map((rule) => rule.name).sort(),
			BREAKS.map((b) => b.rule).sort(),
		);
	});

	for (const { rule, file, text } of BREAKS) {
		it(`fail an import that breaks ${rule}`, () => {
			const { status, output } = cruise({ ...BASE, [file]: text });
			assert.notEqual(status, 0, output);
			assert.match(output, new RegExp(`error ${rule}:`));
			const others = [...output.matchAll(/error ([a-z0-9-]+):/g)].map((m) => m[1]);
			assert.deepEqual([...new Set(others)], [rule], `only ${rule} is broken: ${output}`);
		});
	}
});
