// ESLint with type information for the code around the package: tests, dev tools (fake API, fake model, demo),
// benchmarks and the end-to-end driver. The package itself is linted by `n8n-node lint` (its own config, strict).
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['packages/**', 'build/**', 'build-*/**', 'node_modules/**', '**/*.mjs', '**/*.js'] },
	...tseslint.configs.recommended,
	{
		files: ['test/**/*.ts', 'dev/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
		languageOptions: {
			parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			// The typed rules that catch real mistakes in async test and tool code.
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
		},
	},
	{
		// Tests and benchmarks read untyped JSON answers (the fake API, n8n's REST) and assert on them.
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
