/**
 * Runs the fake chat model as a process:
 *   node build/dev/fake-model/cli.cjs [--port N] [--script FILE.json | --script-json '<json>'] [--api-key K] [--model ID]...
 * Prints one line of JSON `{"baseUrl": "http://127.0.0.1:<port>/v1", "apiKey": "..."}` once listening, and exits
 * cleanly on SIGTERM/SIGINT. Loopback only.
 */
import * as fs from 'node:fs';

import { parseScript, type ScriptStep } from './script.cjs';
import { FakeModel } from './server.cjs';
import { serveUntilSignal } from '../serve-until-signal.cjs';

const USAGE =
	"Usage: cli.js [--port N] [--script FILE.json | --script-json '<json>'] [--api-key K] [--model ID]...\n";

/** Without a script, every conversation gets one fixed answer. */
const DEFAULT_SCRIPT: ScriptStep[] = [
	{ text: 'This is the fake model: it was started without a script.' },
];

function fail(message: string): never {
	process.stderr.write(`fake-model: ${message}\n${USAGE}`);
	process.exit(2);
}

interface CliOptions {
	port: number;
	script: ScriptStep[];
	apiKey?: string;
	models: string[];
}

export function parseArgs(argv: string[]): CliOptions {
	const opts: CliOptions = { port: 0, script: DEFAULT_SCRIPT, models: [] };
	const readScript = (text: string, from: string): ScriptStep[] => {
		try {
			return parseScript(JSON.parse(text));
		} catch (err) {
			return fail(`${from}: ${err instanceof Error ? err.message : String(err)}`);
		}
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = (): string => {
			const v = argv[++i];
			if (v === undefined) fail(`${flag} needs a value`);
			return v;
		};
		switch (flag) {
			case '--port': {
				const v = value();
				if (!/^\d+$/.test(v)) fail(`--port needs a non-negative integer, got "${v}"`);
				opts.port = Number(v);
				break;
			}
			case '--script': {
				const file = value();
				let text: string;
				try {
					text = fs.readFileSync(file, 'utf8');
				} catch (err) {
					return fail(`--script ${file}: ${err instanceof Error ? err.message : String(err)}`);
				}
				opts.script = readScript(text, file);
				break;
			}
			case '--script-json':
				opts.script = readScript(value(), '--script-json');
				break;
			case '--api-key':
				opts.apiKey = value();
				break;
			case '--model':
				opts.models.push(value());
				break;
			case '--help':
				process.stdout.write(USAGE);
				process.exit(0);
				break;
			default:
				fail(`unknown option ${flag}`);
		}
	}
	return opts;
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	const model = await FakeModel.start({
		port: opts.port,
		script: opts.script,
		apiKey: opts.apiKey,
		models: opts.models.length ? opts.models : undefined,
	});
	serveUntilSignal(
		{ baseUrl: model.baseUrl, apiKey: model.apiKey },
		async () => await model.stop(),
	);
}

if (require.main === module) {
	main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
}
