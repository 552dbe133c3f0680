/**
 * Runs the fake as a process:
 *   node build/dev/fake-api/cli.js [--port N] [--host 127.0.0.1] [--token T] [--seed demo|empty] [--latency ms]
 *                                  [--keywords N --project NAME] [--cache-reads]
 * Prints one line of JSON `{"baseUrl": "...", "token": "..."}` once listening, and exits cleanly on SIGTERM/SIGINT.
 * It only ever listens on the loopback interface.
 */
import { FakeKeywordApi } from './server';

interface CliOptions {
	port: number;
	host: string;
	token?: string;
	seed: 'demo' | 'empty';
	latency: number;
	keywords: number;
	project?: string;
	/** FakeKeywordApiOptions.cacheReads (benchmarks). */
	cacheReads: boolean;
}

function fail(message: string): never {
	process.stderr.write(`fake-api: ${message}\n`);
	process.exit(2);
}

export function parseArgs(argv: string[]): CliOptions {
	const opts: CliOptions = { port: 0, host: '127.0.0.1', seed: 'demo', latency: 0, keywords: 0, cacheReads: false };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = (): string => {
			const v = argv[++i];
			if (v === undefined) fail(`${flag} needs a value`);
			return v;
		};
		const int = (): number => {
			const v = value();
			if (!/^\d+$/.test(v)) fail(`${flag} needs a non-negative integer, got "${v}"`);
			return Number(v);
		};
		switch (flag) {
			case '--port':
				opts.port = int();
				break;
			case '--host':
				opts.host = value();
				break;
			case '--token':
				opts.token = value();
				break;
			case '--seed': {
				const v = value();
				if (v !== 'demo' && v !== 'empty') fail('--seed must be demo or empty');
				opts.seed = v;
				break;
			}
			case '--latency':
				opts.latency = int();
				break;
			case '--keywords':
				opts.keywords = int();
				break;
			case '--project':
				opts.project = value();
				break;
			case '--cache-reads':
				opts.cacheReads = true;
				break;
			case '--help':
				process.stdout.write('Usage: cli.js [--port N] [--host 127.0.0.1] [--token T] [--seed demo|empty] [--latency ms] [--keywords N --project NAME] [--cache-reads]\n');
				process.exit(0);
				break;
			default:
				fail(`unknown option ${flag}`);
		}
	}
	// Loopback only: the fake has no real security and must never be reachable from elsewhere.
	if (opts.host !== '127.0.0.1' && opts.host !== 'localhost') fail('--host must be 127.0.0.1 (the fake only listens on loopback)');
	opts.host = '127.0.0.1';
	return opts;
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	const api = new FakeKeywordApi({ token: opts.token, seed: opts.seed, latencyMs: opts.latency, cacheReads: opts.cacheReads });
	if (opts.keywords > 0) api.addKeywords(opts.project ?? 'Bulk Project', opts.keywords);
	const baseUrl = await api.start(opts.port, opts.host);
	process.stdout.write(JSON.stringify({ baseUrl, token: api.token }) + '\n');
	let stopping = false;
	const shutdown = (): void => {
		if (stopping) return;
		stopping = true;
		api.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
}

if (require.main === module) {
	main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
}
