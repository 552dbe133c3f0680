import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { redactTokenPieces } from '../shared/redact';
import { sampleAiVisibility } from './aiVisibilityUpdated/poll';
import type { KeywordState } from './keywordUpdated/plan';
import { ListFailure, sampleKeywordUpdates } from './keywordUpdated/poll';
import { sampleAlerts } from './newAlert/poll';
import type { PollSettings, TriggerApi } from './polling/pollContract';
import { readEventState, type EventName } from './state/storedState';

/** "Fetch Test Event": the latest real events, whatever the cursor; static data is left alone. */
export async function fetchTestEvent(
	context: IPollFunctions,
	event: EventName,
	settings: PollSettings,
	nodeData: IDataObject,
	api: TriggerApi,
): Promise<INodeExecutionData[][]> {
	let sample: IDataObject[] | string | ListFailure;
	if (event === 'newAlert') sample = await sampleAlerts(api, settings);
	else if (event === 'aiVisibilityUpdated') sample = await sampleAiVisibility(api, settings);
	else {
		// Lists the trigger's polls found failing are tried too: a persistent failure shows here.
		const state = readEventState(event, nodeData)?.state as KeywordState | undefined;
		const parked = [...(state?.containers.values() ?? [])]
			.filter((entry) => entry.failure !== undefined)
			.map((entry) => entry.name);
		sample = await sampleKeywordUpdates(api, settings, parked);
	}
	if (sample instanceof ListFailure) {
		throw new NodeOperationError(
			context.getNode(),
			redactTokenPieces(sample.message, settings.token),
			{
				description:
					'Check that the project or group still exists under this name and that the token may read it. When the trigger is active, every other project and group is read as usual, and this one is tried again at every poll.',
			},
		);
	}
	if (typeof sample === 'string') {
		throw new NodeOperationError(context.getNode(), redactTokenPieces(sample, settings.token), {
			description: 'A test run shows the latest real events; there is none yet.',
		});
	}
	return [context.helpers.returnJsonArray(sample)];
}
