import type { PollProblem } from './pollContract';

/** A problem a poll got past, for n8n's log (every poll while it lasts). */
export function describeProblem(problem: PollProblem): string {
	const status = problem.status ? ` (HTTP ${problem.status})` : '';
	if (problem.text) return `Keyword.com Trigger: ${problem.text}${status}`;
	if (problem.gone)
		return `Keyword.com Trigger: "${problem.container}" is no longer in groups/active and its keyword list is gone${status}; it is no longer read`;
	if (problem.container !== undefined) {
		const polls = (problem.polls ?? 1) > 1 ? `, ${problem.polls} polls in a row` : '';
		return `Keyword.com Trigger: the keyword list of "${problem.container}" could not be read${status}${polls}: ${problem.message}. Every other project and group is read as usual; this one is tried again at every poll, from where it stood.`;
	}
	return `Keyword.com Trigger: a request failed${status} after part of the list was read; what was read is emitted and the next poll goes on from there (${problem.message})`;
}
