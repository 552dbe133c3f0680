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
		await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
	}

	/** True when the slot went straight to a waiting page. */
	private give(): boolean {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
		return next !== undefined;
	}
}
