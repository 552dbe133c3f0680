/**
 * Runs the fake as a process:
 *   node build/dev/fake-api/cli.cjs [--port N] [--host 127.0.0.1] [--token T] [--seed demo|empty] [--latency ms]
 *                                  [--keywords N --project NAME] [--cache-reads]
 *                                  [--alert-order as-asked|newest-first|oldest-first] [--history-order newest-first|oldest-first]
 *                                  [--page-latency ms] [--churn '<json>'] [--max-per-page N]
 *                                  [--keyword-order id-ascending|id-descending|keyword-text|rank] [--alert-tie-order by-id|mixed]
 *                                  [--timestamp-offsets with-offset|without-offset] [--groups-last-updated stamped|null]
 *                                  [--project-list-includes-groups] [--clock-behind ms]
 * Prints one line of JSON `{"baseUrl": "...", "token": "..."}` once listening, and exits cleanly on SIGTERM/SIGINT.
 * It only ever listens on the loopback interface.
 */
import {
	ALERT_ORDERS,
	DEFAULT_BEHAVIOUR,
	HISTORY_ORDERS,
	mergeBehaviour,
	type AlertOrder,
	type FakeBehaviour,
	type HistoryOrder,
} from './behaviour.cjs';
import { FakeKeywordApi } from './server.cjs';
import { serveUntilSignal } from '../serve-until-signal.cjs';

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
	/** The behaviour switches given by flags (FakeKeywordApiOptions.behaviour). */
	behaviour: Partial<FakeBehaviour>;
	/** The fake's clock this many ms behind the real one (FakeKeywordApiOptions.now). */
	clockBehind: number;
}

const USAGE =
	'Usage: cli.js [--port N] [--host 127.0.0.1] [--token T] [--seed demo|empty] [--latency ms] [--keywords N --project NAME] [--cache-reads]\n' +
	"              [--alert-order as-asked|newest-first|oldest-first] [--history-order newest-first|oldest-first] [--page-latency ms] [--churn '<json>']\n" +
	'              [--max-per-page N] [--keyword-order id-ascending|id-descending|keyword-text|rank] [--alert-tie-order by-id|mixed]\n' +
	'              [--timestamp-offsets with-offset|without-offset] [--groups-last-updated stamped|null] [--project-list-includes-groups]\n' +
	'              [--project-time-own-keywords] [--clock-behind ms]\n';

function fail(message: string): never {
	process.stderr.write(`fake-api: ${message}\n`);
	process.exit(2);
}

export function parseArgs(argv: string[]): CliOptions {
	const opts: CliOptions = {
		port: 0,
		host: '127.0.0.1',
		seed: 'demo',
		latency: 0,
		keywords: 0,
		cacheReads: false,
		behaviour: {},
		clockBehind: 0,
	};
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
		/** Sets one behaviour switch, checked as setBehaviour checks it. */
		const set = <K extends keyof FakeBehaviour>(key: K, v: unknown): void => {
			try {
				opts.behaviour[key] = mergeBehaviour(DEFAULT_BEHAVIOUR, { [key]: v })[key];
			} catch (err) {
				fail(`${flag}: ${err instanceof Error ? err.message : String(err)}`);
			}
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
			case '--clock-behind':
				opts.clockBehind = int();
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
			case '--alert-order': {
				const v = value();
				if (!(ALERT_ORDERS as readonly string[]).includes(v))
					fail(`--alert-order must be ${ALERT_ORDERS.join(', ')}`);
				opts.behaviour.alertOrder = v as AlertOrder;
				break;
			}
			case '--history-order': {
				const v = value();
				if (!(HISTORY_ORDERS as readonly string[]).includes(v))
					fail(`--history-order must be ${HISTORY_ORDERS.join(', ')}`);
				opts.behaviour.historyOrder = v as HistoryOrder;
				break;
			}
			case '--page-latency':
				opts.behaviour.pageLatencyMs = int();
				break;
			case '--churn': {
				const v = value();
				let churn: unknown;
				try {
					churn = JSON.parse(v);
				} catch {
					fail(`--churn needs a JSON object, got "${v}"`);
				}
				try {
					opts.behaviour.churn = mergeBehaviour(DEFAULT_BEHAVIOUR, { churn }).churn;
				} catch (err) {
					fail(`--churn: ${err instanceof Error ? err.message : String(err)}`);
				}
				break;
			}
			case '--max-per-page':
				set('maxPerPage', int());
				break;
			case '--keyword-order':
				set('keywordOrder', value());
				break;
			case '--alert-tie-order':
				set('alertTieOrder', value());
				break;
			case '--timestamp-offsets':
				set('timestampOffsets', value());
				break;
			case '--groups-last-updated':
				set('groupsLastUpdated', value());
				break;
			case '--project-list-includes-groups':
				set('projectListIncludesGroups', true);
				break;
			case '--project-time-own-keywords':
				set('projectTimeCoversGroups', false);
				break;
			case '--help':
				process.stdout.write(USAGE);
				process.exit(0);
				break;
			default:
				fail(`unknown option ${flag}`);
		}
	}
	// Loopback only: the fake has no real security and must never be reachable from elsewhere.
	if (opts.host !== '127.0.0.1' && opts.host !== 'localhost')
		fail('--host must be 127.0.0.1 (the fake only listens on loopback)');
	opts.host = '127.0.0.1';
	return opts;
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	const behind = opts.clockBehind;
	const api = new FakeKeywordApi({
		now: behind > 0 ? () => Date.now() - behind : undefined,
		token: opts.token,
		seed: opts.seed,
		latencyMs: opts.latency,
		cacheReads: opts.cacheReads,
		behaviour: opts.behaviour,
	});
	if (opts.keywords > 0) api.addKeywords(opts.project ?? 'Bulk Project', opts.keywords);
	const baseUrl = await api.start(opts.port, opts.host);
	serveUntilSignal({ baseUrl, token: api.token }, async () => await api.stop());
}

if (require.main === module) {
	main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
}
