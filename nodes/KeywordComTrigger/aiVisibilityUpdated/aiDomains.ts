/**
 * The AI-visibility domains of the account (#23) as the trigger knows them. Pure. The document does not show the
 * domain record: the list is `data` (or the body itself when it is a list); a domain's id and name are read as the
 * action node reads them (shared/recordKinds/undocumented.ts), its name falling back to the id.
 */
import type { IDataObject } from 'n8n-workflow';

import { readerOf } from '../../shared/records';
import { aiDomainId, aiDomainName } from '../../shared/recordKinds/undocumented';
import type { AiScope } from '../polling/scope';
import type { AiDomainRef } from './dayItem';

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** The domains of a #23 answer, in its order; undefined when the answer holds no list at all. */
export function aiDomainsOf(body: unknown): AiDomainRef[] | undefined {
	const list = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
	if (!Array.isArray(list)) return undefined;
	const domains: AiDomainRef[] = [];
	const seen = new Set<string>();
	for (const record of list) {
		if (!isObject(record)) continue;
		const read = readerOf(record);
		const id = aiDomainId(read);
		if (id === undefined || seen.has(id)) continue;
		seen.add(id);
		domains.push({ id, name: aiDomainName(read) ?? id });
	}
	return domains;
}

/** The domains of the list that are in scope. */
export function inScope(domains: AiDomainRef[], scope: AiScope): AiDomainRef[] {
	return scope.domainId === undefined
		? domains
		: domains.filter((domain) => domain.id === scope.domainId);
}
