/**
 * The two ways the e2e suites wait on a system that moves by itself (n8n's processes, the fake API): every wait has a
 * deadline, and an error that says what did not come and what was seen instead.
 */

const pause = async (ms: number): Promise<void> =>
	await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries `attempt` with a growing pause (100 ms doubling up to 1 s) until it resolves or `timeoutMs` has passed
 * (tried at least once, and once more after the last pause); then throws with the last failure. For what n8n makes
 * reachable a little after it says it is ready: an MCP endpoint registered while the workflow activates, or (n8n 1.x)
 * REST routes mounted after the health check answers.
 */
export async function retryUntil<T>(
	what: string,
	attempt: () => Promise<T>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
		try {
			return await attempt();
		} catch (error) {
			if (Date.now() >= deadline)
				throw new Error(
					`e2e: ${what} did not succeed within ${timeoutMs / 1000} s: ${String(error)}`,
				);
			await pause(delay);
		}
	}
}

export interface WaitOptions {
	timeoutMs: number;
	/** Pause between probes; 500 ms unless given. */
	everyMs?: number;
	/** Added to the error after the deadline: what the last probe saw, a log tail. */
	explain?: () => string;
	/** Builds the error (an instance's, which adds its log tail); a plain Error unless given. */
	error?: (message: string) => Error;
}

/**
 * Probes until `probe` answers something other than `undefined`, `null` or `false`, and returns that. The probe runs
 * at least once and once more after the last pause, so what it sees at the deadline counts. Past `timeoutMs` it
 * throws "e2e: <what> did not happen within N s"; a probe that throws ends the wait with its own error (a process
 * that exited while waited on).
 */
export async function waitUntil<R>(
	what: string,
	probe: () => R | Promise<R>,
	opts: WaitOptions,
): Promise<Exclude<R, undefined | null | false>> {
	const deadline = Date.now() + opts.timeoutMs;
	for (;;) {
		const seen = await probe();
		if (seen !== undefined && seen !== null && seen !== false)
			return seen as Exclude<R, undefined | null | false>;
		if (Date.now() >= deadline) {
			const message = `e2e: ${what} did not happen within ${opts.timeoutMs / 1000} s`;
			const full = opts.explain ? `${message}\n${opts.explain()}` : message;
			throw opts.error ? opts.error(full) : new Error(full);
		}
		await pause(opts.everyMs ?? 500);
	}
}
