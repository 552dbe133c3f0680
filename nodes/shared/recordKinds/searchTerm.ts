import type { IDataObject } from 'n8n-workflow';

import { isoTime } from '../time';
import { orNull, type RecordCatalogue, type SimplifyField } from './catalogue';

const SEARCH_TERM_KEYS = [
	'id',
	'term',
	'status',
	'interval',
	'region',
	'aiSearchEngines',
	'websearch',
	'executionsAmount',
	'searchTermTopicRef',
	'tags',
	'createdAt',
	'lastExecutionTime',
	'nextScheduledExecutionTime',
];

const topic: SimplifyField = [
	'topic',
	(read) => (read('searchTermTopicRef') as IDataObject | undefined)?.name ?? null,
];

/** An AI search term. */
export const searchTermCatalogue: RecordCatalogue = {
	selectable: SEARCH_TERM_KEYS,
	// The same keys, the topic record given by its name.
	simplifyV1: SEARCH_TERM_KEYS.map((key) => (key === 'searchTermTopicRef' ? topic : key)),
	simplified: (read) => ({
		id: orNull(read('id')),
		term: orNull(read('term')),
		topic: orNull((read('searchTermTopicRef') as IDataObject | null | undefined)?.name),
		status: orNull(read('status')),
		interval: orNull(read('interval')),
		region: orNull(read('region')),
		engines: orNull(read('aiSearchEngines')),
		tags: orNull(read('tags')),
		last_run: isoTime(read('lastExecutionTime')),
		next_run: isoTime(read('nextScheduledExecutionTime')),
	}),
};
