/**
 * The trigger's settings a simulation runs with, drawn per seed: which projects (the scope), which filters (alone and
 * combined), which Output (Simplified, Raw or Selected Fields), and how
 * they become the node's parameters. The checker judges each event with the same settings (checker.cts), from the
 * world's truth.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	RANK_FILTERS,
	type RankFilterKey,
} from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import { Prng } from '../fake-api/prng.cjs';
import type { Plan } from './plan.cjs';
import { TAG_NAMES } from './plan.cjs';

export type TriggerEvent = 'newAlert' | 'keywordUpdated';

/** The trigger's scope, as its Project / Group / Include Groups fields say it. */
export interface ScopeSetting {
	project?: string;
	group?: string;
	includeGroups?: boolean;
}

/** The Filters, as the node's collection holds them. */
export interface FilterSetting {
	movedBy?: number;
	direction?: 'either' | 'up' | 'down';
	/** 3, 10, 20, or 0 for Top N. */
	crossedTop?: number;
	topN?: number;
	crossing?: 'either' | 'entered' | 'left';
	rankingUrlChanged?: boolean;
	tags?: string[];
}

export interface OutputSetting {
	output: 'simplified' | 'raw' | 'selected';
	fields?: string[];
}

/** What the trigger is set to, besides the scope. Absent: Output Raw, no filter. */
export interface TriggerOptions {
	output?: OutputSetting;
	filters?: FilterSetting;
	/** Keyword Updated: Only Rank Changes. */
	onlyRankChanges?: boolean;
}

/** The trigger's scope for a seed (its own generator, so a plan's events do not change it). */
export function drawScope(seed: string, plan: Plan): ScopeSetting {
	const rng = new Prng(`trigger-settings:${seed}`);
	const projects = plan.initial.filter((c) => !c.key.includes('/'));
	const roll = rng.next();
	if (roll < 0.45 || projects.length === 0) return {};
	const project = rng.pick(projects);
	const groups = plan.initial.filter((c) => c.key.startsWith(`${project.key}/`));
	if (roll < 0.65) return { project: project.name, includeGroups: true };
	if (roll < 0.8 || groups.length === 0) return { project: project.name, includeGroups: false };
	return { project: project.name, group: rng.pick(groups).name };
}

/** Fields Selected Fields picks besides the ones the checker needs (which are always picked). */
const EXTRA_FIELDS: Record<TriggerEvent, string[]> = {
	keywordUpdated: ['keyword', 'project', 'group', 'change', 'ranking_url', 'tags', 'device'],
	newAlert: ['keyword', 'project', 'group', 'keyword_id', 'url', 'read'],
};
/** What the checker reads of an item: the event's id, its time and its ranks. */
export const NEEDED_FIELDS: Record<TriggerEvent, string[]> = {
	keywordUpdated: ['id', 'crawled_at', 'rank'],
	newAlert: ['id', 'created_at', 'previous_rank', 'rank'],
};

/** The filters and the output for a seed and event (a generator of their own: the scope and the plan stay as drawn). */
export function drawOptions(seed: string, event: TriggerEvent): TriggerOptions {
	const rng = new Prng(`trigger-options:${seed}:${event}`);
	const options: TriggerOptions = {};
	const outputRoll = rng.next();
	if (outputRoll < 0.35) options.output = { output: 'simplified' };
	else if (outputRoll < 0.55) {
		const extra = EXTRA_FIELDS[event].filter(() => rng.chance(0.4));
		options.output = {
			output: 'selected',
			fields: [...NEEDED_FIELDS[event], ...extra],
		};
	} else options.output = { output: 'raw' };
	if (event === 'keywordUpdated' && rng.chance(0.2)) options.onlyRankChanges = true;
	// About half the seeds set one filter or more.
	if (rng.chance(0.5)) return options;
	const filters: FilterSetting = {};
	while (Object.keys(filters).length === 0)
		for (const filter of RANK_FILTERS)
			if (filter.events.includes(event)) Object.assign(filters, DRAW_FILTER[filter.key](rng));
	options.filters = filters;
	return options;
}

/**
 * How each filter of the trigger's registry (nodes/KeywordComTrigger/filters/) is drawn: its fields as the node's
 * collection holds them, or nothing. A filter added there fails to compile here until it is drawn (and in checker.cts
 * until it is judged).
 */
const DRAW_FILTER: { readonly [Key in RankFilterKey]-?: (rng: Prng) => FilterSetting } = {
	movedBy: (rng) =>
		rng.chance(0.35)
			? { movedBy: rng.int(1, 8), direction: rng.pick(['either', 'up', 'down'] as const) }
			: {},
	crossedTop: (rng) => {
		if (!rng.chance(0.35)) return {};
		const crossedTop = rng.pick([3, 10, 20, 0]);
		const topN = crossedTop === 0 ? { topN: rng.int(1, 50) } : {};
		return { crossedTop, ...topN, crossing: rng.pick(['either', 'entered', 'left'] as const) };
	},
	rankingUrlChanged: (rng) => (rng.chance(0.3) ? { rankingUrlChanged: true } : {}),
	tags: (rng) => {
		if (!rng.chance(0.3)) return {};
		const tags = TAG_NAMES.filter(() => rng.chance(0.5)).slice(0, 2);
		return tags.length > 0 ? { tags } : {};
	},
};

/** The trigger node's parameters for an event, a scope and the options. */
export function triggerParameters(
	event: TriggerEvent,
	scope: ScopeSetting,
	options: TriggerOptions = {},
): INodeParameters {
	const output = options.output ?? { output: 'raw' };
	const parameters: INodeParameters = { event, output: output.output };
	if (output.output === 'selected') parameters.fields = output.fields ?? [];
	if (scope.project) parameters.project = { __rl: true, mode: 'name', value: scope.project };
	if (scope.group) parameters.group = { __rl: true, mode: 'name', value: scope.group };
	if (scope.project && !scope.group && scope.includeGroups === false)
		parameters.options = { includeGroups: false };
	if (event === 'keywordUpdated' && options.onlyRankChanges) parameters.onlyRankChanges = true;
	const filters = options.filters;
	if (filters && Object.keys(filters).length > 0)
		parameters.filters = { ...filters } as INodeParameters;
	return parameters;
}

/** A short description of the options, for reports. */
export function describeOptions(options: TriggerOptions): string {
	const output = options.output ?? { output: 'raw' };
	const parts = [`Output ${output.output}${output.fields ? ` (${output.fields.join(', ')})` : ''}`];
	if (options.onlyRankChanges) parts.push('Only Rank Changes');
	if (options.filters && Object.keys(options.filters).length > 0)
		parts.push(`filters ${JSON.stringify(options.filters)}`);
	return parts.join(', ');
}
