import type { IDataObject } from 'n8n-workflow';

import type { RecordKind } from '../recordKinds';
import { apiTimeMs } from '../time';

/**
 * Which way a list runs by its records' key (an id, a time), as read from the records: the one spelling of a list's
 * order in working code ('unordered': both ways). The trigger stores it as one letter (its state/storedState.ts).
 */
export type ListOrder = 'ascending' | 'descending' | 'unordered';

/**
 * The order a paged list's records show, so that Return All / Limit can read it with overlapping windows (pipeline.ts)
 * and notice when it shifts between two page requests. The API document gives no order for any list, and the alert
 * list may ignore its sort parameters: the order is read from the records of page 1, never assumed, and a later page
 * that contradicts it ends the ordered read.
 */
export interface RecordOrder<K = unknown> {
	/** For tests and messages, e.g. "id descending". */
	name: string;
	/** The record's key; undefined when it has none (the list cannot be read in this order then). */
	keyOf(record: unknown): K | undefined;
	/** Orders keys the way the list runs from page 1 on: every page is strictly increasing by it. */
	compare(a: K, b: K): number;
}

/** Tells which orders page 1 is consistent with, best guess first (none: read the list without one). */
export type OrderOf = (records: readonly unknown[]) => RecordOrder[];

const DIGITS = /^\d+$/;

/** Ids numerically when both are digits (without losing precision past 2^53), else as text. */
export function compareIds(a: string, b: string): number {
	if (a === b) return 0;
	if (DIGITS.test(a) && DIGITS.test(b)) {
		const x = a.replace(/^0+(?=\d)/, '');
		const y = b.replace(/^0+(?=\d)/, '');
		if (x.length !== y.length) return x.length - y.length;
		return x < y ? -1 : x > y ? 1 : 0;
	}
	return a < b ? -1 : 1;
}

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** A record's `id` as text; undefined when it has none. */
export function idOf(record: unknown): string | undefined {
	const id = asObject(record)?.id;
	if (typeof id === 'string') return id === '' ? undefined : id;
	return typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
}

/**
 * An alert's time in seconds, from its attributes: `created_at` (Unix seconds), else its ISO `time`. Not rounded
 * (the trigger rounds down to whole seconds; an order only compares). Shared by both nodes.
 */
export function alertSecondsOf(attributes: IDataObject): number | undefined {
	const created = attributes.created_at;
	if (typeof created === 'number' && Number.isFinite(created)) return created;
	if (typeof created === 'string' && DIGITS.test(created)) return Number(created);
	const time = typeof attributes.time === 'string' ? apiTimeMs(attributes.time) : undefined;
	return time === undefined ? undefined : time / 1000;
}

/** An alert record's time in seconds; its attributes, or the record itself when it has none. */
function alertSeconds(record: unknown): number | undefined {
	const attributes = asObject(asObject(record)?.attributes) ?? asObject(record);
	return attributes ? alertSecondsOf(attributes) : undefined;
}

interface AlertKey {
	at: number;
	id: string;
}

const byId: RecordOrder<string> = { name: 'id', keyOf: idOf, compare: compareIds };

/** Alerts by time, then id; `tie` 1: ids ascending within a second as time ascends, -1: the other way. */
function byTime(tie: 1 | -1): RecordOrder<AlertKey> {
	return {
		name: tie === 1 ? 'time, then id' : 'time, then id reversed',
		keyOf: (record) => {
			const id = idOf(record);
			const at = alertSeconds(record);
			return id === undefined || at === undefined ? undefined : { at, id };
		},
		compare: (a, b) => a.at - b.at || tie * compareIds(a.id, b.id),
	};
}

function reversed<K>(order: RecordOrder<K>): RecordOrder<K> {
	return {
		name: `${order.name} descending`,
		keyOf: order.keyOf,
		compare: (a, b) => order.compare(b, a),
	};
}

function strictlyIncreasing<K>(keys: readonly K[], compare: (a: K, b: K) => number): boolean {
	for (let n = 1; n < keys.length; n++) if (compare(keys[n - 1], keys[n]) >= 0) return false;
	return true;
}

/** A typed order as one the reader can hold beside others (keys are only ever compared with keys of the same order). */
function erased<K>(order: RecordOrder<K>): RecordOrder {
	return order as unknown as RecordOrder;
}

/**
 * The candidates `records` (page 1) fit, each turned the way the page runs. A page of fewer than two records, or
 * one with a record the candidate cannot key, shows no order.
 */
export function ordersShown(
	candidates: readonly RecordOrder[],
	records: readonly unknown[],
): RecordOrder[] {
	const fitting: RecordOrder[] = [];
	if (records.length < 2) return fitting;
	for (const candidate of candidates) {
		const keys = records.map((record) => candidate.keyOf(record));
		if (keys.some((key) => key === undefined)) continue;
		if (strictlyIncreasing(keys, candidate.compare))
			fitting.push({ ...candidate, name: `${candidate.name} ascending` });
		else if (strictlyIncreasing(keys, (a, b) => candidate.compare(b, a)))
			fitting.push(reversed(candidate));
	}
	return fitting;
}

/**
 * The orders a list of `kind` may run in: keywords (#13) by id; alerts (#20) by time then id (either way for alerts
 * of the same second), or by id alone, the one asked for in `sort_field` first. Other lists (top pages #21 are
 * aggregates without ids) have none.
 */
export function orderOfList(
	kind: RecordKind | undefined,
	qs: IDataObject = {},
): OrderOf | undefined {
	if (kind === 'keyword') return (records) => ordersShown([erased(byId)], records);
	if (kind !== 'alert') return undefined;
	const time = [erased(byTime(1)), erased(byTime(-1))];
	const candidates = qs.sort_field === 'id' ? [erased(byId), ...time] : [...time, erased(byId)];
	return (records) => ordersShown(candidates, records);
}

/**
 * What tells two records of a list apart, to notice one read twice: the id, else a top page's URL (#21 has one record
 * per URL). A list where one page repeats a value does not use it (see asServed.ts).
 */
export function identityOf(record: unknown): string | undefined {
	const id = idOf(record);
	if (id !== undefined) return id;
	const url = asObject(record)?.current_ranking_url;
	return typeof url === 'string' && url !== '' ? `url ${url}` : undefined;
}
