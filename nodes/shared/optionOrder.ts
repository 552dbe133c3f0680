/**
 * A dropdown's options in alphabetical order of their names, compared as n8n's `options-sorted-alphabetically` lint
 * rule compares them (case- and accent-insensitive): n8n's UI guidelines sort list options alphabetically. Only an
 * option's value is saved in a workflow, so the order on screen is free to change.
 */
export function alphabetical<Option extends { name: string }>(options: Option[]): Option[] {
	return [...options].sort((a, b) =>
		a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
	);
}
