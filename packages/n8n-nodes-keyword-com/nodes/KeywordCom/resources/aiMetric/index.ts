import { describeResource } from '../../shared/operation';
import { getAiCitations } from './getCitations';
import { getAiDashboard } from './getDashboard';
import { getAiSentiment } from './getSentiment';

export const aiMetricDescription = describeResource(
	'aiMetric',
	[getAiCitations, getAiDashboard, getAiSentiment],
	'getDashboard',
);
