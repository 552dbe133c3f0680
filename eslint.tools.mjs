// ESLint with type information for the code around the package: tests, dev tools (fake API, fake model, simulation,
// demo), benchmarks and the end-to-end driver. Each of test/, dev/, bench/ and e2e/ has an eslint.config.mjs that
// uses this one; `npm run lint` runs `n8n-node lint` with ESLint's config lookup from each file's folder, so n8n's own
// config (the root's eslint.config.mjs, unchanged as strict mode wants it) lints the package and this one the rest.
import tseslint from 'typescript-eslint';

/** `allowAny`: tests and benchmarks read untyped JSON answers (the fake API, n8n's REST) and assert on them. */
export function toolsConfig({ allowAny = false } = {}) {
	return tseslint.config({ ignores: ['**/*.mjs', '**/*.js'] }, ...tseslint.configs.recommended, {
		files: ['**/*.ts'],
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
			...(allowAny ? { '@typescript-eslint/no-explicit-any': 'off' } : {}),
		},
	});
}
