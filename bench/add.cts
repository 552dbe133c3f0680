/**
 * Scenario 3, bulk add (test/harness `runNode`, real HTTP): N keywords given as a list in one item, at the default
 * Chunk Size and at 1000, against the naive way (one item, hence one request, per keyword) measured on a sample
 * and scaled to N (request count exact, time proportional: every naive request waits the same latency).
 * Each run gets a fresh fake: the API allows 10,000 added keywords a day.
 */
import { DEFAULT_ADD_CHUNK_SIZE } from '../nodes/shared/constants';
import {
	ceilDiv,
	check,
	log,
	startFake,
	rl,
	type BenchFake,
	round,
	runKeywordCom,
	type SectionResult,
} from './lib.cjs';

export interface AddOptions {
	keywords: number;
	naiveSample: number;
	latencyMs: number;
}

const PROJECT = 'Bulk Add';

async function freshFake(latencyMs: number): Promise<BenchFake> {
	const fake = await startFake();
	await fake.addProject(PROJECT);
	await fake.setLatency(latencyMs);
	await fake.reset();
	return fake;
}

export function keywordList(count: number, prefix = 'bulk keyword'): string[] {
	return Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
}

export async function benchAdd({
	keywords,
	naiveSample,
	latencyMs,
}: AddOptions): Promise<SectionResult> {
	const result: SectionResult = { rows: [], checks: [] };
	const list = keywordList(keywords);
	let chunkedMs = 0;
	for (const chunkSize of [DEFAULT_ADD_CHUNK_SIZE, 1000]) {
		const fake = await freshFake(latencyMs);
		try {
			const options = chunkSize === DEFAULT_ADD_CHUNK_SIZE ? {} : { chunkSize };
			const run = await runKeywordCom(fake, {
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords: list,
				url: 'acme.com',
				options,
			});
			const seen = await fake.requests();
			const posts = seen.filter((r) => r.method === 'POST');
			const summary = run.result.items[0]?.json ?? {};
			const expected = ceilDiv(keywords, chunkSize);
			if (chunkSize === DEFAULT_ADD_CHUNK_SIZE) chunkedMs = run.ms;
			log(
				`add ${keywords} chunk ${chunkSize}: ${posts.length} requests, ${round(run.ms)} ms, added ${String(summary.added)}`,
			);
			check(
				result,
				`add ${keywords} in one item, chunk ${chunkSize}: ⌈${keywords}/${chunkSize}⌉ = ${expected} requests`,
				posts.length === expected && seen.length === expected,
				`${posts.length}`,
			);
			check(
				result,
				`add ${keywords}, chunk ${chunkSize}: all added`,
				summary.added === keywords,
				String(summary.added),
			);
			result.rows.push({
				section: 'add',
				scenario: `Keyword.com Add, ${keywords.toLocaleString('en')} keywords in one item, Chunk Size ${chunkSize}${chunkSize === DEFAULT_ADD_CHUNK_SIZE ? ' (default)' : ''}`,
				latencyMs,
				requests: posts.length,
				ms: round(run.ms),
				items: run.result.items.length,
			});
		} finally {
			await fake.stop();
		}
	}

	// Naive: one item per keyword (Keywords = {{ $json.kw }}), so one request per keyword. Measured on the sample.
	const fake = await freshFake(latencyMs);
	try {
		const items = keywordList(naiveSample, 'naive keyword').map((kw) => ({ json: { kw } }));
		const run = await runKeywordCom(
			fake,
			{
				resource: 'keyword',
				operation: 'add',
				project: rl(PROJECT),
				keywords: '={{ $json.kw }}',
				url: 'acme.com',
			},
			items,
		);
		const posts = (await fake.requests()).filter((r) => r.method === 'POST').length;
		check(
			result,
			`naive add of ${naiveSample}: one request per keyword`,
			posts === naiveSample,
			`${posts}`,
		);
		const scale = keywords / naiveSample;
		const projectedMs = run.ms * scale;
		result.rows.push({
			section: 'add',
			scenario: `Naive add: one item per keyword, ${naiveSample.toLocaleString('en')} measured`,
			latencyMs,
			requests: posts,
			ms: round(run.ms),
			items: run.result.items.length,
		});
		result.rows.push({
			section: 'add',
			scenario: `Naive add: ${keywords.toLocaleString('en')} keywords (computed from the ${naiveSample.toLocaleString('en')} sample)`,
			latencyMs,
			requests: keywords,
			ms: round(projectedMs),
			note: `computed: ${naiveSample.toLocaleString('en')}-keyword sample × ${round(scale, 2)}`,
		});
		const chunkedRow = result.rows.find(
			(r) => r.section === 'add' && r.scenario.includes('(default)'),
		);
		if (chunkedRow && chunkedMs > 0) {
			chunkedRow.ratio = round(projectedMs / chunkedMs, 1);
			chunkedRow.ratioLabel = 'faster than one request per keyword';
		}
	} finally {
		await fake.stop();
	}
	return result;
}
