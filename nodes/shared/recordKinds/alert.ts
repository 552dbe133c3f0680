import { rankDifference } from '../ranks';
import { isoTime } from '../time';
import { key, partsOf, type RecordCatalogue } from './catalogue';

/** An alert (§2.6). `created_at` is its creation time (Unix seconds), else its ISO `time`: one instant, one field. */
export const alertCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		keyword: key('kw'),
		keyword_id: key('keyword_id'),
		project: (read) => partsOf(read('category')).project,
		group: (read) => partsOf(read('category')).group,
		url: key('url'),
		region: key('region'),
		language: key('language'),
		search_volume: key('ms'),
		previous_rank: key('prevrank'),
		rank: key('result'),
		change: (read) => rankDifference(read('prevrank'), read('result')),
		created_at: (read) => isoTime(read('created_at') ?? read('time')),
		read: key('read'),
	},
	simplified: [
		'id',
		'keyword',
		'project',
		'group',
		'region',
		'url',
		'previous_rank',
		'rank',
		'change',
		'created_at',
	],
};
