import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, SHARE_OF_VOICE_RANGES } from '../../../shared/constants';
import { groupField, projectField } from '../../../shared/fields';
import { onItsScale } from '../../../shared/optionOrder';
import { defineOperation } from '../../operation/define';
import { checkDaysRange, checkNumericId } from '../../../shared/validation';

/** The spacing of the points of each range (spec §4.3). */
const POINT_EVERY: Record<number, string> = {
	7: 'a Point a Day',
	30: 'a Point a Week',
	90: 'a Point Every 2 Weeks',
	180: 'a Point a Month',
	365: 'a Point Every 2 Months',
};

/** #19 GET /api/v2/projects/{project_id}/mindshare/from-cache?daysrange=N */
export const getShareOfVoiceHistory = defineOperation({
	resource: 'shareOfVoice',
	value: 'getHistory',
	name: 'Get History',
	action: 'Get share of voice history',
	description:
		'Get the share of voice of a project over the last 7, 30, 90, 180 or 365 days, one item per data point',
	method: 'GET',
	path: `${API_PREFIX}/projects/{projectId}/mindshare/from-cache`,
	fields: [
		projectField(),
		groupField(),
		{
			displayName: 'Range',
			name: 'daysRange',
			type: 'options',
			default: 30,
			options: onItsScale(
				SHARE_OF_VOICE_RANGES.map((days) => ({
					name: `Last ${days} Days (${POINT_EVERY[days]})`,
					value: days,
				})),
			),
			description: 'How far back to go; the spacing of the points grows with the range',
		},
	],
	projectId: true,
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
