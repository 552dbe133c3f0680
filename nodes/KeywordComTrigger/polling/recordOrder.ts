/**
 * Which way a list runs, read from the records it served, not from the sort parameters sent (the document does not
 * say which values the API honours). Pure.
 */
import type { ListOrder } from '../../shared/paging';
import { compareIds, timeOrder, type Stamped, type TieOrder } from './windowCursor';

/**
 * The direction of a sequence of values compared by `compare`, consecutive pairs only; undefined when the values
 * cannot tell (fewer than two, or all equal).
 */
export function sequenceOf<T>(
	values: readonly T[],
	compare: (a: T, b: T) => number,
): ListOrder | undefined {
	let up = false;
	let down = false;
	for (let n = 1; n < values.length; n++) {
		const sign = compare(values[n - 1], values[n]);
		if (sign < 0) up = true;
		else if (sign > 0) down = true;
	}
	if (up && down) return 'unordered';
	return up ? 'ascending' : down ? 'descending' : undefined;
}

export interface TimeSequence {
	/** In time (alerts); undefined: the records cannot tell. */
	sequence: ListOrder | undefined;
	tie: TieOrder;
	/** The records showed the tie order (alerts sharing a second, in order). */
	tieShown: boolean;
}

/**
 * Alerts in list order → which way the list runs in time, and the order of alerts sharing one second. The tie order
 * known so far is tried first; the other one only when the records contradict it. A list that runs in time but whose
 * alerts of one second contradict both id orders has mixed ties (0); once mixed, always mixed (it fits every list that
 * runs in time).
 */
export function timeSequenceOf(alerts: readonly Stamped[], knownTie: TieOrder = 1): TimeSequence {
	const bySecond = sequenceOf(alerts, (a, b) => a.at - b.at);
	const strict: TieOrder[] = knownTie === 0 ? [] : [knownTie, knownTie === 1 ? -1 : 1];
	for (const tie of strict) {
		const sequence = sequenceOf(alerts, timeOrder(tie));
		if (sequence === 'unordered') continue;
		// A list all in one second shows only its ids' order, which the known tie order reads as time.
		if (bySecond !== undefined && bySecond !== 'unordered' && sequence !== bySecond) continue;
		let tieShown = false;
		for (let n = 1; n < alerts.length && !tieShown; n++)
			tieShown = alerts[n - 1].at === alerts[n].at;
		return { sequence, tie, tieShown: tieShown && bySecond !== undefined };
	}
	if (bySecond === 'unordered') return { sequence: 'unordered', tie: knownTie, tieShown: false };
	// In time order, with alerts of one second in no id order (or too few alerts to tell, mixed already known).
	return { sequence: bySecond, tie: 0, tieShown: bySecond !== undefined };
}

/** Keyword ids in list order → ascending, descending or unordered. */
export function idSequenceOf(ids: readonly string[]): ListOrder | undefined {
	return sequenceOf(ids, compareIds);
}
