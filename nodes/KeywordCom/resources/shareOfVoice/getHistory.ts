import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, SHARE_OF_VOICE_RANGES } from '../../../shared/constants';
import { projectIdField } from '../../../shared/fields';
import { alphabetical } from '../../../shared/optionOrder';
import { defineOperation } from '../../operation/define';
import { checkDaysRange, checkNumericId } from '../../../shared/validation';

const POINT_EVERY: Record<number, string> = {
	7: '1 day',
	30: '7 days',
	90: '14 days',
	180: '30 days',
	365: '60 days',
};

/** #19 GET /api/v2/projects/{project_id}/mindshare/from-cache?daysrange=N */
export const getShareOfVoiceHistory = defineOperation({
	resource: 'shareOfVoice',
	value: 'getHistory',
	name: 'Get History',
	action: 'Get the share of voice history of a project',
	description:
		'Get the share of voice of a project over the last 7, 30, 90, 180 or 365 days, one item per data point',
	method: 'GET',
	path: `${API_PREFIX}/projects/{projectId}/mindshare/from-cache`,
	fields: [
		projectIdField(),
		{
			displayName: 'Range',
			name: 'daysRange',
			type: 'options',
			default: 30,
			options: alphabetical(
				SHARE_OF_VOICE_RANGES.map((days) => ({
					name: `Last ${days} Days (a Point Every ${POINT_EVERY[days]})`,
					value: days,
				})),
			),
			description: 'How far back to go; the spacing of the points grows with the range',
		},
	],
	prepare: (input) => ({
		path: { projectId: checkNumericId('Project', input.get('projectId')) },
		qs: { daysrange: checkDaysRange('Range', input.get('daysRange', 30)) },
	}),
	output: {
		type: 'records',
		kind: 'shareOfVoicePoint',
		// The success body is not documented: a `data` list gives one item per point, anything else one item.
		select: (body) => (Array.isArray(body.data) ? body.data : [body.data ?? body]) as IDataObject[],
	},
});
