/**
 * The end of a dev server's CLI (the fake API, the fake model): print one JSON line saying where it listens (what a
 * parent process waits for), then stop it cleanly on SIGTERM or SIGINT (exit 0, or 1 when stopping fails).
 */
export function serveUntilSignal(
	announce: Record<string, unknown>,
	stop: () => Promise<void>,
): void {
	process.stdout.write(JSON.stringify(announce) + '\n');
	let stopping = false;
	const shutdown = (): void => {
		if (stopping) return;
		stopping = true;
		stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
}
