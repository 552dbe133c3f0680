/**
 * The trigger's Filters: the fields, and the filters they set (polling/filters.ts), checked before any
 * request.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { stringListField } from '../shared/fields';
import { onItsScale } from '../shared/optionOrder';
import { checkTextList, InputError } from '../shared/validation';
import type {
	AiFilters,
	Crossing,
	Direction,
	MovementFilters,
	Presence,
	ScoreDirection,
} from './polling/filters';
import type { AiScope } from './polling/scope';

const KEYWORD_UPDATED_ONLY = { show: { '/event': ['keywordUpdated'] } };
const RANK_EVENTS_ONLY = { show: { '/event': ['newAlert', 'keywordUpdated'] } };
const AI_ONLY = { show: { '/event': ['aiVisibilityUpdated'] } };

/** AI Visibility Updated's filters, in the Filters collection beside the rank events' ones. */
const AI_FILTER_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Brand Presence Changed',
		name: 'brandPresence',
		type: 'options',
		default: 'lost',
		displayOptions: AI_ONLY,
		options: [
			{
				name: 'Found Again',
				value: 'found',
				description: 'Named in AI answers after a day without',
			},
			{ name: 'Lost or Found Again', value: 'either' },
			{
				name: 'Not Found (Lost From AI Answers)',
				value: 'lost',
				description: 'Named in no AI answer after a day it was',
			},
		],
		description:
			'Only days on which the brand was lost from AI answers, or found again, against the day before',
	},
	{
		displayName: 'Competitor Overtook Brand',
		name: 'competitorOvertook',
		type: 'boolean',
		default: true,
		displayOptions: AI_ONLY,
		description:
			"Whether to only emit days on which a competitor's visibility score went above the brand's (named in overtaken_by)",
	},
	{
		...stringListField(
			'engines',
			'Engines',
			'Only measure these AI engines, by ID (e.g. chatgpt_gui)',
		),
		displayOptions: AI_ONLY,
	},
	{
		...stringListField('topics', 'Topics', 'Only measure these topics, by name'),
		displayOptions: AI_ONLY,
	},
	{
		displayName: 'Visibility Change Direction',
		name: 'visibilityDirection',
		type: 'options',
		default: 'dropped',
		displayOptions: AI_ONLY,
		options: [
			{ name: 'Dropped', value: 'dropped' },
			{ name: 'Dropped or Rose', value: 'either' },
			{ name: 'Rose', value: 'rose' },
		],
		description: 'Which way Visibility Score Changed By At Least counts',
	},
	{
		displayName: 'Visibility Score Changed By At Least',
		name: 'visibilityChangedBy',
		type: 'number',
		default: 5,
		displayOptions: AI_ONLY,
		typeOptions: { minValue: 0.01, maxValue: 100, numberPrecision: 2 },
		description:
			'Only days whose visibility score moved by at least this many points from the day before (see Visibility Change Direction)',
	},
];

export function filterFields(): INodeProperties[] {
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add filter',
			default: {},
			description:
				'Only emit the events that pass every filter set; each item lists the filters it passed in "matched". Filtered-out events are not emitted later either.',
			options: [
				...AI_FILTER_OPTIONS.slice(0, 2),
				{
					displayName: 'Crossed Top',
					name: 'crossedTop',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'options',
					default: 10,
					// A scale: by size, the top of any size (Top N) last.
					options: onItsScale([
						{ name: 'Top 3', value: 3 },
						{ name: 'Top 10', value: 10 },
						{ name: 'Top 20', value: 20 },
						{ name: 'Top N (Set in Top N)', value: 0 },
					]),
					description:
						'Only keywords that entered or left the top results of this size (see Crossing). Outside the top 100 counts as 101.',
				},
				{
					displayName: 'Crossing',
					name: 'crossing',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'options',
					default: 'either',
					options: [
						{ name: 'Entered', value: 'entered', description: 'Moved into the top' },
						{ name: 'Entered or Left', value: 'either' },
						{ name: 'Left', value: 'left', description: 'Dropped out of the top' },
					],
					description: 'Which way Crossed Top counts',
				},
				AI_FILTER_OPTIONS[2],
				{
					displayName: 'Move Direction',
					name: 'direction',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'options',
					default: 'either',
					options: [
						{ name: 'Down', value: 'down', description: 'Lost positions' },
						{ name: 'Either', value: 'either' },
						{ name: 'Up', value: 'up', description: 'Gained positions (towards rank 1)' },
					],
					description:
						'Which way Moved By At Least counts (alone: a move of at least 1 position that way)',
				},
				{
					displayName: 'Moved By At Least',
					name: 'movedBy',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'number',
					default: 5,
					typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
					description:
						'Only events whose rank moved by at least this many positions (see Move Direction). Outside the top 100 counts as 101; an unknown previous rank never passes.',
				},
				{
					displayName: 'Ranking URL Changed',
					name: 'rankingUrlChanged',
					type: 'boolean',
					default: true,
					displayOptions: KEYWORD_UPDATED_ONLY,
					description:
						"Whether to only emit keywords whose ranking URL differs from the one of their crawl before, as the keyword's ranking history shows it (one more request per 100 keywords that pass the other filters). A keyword's first update does not pass; one whose crawl before the history does not show comes with 'ranking_url_unknown' in 'matched'.",
				},
				{
					displayName: 'Tag Names or IDs',
					name: 'tags',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'multiOptions',
					default: [],

					typeOptions: { loadOptionsMethod: 'getTags', loadOptionsDependsOn: ['project.value'] },
					description:
						'Only keywords carrying any of these tags (by name, case ignored, or by ID; New Alert reads the tags from the keyword list of the projects with new alerts). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Top N',
					name: 'topN',
					displayOptions: RANK_EVENTS_ONLY,
					type: 'number',
					default: 5,
					typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
					description: 'The size of the top when Crossed Top is "Top N"',
				},
				...AI_FILTER_OPTIONS.slice(3),
			],
		},
	];
}

function positions(field: string, value: unknown): number {
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1 || number > 100)
		throw new InputError(field, 'must be a whole number from 1 to 100.');
	return number;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
	if (!allowed.includes(value as T))
		throw new InputError(field, `must be one of ${allowed.join(', ')}.`);
	return value as T;
}

/** The filters the Filters field sets; a value out of bounds, or a setting without what it needs, is an InputError. */
export function readFilters(
	raw: IDataObject,
	event: 'newAlert' | 'keywordUpdated' | 'aiVisibilityUpdated',
): MovementFilters {
	if (event === 'aiVisibilityUpdated') return {};
	const filters: MovementFilters = {};
	if (raw.movedBy !== undefined || raw.direction !== undefined) {
		filters.movedBy = {
			positions: raw.movedBy === undefined ? 1 : positions('Moved By At Least', raw.movedBy),
			direction: oneOf<Direction>('Move Direction', raw.direction ?? 'either', [
				'either',
				'up',
				'down',
			]),
		};
	}
	if (raw.crossedTop !== undefined) {
		const size = Number(raw.crossedTop);
		filters.crossedTop = {
			n:
				size === 0
					? positions('Top N', raw.topN ?? Number.NaN)
					: positions('Crossed Top', raw.crossedTop),
			crossing: oneOf<Crossing>('Crossing', raw.crossing ?? 'either', [
				'either',
				'entered',
				'left',
			]),
		};
	} else if (raw.crossing !== undefined || raw.topN !== undefined) {
		throw new InputError(
			raw.crossing !== undefined ? 'Crossing' : 'Top N',
			'is used with Crossed Top: add the Crossed Top filter too, or remove this one.',
		);
	}
	if (event === 'keywordUpdated' && raw.rankingUrlChanged === true)
		filters.rankingUrlChanged = true;
	if (raw.tags !== undefined) {
		const tags = (Array.isArray(raw.tags) ? raw.tags : String(raw.tags).split(','))
			.map((tag) => String(tag).trim())
			.filter((tag) => tag !== '');
		if (tags.length > 0) filters.tags = tags;
	}
	return filters;
}

/** AI Visibility Updated's filters; a value out of bounds, or a setting without what it needs, is an InputError. */
export function readAiFilters(raw: IDataObject): AiFilters {
	const filters: AiFilters = {};
	if (raw.visibilityChangedBy !== undefined || raw.visibilityDirection !== undefined) {
		const points = raw.visibilityChangedBy === undefined ? 0.01 : Number(raw.visibilityChangedBy);
		if (!Number.isFinite(points) || points <= 0 || points > 100)
			throw new InputError(
				'Visibility Score Changed By At Least',
				'must be a number of points above 0 and at most 100.',
			);
		filters.visibilityChange = {
			points,
			direction: oneOf<ScoreDirection>(
				'Visibility Change Direction',
				raw.visibilityDirection ?? 'either',
				['either', 'rose', 'dropped'],
			),
		};
	}
	if (raw.brandPresence !== undefined)
		filters.brandPresence = oneOf<Presence>('Brand Presence Changed', raw.brandPresence, [
			'either',
			'lost',
			'found',
		]);
	if (raw.competitorOvertook === true) filters.competitorOvertook = true;
	return filters;
}

/** AI Visibility Updated's scope: the Domain field, and the Topics and Engines of the Filters. */
export function readAiScope(domainId: unknown, raw: IDataObject): AiScope {
	const id =
		typeof domainId === 'string' || typeof domainId === 'number' ? String(domainId).trim() : '';
	return {
		domainId: id === '' ? undefined : id,
		topics: raw.topics === undefined ? [] : checkTextList('Topics', raw.topics),
		engines: raw.engines === undefined ? [] : checkTextList('Engines', raw.engines),
	};
}
