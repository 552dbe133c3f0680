/** Competitor Overtook Brand: days on which a competitor's visibility score went above the brand's (`overtaken_by`). */
import type { TriggerFilter } from './filterEntry';
import type { DayComparison } from './subjects';

export const competitorOvertook: TriggerFilter<'competitorOvertook', boolean, DayComparison> = {
	key: 'competitorOvertook',
	events: ['aiVisibilityUpdated'],
	fields: [
		{
			displayName: 'Competitor Overtook Brand',
			name: 'competitorOvertook',
			type: 'boolean',
			default: true,
			description:
				"Whether to only emit days on which a competitor's visibility score went above the brand's (named in overtaken_by)",
		},
	],
	reasons: ['overtaken'],
	read: (raw) => (raw.competitorOvertook === true ? true : undefined),
	match: ({ overtakenBy }) => (overtakenBy.length > 0 ? 'overtaken' : undefined),
};
