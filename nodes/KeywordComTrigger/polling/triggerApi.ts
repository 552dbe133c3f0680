/** The trigger's I/O: every request goes through the shared transport (retries, redacted errors). */
import type { ICredentialDataDecryptedObject, IDataObject, IPollFunctions } from 'n8n-workflow';

import { API_PREFIX } from '../../shared/constants';
import type { RetryPolicy } from '../../shared/retryPolicy';
import { apiRequest, type ApiResponse } from '../../shared/transport';
import type { PollBudget } from './budget';
import { encodeName, splitName } from '../../shared/groupName';
import type { RequestAllowance, RequestMode, TriggerApi } from './pollContract';

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

function containerPath(name: string): string {
	const { project, group } = splitName(name);
	return `${API_PREFIX}/groups/${encodeName(project, group ?? '')}`;
}

/**
 * Seconds kept back from the API's clock (its Date header): a container updated this close to the poll may still be
 * receiving ranks stamped with that second, and stamps may run a little ahead of the header.
 */
export const SETTLE_SECONDS = 2;

/** The API's clock (Unix seconds) of an answer, from its Date header; undefined without one. */
function dateOf(headers: Record<string, unknown>): number | undefined {
	const date = headers.date ?? headers.Date;
	const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function createApi(
	context: IPollFunctions,
	baseUrl: string,
	budget: PollBudget | undefined,
	credentials?: ICredentialDataDecryptedObject,
	policy = TRIGGER_RETRY_POLICY,
	allowance?: RequestAllowance,
): TriggerApi {
	const base = { baseURL: baseUrl, timeout: REQUEST_TIMEOUT_MS };
	let serverNow: number | undefined;
	const send = async (
		request: { method: 'GET' | 'POST'; url: string; qs?: IDataObject; body?: unknown },
		mode?: RequestMode,
	): Promise<ApiResponse> => {
		// The credential read once by poll(): n8n would otherwise read it again for every page.
		const response = await apiRequest(
			context,
			{ ...request, base },
			{
				policy: mode?.tries ? { ...policy, maxAttempts: mode.tries } : policy,
				credentials,
				deadline: budget?.deadline,
				// Every retry counts against the poll's requests (the first try was granted by the reader).
				mayRetry: allowance?.retry,
			},
		);
		const date = dateOf(response.headers);
		if (date !== undefined) serverNow = Math.max(serverNow ?? date, date);
		return response;
	};
	const get = async (url: string, qs?: IDataObject, mode?: RequestMode) =>
		await send({ method: 'GET', url, qs }, mode);
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
				serverTime: dateOf(response.headers) ?? Math.floor(Date.now() / 1000),
			};
		},
		keywordPage: async (name, page, perPage, mode) =>
			(await get(`${containerPath(name)}/keywords/`, { per_page: perPage, page }, mode)).body,
		keyword: async (name, id) =>
			(await get(`${containerPath(name)}/keywords/${encodeURIComponent(id)}`)).body,
		container: async (name, mode) => (await get(containerPath(name), undefined, mode)).body,
		chart: async (ids, days) =>
			(
				await send({
					method: 'POST',
					url: `${API_PREFIX}/keywords/chart`,
					qs: { action: 'chart', limit: days },
					body: { keyword_ids: ids.map(Number) },
				})
			).body,
		aiDomains: async () => {
			const response = await get(`${API_PREFIX}/ai-visibility/domains`);
			return {
				body: response.body,
				serverTime: dateOf(response.headers) ?? Math.floor(Date.now() / 1000),
			};
		},
		aiDashboard: async (domainId, qs) =>
			(await get(`${API_PREFIX}/ai-visibility/domains/${encodeURIComponent(domainId)}/metrics`, qs))
				.body,
		serverNow: () => serverNow,
	};
}
