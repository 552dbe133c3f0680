import type { IDataObject } from 'n8n-workflow';

import { currentRank } from '../ranks';
import { tagNames } from '../records';
import { isoTime } from '../time';
import { orNull, partsOf, type RecordCatalogue } from './catalogue';

/** The keyword, where it is tracked and its rank: where Selected Fields and Simplify (version 1) both start. */
const KEYWORD_AND_RANK = [
	'id',
	'project_id',
	'category',
	'kw',
	'url',
	'region',
	'language',
	'type',
	'status',
	'grank',
	'grank_int',
	'best',
	'start',
	'gpage',
	'rankingurl',
];

export const keywordCatalogue: RecordCatalogue = {
	selectable: [
		...KEYWORD_AND_RANK,
		'ms',
		'cpc',
		'competition',
		'clicks',
		'impressions',
		'ctr',
		'near',
		'gmb',
		'isfav',
		'notes',
		'tags',
		'tag',
		'features',
		'trends',
		'grankhistory',
		'search_intents',
		'updated_at',
		'crawled_at',
	],
	simplifyV1: [
		...KEYWORD_AND_RANK,
		'trends',
		'ms',
		'cpc',
		'competition',
		'near',
		'gmb',
		'isfav',
		'notes',
		['tags', (read) => tagNames(read('tags'))],
		'crawled_at',
		'updated_at',
	],
	simplified: (read) => ({
		id: orNull(read('id')),
		keyword: orNull(read('kw')),
		...partsOf(read('category')),
		region: orNull(read('region')),
		rank: currentRank({ grank: read('grank'), grank_int: read('grank_int') } as IDataObject),
		best_rank: orNull(read('best')),
		ranking_url: orNull(read('rankingurl')),
		search_volume: orNull(read('ms')),
		crawled_at: isoTime(read('crawled_at')),
	}),
};
