import { describeResource } from '../../operation/define';
import { getRankingChart } from './getChart';
import { getManyRankingRows } from './getMany';

export const rankingHistoryDescription = describeResource(
	'rankingHistory',
	[getRankingChart, getManyRankingRows],
	'getChart',
);
