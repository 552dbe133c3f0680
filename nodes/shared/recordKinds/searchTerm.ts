import { isoKey, key, nestedKey, type RecordCatalogue } from './catalogue';

/** An AI search term (§2.10). */
export const searchTermCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		term: key('term'),
		topic: nestedKey('searchTermTopicRef', 'name'),
		topic_id: nestedKey('searchTermTopicRef', 'id'),
		status: key('status'),
		interval: key('interval'),
		region: key('region'),
		engines: key('aiSearchEngines'),
		web_search: key('websearch'),
		executions: key('executionsAmount'),
		tags: key('tags'),
		created_at: isoKey('createdAt'),
		last_run: isoKey('lastExecutionTime'),
		next_run: isoKey('nextScheduledExecutionTime'),
	},
	simplified: [
		'id',
		'term',
		'topic',
		'status',
		'interval',
		'region',
		'engines',
		'tags',
		'last_run',
		'next_run',
	],
};
