import type { IDataObject } from 'n8n-workflow';

/**
 * The records the API sends. It wraps most as `{type, id, attributes}`; their flat form is `id` plus the attributes.
 * The fields the node offers of each kind of record are in recordKinds/; output.ts shapes them.
 */

export function flattenRecord(record: unknown): IDataObject {
	if (!record || typeof record !== 'object' || Array.isArray(record))
		return { value: record as never };
	const { id, type, attributes } = record as IDataObject;
	if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
		return {
			id,
			...(attributes as IDataObject),
			...(type !== undefined ? { record_type: type } : {}),
		};
	}
	return { ...(record as IDataObject) };
}

/** The names of a record's tags (tag records or plain names); undefined when it has no tag list. */
export function tagNames(tags: unknown): string[] | undefined {
	if (!Array.isArray(tags)) return undefined;
	return tags.map((tag) =>
		tag && typeof tag === 'object' ? String((tag as IDataObject).name) : String(tag),
	);
}

/** Reads a key as `flattenRecord` would hold it. None of the keys read is an Object.prototype name. */
export function readerOf(record: IDataObject): (key: string) => unknown {
	const { attributes } = record;
	if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes))
		return (key) => record[key];
	const attrs = attributes as IDataObject;
	return (key) => (attrs[key] !== undefined ? attrs[key] : key === 'id' ? record.id : undefined);
}
