import { describeResource } from '../../shared/operation';
import { getCompetitorHistory } from './getHistory';

export const competitorDescription = describeResource('competitor', [getCompetitorHistory], 'getHistory');
