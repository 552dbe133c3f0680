import type { RecordKind } from '../records';
import { accountCatalogue } from './account';
import { aiPeriodCatalogue } from './aiPeriod';
import { alertCatalogue } from './alert';
import type { RecordCatalogue } from './catalogue';
import { groupCatalogue } from './group';
import { keywordCatalogue } from './keyword';
import { metricsCatalogue } from './metrics';
import { searchTermCatalogue } from './searchTerm';

/** One catalogue per record kind (catalogue.ts says what one holds). Plain records have none. */
export const RECORD_CATALOGUE: Record<Exclude<RecordKind, 'plain'>, RecordCatalogue> = {
	account: accountCatalogue,
	aiPeriod: aiPeriodCatalogue,
	alert: alertCatalogue,
	group: groupCatalogue,
	keyword: keywordCatalogue,
	metrics: metricsCatalogue,
	searchTerm: searchTermCatalogue,
};

export function catalogueOf(kind: RecordKind): RecordCatalogue | undefined {
	return kind === 'plain' ? undefined : RECORD_CATALOGUE[kind];
}
