/**
 * Records whose fields the document does not show (see docs/assumptions.md): an AI-visibility domain (#23, #24) and a
 * point of a project's share of voice history (#19). Their fields are read from the keys such records usually
 * have; Output Raw gives them as sent, and Simplified does too when none of those keys is there.
 */
import type { IDataObject } from 'n8n-workflow';

import { readerOf } from '../records';
import { type Read, type RecordCatalogue } from './catalogue';
import { shareOfVoiceCatalogue } from './small';

/** A non-empty text (a finite number as text), or undefined. */
function text(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** An AI-visibility domain's id: `id`, else `domain_id` or `uuid`. */
export const aiDomainId = (read: Read): string | undefined =>
	text(read('id')) ?? text(read('domain_id')) ?? text(read('uuid'));

/** An AI-visibility domain's name (the domain, e.g. `acme.com`): `domain`, else `name` or `url`. */
export const aiDomainName = (read: Read): string | undefined =>
	text(read('domain')) ?? text(read('name')) ?? text(read('url'));

export const aiDomainCatalogue: RecordCatalogue = {
	fields: {
		id: (read) => aiDomainId(read) ?? null,
		domain: (read) => aiDomainName(read) ?? null,
		brand: (read) =>
			text(read('brandName')) ?? text(read('brand_name')) ?? text(read('brand')) ?? null,
	},
	simplified: ['id', 'domain', 'brand'],
	undocumented: true,
};

/** The share of voice entries of a history point: `entries`, else `domains` or `data`, each as Get Latest gives one. */
function pointEntries(read: Read): IDataObject[] | null {
	const list = [read('entries'), read('domains'), read('data')].find(Array.isArray) as
		| unknown[]
		| undefined;
	if (!list) return null;
	return list.map((entry) => {
		const readEntry = readerOf((entry ?? {}) as IDataObject);
		return Object.fromEntries(
			shareOfVoiceCatalogue.simplified.map((name) => [
				name,
				shareOfVoiceCatalogue.fields[name](readEntry),
			]),
		) as IDataObject;
	});
}

export const shareOfVoicePointCatalogue: RecordCatalogue = {
	fields: {
		date: (read) => text(read('date')) ?? text(read('day')) ?? null,
		domains: pointEntries,
	},
	simplified: ['date', 'domains'],
	undocumented: true,
};
