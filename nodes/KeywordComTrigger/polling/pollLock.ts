/**
 * One poll at a time per trigger node, in this n8n process. n8n runs a poll for each Poll Time, so two that fire
 * together (Every Hour and Every Day at 09:00) start two polls on the same state, and both would emit the same
 * events. The second one finds the lock taken and does nothing (the first one reads everything there is).
 *
 * A poll that has not finished when its lock expires (past n8n's own timeout, so n8n has abandoned it) loses the lock
 * to the next poll, and keeps nothing when it ends (its state would go over the newer poll's).
 */
const held = new Map<string, { token: symbol; until: number }>();

export interface PollLock {
	/** Whether this poll still holds the lock (a poll that lost it keeps nothing). */
	holds(): boolean;
	release(): void;
}

/** Takes the lock of `key` for at most `forMs`; undefined when another poll holds it. */
export function takePollLock(key: string, forMs: number, now = Date.now()): PollLock | undefined {
	const current = held.get(key);
	if (current && current.until > now) return undefined;
	const token = Symbol(key);
	held.set(key, { token, until: now + forMs });
	return {
		holds: () => held.get(key)?.token === token,
		release: () => {
			if (held.get(key)?.token === token) held.delete(key);
		},
	};
}
