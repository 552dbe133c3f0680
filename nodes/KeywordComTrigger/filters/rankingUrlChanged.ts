/**
 * Ranking URL Changed (Keyword Updated): keywords whose ranking URL differs from the one of their crawl before. The
 * verdict comes with the move (keywordUpdated/rankingUrls.ts, from the ranking history): a crawl before the history
 * does not show is passed on as `ranking_url_unknown` rather than lost.
 */
import type { TriggerFilter } from './filterEntry';
import type { RankMove } from './subjects';

export const rankingUrlChanged: TriggerFilter<'rankingUrlChanged', boolean, RankMove> = {
	key: 'rankingUrlChanged',
	events: ['keywordUpdated'],
	fields: [
		{
			displayName: 'Ranking URL Changed',
			name: 'rankingUrlChanged',
			type: 'boolean',
			default: true,
			description:
				"Whether to only emit keywords whose ranking URL differs from the one of their crawl before, as the keyword's ranking history shows it (one more request per 100 keywords that pass the other filters). A keyword's first update does not pass; one whose crawl before the history does not show comes with 'ranking_url_unknown' in 'matched'.",
		},
	],
	reasons: ['ranking_url_changed', 'ranking_url_unknown'],
	// The ranking history is asked only for the keywords the other filters let through.
	costsRequestsIn: ['keywordUpdated'],
	read: (raw) => (raw.rankingUrlChanged === true ? true : undefined),
	match(move) {
		if (move.rankingUrlChanged === 'unknown') return 'ranking_url_unknown';
		return move.rankingUrlChanged === true ? 'ranking_url_changed' : undefined;
	},
};
