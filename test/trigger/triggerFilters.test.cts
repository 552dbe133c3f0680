/**
 * The trigger's filter registry (nodes/KeywordComTrigger/filters/triggerFilters.ts) and what is derived from it: the
 * Filters collection, reading, whether any is set, the verdict and its reasons, the filters that cost no request; and
 * what must follow it by hand — the README's and docs/trigger.md's filter lists, the simulation's drawing and its
 * checker's rules.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { AI_RULES, drawAiSettings } from '../../dev/simulation/aiVisibilityRun.cjs';
import { RANK_RULES } from '../../dev/simulation/checker.cjs';
import { drawOptions, triggerParameters } from '../../dev/simulation/settings.cjs';
import { repoRoot } from '../../e2e/lib/paths.cjs';
import type { TriggerEvent } from '../../nodes/KeywordComTrigger/filters/filterEntry';
import type { DayComparison, RankMove } from '../../nodes/KeywordComTrigger/filters/subjects';
import {
	AI_FILTERS,
	AI_NARROWING,
	filterFields,
	filtersWithoutRequests,
	hasAiFilters,
	hasFilters,
	matchDay,
	matchFilters,
	RANK_FILTERS,
	readAiFilters,
	readFilters,
	type AiFilterKey,
	type RankFilterKey,
} from '../../nodes/KeywordComTrigger/filters/triggerFilters';
import { InputError } from '../../nodes/shared/validation';

const ENTRIES = [...RANK_FILTERS, ...AI_FILTERS, ...AI_NARROWING];
const RANK_EVENTS = ['newAlert', 'keywordUpdated'] as const satisfies readonly TriggerEvent[];
const doc = (file: string) => readFileSync(path.join(repoRoot(), file), 'utf8');
/** A reason as a pattern: `{n}` stands for a top's size. */
const reasonPattern = (reason: string) => new RegExp(`^${reason.replace('{n}', '\\d+')}$`);

const move = (previousRank: number | null, rank: number | null): RankMove => ({
	previousRank,
	rank,
	previousKnown: true,
});

/** Each rank filter's fields set, an event it lets through and one it leaves out. */
const RANK_SAMPLES: {
	readonly [Key in RankFilterKey]-?: { raw: IDataObject; pass: RankMove; fail: RankMove };
} = {
	movedBy: { raw: { movedBy: 3, direction: 'up' }, pass: move(9, 5), fail: move(5, 9) },
	crossedTop: { raw: { crossedTop: 10 }, pass: move(11, 10), fail: move(12, 11) },
	rankingUrlChanged: {
		raw: { rankingUrlChanged: true },
		pass: { ...move(3, 3), rankingUrlChanged: true },
		fail: { ...move(3, 3), rankingUrlChanged: false },
	},
	tags: {
		raw: { tags: ['Brand'] },
		pass: { ...move(3, 3), tags: ['brand'] },
		fail: { ...move(3, 3), tags: ['local'] },
	},
};

const day = (change: Partial<DayComparison>): DayComparison => ({
	scoreChange: null,
	brandLost: null,
	overtakenBy: [],
	...change,
});

/** Each AI filter's fields set, a day it lets through and one it leaves out. */
const AI_SAMPLES: {
	readonly [Key in AiFilterKey]-?: { raw: IDataObject; pass: DayComparison; fail: DayComparison };
} = {
	visibilityChange: {
		raw: { visibilityChangedBy: 2, visibilityDirection: 'dropped' },
		pass: day({ scoreChange: -2.5 }),
		fail: day({ scoreChange: 2.5 }),
	},
	brandPresence: {
		raw: { brandPresence: 'lost' },
		pass: day({ brandLost: true }),
		fail: day({ brandLost: false }),
	},
	competitorOvertook: {
		raw: { competitorOvertook: true },
		pass: day({ overtakenBy: ['Rival'] }),
		fail: day({}),
	},
};

describe('trigger filters: the registry', () => {
	it('the Filters collection holds every field of every entry once, in alphabetical order, shown for its events', () => {
		const options = filterFields()[0].options as Array<{
			displayName: string;
			name: string;
			displayOptions?: { show?: Record<string, unknown> };
		}>;
		const fields = ENTRIES.flatMap((entry) =>
			entry.fields.map((field) => ({ name: field.name, events: entry.events })),
		);
		assert.deepEqual(options.map((o) => o.name).sort(), fields.map((f) => f.name).sort());
		assert.equal(new Set(options.map((o) => o.name)).size, options.length, 'no field twice');
		const names = options.map((o) => o.displayName);
		assert.deepEqual(
			names,
			[...names].sort((a, b) => a.localeCompare(b, 'en')),
		);
		for (const field of fields) {
			const option = options.find((o) => o.name === field.name);
			assert.deepEqual(option?.displayOptions?.show?.['/event'], [...field.events], field.name);
		}
	});

	it('each rank filter is read for its events only, set alone passes and fails as its sample says, with one of its reasons', () => {
		for (const entry of RANK_FILTERS) {
			const sample = RANK_SAMPLES[entry.key];
			for (const event of RANK_EVENTS) {
				const filters = readFilters(sample.raw, event);
				if (!entry.events.includes(event)) {
					assert.deepEqual(filters, {}, `${entry.key} is not read for ${event}`);
					continue;
				}
				assert.deepEqual(Object.keys(filters), [entry.key]);
				assert.equal(hasFilters(filters), true);
				const matched = matchFilters(sample.pass, filters);
				assert.equal(matched?.length, 1, `${entry.key} passes its sample`);
				assert.ok(
					entry.reasons.some((reason) => reasonPattern(reason).test(matched[0])),
					`${matched[0]} is one of ${entry.key}'s reasons`,
				);
				assert.equal(matchFilters(sample.fail, filters), undefined, `${entry.key} fails`);
			}
			assert.deepEqual(readFilters(sample.raw, 'aiVisibilityUpdated'), {});
		}
		assert.equal(hasFilters({}), false);
		assert.equal(hasFilters({ rankingUrlChanged: false, tags: [] }), false, 'set to off');
		assert.deepEqual(matchFilters(move(5, 9), {}), [], 'no filter: everything passes');
	});

	it('each AI filter set alone passes and fails as its sample says, with one of its reasons', () => {
		for (const entry of AI_FILTERS) {
			const sample = AI_SAMPLES[entry.key];
			const filters = readAiFilters(sample.raw);
			assert.deepEqual(Object.keys(filters), [entry.key]);
			assert.equal(hasAiFilters(filters), true);
			const matched = matchDay(sample.pass, filters);
			assert.equal(matched?.length, 1, `${entry.key} passes its sample`);
			assert.ok(entry.reasons.includes(matched[0]), `${matched[0]} is one of its reasons`);
			assert.equal(matchDay(sample.fail, filters), undefined, `${entry.key} fails`);
		}
		assert.equal(hasAiFilters({}), false);
	});

	it('every filter set gives its reason in the registry order; one failing fails all', () => {
		const raw = Object.assign({}, ...Object.values(RANK_SAMPLES).map((s) => s.raw)) as IDataObject;
		const filters = readFilters(raw, 'keywordUpdated');
		const all: RankMove = { ...move(11, 8), rankingUrlChanged: true, tags: ['BRAND'] };
		assert.deepEqual(matchFilters(all, filters), [
			'moved_up',
			'top10_entered',
			'ranking_url_changed',
			'tagged',
		]);
		assert.equal(matchFilters({ ...all, tags: ['local'] }, filters), undefined);
	});

	it('a setting out of bounds, or one without what it needs, is an InputError naming its field', () => {
		const fails = (raw: IDataObject, field: string) =>
			assert.throws(
				() => readFilters(raw, 'keywordUpdated'),
				(error: unknown) => error instanceof InputError && String(error.message).includes(field),
			);
		fails({ movedBy: 0 }, 'Moved By At Least');
		fails({ direction: 'sideways' }, 'Move Direction');
		fails({ crossing: 'left' }, 'Crossing');
		fails({ topN: 5 }, 'Top N');
		fails({ crossedTop: 0 }, 'Top N');
		assert.throws(
			() => readAiFilters({ visibilityChangedBy: 0 }),
			(error: unknown) => error instanceof InputError,
		);
		assert.deepEqual(readFilters({ tags: ' , ' }, 'newAlert'), {}, 'no tag named: not set');
	});

	it('the filters that cost no request leave out exactly those that cost requests in the event', () => {
		const raw = Object.assign({}, ...Object.values(RANK_SAMPLES).map((s) => s.raw)) as IDataObject;
		for (const event of RANK_EVENTS) {
			const filters = readFilters(raw, event);
			const cheap = filtersWithoutRequests(filters, event);
			const costly = RANK_FILTERS.filter(
				(entry) => entry.events.includes(event) && entry.costsRequestsIn?.includes(event),
			).map((entry) => entry.key);
			assert.deepEqual(
				Object.keys(cheap).sort(),
				Object.keys(filters)
					.filter((key) => !costly.includes(key as RankFilterKey))
					.sort(),
				event,
			);
		}
		assert.deepEqual(
			Object.keys(filtersWithoutRequests(readFilters(raw, 'newAlert'), 'newAlert')),
			['movedBy', 'crossedTop'],
			"New Alert's Tags read keyword lists",
		);
	});
});

describe('trigger filters: what follows the registry', () => {
	it("the README's filter list names each filter under its events", () => {
		const readme = doc('README.md');
		const start = readme.indexOf('**Filters** (');
		const first = readme.indexOf('\n- ', start);
		const list = readme.slice(first, readme.indexOf('\n\n', first)).split('\n- ').slice(1);
		const bold = (text: string) => [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
		const rankLine = list.find((line) => line.includes('for New Alert and Keyword Updated'));
		const aiLine = list.find((line) => line.includes('for AI Visibility Updated'));
		assert.ok(rankLine && aiLine, 'the two lines of the list');
		assert.deepEqual(
			bold(rankLine),
			RANK_FILTERS.map((entry) => entry.fields[0].displayName),
		);
		assert.deepEqual(
			bold(aiLine).sort(),
			[...AI_FILTERS, ...AI_NARROWING].map((entry) => entry.fields[0].displayName).sort(),
		);
	});

	it("docs/trigger.md has a row for each entry, naming all its fields and its events, and every filter's reasons", () => {
		const text = doc('docs/trigger.md');
		const rows = [...text.matchAll(/^\| Filters → ([^|]+) \|(?: (both|[A-Z][^|]+) \|)?/gm)].map(
			(m) => ({ names: m[1].trim().split(', '), events: m[2]?.trim() }),
		);
		assert.deepEqual(
			rows.flatMap((row) => row.names).sort(),
			ENTRIES.flatMap((entry) => entry.fields.map((field) => field.displayName)).sort(),
			'each field in one row, and no row without its entry',
		);
		for (const entry of ENTRIES) {
			const row = rows.find((r) => r.names.includes(entry.fields[0].displayName));
			assert.ok(row, `a "Filters → ${entry.fields[0].displayName}" row`);
			for (const field of entry.fields)
				assert.ok(row.names.includes(field.displayName), `${field.displayName} in its entry's row`);
			if (entry.events.includes('aiVisibilityUpdated')) continue;
			const events = entry.events.length === 2 ? 'both' : 'Keyword Updated';
			assert.equal(row.events, events, `the row of ${entry.key} names its events`);
		}
		for (const entry of [...RANK_FILTERS, ...AI_FILTERS])
			for (const reason of entry.reasons)
				assert.match(
					text,
					new RegExp(`\`${reason.replace('{n}', '10')}\``),
					`docs/trigger.md names ${reason}`,
				);
	});

	it('the simulation draws every filter for each of its events, and its checker judges each, in the order of the reasons', () => {
		for (const event of RANK_EVENTS) {
			const drawn = new Set<string>();
			for (let seed = 1; seed <= 300; seed++) {
				const parameters = triggerParameters(event, {}, drawOptions(String(seed), event));
				const raw = (parameters.filters ?? {}) as IDataObject;
				for (const key of Object.keys(readFilters(raw, event))) drawn.add(key);
			}
			assert.deepEqual(
				[...drawn].sort(),
				RANK_FILTERS.filter((entry) => entry.events.includes(event))
					.map((entry) => entry.key)
					.sort(),
				`the filters drawn for ${event}`,
			);
		}
		const drawnAi = new Set<string>();
		for (let seed = 1; seed <= 300; seed++)
			for (const key of Object.keys(
				readAiFilters(drawAiSettings(String(seed)).filters as IDataObject),
			))
				drawnAi.add(key);
		assert.deepEqual([...drawnAi].sort(), AI_FILTERS.map((entry) => entry.key).sort());
		assert.deepEqual(
			Object.keys(RANK_RULES),
			RANK_FILTERS.map((entry) => entry.key),
		);
		assert.deepEqual(
			Object.keys(AI_RULES),
			AI_FILTERS.map((entry) => entry.key),
		);
	});
});
