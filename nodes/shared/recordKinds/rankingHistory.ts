import { sameNames, type RecordCatalogue } from './catalogue';

/**
 * The records Ranking History builds itself: a row of Get Many (one keyword on one day, from the keyword list and
 * the keyword's chart) and a chart entry of Get Chart with its positional parts named.
 */
export const rankingRowCatalogue: RecordCatalogue = {
	fields: sameNames([
		'date',
		'keyword_id',
		'keyword',
		'project',
		'group',
		'region',
		'language',
		'url',
		'tags',
		'rank',
		'previous_rank',
		'change',
		'ranking_url',
	]),
	simplified: [
		'date',
		'keyword_id',
		'keyword',
		'project',
		'group',
		'region',
		'rank',
		'previous_rank',
		'change',
		'ranking_url',
	],
};

export const chartCatalogue: RecordCatalogue = {
	fields: sameNames([
		'keyword_id',
		'keyword',
		'domain',
		'project',
		'region',
		'language',
		'days',
		'history',
		'series',
	]),
	simplified: [
		'keyword_id',
		'keyword',
		'domain',
		'project',
		'region',
		'language',
		'days',
		'history',
		'series',
	],
};
