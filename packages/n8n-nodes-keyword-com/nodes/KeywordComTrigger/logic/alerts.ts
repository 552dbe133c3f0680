/**
 * New Alert: pure parts. The poll reads the alert list (#20) newest first, page after page, until a page reaches
 * the cursor's floor; `advance` (cursor.ts) tells which alerts are new; they are emitted oldest first.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Stamped, WindowCursor } from './cursor';
import { isCovered } from './cursor';
import { redactDeep } from '../../KeywordCom/shared/redact';
import { shapeRecord } from '../../KeywordCom/shared/records';
import { splitName } from './scope';

/** Largest page of the alert list. */
export const ALERT_PAGE_SIZE = 250;
/** A late alert stamped up to this many seconds before the newest one seen is still reported. */
export const ALERT_LOOKBACK_SECONDS = 300;
/**
 * Most alert ids the cursor keeps. Below one page, so that an idle poll always finds the floor on page 1
 * (one request), however many alerts share the boundary.
 */
export const ALERT_ID_CAP = 200;
/** A poll reads at most this many pages (50,000 alerts); older new alerts beyond them are skipped. */
export const MAX_ALERT_PAGES = 200;

export interface AlertEvent extends Stamped {
	record: IDataObject;
}

function attributesOf(record: IDataObject): IDataObject {
	const attributes = record.attributes;
	return attributes && typeof attributes === 'object' && !Array.isArray(attributes)
		? (attributes as IDataObject)
		: {};
}

/** Seconds of an alert: `created_at` (Unix seconds), else its ISO `time`. */
export function alertTime(record: IDataObject): number | undefined {
	const attributes = attributesOf(record);
	const created = attributes.created_at;
	if (typeof created === 'number' && Number.isFinite(created)) return Math.floor(created);
	if (typeof created === 'string' && /^\d+$/.test(created)) return Number(created);
	const time = typeof attributes.time === 'string' ? Date.parse(attributes.time) : Number.NaN;
	return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/** The alerts of one page as events; records without an id or a time are left out. */
export function toAlertEvents(records: readonly unknown[]): AlertEvent[] {
	const events: AlertEvent[] = [];
	for (const raw of records) {
		if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
		const record = raw as IDataObject;
		const at = alertTime(record);
		if (record.id === undefined || record.id === null || at === undefined) continue;
		events.push({ id: String(record.id), at, record });
	}
	return events;
}

/** Whether paging can stop after this page: it reached alerts the cursor has already covered. */
export function reachedFloor(page: readonly Stamped[], cursor: WindowCursor | undefined): boolean {
	if (!cursor) return true; // first activation: the newest page is enough to know where "now" is
	return page.some((event) => isCovered(event, cursor.f));
}

export function alertCategory(record: IDataObject): string {
	const category = attributesOf(record).category;
	return typeof category === 'string' ? category : '';
}

/** The item emitted for one alert. Simplify as in the action node, plus project/group; the token never appears. */
export function alertItem(
	record: IDataObject,
	simplify: boolean,
	token: string | undefined,
): IDataObject {
	if (!simplify) return redactDeep(record, token);
	const shaped = shapeRecord(record, 'alert', true);
	const { project, group } = splitName(alertCategory(record));
	const createdAt = shaped.created_at;
	return redactDeep(
		{
			...shaped,
			project,
			group,
			created_at_iso:
				typeof createdAt === 'number' ? new Date(createdAt * 1000).toISOString() : null,
		},
		token,
	);
}
