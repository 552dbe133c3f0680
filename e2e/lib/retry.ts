/**
 * Retries `attempt` with a growing pause (100 ms doubling up to 1 s) until it resolves or `timeoutMs` has passed;
 * then throws with the last failure. For what n8n makes reachable a little after it says it is ready: an MCP endpoint
 * registered while the workflow activates, or (n8n 1.x) REST routes mounted after the health check answers.
 */
export async function retryUntil<T>(
	what: string,
	attempt: () => Promise<T>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (let delay = 100; Date.now() < deadline; delay = Math.min(delay * 2, 1_000)) {
		try {
			return await attempt();
		} catch (error) {
			last = error;
			await new Promise((resolve) => setTimeout(resolve, delay));
		}
	}
	throw new Error(`e2e: ${what} did not succeed within ${timeoutMs / 1000} s: ${String(last)}`);
}
