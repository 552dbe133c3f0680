// Formatting of the package and of the whole repository (the root's .prettierrc.mjs re-exports this), as n8n's node
// starter sets it: tabs, single quotes, trailing commas, 100 columns.
export default {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
