/**
 * `npm run demo` (scripts/demo.sh → node build/e2e/demo/demo.cjs): the package working inside a real n8n, with no
 * Keyword.com account.
 *
 * 1. builds the package and packs it (`n8n-node build`, `npm pack`);
 * 2. starts the project's fake Keyword.com API on loopback (demo data: two projects, ~30 keywords, alerts, AI domains);
 * 3. creates a fresh n8n 2.x (cached install, temp user folder) and installs the tarball as a community package,
 *    the way users install it; imports a "Keyword.com account" credential pointed at the fake;
 * 4. imports the example workflows of examples/ and a runnable test copy of each (third-party nodes stubbed),
 *    runs the copies headlessly and prints what each produced; the AI Agent example's OpenAI Chat Model talks to the
 *    project's scripted fake model (dev/fake-model, in this process), which calls the Keyword.com tools and answers;
 * 5. publishes the MCP server example, starts n8n and calls it with the official MCP SDK (list the tools, call one);
 * 6. with --keep-open, keeps n8n's editor running with an owner account, prints where to sign in (and the MCP URL and
 *    token), and waits for Ctrl-C.
 * Every process it started (n8n, its task runners, the fake API) and the fake model are stopped on exit, on Ctrl-C and
 * on errors.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import {
	EXAMPLES,
	EXAMPLE_CREDENTIAL_NAME,
	FakeApiProcess,
	RealN8n,
	buildAndPackPackage,
	importAndRunExamples,
	installN8nHost,
	keywordComCredential,
	removeTarball,
	type ExampleRun,
} from '../lib/index.cjs';
import {
	EXAMPLE_MCP_CREDENTIAL_NAME,
	EXAMPLE_OPENAI_CREDENTIAL_NAME,
	exampleMcpCredential,
	exampleModelCredential,
	startExampleModel,
} from '../lib/examples.cjs';
import type { FakeModel } from '../lib/fake-model.cjs';

interface DemoOptions {
	keepOpen: boolean;
	port?: number;
}

const OWNER = { email: 'demo@example.com', password: 'Demo-Passw0rd' };

function parseArgs(argv: string[]): DemoOptions {
	const opts: DemoOptions = { keepOpen: false };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep-open') opts.keepOpen = true;
		else if (arg === '--port' && /^\d+$/.test(argv[i + 1] ?? '')) opts.port = Number(argv[++i]);
		else if (arg === '--help' || arg === '-h') {
			process.stdout.write(
				'Usage: npm run demo [-- --keep-open [--port 5678]]\n' +
					'  Runs the example workflows of examples/ in a real n8n against a fake Keyword.com API (and a scripted fake\n' +
					'  chat model for the AI Agent example), calls the MCP server example with an MCP client, prints a summary.\n' +
					'  --keep-open  keep n8n (and the fake) running afterwards and print how to sign in; Ctrl-C stops both.\n' +
					'  --port N     port of the n8n editor with --keep-open (default 5678, or a free one if it is taken).\n',
			);
			process.exit(0);
		} else {
			process.stderr.write(`demo: unknown option ${arg} (try --help)\n`);
			process.exit(2);
		}
	}
	return opts;
}

const started = Date.now();
const seconds = (from = started): string => `${((Date.now() - from) / 1000).toFixed(1)} s`;
const say = (line = ''): void => {
	process.stdout.write(`${line}\n`);
};

async function portIsFree(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function step<T>(label: string, work: () => Promise<T> | T): Promise<T> {
	const t = Date.now();
	process.stdout.write(`• ${label} … `);
	const result = await work();
	say(`done (${seconds(t)})`);
	return result;
}

function n8nVersion(hostDir: string): string {
	try {
		return (
			JSON.parse(
				fs.readFileSync(path.join(hostDir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
			) as { version: string }
		).version;
	} catch {
		return '2.x';
	}
}

async function main(): Promise<number> {
	const opts = parseArgs(process.argv.slice(2));
	let tarball: string | undefined;
	let fake: FakeApiProcess | undefined;
	let model: FakeModel | undefined;
	let n8n: RealN8n | undefined;

	let cleaning: Promise<void> | undefined;
	const cleanUp = async (): Promise<void> => {
		cleaning ??= (async () => {
			await n8n?.dispose().catch(() => undefined);
			await fake?.stop().catch(() => undefined);
			await model?.stop().catch(() => undefined);
			removeTarball(tarball);
		})();
		await cleaning;
	};
	let interrupted = false;
	const onSignal = (signal: NodeJS.Signals): void => {
		if (interrupted) return;
		interrupted = true;
		say(`\n${signal}: stopping n8n, the fake API and the fake model …`);
		void cleanUp().then(() => {
			say('Stopped.');
			process.exit(opts.keepOpen ? 0 : 130);
		});
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	try {
		say('Keyword.com for n8n: demo (no Keyword.com account needed)');
		const hostDir = await step(
			'Preparing n8n (cached; the first time this installs it, a few minutes)',
			() => installN8nHost(),
		);
		const version = n8nVersion(hostDir);
		tarball = await step('Building and packing the package (n8n-node build, npm pack)', () =>
			buildAndPackPackage(),
		);
		fake = await step('Starting the fake Keyword.com API on loopback', () =>
			FakeApiProcess.start({ seed: 'demo' }),
		);
		model = await step(
			'Starting the scripted fake chat model (OpenAI-compatible) on loopback',
			() => startExampleModel(),
		);
		let port = opts.port || undefined; // --port 0: any free port
		if (opts.keepOpen && opts.port !== 0) {
			port ??= 5678;
			if (!(await portIsFree(port))) {
				say(`  (port ${port} is taken: using a free one)`);
				port = undefined;
			}
		}
		n8n = await step(
			`Starting a fresh n8n ${version} and installing ${path.basename(tarball)} as a community package`,
			() => RealN8n.create({ packageTarball: tarball, name: 'demo', port }),
		);
		const fakeApi = fake;
		const fakeModel = model;
		const instance = n8n;
		const mcpToken = `mcp-demo-${randomBytes(12).toString('hex')}`;
		await step(
			`Adding the credentials "${EXAMPLE_CREDENTIAL_NAME}" (pointed at the fake API), "${EXAMPLE_OPENAI_CREDENTIAL_NAME}" ` +
				`(pointed at the fake model) and "${EXAMPLE_MCP_CREDENTIAL_NAME}"`,
			() =>
				instance.importCredentials([
					keywordComCredential(fakeApi.baseUrl, fakeApi.token),
					exampleModelCredential(fakeModel.baseUrl, fakeModel.apiKey),
					exampleMcpCredential(mcpToken),
				]),
		);

		const printRun = (run: ExampleRun): void => {
			say(
				`  ${run.ok ? '✔' : '✘'} ${run.spec.title}  (examples/${run.spec.file}, ${(run.durationMs / 1000).toFixed(1)} s)`,
			);
			say(`      ${run.summary}`);
		};
		say(
			'• Importing the example workflows and running a test copy of each (third-party nodes stubbed):',
		);
		say();
		const runs: ExampleRun[] = await importAndRunExamples(instance, {
			specs: EXAMPLES.filter((spec) => spec.kind !== 'mcp'),
			onResult: printRun,
		});
		const mcpSpecs = EXAMPLES.filter((spec) => spec.kind === 'mcp');
		if (mcpSpecs.length > 0) {
			say();
			say(
				'• Publishing the MCP server example, starting n8n and calling it with an MCP client (the official SDK):',
			);
			say();
			runs.push(
				...(await importAndRunExamples(instance, {
					specs: mcpSpecs,
					mcpToken,
					onResult: printRun,
				})),
			);
		}
		say();
		const failed = runs.filter((run) => !run.ok);
		const requests = await fake.requests();
		say(
			`${runs.length - failed.length} of ${runs.length} example workflows ran in n8n ${version}; ` +
				`the fake Keyword.com API answered ${requests.length} requests, the fake model ${fakeModel.chatRequests().length}. Total ${seconds()}.`,
		);
		if (failed.length > 0)
			say(
				`n8n's log: ${instance.logFile} (kept: set KEYWORD_COM_E2E_KEEP=1 to keep it after exit)`,
			);

		if (!opts.keepOpen) {
			say('Run `npm run demo -- --keep-open` to open them in the n8n editor.');
			return failed.length === 0 ? 0 : 1;
		}

		if (!instance.running) await step('Starting the n8n editor', () => instance.start());
		await step('Creating the owner account', () => instance.setupOwnerAndLogin(OWNER));
		say();
		say(`n8n is running: ${instance.baseUrl}/`);
		say(`  Sign in as ${OWNER.email}, password ${OWNER.password}`);
		say(
			'  Workflows (each example as shipped, and its runnable test copy; press "Execute workflow" in a copy):',
		);
		for (const run of runs) {
			say(`    ${instance.baseUrl}/workflow/${run.exampleId}   ${run.spec.title}`);
			if (run.copyId)
				say(`    ${instance.baseUrl}/workflow/${run.copyId}   ${run.spec.title} (test copy)`);
		}
		for (const run of runs.filter((r) => r.mcp)) {
			say(`  MCP server (published): ${run.mcp!.url}   header "Authorization: Bearer ${mcpToken}"`);
		}
		say(`  Fake Keyword.com API: ${fake.baseUrl} (credential "${EXAMPLE_CREDENTIAL_NAME}")`);
		say(
			`  Fake chat model: ${fakeModel.baseUrl} (credential "${EXAMPLE_OPENAI_CREDENTIAL_NAME}"; "Open chat" in the agent example: it answers from a script)`,
		);
		say('Press Ctrl-C to stop n8n, the fake API and the fake model.');
		// Wait for a signal (the handler exits the process); a keep-alive timer holds the event loop.
		await new Promise<never>(() => {
			setInterval(() => undefined, 1 << 30);
		});
		return 0;
	} finally {
		if (!interrupted) await cleanUp();
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		process.stderr.write(
			`\ndemo failed: ${error instanceof Error ? error.message : String(error)}\n`,
		);
		process.exit(1);
	},
);
