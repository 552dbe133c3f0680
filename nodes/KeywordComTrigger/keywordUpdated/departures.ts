/**
 * Keyword Updated: the projects and groups that left `groups/active` (archived or deleted) since the last poll. Pure.
 * Each is looked up (#2) once: an archived one (its project_id the same, where the API gives one) has its window read
 * up to its last update, so that a crawl made just before it was archived is reported; a deleted one (404/410) is
 * forgotten; one whose lookup fails is parked, and forgotten after DEPARTED_FAILURES polls.
 */
import {
	DEPARTED_FAILURES,
	windowJob,
	type ContainerState,
	type DepartureJob,
	type KeywordState,
	type ListJob,
} from './plan';
import { SETTLE_SECONDS } from '../polling/triggerApi';

/**
 * What a departed container's lookup (#2) found: its update time and list length, and whether its id is the one
 * known; undefined when the lookup answered 404/410 (deleted). Returns the window to read — up to its last update (no
 * other crawl of it will come), held back to the API's clock (`now`, its Date header) less
 * SETTLE_SECONDS — or undefined when nothing is left (forgotten).
 */
export function departedWindow(
	departure: DepartureJob,
	found: { updatedAt?: number; count?: number; sameContainer: boolean } | undefined,
	now: number | undefined,
): ListJob | undefined {
	if (!found || !found.sameContainer) return undefined;
	const updatedAt = found.updatedAt;
	if (updatedAt === undefined || updatedAt <= departure.reportedUpTo) return undefined;
	const held = now === undefined ? updatedAt : now - SETTLE_SECONDS;
	const end = Math.max(departure.reportedUpTo, Math.min(updatedAt, held));
	return {
		...windowJob(departure.key, departure.name, departure.reportedUpTo, end, found.count),
		departed: true,
		until: updatedAt,
		// Failing polls count on from its lookup's to its list's: it is given up after DEPARTED_FAILURES in a row.
		...(departure.parked && { parked: departure.parked }),
	};
}

/**
 * A departed container with nothing left to read (its last update already reported): the mark may stand at that
 * update, held back to `now` less SETTLE_SECONDS, so that a restore starts after it and reports nothing twice.
 */
export function markPastDeparture(
	next: KeywordState,
	updatedAt: number,
	now: number | undefined,
): void {
	const held = now === undefined ? updatedAt : Math.min(updatedAt, now - SETTLE_SECONDS);
	if (held > next.mark) next.mark = held;
}

/**
 * The warning of the poll that gives up a departed container (it failed DEPARTED_FAILURES polls in a row): what it
 * still owed is not emitted, and no later poll speaks of it again.
 */
export function givenUp(name: string, polls: number, message: string): string {
	return `"${name}" left groups/active (archived or deleted) and could not be read ${polls} polls in a row (${message}); it is given up: its updates from before it left are not emitted`;
}

/**
 * A departure's lookup could not be made (an error, or no time): it is looked up again at the next poll. True when
 * it is given up instead (its lookup failed DEPARTED_FAILURES polls in a row): the poll says so.
 */
export function settleDeparture(
	next: KeywordState,
	departure: DepartureJob,
	failed?: { status: string | null },
): boolean {
	const entry: ContainerState = {
		name: departure.name,
		reportedUpTo: departure.reportedUpTo,
		departed: true,
	};
	if (failed) {
		entry.failure = { status: failed.status, polls: (departure.parked?.polls ?? 0) + 1 };
		if (entry.failure.polls >= DEPARTED_FAILURES) return true;
	} else if (departure.parked) entry.failure = departure.parked;
	next.containers.set(departure.key, entry);
	next.known.set(departure.key, departure.name);
	return false;
}
