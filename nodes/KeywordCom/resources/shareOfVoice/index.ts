import { describeResource } from '../../operation/define';
import { getShareOfVoiceHistory } from './getHistory';
import { getLatestShareOfVoice } from './getLatest';

export const shareOfVoiceDescription = describeResource(
	'shareOfVoice',
	[getShareOfVoiceHistory, getLatestShareOfVoice],
	'getLatest',
);
