/**
 * The benchmarks. Compiled by `npx tsc -p tsconfig.test.json` to build/bench/run.cjs:
 *
 *   node build/bench/run.cjs                      every section
 *   node build/bench/run.cjs --engine             in n8n's engine: Return All, trigger, bulk add, rank rows
 *   node build/bench/run.cjs --return-all --trigger --add --rows --real    any subset
 *   options: --latency 20,100  --keywords 50000  --projects 5  --add-keywords 10000  --naive-sample 1000
 *            --row-keywords 1000  --row-days 30 (rank rows: keywords × days)
 *            --repeat 3 (Return All, in the engine and in real n8n: runs per setting, alternated, fastest kept)
 *            --out bench/results/latest.json
 *
 * `--real` builds and packs the package and runs it in a real n8n (e2e/lib): the Keyword.com node at its default
 * concurrency and at 1 against n8n's HTTP Request node with its pagination, and the peak memory of `n8n execute`
 * with Output Simplified, Raw and Selected Fields. Every node runs at its default version (BENCH_NODE_VERSIONS).
 *
 * Every ratio compares two runs of the same invocation. Results: a Markdown table on stdout and JSON in --out.
 * The exit code is 1 when a checked statement (request counts, order, waiting saved by concurrency, ...) did not hold.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { benchAdd } from './add.cjs';
import type { Row, SectionResult } from './lib.cjs';
import { benchRankingRows } from './rankingRows.cjs';
import { benchReturnAll } from './returnAll.cjs';
import { benchTrigger } from './trigger.cjs';

interface Args {
	sections: Set<string>;
	latencies: number[];
	keywords: number;
	projects: number;
	addKeywords: number;
	naiveSample: number;
	rowKeywords: number;
	rowDays: number;
	repeat: number;
	out: string;
}

const ALL = ['return-all', 'trigger', 'add', 'rows', 'real'];

function parseArgs(argv: string[]): Args {
	const args: Args = {
		sections: new Set(),
		latencies: [20, 100],
		keywords: 50_000,
		projects: 5,
		addKeywords: 10_000,
		naiveSample: 1_000,
		rowKeywords: 1_000,
		rowDays: 30,
		repeat: 3,
		out: path.resolve(__dirname, '..', '..', 'bench', 'results', 'latest.json'),
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = (): string => {
			const v = argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		const int = (): number => {
			const v = value();
			if (!/^\d+$/.test(v)) throw new Error(`${flag} needs a whole number, got "${v}"`);
			return Number(v);
		};
		switch (flag) {
			case '--engine':
				['return-all', 'trigger', 'add', 'rows'].forEach((s) => args.sections.add(s));
				break;
			case '--return-all':
			case '--trigger':
			case '--add':
			case '--rows':
			case '--real':
				args.sections.add(flag.slice(2));
				break;
			case '--all':
				ALL.forEach((s) => args.sections.add(s));
				break;
			case '--latency':
				args.latencies = value()
					.split(',')
					.map((v) => {
						if (!/^\d+$/.test(v.trim()))
							throw new Error(`--latency takes whole numbers of ms, got "${v}"`);
						return Number(v);
					});
				break;
			case '--keywords':
				args.keywords = int();
				break;
			case '--projects':
				args.projects = int();
				break;
			case '--add-keywords':
				args.addKeywords = int();
				break;
			case '--naive-sample':
				args.naiveSample = int();
				break;
			case '--row-keywords':
				args.rowKeywords = int();
				break;
			case '--row-days':
				args.rowDays = Math.min(180, Math.max(1, int()));
				break;
			case '--repeat':
				args.repeat = Math.max(1, int());
				break;
			case '--out':
				args.out = path.resolve(value());
				break;
			case '--help':
				process.stdout.write(fs.readFileSync(__filename, 'utf8').split('*/')[0] + '*/\n');
				process.exit(0);
				break;
			default:
				throw new Error(`unknown option ${flag} (see --help)`);
		}
	}
	if (args.sections.size === 0) ALL.forEach((s) => args.sections.add(s));
	return args;
}

const fmt = (value: number | undefined, digits = 0): string =>
	value === undefined
		? ''
		: value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

export function markdownTable(rows: Row[]): string {
	const head =
		'| Scenario | Latency | Requests | Time (ms) | Ratio | Peak in flight | Items | Peak RSS (MB) | Output (MB) | Note |';
	const line = '|---|---:|---:|---:|---|---:|---:|---:|---:|---|';
	const body = rows.map((r) =>
		[
			r.scenario,
			`${r.latencyMs} ms`,
			fmt(r.requests),
			fmt(r.ms),
			r.ratio !== undefined ? `**${fmt(r.ratio, 2)}×** ${r.ratioLabel ?? ''}` : '',
			fmt(r.peakInFlight),
			fmt(r.items),
			fmt(r.peakRssMb),
			fmt(r.outputMb, 1),
			r.note ?? '',
		].join(' | '),
	);
	return [head, line, ...body.map((b) => `| ${b} |`)].join('\n');
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const started = new Date();
	const results: Record<string, SectionResult> = {};
	const want = (s: string) => args.sections.has(s);
	if (want('return-all'))
		results['return-all'] = await benchReturnAll({
			keywords: args.keywords,
			latencies: args.latencies,
			repeat: args.repeat,
		});
	if (want('trigger'))
		results.trigger = await benchTrigger({
			keywords: args.keywords,
			projects: args.projects,
			latencyMs: args.latencies[0],
		});
	if (want('add'))
		results.add = await benchAdd({
			keywords: args.addKeywords,
			naiveSample: args.naiveSample,
			latencyMs: args.latencies[0],
		});
	if (want('rows'))
		results.rows = await benchRankingRows({
			keywords: args.rowKeywords,
			days: args.rowDays,
			latencyMs: args.latencies[0],
		});
	if (want('real')) {
		// Loaded lazily: it needs the real n8n host and the built package.
		const { benchRealN8n } = await import('./realN8n.cjs');
		results.real = await benchRealN8n({
			keywords: args.keywords,
			latencies: args.latencies,
			repeat: args.repeat,
		});
	}

	const rows = Object.values(results).flatMap((r) => r.rows);
	const checks = Object.values(results).flatMap((r) => r.checks);
	const failed = checks.filter((c) => !c.ok);
	const machine = {
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memGb: Math.round(os.totalmem() / 2 ** 30),
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
	};
	const durationS = Math.round((Date.now() - started.getTime()) / 1000);
	// Sections can be run separately: the file keeps the last run of each section.
	let sections: Record<string, unknown> = {};
	try {
		sections =
			(JSON.parse(fs.readFileSync(args.out, 'utf8')) as { sections?: Record<string, unknown> })
				.sections ?? {};
	} catch {
		// absent or unreadable: start afresh
	}
	for (const [name, value] of Object.entries(results)) {
		sections[name] = {
			date: started.toISOString(),
			durationS,
			args: { ...args, sections: [...args.sections] },
			machine,
			...value,
		};
	}
	fs.mkdirSync(path.dirname(args.out), { recursive: true });
	fs.writeFileSync(
		args.out,
		JSON.stringify({ updated: new Date().toISOString(), sections }, null, 2) + '\n',
	);

	process.stdout.write(`\n${markdownTable(rows)}\n\n`);
	process.stdout.write(
		`${checks.length - failed.length}/${checks.length} checks held; results in ${path.relative(process.cwd(), args.out)}\n`,
	);
	for (const f of failed)
		process.stdout.write(`FAILED: ${f.what}${f.detail ? ` (${f.detail})` : ''}\n`);
	process.exitCode = failed.length > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(2);
});
