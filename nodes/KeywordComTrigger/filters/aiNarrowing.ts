/**
 * Topics and Engines (AI Visibility Updated): not filters of days but what the API measures, sent as `topics[]` and
 * `engine[]`; in the Filters collection beside the filters, read into the event's scope (polling/scope.ts).
 */
import { stringListField } from '../../shared/fields';
import { checkTextList } from '../../shared/validation';
import type { FilterField } from './filterEntry';

export const topics: FilterField<'topics', string[]> = {
	key: 'topics',
	events: ['aiVisibilityUpdated'],
	fields: [stringListField('topics', 'Topics', 'Only measure these topics, by name')],
	read: (raw) => (raw.topics === undefined ? undefined : checkTextList('Topics', raw.topics)),
};

export const engines: FilterField<'engines', string[]> = {
	key: 'engines',
	events: ['aiVisibilityUpdated'],
	fields: [
		stringListField(
			'engines',
			'Engines',
			'Only measure these AI engines, by ID (e.g. chatgpt_gui)',
		),
	],
	read: (raw) => (raw.engines === undefined ? undefined : checkTextList('Engines', raw.engines)),
};
