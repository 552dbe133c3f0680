import type { IDataObject } from 'n8n-workflow';

import { isGroupName } from '../groupName';
import { tagNames } from '../records';
import { isoKey, key, partsOf, type RecordCatalogue } from './catalogue';

/** A project's keyword count: a number, or counts per status to add up (an empty list for a new project). */
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

/** A project or group (§2.2). */
export const groupCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		name: key('name'),
		is_group: (read) => isGroupName(read('id')),
		project: (read) => partsOf(read('id')).project,
		group: (read) => partsOf(read('id')).group,
		project_id: key('project_id'),
		url: key('url'),
		auth_key: key('auth'),
		short_key: key('shortkey'),
		keywords: (read) => keywordCount(read('keywords_count')),
		keywords_by_status: (read) => {
			const counts = read('keywords_count');
			return counts && typeof counts === 'object' && !Array.isArray(counts)
				? (counts as IDataObject)
				: {};
		},
		tags: (read) => tagNames(read('tags')) ?? [],
		tags_count: key('tags_count'),
		notes_count: key('notes_count'),
		currency_code: key('currency_code'),
		keywords_last_updated_at: isoKey('keywords_last_updated_at'),
		crawled_at: isoKey('crawled_at'),
		updated_at: isoKey('updated_at'),
		share_password: key('password'),
		share_of_voice_shared: key('sov_view_key'),
		company_name: key('company_name'),
		company_description: key('company_desc'),
		company_link: key('company_link'),
		company_logo: key('company_logo'),
		overview_settings: key('project_overview_settings'),
	},
	simplified: [
		'id',
		'name',
		'is_group',
		'url',
		'keywords',
		'tags',
		'currency_code',
		'keywords_last_updated_at',
		'crawled_at',
		'project_id',
	],
};
