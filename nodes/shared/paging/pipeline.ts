/**
 * Return All / Limit's driver of an overlapping read (see index.ts): windows planned ahead and sent as request slots
 * free up, so that up to `concurrency` requests stay in flight; answers are judged in list order.
 */
import { judgeWindowTakingAll, OverlappingRead } from './judge';
import { RequestSlots, slotHooks } from './slots';
import {
	windowAround,
	type PageSizes,
	type ReadPosition,
	type ServedPage,
	type Window,
} from './windows';
import type { AttemptHooks } from '../transport';

export interface PipelineOptions<K> {
	/** Fetches one window; `hooks` tie its request to its slot (given back once the answer is in, see slots.ts). */
	fetch: (page: number, perPage: number, hooks: AttemptHooks) => Promise<ServedPage>;
	keyOf: (record: unknown) => K | undefined;
	compare: (a: K, b: K) => number;
	sizes: PageSizes;
	/** Most requests in flight. */
	concurrency: number;
	/** Records wanted after the start position (Infinity: up to the end of the list). */
	wanted: number;
	/** Most requests the read may send, given the list's total as last seen. */
	maxRequests: (total: number) => number;
	/** Takes the records of each window accepted that lie after the edge, in list order; returns how many it kept. */
	take: (fresh: Array<{ key: K; record: unknown }>) => number;
}

export interface PipelineOutcome<K> {
	position: ReadPosition<K>;
	/** The end of the list, or the records wanted, was reached. */
	complete: boolean;
	/** Why it stopped before: too many requests (the list changes faster than it can be followed), or out of order. */
	stoppedBy?: 'requests' | 'unordered';
	/** Requests sent. */
	requests: number;
}

interface PlannedWindow {
	window: Window;
	/** Its answer is no longer wanted: not sent if it has not left yet, not retried, ignored. */
	discarded: boolean;
	sent: boolean;
	answer?: { ok: true; value: ServedPage } | { ok: false; error: unknown };
	done: Promise<void>;
}

/**
 * Reads a list forward from `start` to its end (or until `wanted` records were taken) while it may change, with up to
 * `concurrency` requests in flight. Windows are planned ahead from where the previous one is expected to end, each
 * holding that record (see windowAround), and sent as request slots free up; their answers are judged in list order.
 * A window that does not connect (the list shifted) discards the windows planned after it, sent or not (their answers
 * are ignored, none is retried), and reading goes on from the corrected position. So every record present throughout
 * the read is taken once, in order. A quiet list costs only the overlap of one record a window (page sizes permitting);
 * once records are deleted before the edge, the windows overlap a little more for a while (`margin`).
 */
export async function readPipelined<K>(
	start: ReadPosition<K>,
	options: PipelineOptions<K>,
): Promise<PipelineOutcome<K>> {
	const slots = new RequestSlots(options.concurrency);
	// More windows planned than slots: a slot freed by an answer goes at once to the next window (its request leaves
	// before that answer is parsed), and an answer that comes late does not leave the other slots idle.
	const ahead = 2 * Math.max(1, Math.floor(options.concurrency) || 1) + 1;
	const queue: PlannedWindow[] = [];
	const outstanding = new Set<Promise<void>>();
	const read = new OverlappingRead<K>(start, options.sizes, 'forward', (window, served, position) =>
		judgeWindowTakingAll(window, served, position, options.keyOf, options.compare),
	);
	let planAt = start.index;
	let requests = 0;
	let taken = 0;
	// Records a window keeps before the expected edge: 0 while the list is quiet (the fewest requests); when records
	// are deleted before the edge between two requests, enough that the next windows still hold it.
	let margin = 0;
	const maxMargin = Math.floor(options.sizes.min / 2);

	const launch = (window: Window): PlannedWindow => {
		const entry: PlannedWindow = { window, discarded: false, sent: false, done: Promise.resolve() };
		entry.done = (async () => {
			const lease = await slots.lease();
			try {
				if (entry.discarded) return;
				entry.sent = true;
				requests++;
				const hooks = slotHooks(lease, () => {
					if (entry.discarded) throw new Error('Not retried: the answer is no longer needed');
				});
				entry.answer = { ok: true, value: await options.fetch(window.page, window.perPage, hooks) };
			} catch (error) {
				entry.answer = { ok: false, error };
			} finally {
				lease.release();
			}
		})();
		const done = entry.done;
		outstanding.add(done);
		void done.then(() => outstanding.delete(done));
		return entry;
	};

	const discardAll = () => {
		for (const entry of queue) entry.discarded = true;
		queue.length = 0;
	};

	const fill = () => {
		const { position, sizes } = read;
		if (queue.length === 0) planAt = position.index;
		// Index of the last record wanted; a window is always asked after the position, to see where the list ends.
		const lastWanted = position.index + (options.wanted - taken);
		while (queue.length < ahead) {
			if (queue.length > 0 && (planAt >= position.total - 1 || planAt >= lastWanted)) break;
			const waiting = queue.filter((entry) => !entry.sent).length;
			if (requests + waiting >= options.maxRequests(position.total)) break;
			let window = windowAround(
				planAt < 0 ? planAt : Math.max(0, planAt - margin),
				'forward',
				sizes,
			);
			// Only a window that reaches past the edge helps (with one page size, none but the next page does).
			if (window.start + window.perPage - 1 <= planAt)
				window = windowAround(planAt, 'forward', sizes);
			queue.push(launch(window));
			planAt = window.start + window.perPage - 1;
		}
	};

	const outcome = (
		rest: Omit<PipelineOutcome<K>, 'position' | 'requests'>,
	): PipelineOutcome<K> => ({ position: read.position, requests, ...rest });

	try {
		fill();
		while (queue.length > 0) {
			const head = queue[0];
			await head.done;
			queue.shift();
			const answer = head.answer as NonNullable<PlannedWindow['answer']>;
			if (!answer.ok) throw answer.error;
			// Where the read stood and the sizes it planned with, before this answer moves them.
			const { position, sizes } = read;
			const verdict = read.follow(head.window, answer.value);
			if (verdict.kind === 'unordered') return outcome({ complete: false, stoppedBy: 'unordered' });
			if (verdict.kind === 'end') return outcome({ complete: true });
			if (verdict.kind === 'move') {
				if (verdict.toward === 'start') margin = Math.min(maxMargin, Math.max(4, 2 * margin));
				discardAll();
			} else {
				// How far the edge moved back since it was read (records deleted before it): keep twice that in hand.
				const size =
					answer.value.perPage && answer.value.perPage > 0
						? answer.value.perPage
						: head.window.perPage;
				const found =
					(head.window.page - 1) * size + answer.value.records.length - verdict.fresh.length - 1;
				const drift = position.edge === undefined ? 0 : position.index - found;
				margin =
					drift > 0
						? Math.min(maxMargin, Math.max(margin, 2 * drift))
						: Math.floor((margin * 3) / 4);
				taken += options.take(verdict.fresh);
				if (verdict.end || taken >= options.wanted) return outcome({ complete: true });
				// The API serves other page sizes than planned with: the windows planned after this one would not connect.
				if (read.sizes.min !== sizes.min || read.sizes.max !== sizes.max) discardAll();
			}
			fill();
		}
		return outcome({ complete: false, stoppedBy: 'requests' });
	} finally {
		// Nothing outlives the read: windows not sent are dropped, those in flight answer (and are not retried).
		slots.stop();
		discardAll();
		await Promise.all([...outstanding]);
	}
}
