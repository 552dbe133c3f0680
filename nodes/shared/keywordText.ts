import type { IDataObject } from 'n8n-workflow';

import { readerOf } from './records';

/**
 * Keywords as people name them: by their text. Used by the keyword picker's list (listSearch.ts) and by the AI tool's
 * lookup of a keyword given by its text (KeywordCom/operation/keywordLookup.ts).
 */

/** A keyword text as compared: case, outer and repeated spaces and the Unicode form do not tell two texts apart. */
export function normalizeKeywordText(text: string): string {
	return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

const DEVICES: Record<string, string> = { se: 'desktop', sem: 'mobile', maps: 'maps' };

export interface KeywordSummary {
	id: string;
	text: string;
	/** The text and what tells it from another keyword of the same text: region, device, tracked URL. */
	label: string;
}

/** A keyword record (`{type, id, attributes}`) as a list entry; undefined when it has no id or no text. */
export function summarizeKeyword(record: unknown): KeywordSummary | undefined {
	if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const read = readerOf(record as IDataObject);
	const id = read('id');
	const text = read('kw');
	if ((typeof id !== 'string' && typeof id !== 'number') || typeof text !== 'string')
		return undefined;
	const type = read('type');
	const details = [read('region'), DEVICES[String(type)] ?? type, read('url')].filter(
		(detail): detail is string => typeof detail === 'string' && detail !== '',
	);
	return {
		id: String(id),
		text,
		label: details.length > 0 ? `${text} (${details.join(', ')})` : text,
	};
}
