/**
 * What both events' polls share: the API they read (triggerApi.ts in n8n, anything in tests), their settings and limits,
 * what a poll returns, and how a list page is read.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutputChoice } from '../../shared/output';
import type { ServedPage } from '../../shared/paging';
import type { Scope } from '../../shared/groupName';
import type { PollBudget } from './budget';
import type { AiFilters, MovementFilters } from '../filters/triggerFilters';
import type { AiScope } from './scope';

/** How one request is sent. */
export interface RequestMode {
	/** Tries in all (a parked project or group gets one: it is tried again at the next poll anyway). */
	tries?: number;
}

export interface TriggerApi {
	/** One page of the alert list (#20); newest first is asked for, but any order is read correctly. */
	alertsPage(page: number, perPage: number): Promise<unknown>;
	/** `groups/active` (#1) and the server's clock (Unix seconds) when it answered. */
	activeGroups(): Promise<{ body: unknown; serverTime: number }>;
	/** One page of a keyword list (#13). */
	keywordPage(name: string, page: number, perPage: number, mode?: RequestMode): Promise<unknown>;
	/** One keyword of a project or group (#11): a 404 when the list does not hold it. */
	keyword(name: string, id: string): Promise<unknown>;
	/** One project or group (#2), archived or not: a 404 when it was deleted. */
	container(name: string, mode?: RequestMode): Promise<unknown>;
	/** The ranking history of keywords (#14), `days` days back from each one's last update. */
	chart(ids: readonly string[], days: number): Promise<unknown>;
	/** The AI-visibility domains (#23) and the server's clock (Unix seconds) when it answered. */
	aiDomains(): Promise<{ body: unknown; serverTime: number }>;
	/** One domain's AI-visibility dashboard (#26); arrays in `qs` go as `name[]`. */
	aiDashboard(domainId: string, qs: IDataObject): Promise<unknown>;
	/** The API's clock (Unix seconds) at its latest answer (its Date header); undefined before any answer. */
	serverNow(): number | undefined;
}

export interface PollSettings {
	scope: Scope;
	/** How items are shaped: the Output choice. */
	output: OutputChoice;
	onlyRankChanges: boolean;
	/** The filters (filters/triggerFilters.ts): none set lets every event through. */
	filters?: MovementFilters;
	/** AI Visibility Updated: the domains and the part of their measurements read. */
	ai?: AiScope;
	/** AI Visibility Updated's filters: none set lets every day through. */
	aiFilters?: AiFilters;
	/** Removed from everything emitted. */
	token?: string;
}

export interface PollLimits {
	budget: PollBudget;
	/** Most requests one poll sends (every HTTP try counts). */
	maxRequests?: number;
	/** The poll's requests, when the caller counts its retries against them too (triggerApi.ts); else made from maxRequests. */
	allowance?: RequestAllowance;
}

/**
 * A failure the poll got past: a project's or group's list that could not be read (the others were), or a read that
 * failed after part of a list was read. It is reported every poll while it lasts (n8n's log) and tried again.
 */
export interface PollProblem {
	/** The project or group (Keyword Updated); absent for the alert list. */
	container?: string;
	/** HTTP status, when there was an answer. */
	status: string | null;
	message: string;
	/** Polls in a row it has failed (Keyword Updated). */
	polls?: number;
	/** It has left `groups/active` (deleted or archived) and is not read any more. */
	gone?: boolean;
	/** The whole sentence for n8n's log, when none of the above says it. */
	text?: string;
}

export interface PollOutcome<S> {
	items: IDataObject[];
	state: S;
	/** Everything there was has been read (false: the poll's time or request budget ended it first). */
	complete: boolean;
	/** Failures the poll got past (what could be read was read and emitted; the next poll tries again). */
	problems: PollProblem[];
}

/** What a manual run answers when there is nothing to show yet: a message for the user. */
export type NoEventYet = string;

/** Most requests in one poll, every HTTP try counted (60,000 records): the rest waits for the next poll. */
export const MAX_REQUESTS_PER_POLL = 240;

/** A list's (or a lookup's) answer that means it is gone. */
export const GONE = new Set(['404', '410']);

/** Pages requested at once by one list read, usually (more when a short budget needs it, see PollBudget). */
export const READ_CONCURRENCY = 4;
/** Events a manual run ("Fetch Test Event") shows. */
export const SAMPLE_SIZE = 5;

/**
 * Requests one poll may still send, shared by all its reads, every HTTP try counted: a page is granted its first try
 * by the reader, and each retry takes one more (transport.ts asks `mayRetry`), or is not sent.
 */
export class RequestAllowance {
	constructor(public left: number) {}

	/** Takes up to `wanted` requests; returns how many were granted. */
	grant(wanted: number): number {
		const granted = Math.max(0, Math.min(wanted, this.left));
		this.left -= granted;
		return granted;
	}

	/** Takes one request for a retry; false when none is left (the request then fails as out of time). */
	readonly retry = (): boolean => this.grant(1) === 1;
}

/** A list page's records and paging facts. */
export interface ServedList extends ServedPage {
	totalPages?: number;
}

export function servedList(body: unknown): ServedList {
	const object = (body ?? {}) as IDataObject;
	const records = Array.isArray(object.data) ? (object.data as unknown[]) : [];
	const pagination = ((object.meta ?? {}) as IDataObject).pagination as IDataObject | undefined;
	const number = (value: unknown) => {
		const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0
			? parsed
			: undefined;
	};
	return {
		records,
		total: number(pagination?.total),
		perPage: number(pagination?.per_page),
		totalPages: number(pagination?.total_pages),
	};
}

export function lastPageOf(first: ServedList, perPage: number): number {
	if (first.totalPages !== undefined) return Math.max(1, first.totalPages);
	const size = first.perPage && first.perPage > 0 ? first.perPage : perPage;
	return first.total !== undefined ? Math.max(1, Math.ceil(first.total / size)) : 1;
}

export function isOnePage(first: ServedList, perPage: number): boolean {
	if (first.totalPages !== undefined) return first.totalPages <= 1;
	if (first.total !== undefined) return first.total <= first.records.length;
	return first.records.length < perPage;
}

/** Whether an error is the poll's time running out (the transport's `outOfTime`). */
export function isOutOfTime(error: unknown): boolean {
	return (error as { outOfTime?: unknown } | undefined)?.outOfTime === true;
}

/** The HTTP status of a failed request, when there was an answer. */
export function statusOf(error: unknown): string | null {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return typeof code === 'string' && code !== '' ? code : null;
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
