import { describeResource } from '../../shared/operation';
import { getShareOfVoiceHistory } from './getHistory';
import { getLatestShareOfVoice } from './getLatest';

export const shareOfVoiceDescription = describeResource(
	'shareOfVoice',
	[getShareOfVoiceHistory, getLatestShareOfVoice],
	'getLatest',
);
