import { rankDifference } from '../ranks';
import { isoTime } from '../time';
import { orNull, partsOf, type RecordCatalogue } from './catalogue';

/** The alert's keyword and its move: where Selected Fields and Simplify (version 1) both start. */
const ALERT_AND_MOVE = [
	'id',
	'category',
	'keyword_id',
	'kw',
	'url',
	'region',
	'language',
	'prevrank',
	'result',
];

export const alertCatalogue: RecordCatalogue = {
	selectable: [...ALERT_AND_MOVE, 'ms', 'time', 'created_at', 'read'],
	simplifyV1: [
		...ALERT_AND_MOVE,
		[
			'change',
			(read) => {
				const before = read('prevrank');
				const after = read('result');
				return typeof before === 'number' && typeof after === 'number' ? before - after : null;
			},
		],
		'ms',
		'time',
		'created_at',
		'read',
	],
	simplified: (read) => ({
		id: orNull(read('id')),
		keyword: orNull(read('kw')),
		...partsOf(read('category')),
		region: orNull(read('region')),
		url: orNull(read('url')),
		previous_rank: orNull(read('prevrank')),
		rank: orNull(read('result')),
		change: rankDifference(read('prevrank'), read('result')),
		created_at: isoTime(read('created_at') ?? read('time')),
	}),
};
