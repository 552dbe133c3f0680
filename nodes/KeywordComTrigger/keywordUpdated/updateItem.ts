/**
 * Keyword Updated: the item emitted for one updated keyword, in each node version's shape. Pure; the token never
 * appears.
 */
import type { IDataObject } from 'n8n-workflow';

import { splitName } from '../../shared/groupName';
import { shapeForOutput, shapeRecord, type OutputChoice } from '../../shared/output';
import type { ListOrder } from '../../shared/paging';
import { redactDeep } from '../../shared/redact';
import { flattenRecord } from '../../shared/records';
import { isoTime } from '../../shared/time';
import { unixSeconds } from './containers';
import { rankChange } from '../shared/rankHistory';

/** Unix seconds of a keyword's crawled_at, or undefined (never crawled). */
export function crawledAt(record: IDataObject): number | undefined {
	return unixSeconds(((record.attributes ?? {}) as IDataObject).crawled_at);
}

/** The item emitted for one updated keyword. The token never appears. */
export function keywordItem(
	record: IDataObject,
	output: OutputChoice,
	token: string | undefined,
	order: ListOrder | undefined,
): IDataObject {
	const attributes = (record.attributes ?? {}) as IDataObject;
	const movement = rankChange(attributes, order);
	const crawled = crawledAt(record) ?? null;
	const category = typeof attributes.category === 'string' ? attributes.category : '';
	const { project, group } = splitName(category);
	const summary = {
		...movement,
		crawled_at: crawled,
		crawled_at_iso: crawled === null ? null : new Date(crawled * 1000).toISOString(),
	};
	if (output.version >= 2) return redactDeep(keywordItemV2(record, output, summary), token);
	if (!output.simplify) return redactDeep({ ...record, ...summary }, token);
	const shaped = shapeRecord(record, 'keyword', true);
	const flat = flattenRecord(record);
	return redactDeep(
		{
			id: shaped.id,
			kw: shaped.kw,
			project,
			group,
			category,
			project_id: shaped.project_id,
			url: shaped.url,
			region: shaped.region,
			language: shaped.language,
			type: shaped.type,
			...movement,
			best: flat.best ?? null,
			rankingurl: flat.rankingurl ?? null,
			ms: flat.ms ?? null,
			tags: shaped.tags ?? [],
			crawled_at: summary.crawled_at,
			crawled_at_iso: summary.crawled_at_iso,
		},
		token,
	);
}

/**
 * Version 2 (the Output choice): Simplified is the action node's keyword (shared/output.ts) with the update's
 * previous rank and change in place of the best rank and search volume; Raw is the record plus the update's ranks;
 * Selected Fields picks from both.
 */
function keywordItemV2(
	record: IDataObject,
	output: OutputChoice,
	summary: IDataObject,
): IDataObject {
	if (output.mode === 'raw') return { ...record, ...summary };
	// Selected Fields picks from the record's fields and the update's ranks alike.
	if (output.mode === 'selected') {
		return shapeForOutput({ ...flattenRecord(record), ...summary }, 'keyword', output);
	}
	const shaped = shapeForOutput(record, 'keyword', output);
	return {
		id: shaped.id,
		keyword: shaped.keyword,
		project: shaped.project,
		group: shaped.group,
		region: shaped.region,
		rank: summary.rank,
		previous_rank: summary.previous_rank,
		change: summary.change,
		ranking_url: shaped.ranking_url,
		crawled_at: isoTime(summary.crawled_at),
	};
}
