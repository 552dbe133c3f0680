/**
 * How many requests are in flight: request slots for the pages of one read, and a bounded map for the trigger's
 * per-project reads.
 */
import { sleep } from 'n8n-workflow';

import type { AttemptHooks } from '../transport';

/**
 * A lease on one of a fixed number of request slots. The request runner gives its slot back as soon as a page's
 * answer is in, before parsing it, so the next page is already on the wire while this one is parsed and shaped; it
 * takes a slot again before any retry. So at most `concurrency` requests are in flight, and the client's own work
 * (JSON parsing, Simplify, redaction) overlaps the waiting instead of delaying the next request.
 */
export interface SlotLease {
	/**
	 * Gives the slot back; calling it again does nothing. True when a waiting page took the slot at once (then its
	 * request is about to leave).
	 */
	release(): boolean;
	/**
	 * Takes a slot again after `release` (for a retry: ahead of the pages not yet started, which come later in the
	 * list); does nothing while the slot is held. Fails once the read was stopped (`RequestSlots.stop`).
	 */
	acquire(): Promise<void>;
}

/** `size` request slots, handed out first come, first served (pages leave in page order). */
export class RequestSlots {
	private free: number;

	private readonly waiting: Array<() => void> = [];

	private stopped = false;

	constructor(size: number) {
		// A whole number of at least 1 (the option may come from an expression).
		this.free = Math.max(1, Math.floor(size) || 1);
	}

	async lease(): Promise<SlotLease> {
		await this.take(false);
		let held = true;
		return {
			release: () => {
				if (!held) return false;
				held = false;
				return this.give();
			},
			acquire: async () => {
				if (held) return;
				if (this.stopped) throw new Error('Not retried: another page of this list failed');
				await this.take(true);
				held = true;
			},
		};
	}

	/**
	 * The read failed: pages whose answer is still on the way finish, but none is retried (a retry after a 429 may
	 * wait up to a minute, and would overlap whatever the workflow does next).
	 */
	stop(): void {
		this.stopped = true;
	}

	private async take(first: boolean): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) =>
			first ? this.waiting.unshift(resolve) : this.waiting.push(resolve),
		);
	}

	/** True when the slot went straight to a waiting page. */
	private give(): boolean {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
		return next !== undefined;
	}
}

/**
 * Gives the event loop a few turns before this page's JSON is parsed, so the request just started for the next page
 * is on the wire first. n8n's request helper needs several turns to get a request out (URL check, agent, connect);
 * traced in n8n's engine at 20 ms latency: after one turn the next request still waited behind the parse, after two
 * or three it reached the server before the parse began (one page after another: 27 → 23 ms a page).
 */
async function letRequestLeave(turns = 3): Promise<void> {
	for (let turn = 0; turn < turns; turn++) await sleep(0);
}

/**
 * A page's request with its slot: the slot goes to the next page as soon as the answer is in (before it is parsed),
 * and is taken again before a retry. `mayRetry` can refuse a retry (an answer no longer needed).
 */
export function slotHooks(lease: SlotLease, mayRetry?: () => void): AttemptHooks {
	return {
		beforeRetry: async () => {
			mayRetry?.();
			await lease.acquire();
		},
		onAnswer: async () => {
			if (lease.release()) await letRequestLeave();
		},
	};
}

/** Runs `task` over `inputs` with at most `concurrency` running at once; results keep the input order. */
export async function mapConcurrent<T, R>(
	inputs: readonly T[],
	concurrency: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(inputs.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < inputs.length) {
			const index = next++;
			const pending = task(inputs[index], index);
			// A failed page stops the other workers from starting new pages; the failure itself propagates below.
			pending.catch(() => {
				failed = true;
			});
			results[index] = await pending;
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}
