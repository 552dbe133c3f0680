/**
 * Scenario 2, the trigger's cost per poll (test/harness `runPoll`, n8n's PollContext, real HTTP), on an account of N
 * keywords spread over P projects:
 * - Keyword Updated: activation, an idle poll, a poll after one project's ranks moved, an idle poll again;
 * - New Alert: activation and an idle poll;
 * - the naive poll: list every keyword of every project (groups/active + all pages, read with the action node's
 *   own fast paging) and compare with what was seen before — measured in the same run.
 *
 * The fake's clock runs an hour behind the real one (its Date header stays real): the trigger then sees every
 * project as settled ("not updated in the last seconds"), as on a real account between two scheduled updates.
 */
import type { IDataObject } from 'n8n-workflow';

import { KeywordComTrigger } from '../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { runPoll } from '../test/harness/index.cjs';
import {
	PAGE_SIZE,
	ceilDiv,
	check,
	listRequests,
	log,
	startFake,
	rl,
	round,
	runKeywordCom,
	type Row,
	type SectionResult,
	BENCH_NODE_VERSIONS,
} from './lib.cjs';

export interface TriggerOptions {
	keywords: number;
	projects: number;
	latencyMs: number;
}

export async function benchTrigger({
	keywords,
	projects,
	latencyMs,
}: TriggerOptions): Promise<SectionResult> {
	const result: SectionResult = { rows: [], checks: [] };
	const fake = await startFake({ clockOffsetMs: 3_600_000 });
	const trigger = new KeywordComTrigger();
	const names = Array.from({ length: projects }, (_, i) => `Project ${i + 1}`);
	const perProject = ceilDiv(keywords, projects);
	try {
		let left = keywords;
		for (const name of names) {
			await fake.addKeywords(name, Math.min(perProject, left));
			left -= Math.min(perProject, left);
		}
		await fake.addAlerts(30);
		await fake.setLatency(latencyMs);
		const row = async (
			scenario: string,
			ms: number,
			items: number,
			note?: string,
		): Promise<Row> => {
			const seen = await fake.requests();
			const lists = listRequests(seen).length;
			const r: Row = {
				section: 'trigger',
				scenario,
				latencyMs,
				requests: seen.length,
				ms: round(ms),
				items,
				note: note ?? `${lists} keyword-list pages`,
			};
			result.rows.push(r);
			return r;
		};
		const poll = async (event: string, staticData: IDataObject | undefined) => {
			await fake.reset();
			const started = performance.now();
			const outcome = await runPoll({
				nodeType: trigger,
				typeVersion: BENCH_NODE_VERSIONS.keywordComTrigger,
				parameters: { event },
				credentials: fake.credentials(),
				staticData,
			});
			const ms = performance.now() - started;
			if (outcome.error) throw new Error(`trigger poll failed: ${outcome.error.message}`);
			const items = outcome.items?.[0]?.length ?? 0;
			return { outcome, ms, items };
		};

		// Keyword Updated
		const activation = await poll('keywordUpdated', undefined);
		await row('Trigger Keyword Updated: activation (first poll)', activation.ms, activation.items);
		const idle = await poll('keywordUpdated', activation.outcome.staticData);
		const idleRow = await row(
			`Trigger Keyword Updated: idle poll (${keywords.toLocaleString('en')} keywords, ${projects} projects)`,
			idle.ms,
			idle.items,
		);
		check(
			result,
			'trigger idle poll (Keyword Updated) costs at most 2 requests',
			idleRow.requests <= 2,
			`${idleRow.requests}`,
		);

		// The API stamps updates to the second; with the fake's clock offset the trigger's "updated this very second"
		// guard cannot see the fake's time, so let the second change before the update.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const moved = await fake.simulateRankUpdate(names[0]);
		const movedPoll = await poll('keywordUpdated', idle.outcome.staticData);
		// ⌈n/250⌉ pages' worth; the windows overlap (each holds the last keyword read), up to 10 % more.
		const movedPages = ceilDiv(Math.min(perProject, keywords), PAGE_SIZE);
		const movedMax = Math.ceil(movedPages * 1.1);
		const movedRow = await row(
			`Trigger Keyword Updated: after "${names[0]}" ranks moved (${moved.toLocaleString('en')} keywords)`,
			movedPoll.ms,
			movedPoll.items,
		);
		const movedLists = listRequests(await fake.requests());
		check(
			result,
			`poll after one project moved reads only that project's list (${movedPages}–${movedMax} windows + groups/active)`,
			movedLists.length >= movedPages &&
				movedLists.length <= movedMax &&
				movedLists.every((r) => r.path.includes(`/groups/${names[0]}/`)) &&
				movedRow.requests === movedLists.length + 1,
			`${movedRow.requests} requests`,
		);
		check(
			result,
			'poll after one project moved emits one item per updated keyword',
			movedPoll.items === moved,
			`${movedPoll.items}`,
		);
		const idleAgain = await poll('keywordUpdated', movedPoll.outcome.staticData);
		const idleAgainRow = await row(
			'Trigger Keyword Updated: idle poll after that',
			idleAgain.ms,
			idleAgain.items,
		);
		check(
			result,
			'idle poll after an update costs at most 2 requests',
			idleAgainRow.requests <= 2 && idleAgain.items === 0,
			`${idleAgainRow.requests}`,
		);

		// New Alert
		const alertActivation = await poll('newAlert', undefined);
		await row(
			'Trigger New Alert: activation (first poll)',
			alertActivation.ms,
			alertActivation.items,
			'alerts page 1',
		);
		const alertIdle = await poll('newAlert', alertActivation.outcome.staticData);
		const alertIdleRow = await row(
			'Trigger New Alert: idle poll',
			alertIdle.ms,
			alertIdle.items,
			'alerts page 1',
		);
		check(
			result,
			'trigger idle poll (New Alert) costs at most 2 requests',
			alertIdleRow.requests <= 2,
			`${alertIdleRow.requests}`,
		);

		// The naive poll: list every project, then every keyword of each, and compare with the previous snapshot.
		await fake.reset();
		const started = performance.now();
		const groups = await fetch(`${fake.baseUrl}/api/v2/groups/active`, {
			headers: { authorization: `Bearer ${fake.token}` },
		});
		await groups.arrayBuffer();
		let records = 0;
		for (const name of names) {
			const run = await runKeywordCom(fake, {
				resource: 'keyword',
				operation: 'getMany',
				project: rl(name),
				returnAll: true,
				output: 'raw',
			});
			records += run.result.items.length;
		}
		const naiveMs = performance.now() - started;
		const naive = await row(
			`Naive poll: list everything and compare (${records.toLocaleString('en')} keywords)`,
			naiveMs,
			0,
			`groups/active + ${listRequests(await fake.requests()).length} pages, each list read 4 pages at a time`,
		);
		idleRow.ratio = round(naive.requests / idleRow.requests, 1);
		idleRow.ratioLabel = 'fewer requests than the naive poll';
		movedRow.ratio = round(naive.requests / movedRow.requests, 1);
		movedRow.ratioLabel = 'fewer requests than the naive poll';
		log(
			`trigger: idle ${idleRow.requests} req, moved ${movedRow.requests} req, naive ${naive.requests} req`,
		);
	} finally {
		await fake.stop();
	}
	return result;
}
