/**
 * Brand Presence Changed: days on which the brand was named in no AI answer after a day it was (lost), or named again
 * after a day it was not (found), against the day before.
 */
import { oneOf, type TriggerFilter } from './filterEntry';
import type { DayComparison } from './subjects';

export type Presence = 'either' | 'lost' | 'found';

export const brandPresence: TriggerFilter<'brandPresence', Presence, DayComparison> = {
	key: 'brandPresence',
	events: ['aiVisibilityUpdated'],
	fields: [
		{
			displayName: 'Brand Presence Changed',
			name: 'brandPresence',
			type: 'options',
			default: 'lost',
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
	],
	reasons: ['brand_lost', 'brand_found'],
	read: (raw) =>
		raw.brandPresence === undefined
			? undefined
			: oneOf<Presence>('Brand Presence Changed', raw.brandPresence, ['either', 'lost', 'found']),
	match({ brandLost: lost }, presence) {
		if (lost === true && presence !== 'found') return 'brand_lost';
		if (lost === false && presence !== 'lost') return 'brand_found';
		return undefined;
	},
};
