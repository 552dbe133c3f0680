/** One poll of the Keyword.com Trigger through n8n's engine, against a fake API over HTTP. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeKeywordApi } from '../../dev/fake-api/index.cjs';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll, type RunPollResult } from '../harness/index.cjs';

const trigger = new KeywordComTrigger();

export async function pollTrigger(
	api: FakeKeywordApi,
	parameters: IDataObject,
	staticData?: IDataObject,
): Promise<RunPollResult> {
	return await runPoll({
		nodeType: trigger,
		typeVersion: 1,
		parameters: parameters as INodeParameters,
		credentials: { keywordComApi: { apiToken: api.token, baseUrl: `${api.baseUrl}/` } },
		staticData,
	});
}
