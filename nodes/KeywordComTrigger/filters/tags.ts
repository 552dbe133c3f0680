/**
 * Tag Names or IDs: keywords carrying any of the chosen tags (names compared without case, or ids). The tag filter
 * does not look at ranks. New Alert reads the tags from its keywords' lists (newAlert/alertTags.ts); one whose tags
 * cannot be told passes as `tags_unknown` rather than being dropped.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerFilter } from './filterEntry';
import type { RankMove } from './subjects';

export function normaliseTag(name: string): string {
	return name.trim().toLowerCase();
}

/**
 * The tags of a keyword record, by name and by id (`attributes.tags`: tag records, or names; else `attributes.tag`),
 * undefined when it lists none.
 */
export function tagsOf(attributes: IDataObject): string[] | undefined {
	const tags = attributes.tags;
	if (!Array.isArray(tags))
		return typeof attributes.tag === 'string' ? [attributes.tag] : undefined;
	return tags
		.flatMap((tag): unknown[] =>
			tag !== null && typeof tag === 'object'
				? [(tag as IDataObject).name, (tag as IDataObject).id]
				: [tag],
		)
		.filter((value) => typeof value === 'string' || typeof value === 'number')
		.map(String)
		.filter((name) => name.trim() !== '');
}

export const tags: TriggerFilter<'tags', string[], RankMove> = {
	key: 'tags',
	events: ['newAlert', 'keywordUpdated'],
	fields: [
		{
			displayName: 'Tag Names or IDs',
			name: 'tags',
			type: 'multiOptions',
			default: [],
			typeOptions: { loadOptionsMethod: 'getTags', loadOptionsDependsOn: ['project.value'] },
			description:
				'Only keywords carrying any of these tags (by name, case ignored, or by ID; New Alert reads the tags from the keyword list of the projects with new alerts). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	],
	reasons: ['tagged', 'tags_unknown'],
	// An alert does not carry its keyword's tags: they are read from the keyword lists.
	costsRequestsIn: ['newAlert'],
	read(raw) {
		if (raw.tags === undefined) return undefined;
		const list = (Array.isArray(raw.tags) ? raw.tags : String(raw.tags).split(','))
			.map((tag) => String(tag).trim())
			.filter((tag) => tag !== '');
		return list.length > 0 ? list : undefined;
	},
	match(move, wanted) {
		if (move.tagsUnknown) return 'tags_unknown';
		const names = new Set(wanted.map(normaliseTag));
		return (move.tags ?? []).some((tag) => names.has(normaliseTag(tag))) ? 'tagged' : undefined;
	},
};
