import type { IDataObject } from 'n8n-workflow';

import { isGroupName } from '../groupName';
import { tagNames } from '../records';
import { isoTime } from '../time';
import { orNull, type RecordCatalogue } from './catalogue';

/** A project's keyword count: a number, or counts per type to add up. */
function keywordCount(counts: unknown): number | null {
	if (typeof counts === 'number') return counts;
	if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
		return Object.values(counts as IDataObject).reduce<number>(
			(sum, value) => sum + (Number(value) || 0),
			0,
		);
	}
	return Array.isArray(counts) ? 0 : null;
}

/** A project or group. */
export const groupCatalogue: RecordCatalogue = {
	selectable: [
		'id',
		'project_id',
		'name',
		'url',
		'keywords_count',
		'tags_count',
		'tags',
		'keywords_last_updated_at',
		'crawled_at',
		'updated_at',
		'currency_code',
		'shortkey',
		'notes_count',
		'company_name',
		'project_overview_settings',
	],
	simplifyV1: [
		'id',
		'project_id',
		'name',
		'keywords_count',
		'tags_count',
		['tags', (read) => tagNames(read('tags'))],
		'keywords_last_updated_at',
		'crawled_at',
		'url',
		'currency_code',
		'shortkey',
		'updated_at',
		['is_group', (read) => isGroupName(read('id'))],
	],
	simplified: (read) => ({
		id: orNull(read('id')),
		name: orNull(read('name')),
		is_group: isGroupName(read('id')),
		url: orNull(read('url')),
		keywords: keywordCount(read('keywords_count')),
		tags: tagNames(read('tags')) ?? [],
		currency_code: orNull(read('currency_code')),
		keywords_last_updated_at: isoTime(read('keywords_last_updated_at')),
		crawled_at: isoTime(read('crawled_at')),
		project_id: orNull(read('project_id')),
	}),
};
