/**
 * Keyword Updated: the item emitted for one updated keyword. Pure; the token never appears.
 *
 * Its fields are the keyword's (shared/recordKinds/keyword.ts) and the update's: the previous rank, the change and
 * whether the rank changed. Simplified is the action node's keyword with the previous rank and the change in place
 * of the best rank and the search volume; Raw is the record with the update's ranks added at the top.
 */
import type { IDataObject } from 'n8n-workflow';

import { shapeForOutput, type OutputChoice } from '../../shared/output';
import type { ListOrder } from '../../shared/paging';
import { redactDeep } from '../../shared/redact';
import { flattenRecord } from '../../shared/records';
import { keywordFields } from '../../shared/recordKinds/keyword';
import { key, type RecordCatalogue } from '../../shared/recordKinds/catalogue';
import { unixSeconds } from '../polling/containers';
import { rankChange } from '../polling/rankHistory';

/** Unix seconds of a keyword's crawled_at, or undefined (never crawled). */
export function crawledAt(record: IDataObject): number | undefined {
	return unixSeconds(((record.attributes ?? {}) as IDataObject).crawled_at);
}

/** A keyword update: the keyword's fields, and the update's (read from the flat record they are added to). */
export const keywordUpdateCatalogue: RecordCatalogue = {
	fields: {
		...keywordFields,
		previous_rank: key('previous_rank'),
		change: key('change'),
		rank_changed: key('rank_changed'),
	},
	simplified: [
		'id',
		'keyword',
		'project',
		'group',
		'region',
		'rank',
		'previous_rank',
		'change',
		'ranking_url',
		'crawled_at',
	],
};

/** The item emitted for one updated keyword. The token never appears. */
export function keywordItem(
	record: IDataObject,
	output: OutputChoice,
	token: string | undefined,
	order: ListOrder | undefined,
): IDataObject {
	const attributes = (record.attributes ?? {}) as IDataObject;
	const movement = rankChange(attributes, order);
	if (output.mode === 'raw') return redactDeep({ ...record, ...movement }, token);
	const flat = {
		...flattenRecord(record),
		previous_rank: movement.previous_rank,
		change: movement.change,
		rank_changed: movement.rank_changed,
	};
	return redactDeep(shapeForOutput(flat, keywordUpdateCatalogue, output), token);
}
