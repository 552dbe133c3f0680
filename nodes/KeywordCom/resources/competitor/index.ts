import { describeResource } from '../../operation/define';
import { getCompetitorHistory } from './getHistory';

export const competitorDescription = describeResource(
	'competitor',
	[getCompetitorHistory],
	'getHistory',
);
