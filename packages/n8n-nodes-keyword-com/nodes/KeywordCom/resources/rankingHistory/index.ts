import { describeResource } from '../../shared/operation';
import { getRankingChart } from './getChart';

export const rankingHistoryDescription = describeResource('rankingHistory', [getRankingChart], 'getChart');
