/**
 * The small records of the rank tracker, each with every field under the name the user sees: a tag (§2.3), a tracked
 * region (§2.5), a top page (§2.7), a share of voice entry (§2.8) and a day of a keyword's competitors (#15).
 */
import type { IDataObject } from 'n8n-workflow';

import { isoKey, key, nestedKey, type RecordCatalogue } from './catalogue';

/** Competitors' results kept by Simplified: the top 10 of the 100 the API sends. */
const TOP_RESULTS = 10;

export const tagCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		name: key('name'),
		project_id: key('project_id'),
		keywords: key('keywords_count'),
		created_at: isoKey('created_at'),
		updated_at: isoKey('updated_at'),
	},
	simplified: ['id', 'name', 'project_id', 'keywords', 'created_at', 'updated_at'],
};

export const regionCatalogue: RecordCatalogue = {
	fields: {
		region: key('region'),
		language: key('lang'),
		device: (read) => {
			const type = read('type');
			return type === 'se' ? 'desktop' : type === 'sem' ? 'mobile' : (type ?? null);
		},
		keywords: key('total'),
	},
	simplified: ['region', 'language', 'device', 'keywords'],
};

export const topPageCatalogue: RecordCatalogue = {
	fields: {
		ranking_url: key('current_ranking_url'),
		keywords: key('total_keyword_count'),
		average_rank: key('average_current_rank'),
		average_previous_rank: key('average_previous_rank'),
		search_volume: key('total_search_volume'),
		average_cpc: key('average_cost_per_click'),
	},
	simplified: [
		'ranking_url',
		'keywords',
		'average_rank',
		'average_previous_rank',
		'search_volume',
		'average_cpc',
	],
};

export const shareOfVoiceCatalogue: RecordCatalogue = {
	fields: {
		domain: key('url'),
		title: key('title'),
		clicks: key('clicks'),
		share: key('percentage'),
		change_month: nestedKey('changes', 'month'),
	},
	simplified: ['domain', 'title', 'clicks', 'share', 'change_month'],
};

export const competitorDayCatalogue: RecordCatalogue = {
	fields: {
		date: key('date'),
		rank: key('rank'),
		results: key('results'),
		top_results: (read) => {
			const results = read('results');
			return Array.isArray(results) ? (results.slice(0, TOP_RESULTS) as IDataObject[]) : [];
		},
	},
	simplified: ['date', 'rank', 'top_results'],
};
