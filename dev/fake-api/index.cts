/**
 * The project's fake of the Keyword.com API (SERP Tracker API v2 + AI Visibility), for tests, benchmarks and the
 * demo. See README.md beside this file.
 */
export { DEFAULT_TOKEN, FakeKeywordApi, type FakeKeywordApiOptions } from './server.cjs';
export type { AddKeywordsOptions, AnswerMatch, FakeControls, RecordedRequest } from './control.cjs';
export { FAULT_KINDS, type FaultInfo, type FaultKind, type FaultSpec } from './faults.cjs';
export { CHANGE_OPS, type ChangeLogEntry, type ContainerChange } from './containers.cjs';
export {
	ALERT_ORDERS,
	ALERT_TIE_ORDERS,
	DEFAULT_BEHAVIOUR,
	GROUPS_LAST_UPDATED,
	HISTORY_ORDERS,
	KEYWORD_ORDERS,
	TIMESTAMP_OFFSETS,
	type AlertOrder,
	type AlertTieOrder,
	type ChurnLogEntry,
	type ChurnSpec,
	type FakeBehaviour,
	type GroupsLastUpdated,
	type HistoryOrder,
	type KeywordOrder,
	type TimestampOffsets,
} from './behaviour.cjs';
export { ApiError, errorBody, type ErrorBody } from './errors.cjs';
export type { GroupRecord, KeywordRecord } from './records.cjs';
export type { SeedName } from './seed.cjs';
export type { AddAlertsOptions, KeywordInput, RankUpdateOptions } from './state.cjs';
export { FakeState } from './state.cjs';
export {
	KEYWORDS_DEFAULT_PER_PAGE,
	RANKING_URLS_DEFAULT_PER_PAGE,
	CHART_MAX_DAYS,
	MAX_KW_LENGTH,
} from './handlers/keywords.cjs';
export { ALERTS_DEFAULT_PER_PAGE } from './handlers/alerts.cjs';
export { MAX_PER_PAGE } from './context.cjs';
