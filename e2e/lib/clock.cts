/** Waiting on the wall clock, for tests that act between polls fired at fixed seconds of each minute. */

export const sleep = async (ms: number): Promise<void> =>
	await new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the wall clock's second is `second` (the next time it is). */
export async function untilSecond(second: number): Promise<void> {
	const now = new Date();
	let wait = (second - now.getSeconds()) * 1000 - now.getMilliseconds();
	if (wait <= 0) wait += 60_000;
	await sleep(wait);
}
