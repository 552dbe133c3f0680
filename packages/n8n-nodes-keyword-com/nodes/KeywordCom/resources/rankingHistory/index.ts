import { describeResource } from '../../operation/define';
import { getRankingChart } from './getChart';

export const rankingHistoryDescription = describeResource(
	'rankingHistory',
	[getRankingChart],
	'getChart',
);
