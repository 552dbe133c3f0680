import { accountCatalogue } from './account';
import { aiPeriodCatalogue } from './aiPeriod';
import { alertCatalogue } from './alert';
import type { RecordCatalogue } from './catalogue';
import { groupCatalogue } from './group';
import { keywordCatalogue } from './keyword';
import { metricsCatalogue } from './metrics';
import { chartCatalogue, rankingRowCatalogue } from './rankingHistory';
import { searchTermCatalogue } from './searchTerm';
import {
	competitorDayCatalogue,
	regionCatalogue,
	shareOfVoiceCatalogue,
	tagCatalogue,
	topPageCatalogue,
} from './small';
import { aiDomainCatalogue, shareOfVoicePointCatalogue } from './undocumented';

/** One catalogue per kind of record the action node returns (catalogue.ts says what one holds). */
export const RECORD_CATALOGUE = {
	account: accountCatalogue,
	aiDomain: aiDomainCatalogue,
	aiPeriod: aiPeriodCatalogue,
	alert: alertCatalogue,
	chart: chartCatalogue,
	competitorDay: competitorDayCatalogue,
	group: groupCatalogue,
	keyword: keywordCatalogue,
	metrics: metricsCatalogue,
	rankingRow: rankingRowCatalogue,
	region: regionCatalogue,
	searchTerm: searchTermCatalogue,
	shareOfVoice: shareOfVoiceCatalogue,
	shareOfVoicePoint: shareOfVoicePointCatalogue,
	tag: tagCatalogue,
	topPage: topPageCatalogue,
} satisfies Record<string, RecordCatalogue>;

export type RecordKind = keyof typeof RECORD_CATALOGUE;

export function catalogueOf(kind: RecordKind): RecordCatalogue {
	return RECORD_CATALOGUE[kind];
}
