// ESLint with type information for the code around the package: tests, dev tools (fake API, fake model, simulation,
// demo), benchmarks and the end-to-end driver, all in `.cts` files (CommonJS TypeScript). `npm run lint:tools` runs
// it; `npm run lint` is n8n's own lint of the package (the root eslint.config.mjs, unchanged as strict mode wants it),
// which looks at `.ts` files only, so neither lint sees the other's files.
import tseslint from 'typescript-eslint';

/** The typed rules that catch real mistakes in async test and tool code. */
const rules = {
	'@typescript-eslint/no-floating-promises': [
		'error',
		// node:test runs a describe/it/test whether or not its promise is awaited.
		{
			allowForKnownSafeCalls: [
				{
					from: 'package',
					package: 'node:test',
					name: ['describe', 'it', 'test', 'suite', 'before', 'after'],
				},
				// `describe` is `suite` of a namespace in @types/node, which the package form does not reach.
				{
					from: 'file',
					path: 'node_modules/@types/node/test.d.ts',
					name: ['suite', 'describe'],
				},
			],
		},
	],
	'@typescript-eslint/await-thenable': 'error',
	'@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
	'@typescript-eslint/no-unnecessary-type-assertion': 'error',
	'@typescript-eslint/no-unused-vars': [
		'error',
		{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
	],
};

export default tseslint.config(
	{ ignores: ['**/*.mjs', '**/*.js', '**/*.cjs', 'build*/**', 'dist/**', 'node_modules/**'] },
	{
		files: ['**/*.cts'],
		extends: [...tseslint.configs.recommended],
		languageOptions: {
			parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
		},
		rules,
	},
	// Tests and benchmarks read untyped JSON answers (the fake API, n8n's REST) and assert on them.
	{
		files: ['test/**/*.cts', 'bench/**/*.cts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
