/** Name of the credential type both nodes use. */
export const CREDENTIAL_TYPE = 'keywordComApi';

export const API_PREFIX = '/api/v2';

export const DEFAULT_BASE_URL = 'https://app.keyword.com';

/** The largest page the keyword, alert and top-page lists serve; Return All always asks for it. */
export const MAX_PAGE_SIZE = 250;

/** Pages fetched at once by Return All unless the user sets Concurrency. */
export const DEFAULT_PAGE_CONCURRENCY = 4;

/** Keywords sent per request by Add Keywords unless the user sets Chunk Size. */
export const DEFAULT_ADD_CHUNK_SIZE = 250;

export const MAX_KEYWORD_LENGTH = 150;
export const MAX_CHART_DAYS = 180;

/**
 * Keyword ids per chart request (#14) of Ranking History → Get Many unless the user sets it. The document bounds
 * neither the list nor the answer; 100 keywords × 180 days is an answer of about 2 MB. A lower cap of the API is
 * detected and followed (rankingHistory/getMany.ts).
 */
export const DEFAULT_CHART_CHUNK_SIZE = 100;
export const MAX_CHART_CHUNK_SIZE = 1000;
export const SHARE_OF_VOICE_RANGES = [7, 30, 90, 180, 365] as const;
export const PROJECT_TIMEFRAMES = [
	'daily',
	'weekly',
	'monthly',
	'semester',
	'yearly',
	'life',
] as const;
export const AI_TIMEFRAMES = ['24h', '7d', '30d', '3m', '1y'] as const;
export const AI_AGGREGATIONS = ['hourly', 'daily', 'weekly', 'monthly'] as const;

/** Upper bound for id lists in one bulk call: a typo in an expression should not send 1e6 ids. */
export const MAX_IDS_PER_CALL = 10_000;
