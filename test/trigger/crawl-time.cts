/** A Keyword Updated item's crawl time, whatever the Output: Unix seconds. */
import type { IDataObject } from 'n8n-workflow';

/** Simplified and Selected Fields give `crawled_at` as ISO 8601; Raw keeps the record's Unix seconds. */
export function crawlSeconds(item: IDataObject): number {
	const attributes = item.attributes as IDataObject | undefined;
	const value = attributes?.crawled_at ?? item.crawled_at;
	return typeof value === 'string' ? Date.parse(value) / 1000 : Number(value);
}
