/**
 * The checker checked: the simulation run with deliberately broken triggers (the real trigger with its poll outcome
 * changed before n8n sees it) must be caught, each by the promise it breaks; the same runs with the trigger as it is
 * pass. Two simulated days, calm weather (so the verdict is about the broken part only), through n8n's engine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	Checker,
	type PollObservation,
	type ViolationKind,
} from '../../dev/simulation/checker.cjs';
import type { Fact } from '../../dev/simulation/world.cjs';
import { planAccountLife, type Rates } from '../../dev/simulation/plan.cjs';
import { formatReport } from '../../dev/simulation/report.cjs';
import {
	simulate,
	type PollWrapper,
	type SimulationConfig,
	type TriggerEvent,
} from '../../dev/simulation/run.cjs';

const CALM: Partial<Rates> = {
	rename: 0,
	archive: 0,
	delete: 0,
	latency: 0,
	fault429: 0,
	fault5xx: 0,
	projectFault: 0,
	restart: 0,
	kill: 0,
	budget: 0,
	overlap: 0,
};

function config(event: TriggerEvent, wrapPoll?: PollWrapper): SimulationConfig {
	return {
		seed: 'checker',
		days: 2,
		scheduler: 'in-memory',
		event,
		scope: {},
		rates: CALM,
		wrapPoll,
	};
}

function categoryOf(item: INodeExecutionData): string {
	return String(((item.json.attributes ?? {}) as IDataObject).category ?? '');
}

/** Changes the first poll after activation that has items (once). */
function once(change: (items: INodeExecutionData[]) => INodeExecutionData[]): PollWrapper {
	let done = false;
	return (outcome) => {
		if (done || !outcome || outcome[0].length === 0) return outcome;
		done = true;
		return [change(outcome[0])];
	};
}

interface Broken {
	name: string;
	/** Any of these (an event never emitted is late, and lost unless crawled again later). */
	expect: ViolationKind[];
	wrap: (event: TriggerEvent) => PollWrapper;
}

const BROKEN: Broken[] = [
	{
		name: 'drops one item',
		expect: ['late', 'lost'],
		wrap: () => once((items) => items.slice(1)),
	},
	{
		name: 'emits one item twice',
		expect: ['duplicate'],
		wrap: () => once((items) => [...items, items[0]]),
	},
	{
		name: 'drops every item of one project',
		expect: ['late', 'lost'],
		wrap: () => {
			let project: string | undefined;
			return (outcome) => {
				if (!outcome || outcome[0].length === 0) return outcome;
				project ??= categoryOf(outcome[0][0]).split('[sub]')[0];
				const kept = outcome[0].filter((item) => categoryOf(item).split('[sub]')[0] !== project);
				return kept.length > 0 ? [kept] : null;
			};
		},
	},
	{
		name: 'emits an event from before activation',
		expect: ['before-activation'],
		wrap: (event) =>
			once((items) => {
				const copy = structuredClone(items[0]);
				const at = Math.floor(Date.UTC(2026, 2, 1, 23, 0) / 1000);
				if (event === 'newAlert') {
					// A real alert of the account from before activation.
					copy.json.id = '9001';
					(copy.json.attributes as IDataObject).created_at = at;
				} else copy.json.crawled_at = at;
				return [copy, ...items];
			}),
	},
	{
		name: 'gives a wrong rank',
		expect: ['rank'],
		wrap: (event) =>
			once((items) => {
				const copy = structuredClone(items);
				if (event === 'newAlert') {
					const attributes = copy[0].json.attributes as IDataObject;
					attributes.result = Number(attributes.result) === 1 ? 2 : 1;
				} else copy[0].json.rank = copy[0].json.rank === 1 ? 2 : 1;
				return copy;
			}),
	},
];

for (const event of ['newAlert', 'keywordUpdated'] as const) {
	describe(`the checker, ${event}`, { timeout: 5 * 60_000 }, () => {
		it('passes the trigger as it is (calm weather)', async () => {
			const result = await simulate(config(event));
			assert.equal(result.violations.length, 0, formatReport(result));
			assert.ok(result.summary.emitted > 50, `${result.summary.emitted} events emitted`);
		});
		for (const broken of BROKEN) {
			it(`catches a trigger that ${broken.name} (${broken.expect.join(' or ')})`, async () => {
				const result = await simulate(config(event, broken.wrap(event)));
				const kinds = new Set(result.violations.map((v) => v.kind));
				assert.ok(
					broken.expect.some((kind) => kinds.has(kind)),
					formatReport(result),
				);
			});
		}
		it('catches a trigger whose idle polls send 2 requests (idle-cost)', async () => {
			// Each poll that emits nothing sends its last request once more (booked with the fake as it would be).
			const twice: PollWrapper = (outcome, context) => {
				const requests = context.api.requests;
				if ((!outcome || outcome[0].length === 0) && requests.length > 0)
					requests.push(requests[requests.length - 1]);
				return outcome;
			};
			const result = await simulate(config(event, twice));
			const kinds = new Set(result.violations.map((v) => v.kind));
			assert.ok(kinds.has('idle-cost'), formatReport(result));
		});
		it('catches a scoped trigger that emits an event of another project (out-of-scope)', async () => {
			// Scope the trigger on one project; the broken one adds an event of another.
			const scoped: SimulationConfig = { ...config(event), scope: {} };
			const plan = planAccountLife({
				seed: scoped.seed,
				days: scoped.days,
				scheduler: scoped.scheduler,
				rates: CALM,
			});
			const project = plan.initial.find((c) => !c.key.includes('/'))!.name;
			scoped.scope = { project, includeGroups: true };
			let other: INodeExecutionData | undefined;
			const outsider: PollWrapper = (outcome, context) => {
				// Once, at the first poll after some event of another project happened (in-scope events or not).
				if (other) return outcome;
				// Any item of another project, as the unscoped trigger would give it.
				const state = context.api.state;
				const alert = state.alerts.find(
					(a) => a.createdAt * 1000 >= context.activationAt && !a.category.startsWith(project),
				);
				const keyword = [...state.keywords.values()].find(
					(k) =>
						(k.crawledAt ?? 0) * 1000 >= context.activationAt &&
						!k.container.name.startsWith(project),
				);
				if (event === 'newAlert' && alert)
					other = {
						json: {
							type: 'alert',
							id: String(alert.id),
							attributes: {
								category: alert.category,
								created_at: alert.createdAt,
								prevrank: alert.prevrank,
								result: alert.result,
							},
						},
					};
				if (event === 'keywordUpdated' && keyword)
					other = {
						json: {
							type: 'keyword',
							id: String(keyword.id),
							attributes: { category: keyword.container.name },
							crawled_at: keyword.crawledAt,
							rank: keyword.history[0] || null,
						},
					};
				return other ? [[...(outcome?.[0] ?? []), other]] : outcome;
			};
			const result = await simulate({ ...scoped, wrapPoll: outsider });
			assert.ok(other, 'an event of another project was found');
			assert.ok(
				result.violations.some((v) => v.kind === 'out-of-scope'),
				formatReport(result),
			);
		});
	});
}

/** A checker of Keyword Updated over every project, the API's Date header `dateSkewMs` ahead when given. */
function keywordChecker(dateSkewMs?: number): Checker {
	return new Checker({
		event: 'keywordUpdated',
		scope: {},
		scopeKeys: [],
		...(dateSkewMs !== undefined && { dateSkewMs }),
	});
}

/** A crawl of keyword 7 of project P1 (the world's fact), with `fields` changed. */
function crawlOf(fields: Partial<Fact> = {}): Fact {
	return {
		kind: 'keyword',
		key: 'k:7@100',
		id: '7',
		at: 100,
		category: 'Acme',
		container: 'P1',
		project: 'P1',
		visibleAt: 100_000,
		rank: 3,
		...fields,
	};
}

/** Polls 1 to `count`, every 300 s, that emit nothing; `fields` change what each reports. */
function emptyPolls(checker: Checker, count: number, fields: Partial<PollObservation> = {}): void {
	for (let index = 1; index <= count; index++)
		checker.poll({
			index,
			at: index * 300_000,
			label: 'poll',
			excused: false,
			excusedProjects: new Set(),
			items: [],
			requests: 1,
			stateBytes: 100,
			containersInScope: 1,
			wallMs: 100,
			startedFrom: index - 1,
			...fields,
		});
}

describe('the checker, polls that ran into their time budget', () => {
	/** One keyword crawl owed, then `polls` polls that emit nothing, each running `wallMs` of `budgetMs`. */
	function kindsAfter(
		wallMs: number,
		budgetMs: number | undefined,
		requests = 40,
		slowestRequestMs?: number,
	): Set<string> {
		const checker = keywordChecker();
		checker.activated(0);
		checker.fact(crawlOf());
		emptyPolls(checker, 3, { requests, wallMs, budgetMs, slowestRequestMs });
		return new Set(checker.violations.map((v) => v.kind));
	}

	it('holds a poll that read for 1 s to the delay (late)', () => {
		assert.ok(kindsAfter(1_000, undefined).has('late'));
		assert.ok(kindsAfter(1_000, 36_000).has('late'));
	});

	it("counts a poll that ran into its budget (n8n's, or the 30 s assumed) for no event", () => {
		assert.ok(!kindsAfter(29_000, undefined).has('late'));
		assert.ok(!kindsAfter(35_500, 36_000).has('late'));
		// 25 s of a 36 s budget is not the budget spent.
		assert.ok(kindsAfter(25_000, 36_000).has('late'));
	});

	it("counts a poll the trigger's own rule stopped for time, short of three quarters (seed 64)", () => {
		// 20 s of the 30 s assumed: a request of 9 s (× 1.2) would not be answered within the budget.
		assert.ok(!kindsAfter(20_000, undefined, 40, 9_000).has('late'));
		assert.ok(!kindsAfter(25_000, 36_000, 40, 10_000).has('late'));
		// The same wall time with requests of 1 s: time was left, the poll is held to the delay.
		assert.ok(kindsAfter(20_000, undefined, 40, 1_000).has('late'));
		assert.ok(kindsAfter(25_000, 36_000, 40, 9_000).has('late'));
	});

	it('holds a poll to its hard deadline, not its budget (time)', () => {
		// 36 s budget at a 45 s timeout: requests end at 36 s, shaping may run on to 43 s.
		assert.ok(!kindsAfter(42_000, 36_000).has('time'));
		assert.ok(kindsAfter(44_000, 36_000).has('time'));
		// 2.5 s at 5 s: 3.75 s.
		assert.ok(!kindsAfter(3_500, 2_500).has('time'));
		assert.ok(kindsAfter(4_500, 2_500).has('time'));
		// Without a budget from n8n (the in-memory scheduler has no time-out), no time is held.
		assert.ok(!kindsAfter(60_000, undefined).has('time'));
	});
});

describe('the checker, a project renamed while archived', () => {
	/** A crawl of P1 owed, P1 archived, then (or not) renamed; three polls emit nothing. */
	function kindsAfter(renamed: 'project' | 'group' | 'none', archived = true): Set<string> {
		const checker = keywordChecker();
		checker.activated(0);
		checker.fact(crawlOf({ category: 'Acme[sub]EU', container: 'P1/G1' }));
		if (archived) checker.containerChanged('P1', 'P1', 110_000, 'archived');
		if (renamed === 'project') checker.containerChanged('P1', 'P1', 120_000, 'renamed', 'Acme 2');
		if (renamed !== 'none')
			checker.containerChanged('P1/G1', 'P1', 120_000, 'renamed', 'Acme 2[sub]EU');
		emptyPolls(checker, 3);
		return new Set(checker.violations.map((v) => v.kind));
	}

	it('owes an archived project its crawls from before the archive', () => {
		assert.ok(kindsAfter('none').has('late'));
		assert.ok(kindsAfter('group', false).has('late'));
	});

	it('releases them once it is renamed while archived (its new name cannot be learned)', () => {
		assert.ok(!kindsAfter('project').has('late'));
		assert.ok(!kindsAfter('group').has('late'));
	});
});

describe('the checker, a group renamed and then archived', () => {
	/** A crawl of P1/G1 owed; the group renamed at 105 s, archived at 400 s; a poll at 300 s or none before it. */
	function kindsAfter(pollBetween: boolean): Set<string> {
		const checker = keywordChecker();
		checker.activated(0);
		checker.fact(crawlOf({ category: 'Acme[sub]EU', container: 'P1/G1' }));
		checker.containerChanged('P1/G1', 'P1', 105_000, 'renamed', 'Acme[sub]US');
		const poll = (index: number) =>
			emptyPolls(checker, 1, { index, at: index * 300_000, startedFrom: index - 1 });
		if (pollBetween) poll(1);
		checker.containerChanged('P1/G1', 'P1', 400_000, 'archived');
		for (let index = pollBetween ? 2 : 1; index <= 4; index++) poll(index);
		return new Set(checker.violations.map((v) => v.kind));
	}

	it('owes its crawls when a poll listed it under its new name before the archive', () => {
		assert.ok(kindsAfter(true).has('late'));
	});

	it('releases them when no poll did (seed 40: its new name cannot be learned)', () => {
		assert.ok(!kindsAfter(false).has('late'));
	});
});

describe('the checker, a group archived where no state or memory knows it', () => {
	/**
	 * Poll 1 (its state kept) lists P1 only; poll 2 (in memory, or not) lists P1 and its group P1/G1 too; the group is
	 * crawled and archived; polls 3 to 6 start from poll 1's state, in poll 2's process life or after a restart.
	 */
	function kindsAfter(restarted: boolean): Set<string> {
		const checker = keywordChecker();
		checker.activated(0);
		const poll = (index: number, listed: string[], life: number) =>
			emptyPolls(checker, 1, {
				index,
				at: index * 300_000,
				startedFrom: index === 1 ? 0 : 1,
				listed: new Set(listed),
				life,
			});
		poll(1, ['P1'], 0);
		poll(2, ['P1', 'P1/G1'], 0);
		checker.fact(
			crawlOf({
				key: 'k:7@700',
				at: 700,
				visibleAt: 700_000,
				category: 'Acme[sub]EU',
				container: 'P1/G1',
			}),
		);
		checker.containerChanged('P1/G1', 'P1', 800_000, 'archived');
		for (let index = 3; index <= 6; index++) poll(index, ['P1'], restarted ? 1 : 0);
		return new Set(checker.violations.map((v) => v.kind));
	}

	it('owes its crawls when the memory of the same process life knew it', () => {
		assert.ok(kindsAfter(false).has('late'));
	});

	it('releases them after a restart emptied that memory (seed 66: nothing can look it up)', () => {
		assert.ok(!kindsAfter(true).has('late'));
	});
});

describe('the checker, a crawl in the seconds a poll leaves to the next', () => {
	/** A crawl stamped at second 299 (visible at 299.9 s), then polls at 300 s, 600 s, … that emit nothing. */
	function lateAfter(polls: number, dateSkewMs?: number): boolean {
		const checker = keywordChecker(dateSkewMs);
		checker.activated(0);
		checker.fact(crawlOf({ key: 'k:7@299', at: 299, visibleAt: 299_900 }));
		emptyPolls(checker, polls);
		return checker.violations.some((v) => v.kind === 'late');
	}

	it('does not count the poll that holds back the last 2 seconds of its clock', () => {
		assert.ok(!lateAfter(2));
		assert.ok(lateAfter(3));
	});

	it("judges by the API's clock (its Date header ahead by 3 s: that poll counts)", () => {
		assert.ok(lateAfter(2, 3_000));
	});
});

describe('the checker, an idle poll after one that stopped for time', () => {
	/** Poll 1 read for 20 s of the 30 s assumed, its slowest request `slowestMs`; poll 2, the world quiet, sends 2. */
	function idleCostAfter(slowestMs: number): boolean {
		const checker = keywordChecker();
		checker.activated(0);
		emptyPolls(checker, 1, { requests: 40, wallMs: 20_000, slowestRequestMs: slowestMs });
		checker.poll({
			index: 2,
			at: 600_000,
			label: 'poll',
			excused: false,
			excusedProjects: new Set(),
			items: [],
			requests: 2,
			stateBytes: 100,
			containersInScope: 1,
			wallMs: 100,
			startedFrom: 1,
			quiet: true,
			lastActivityAt: 0,
		});
		return checker.violations.some((v) => v.kind === 'idle-cost');
	}

	it('lets it read on what that poll left (wide soak, seed 64 in-memory under load)', () => {
		assert.ok(!idleCostAfter(9_000));
	});

	it('holds it to 1 request when that poll had time left', () => {
		assert.ok(idleCostAfter(1_000));
	});
});

describe('the checker, idle polls after a poll that held back its last seconds', () => {
	/**
	 * The durable scheduler without durable cursors: poll 1 (at 300 s) emitted and was kept; polls 2 to 4 emit nothing
	 * (a crawl the filters leave out), so each starts from poll 1's state, and each sends 4 requests. The world last
	 * changed at `activityMs`.
	 */
	function idleCostAfter(activityMs: number, dateSkewMs?: number): boolean {
		const checker = keywordChecker(dateSkewMs);
		checker.activated(0);
		emptyPolls(checker, 1);
		for (let index = 2; index <= 4; index++)
			checker.poll({
				index,
				at: index * 300_000,
				label: 'poll',
				excused: false,
				excusedProjects: new Set(),
				items: null,
				requests: 4,
				stateBytes: 100,
				containersInScope: 1,
				wallMs: 100,
				startedFrom: 1,
				quiet: true,
				lastActivityAt: activityMs,
			});
		return checker.violations.some((v) => v.kind === 'idle-cost');
	}

	it("excuses reading again a change of the seconds that poll's mark held back (seed 160)", () => {
		assert.ok(!idleCostAfter(299_000));
		assert.ok(!idleCostAfter(299_999));
	});

	it('holds polls to 1 request when the change was before them', () => {
		// Stamped 298 s: the mark (300 − 2) covered it.
		assert.ok(idleCostAfter(298_999));
		// Its Date header 2 s behind: the mark held back to 296 s.
		assert.ok(!idleCostAfter(297_000, -2_000));
	});
});

describe('the checker, an alert emitted with tags_unknown', () => {
	/** Alert 5 of keyword 7 in "Acme" (tagged brand), emitted by poll 1 with `tags_unknown`; `before` acts first. */
	function kindsAfter(warnings: string[], before?: (checker: Checker) => void): Set<string> {
		const checker = new Checker({
			event: 'newAlert',
			scope: {},
			scopeKeys: [],
			options: { filters: { tags: ['brand'] } },
		});
		checker.activated(0);
		checker.fact(
			crawlOf({ kind: 'alert', key: 'a:5', id: '5', prevrank: 9, keywordId: '7', tags: ['brand'] }),
		);
		before?.(checker);
		emptyPolls(checker, 1, {
			items: [{ id: '5', created_at: 100, rank: 3, previous_rank: 9, matched: ['tags_unknown'] }],
			requests: 2,
			warnings,
		});
		return new Set(checker.violations.map((v) => v.kind));
	}
	const warned = (name: string) =>
		`Keyword.com Trigger: the keyword list of "${name}" could not be read (HTTP 500), so the tags of 1 alerted keyword(s) are unknown; their alerts are emitted with "tags_unknown" in "matched"`;

	it('catches one said by nobody while its list holds the keyword (silent)', () => {
		assert.deepEqual([...kindsAfter([])], ['silent']);
		assert.deepEqual([...kindsAfter([warned('Other')])], ['silent']);
	});

	it('lets it through when the poll warned about its list, under any name it had', () => {
		assert.deepEqual([...kindsAfter([warned('Acme')])], []);
		const renamed = (checker: Checker) =>
			checker.containerChanged('P1', 'P1', 200_000, 'renamed', 'Acme Shoes', 'Acme');
		assert.deepEqual([...kindsAfter([warned('Acme Shoes')], renamed)], []);
	});

	it('lets it through when its project was renamed or deleted since (its old name may be another list now)', () => {
		const renamed = (checker: Checker) =>
			checker.containerChanged('P1', 'P1', 200_000, 'renamed', 'Acme Shoes', 'Acme');
		assert.deepEqual([...kindsAfter([], renamed)], []);
		assert.deepEqual(
			[...kindsAfter([], (c) => c.containerChanged('P1', 'P1', 200_000, 'deleted'))],
			[],
		);
	});

	it('lets it through when its keyword left the list (deleted or moved: a read list does not hold it)', () => {
		assert.deepEqual([...kindsAfter([], (c) => c.keywordsDeleted(['7'], 200_000))], []);
		assert.deepEqual([...kindsAfter([], (c) => c.keywordsMoved(['7'], 'P2', 'Beta', 200_000))], []);
		// Moved before the alert was made: the alert names the list it moved to, which holds it.
		assert.deepEqual(
			[...kindsAfter([], (c) => c.keywordsMoved(['7'], 'P1', 'Acme', 50_000))],
			['silent'],
		);
	});
});
