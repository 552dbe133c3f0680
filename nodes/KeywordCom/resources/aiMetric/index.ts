import { describeResource } from '../../operation/define';
import { getAiCitations } from './getCitations';
import { getAiDashboard } from './getDashboard';
import { getAiSentiment } from './getSentiment';

export const aiMetricDescription = describeResource(
	'aiMetric',
	[getAiCitations, getAiDashboard, getAiSentiment],
	'getDashboard',
);
