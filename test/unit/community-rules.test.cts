/**
 * n8n's community-node lint rules that the published @n8n/eslint-plugin-community-nodes (0.32.0, run by
 * `n8n-node lint`) lacks, or cannot see here: the node's parameters are built by defineOperation(), so a rule reading
 * the object literal in `*.node.ts` sees only the Resource list. Each test is named after the rule it stands for and
 * checks the built descriptions, the codex files, package.json or the source. Which rule is checked where:
 * CONTRIBUTING.md, "n8n's lint rules".
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { buildPath, packageDir, repoRoot } from '../../e2e/lib/paths.cjs';
import { nodeResources } from '../operations/index.cjs';
import { inAnAllowedOrder } from './option-order.cjs';

const nodesDir = path.join(packageDir(), 'nodes');
const credentialsDir = path.join(packageDir(), 'credentials');

function filesEndingWith(dir: string, suffix: string): string[] {
	return fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(suffix))
		.map((file) => path.join(dir, file));
}

/** The compiled module of a package source file (the test compile mirrors the repository under build/). */
function load(sourceFile: string): Record<string, unknown> {
	const compiled = buildPath(path.relative(repoRoot(), sourceFile).replace(/\.ts$/, '.js'));
	// A require by path: every node and credential file found is checked, a new one without being listed here.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(compiled) as Record<string, unknown>;
}

/** Every class a source file exports, with an instance of it. */
function exportedClasses<T>(sourceFile: string): Array<{ className: string; instance: T }> {
	return Object.entries(load(sourceFile))
		.filter(([, value]) => typeof value === 'function')
		.map(([className, value]) => ({
			className,
			instance: new (value as new () => T)(),
		}));
}

const nodeFiles = filesEndingWith(nodesDir, '.node.ts');
const nodes = nodeFiles.flatMap((file) =>
	exportedClasses<INodeType>(file)
		.filter(({ instance }) => instance.description !== undefined)
		.map(({ className, instance }) => ({
			file,
			className,
			instance,
			description: instance.description,
		})),
);
const credentialFiles = filesEndingWith(credentialsDir, '.credentials.ts');
const credentials = credentialFiles.flatMap((file) =>
	exportedClasses<ICredentialType>(file).map((found) => ({ file, ...found })),
);

interface Visited {
	property: INodeProperties;
	where: string;
	topLevel: boolean;
}

/** Every parameter of a description, nested ones too (collection options, fixedCollection values). */
function allParameters(description: INodeTypeDescription): Visited[] {
	const visited: Visited[] = [];
	const visit = (properties: INodeProperties[], where: string, topLevel: boolean) => {
		for (const property of properties) {
			const here = `${where}${property.name}`;
			visited.push({ property, where: here, topLevel });
			if (property.type === 'collection')
				visit((property.options ?? []) as INodeProperties[], `${here}.`, false);
			if (property.type === 'fixedCollection')
				for (const group of (property.options ?? []) as INodePropertyCollection[])
					visit(group.values, `${here}.${group.name}.`, false);
		}
	};
	visit(description.properties, `${description.name}: `, true);
	return visited;
}

const parameters = nodes.flatMap(({ description }) => allParameters(description));
const dropdowns = parameters.filter(
	({ property }) => property.type === 'options' || property.type === 'multiOptions',
);
const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

const codexFiles = filesEndingWith(nodesDir, '.node.json').map((file) => ({
	file: path.basename(file),
	codex: JSON.parse(fs.readFileSync(file, 'utf8')),
}));

/**
 * The codex categories n8n's own nodes use (n8n-nodes-base 2.41.1, where 54 nodes are "Marketing" and none is
 * "Marketing & Content"), without AI (no-ai-codex-category) and n8n's internal ones (Core Nodes, HITL).
 */
const N8N_CATEGORIES = new Set([
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
]);

const pkg = JSON.parse(fs.readFileSync(path.join(packageDir(), 'package.json'), 'utf8'));

/**
 * The argument text of every call `<callee>(…)` in `source` (parentheses balanced, strings skipped well enough for
 * this code base), for checks on what a call is given.
 */
function callsOf(source: string, callee: RegExp): string[] {
	const calls: string[] = [];
	for (const match of source.matchAll(new RegExp(`${callee.source}\\(`, 'g'))) {
		let depth = 0;
		let quote: string | undefined;
		const start = match.index + match[0].length - 1;
		for (let i = start; i < source.length; i++) {
			const char = source[i];
			if (quote) {
				if (char === '\\') i++;
				else if (char === quote) quote = undefined;
			} else if (char === "'" || char === '"' || char === '`') quote = char;
			else if (char === '(') depth++;
			else if (char === ')' && --depth === 0) {
				calls.push(source.slice(start + 1, i));
				break;
			}
		}
	}
	return calls;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const actionNodeSources = filesEndingWith(path.join(nodesDir, 'KeywordCom'), '.ts');

describe("n8n's community-node rules the published lint plugin cannot check here", () => {
	it('finds what it checks: both nodes, the credential, both codex files, every operation', () => {
		assert.deepEqual(nodes.map((node) => node.description.name).sort(), [
			'keywordCom',
			'keywordComTrigger',
		]);
		assert.equal(credentials.length, 1);
		assert.equal(codexFiles.length, 2);
		assert.ok(
			dropdowns.filter(({ property }) => property.name === 'operation').length >=
				nodeResources().length,
			'one Operation dropdown per resource',
		);
	});

	it('options-sorted-alphabetically: every dropdown lists its options by name, or a scale smallest first', () => {
		for (const { property, where } of dropdowns.filter(
			({ property }) => property.type === 'options',
		)) {
			const options = optionsOf(property);
			assert.ok(inAnAllowedOrder(options), `${where}: ${options.map((o) => o.name).join(', ')}`);
		}
	});

	it('no-duplicate-param-options: no two options of a dropdown share a name or a value', () => {
		for (const { property, where } of dropdowns) {
			const options = optionsOf(property);
			assert.equal(new Set(options.map((o) => o.name)).size, options.length, `${where}: names`);
			assert.equal(
				new Set(options.map((o) => JSON.stringify(o.value))).size,
				options.length,
				`${where}: values`,
			);
		}
	});

	it('no-asterisk-in-option-names, no-emoji-in-options: option names are plain words', () => {
		for (const { property, where } of dropdowns)
			for (const { name } of optionsOf(property)) {
				assert.doesNotMatch(name, /\*/, `${where}: ${name}`);
				assert.doesNotMatch(name, /\p{Extended_Pictographic}|\p{Regional_Indicator}/u, where);
			}
	});

	it('hint-max-length: no hint longer than 120 characters', () => {
		for (const { property, where } of parameters)
			if (property.hint !== undefined)
				assert.ok(property.hint.length <= 120, `${where}: hint of ${property.hint.length}`);
	});

	it('require-param-default: every parameter, nested ones too, declares a default', () => {
		for (const { property, where } of parameters)
			assert.ok(Object.hasOwn(property, 'default'), `${where} has no default`);
	});

	it('open-ended-node-fields: no optional JSON parameter at the top level', () => {
		for (const { property, where, topLevel } of parameters)
			if (topLevel && property.type === 'json') assert.equal(property.required, true, where);
	});

	it('node-class-description-name-camelcase, -non-core-color, node-class-description-naming', () => {
		for (const { description } of nodes) {
			assert.match(description.name, /^[a-z][a-zA-Z0-9]*$/);
			assert.notEqual(description.description, '');
			const colors = [description.defaults.color, (description as { color?: string }).color];
			for (const color of colors) assert.notEqual(color?.toLowerCase(), '#ff6d5a');
			for (const credential of description.credentials ?? [])
				assert.match(credential.name, /Api$/, `${description.name}: ${credential.name}`);
		}
	});

	it('node-filename-against-convention: each node file is named after description.name (and its class)', () => {
		for (const { file, className, description } of nodes) {
			const expected = description.name[0].toUpperCase() + description.name.slice(1);
			assert.match(path.basename(file), new RegExp(`^${expected}(V\\d+)?\\.node\\.ts$`));
			assert.equal(path.basename(file), `${className}.node.ts`, 'node-file-conventions');
			if (description.group.includes('trigger') || description.polling || description.webhooks) {
				assert.match(description.name, /Trigger$/, 'a trigger is named …Trigger');
				assert.match(description.displayName, /Trigger/);
			}
		}
	});

	it('single-credential-per-node: each node uses one credential', () => {
		for (const { description } of nodes)
			assert.ok((description.credentials ?? []).length <= 1, description.name);
	});

	it('cred-class-name-suffix, cred-class-name-field-conventions, cred-filename-against-convention, cred-class-field-naming', () => {
		for (const { file, className, instance: credential } of credentials) {
			assert.match(className, /Api$/);
			assert.match(credential.name, /^[a-z][a-zA-Z0-9]*Api$/);
			assert.equal(path.basename(file), `${className}.credentials.ts`);
			// cred-class-field-naming (in n8n's source, no docs): "API", not "Api", in a capitalised display name.
			assert.match(credential.displayName, /^[A-Z]/);
			assert.doesNotMatch(credential.displayName, /\bApi\b/);
		}
	});

	it('valid-node-categories, valid-codex-categories, no-ai-codex-category, no-logic-or-flow-nodes, no-codex-subcategories', () => {
		for (const { file, codex } of codexFiles) {
			assert.ok(Array.isArray(codex.categories) && codex.categories.length > 0, file);
			for (const category of codex.categories)
				assert.ok(N8N_CATEGORIES.has(category), `${file}: "${category}" is not on n8n's list`);
			assert.equal(codex.subcategories, undefined, `${file}: subcategories`);
		}
		// A codex inline in the description would make n8n ignore the .node.json file.
		for (const { description } of nodes) assert.equal(description.codex, undefined);
	});

	it('require-community-node-keyword, require-mit-license, no-monorepo: package.json', () => {
		assert.ok(pkg.keywords.includes('n8n-community-node-package'));
		assert.equal(pkg.license, 'MIT');
		assert.equal(pkg.repository?.directory, undefined, 'repository.directory marks a monorepo');
	});

	it('no-hardcoded-ids: no partner, account or client id written into the source', () => {
		const fixedId =
			/\b(partner|affiliate|reseller|account|tenant|customer|client)[_-]?id['"]?\s*[:=]\s*['"`]/i;
		assert.match("qs: { partner_id: 'fixed' }", fixedId, 'the pattern catches one');
		for (const file of [...filesEndingWith(nodesDir, '.ts'), ...credentialFiles])
			assert.doesNotMatch(read(file), fixedId, path.relative(packageDir(), file));
	});

	it('node-operation-error-itemindex: every error the action node builds names its item', () => {
		const builders = /(?:new NodeOperationError|new NodeApiError|keywordComError|withDescription)/;
		assert.deepEqual(
			callsOf("throw new NodeOperationError(node, f(x), { description: ')' });", builders),
			["node, f(x), { description: ')' }"],
			'the scanner reads a whole call',
		);
		let calls = 0;
		for (const file of actionNodeSources)
			for (const call of callsOf(read(file), builders)) {
				calls++;
				assert.match(call, /\bitemIndex\b/, `${path.relative(packageDir(), file)}: (${call})`);
			}
		assert.ok(calls >= 3, 'the runner builds its errors here');
	});

	it('require-continue-on-fail, prefer-declarative-style: the per-item runner honours Continue On Fail', () => {
		for (const { file } of nodes) {
			// n8n's rule looks for this.continueOnFail() in execute(); these nodes have none (declarative, polling).
			if (/^\s*(async\s+)?execute\s*\(/m.test(read(file)))
				assert.match(read(file), /this\.continueOnFail\(\)/, path.basename(file));
		}
		const actionNode = nodes.find(({ description }) => description.name === 'keywordCom');
		assert.equal(typeof actionNode?.instance.execute, 'undefined', 'declarative: no execute()');
		for (const { property } of dropdowns.filter(({ property }) => property.name === 'operation'))
			for (const option of optionsOf(property))
				assert.ok(option.routing?.operations?.pagination, `${option.name}: routed to the runner`);
		// The runner each item goes through catches its error and, with Continue On Fail, returns it as an item
		// (behaviour: test/engine/errors.test.cts and bad-input.test.cts, "continueOnFail").
		const runner = read(path.join(nodesDir, 'KeywordCom', 'operation', 'execute.ts'));
		assert.match(runner, /if \(!this\.continueOnFail\(\)\) throw/);
	});

	it('icon-contrast: each icon stands out from its theme background (1.5:1 at least)', () => {
		const luminance = (hex: string) => {
			const full = hex.length === 4 ? hex.replace(/\w/g, (c) => c + c) : hex;
			const [r, g, b] = [1, 3, 5].map((i) => {
				const c = parseInt(full.slice(i, i + 2), 16) / 255;
				return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
			});
			return 0.2126 * r + 0.7152 * g + 0.0722 * b;
		};
		const contrast = (a: string, b: string) => {
			const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
			return (hi + 0.05) / (lo + 0.05);
		};
		const bestContrast = (svg: string, background: string) =>
			Math.max(
				...[
					...svg.matchAll(/(?:fill|stroke|stop-color)\s*[=:]\s*"?(#[0-9a-f]{6}|#[0-9a-f]{3})\b/gi),
				].map((match) => contrast(match[1], background)),
			);
		assert.ok(bestContrast('<path fill="#2c2c2c"/>', '#2b2b2b') < 1.5, 'a dark icon on dark fails');
		const icons = [
			...nodes.map(({ description }) => description.icon),
			...credentials.map((c) => c.instance.icon),
		];
		for (const icon of icons) {
			const { light, dark } = icon as { light: string; dark: string };
			for (const [file, background] of [
				[light, '#ffffff'],
				[dark, '#2b2b2b'],
			]) {
				const svg = read(path.join(packageDir(), 'icons', path.basename(file)));
				assert.ok(bestContrast(svg, background) >= 1.5, `${path.basename(file)} on ${background}`);
			}
		}
	});
});
