/**
 * New Alert: finding an alert's keyword in a list (#11), and the account's group names (groups/active, once a poll),
 * for where an alert names only its project (alertScope.ts, alertTags.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { groupsOf } from '../../shared/groupName';
import { toContainers } from '../polling/containers';
import { keywordId } from '../polling/listReadState';
import {
	GONE,
	statusOf,
	type PollLimits,
	type RequestAllowance,
	type TriggerApi,
} from '../polling/pollContract';

const outOfTime = () =>
	Object.assign(new Error('out of time or requests'), { outOfTime: true }) as Error;

/**
 * Whether the list of `name` holds keyword `id` (#11): its record; null when it does not (404/410, or another
 * record); else what failed (an error, or time or requests running out).
 */
export async function lookUpKeyword(
	api: TriggerApi,
	name: string,
	id: string,
	limits: PollLimits,
	allowance: RequestAllowance,
): Promise<{ record: IDataObject | null } | { failed: unknown }> {
	if (!limits.budget.mayStart() || allowance.grant(1) === 0) return { failed: outOfTime() };
	try {
		const body = await limits.budget.timed(async () => await api.keyword(name, id));
		const record = (body as IDataObject | undefined)?.data as IDataObject | undefined;
		return { record: keywordId(record) === id ? (record as IDataObject) : null };
	} catch (error) {
		const status = statusOf(error);
		return status !== null && GONE.has(status) ? { record: null } : { failed: error };
	}
}

/** The names of the account's projects and groups, from groups/active, asked at most once (a poll shares one). */
export class GroupNames {
	private names?: Promise<string[]>;
	constructor(
		private readonly api: TriggerApi,
		private readonly limits: PollLimits,
		private readonly allowance: RequestAllowance,
	) {}

	/** Every name listed; throws what failed. */
	async all(): Promise<string[]> {
		this.names ??= (async () => {
			if (!this.limits.budget.mayStart() || this.allowance.grant(1) === 0) throw outOfTime();
			const listed = await this.limits.budget.timed(async () => await this.api.activeGroups());
			return toContainers(listed.body).map((container) => container.name);
		})();
		return await this.names;
	}

	/** The group names (the part after `[sub]`) of `project`. */
	async of(project: string): Promise<string[]> {
		return groupsOf(project, await this.all());
	}
}
