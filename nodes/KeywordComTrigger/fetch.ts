/** The trigger's I/O: every request goes through the shared transport (retries, redacted errors). */
import type { ICredentialDataDecryptedObject, IDataObject, IPollFunctions } from 'n8n-workflow';

import { API_PREFIX } from '../shared/constants';
import type { RetryPolicy } from '../shared/retryPolicy';
import { apiRequest } from '../shared/transport';
import type { PollBudget } from './logic/budget';
import { encodeName, splitName } from '../shared/groupName';
import type { RequestMode, TriggerApi } from './poll';

/**
 * A poll runs again a minute later anyway: a request is tried at most 3 times in all (a 429's Retry-After is
 * honoured up to the cap), and never past the poll's budget.
 */
export const TRIGGER_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 3,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** A request that has not answered after this long fails (and is retried like a dropped connection). */
export const REQUEST_TIMEOUT_MS = 60_000;

function keywordListPath(name: string): string {
	const { project, group } = splitName(name);
	return `${API_PREFIX}/groups/${encodeName(project, group ?? '')}/keywords/`;
}

function serverSeconds(headers: Record<string, unknown>): number {
	const date = headers.date ?? headers.Date;
	const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
	return Math.floor((Number.isNaN(ms) ? Date.now() : ms) / 1000);
}

export function createApi(
	context: IPollFunctions,
	baseUrl: string,
	budget: PollBudget | undefined,
	credentials?: ICredentialDataDecryptedObject,
	policy = TRIGGER_RETRY_POLICY,
): TriggerApi {
	const base = { baseURL: baseUrl, timeout: REQUEST_TIMEOUT_MS };
	// The credential read once by poll(): n8n would otherwise read it again for every page.
	const get = async (url: string, qs?: IDataObject, mode?: RequestMode) =>
		await apiRequest(
			context,
			{ method: 'GET', url, qs, base },
			{
				policy: mode?.tries ? { ...policy, maxAttempts: mode.tries } : policy,
				credentials,
				deadline: budget?.deadline,
			},
		);
	return {
		alertsPage: async (page, perPage) =>
			(
				await get(`${API_PREFIX}/alerts`, {
					sort_field: 'created_at',
					sort_direction: 'desc',
					per_page: perPage,
					page,
				})
			).body,
		activeGroups: async () => {
			const response = await get(`${API_PREFIX}/groups/active`);
			return {
				body: response.body,
				serverTime: serverSeconds(response.headers),
			};
		},
		keywordPage: async (name, page, perPage, mode) =>
			(await get(keywordListPath(name), { per_page: perPage, page }, mode)).body,
	};
}
