/**
 * The trigger's driver of an overlapping read (see index.ts): a batch of windows at a time, as many as the poll's
 * time and request budget allow, judged in list order. The I/O comes in as parameters.
 */
import { judgeWindow, OverlappingRead } from './judge';
import {
	planWindows,
	type Direction,
	type PageSizes,
	type ReadPosition,
	type ServedPage,
} from './windows';

export interface BatchReadOptions<K> {
	fetch: (page: number, perPage: number) => Promise<ServedPage>;
	direction: Direction;
	keyOf: (record: unknown) => K | undefined;
	compare: (a: K, b: K) => number;
	sizes: PageSizes;
	/** Windows requested at once: a number, or asked before each batch given where the read stands. */
	concurrency: number | ((position: ReadPosition<K>) => number);
	/** Asked before each batch of requests: false stops the read where it is (the poll's time is up). */
	mayContinue: () => boolean;
	/**
	 * Asked before each batch for `wanted` requests: how many may be sent (taken from an allowance shared with other
	 * reads of the same poll; 0 stops the read).
	 */
	grant: (wanted: number) => number;
	/** Keys that compare equal are a run told apart by this id (see judgeWindow). */
	runIdOf?: (key: K) => string;
}

export interface BatchReadOutcome<K> {
	/** Records after the starting edge, in reading order, each once. */
	fresh: Array<{ key: K; record: unknown }>;
	/** Where the read stopped; pass it back to go on. */
	position: ReadPosition<K>;
	/** The page sizes to ask for from now on: those given, or those learned from what the API served. */
	sizes: PageSizes;
	/** The read reached the end of the list. */
	complete: boolean;
	/** Why it stopped before the end. */
	stoppedBy?: 'time' | 'requests' | 'error' | 'unordered';
	error?: unknown;
	requests: number;
}

/**
 * Reads on from `position` until the end of the list, the time or request budget, an error or a shift it cannot
 * follow. Windows are fetched `concurrency` at a time and judged in order; the first that does not connect ends the
 * batch (the later ones were planned from a position that no longer holds).
 */
export async function readInBatches<K>(
	start: ReadPosition<K>,
	options: BatchReadOptions<K>,
): Promise<BatchReadOutcome<K>> {
	const { direction, keyOf, compare, runIdOf } = options;
	const read = new OverlappingRead<K>(start, options.sizes, direction, (window, served, position) =>
		judgeWindow(window, served, position, direction, keyOf, compare, runIdOf),
	);
	const fresh: Array<{ key: K; record: unknown }> = [];
	let requests = 0;
	const finish = (
		outcome: Omit<BatchReadOutcome<K>, 'fresh' | 'position' | 'sizes' | 'requests'>,
	): BatchReadOutcome<K> => ({
		fresh,
		position: read.position,
		sizes: read.sizes,
		requests,
		...outcome,
	});
	// How fast the list moves under the read (records a request, see planWindows): totals served since the first answer.
	let answered = 0;
	let firstTotal = 0;
	for (;;) {
		if (!options.mayContinue()) return finish({ complete: false, stoppedBy: 'time' });
		const { position } = read;
		const concurrency =
			typeof options.concurrency === 'number' ? options.concurrency : options.concurrency(position);
		const planned = planWindows(
			position.index,
			direction,
			read.sizes,
			Math.max(1, concurrency),
			position.total,
			answered > 1 ? Math.abs(position.total - firstTotal) / (answered - 1) : 0,
		);
		if (planned.length === 0) return finish({ complete: true });
		const granted = options.grant(planned.length);
		if (granted <= 0) return finish({ complete: false, stoppedBy: 'requests' });
		const windows = planned.slice(0, granted);
		requests += windows.length;
		const answers = await Promise.allSettled(
			windows.map(async (window) => await options.fetch(window.page, window.perPage)),
		);
		for (let n = 0; n < windows.length; n++) {
			const answer = answers[n];
			if (answer.status === 'rejected')
				return finish({ complete: false, stoppedBy: 'error', error: answer.reason });
			answered++;
			if (answered === 1) firstTotal = answer.value.total ?? read.position.total;
			const verdict = read.follow(windows[n], answer.value);
			if (verdict.kind === 'unordered') return finish({ complete: false, stoppedBy: 'unordered' });
			if (verdict.kind === 'end') return finish({ complete: true });
			if (verdict.kind === 'move') break;
			for (const entry of verdict.fresh) fresh.push(entry);
			if (verdict.end) return finish({ complete: true });
		}
	}
}
