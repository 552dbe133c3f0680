/**
 * The per-operation test data: one row per operation of the Keyword.com node, keyed `'<resource> <operation>'` (the
 * values of the node's Resource and Operation fields). The operations themselves are read from the node's
 * description (`test/operations/index.cts`); this table adds what the suites need to run each one. An operation of
 * the node without a row here fails `test/unit/operation-registry.test.cts`, which says what to add.
 *
 * With its row, an operation is run by: the secret suites (`test/reliability/secrets.test.cts`, success and error
 * paths), the retry policy (`test/reliability/retries.test.cts`, every write), the redaction suite
 * (`test/engine/redaction.test.cts`), the Output choice and the AI tool (`test/engine/output.test.cts`,
 * `test/unit/output-choice.test.cts`), the operations table check (`test/unit/operations-table.test.cts`) and real n8n
 * (`test/e2e/operations.e2e.test.cts`).
 *
 * The order of the rows is the order the suites run them in: the reads first (the first rows stand for all of them
 * where a suite runs only a few), then the writes in an order that works on one fake (a project is created before
 * it is deleted; the e2e chain feeds each write the ids of the one before).
 */
import type { INodeParameters } from 'n8n-workflow';

/** A resource locator value as the editor saves it, by name. */
export const byName = (value: string): { __rl: true; mode: string; value: string } => ({
	__rl: true,
	mode: 'name',
	value,
});

/** A resource locator value as the editor saves it, by id. */
export const byId = (value: string | number): { __rl: true; mode: string; value: string } => ({
	__rl: true,
	mode: 'id',
	value: String(value),
});

/** The project of the demo seed most rows work on. */
export const ACME = 'Acme Shoes';

/**
 * What the engine rows read from the in-process fake (its demo seed, fixed clock 2026-01-15) when they run: built by
 * `seedOf(fake)` in `test/operations/engine.cts`, at the moment the operation runs.
 */
export interface EngineSeed {
	/** The numeric project id of Acme Shoes. */
	acmeId: number;
	/** The keyword ids of Acme Shoes, in the fake's order. */
	acmeKeywords: string[];
	/** The id of the first AI Visibility domain (acmeshoes.com). */
	domainId: string;
}

/** What the e2e rows read from the fake API process the real n8n talks to (its demo seed, the real clock). */
export interface E2eSeed {
	/** The id of the AI Visibility domain acmeshoes.com. */
	domainId: string;
}

/** One node of the e2e workflows (`test/e2e/operations.e2e.test.cts`). */
export interface E2eNode {
	/** The node's name in the workflow: unique, and how the e2e test finds its items. */
	node: string;
	/** Node version; default 1. */
	typeVersion?: number;
	parameters: (seed: E2eSeed) => Record<string, unknown>;
}

/**
 * What an operation gives back: `records` (with the Output choice: Simplified, Raw, Selected Fields), a
 * `confirmation`, the API's `message` as one item, or an AI Visibility `report` (one envelope in version 2).
 */
export type Returns = 'records' | 'confirmation' | 'message' | 'report';

export interface OperationFixture {
	/** Its endpoint number(s) in the API document (the README's Operations table), e.g. `[13, 14]`. */
	endpoints: number[];
	returns: Returns;
	/**
	 * Creates, changes or deletes something: never repeated after an ambiguous failure, run last, on throw-away
	 * records, and never by the read-only suites (the AI tool's).
	 */
	mutates: boolean;
	/**
	 * Valid parameters against the engine tests' fake (demo seed), node version 1. A write works on throw-away records
	 * (Scratch Project, the keywords it adds) or leaves things as it found them (archive, then restore), so every row
	 * can run once more in another suite's fake.
	 */
	parameters: (seed: EngineSeed) => INodeParameters;
	/** Its node(s) in the e2e workflows of a real n8n: the reads fan out of one trigger, the writes are one chain. */
	e2e: E2eNode[];
}

const TODAY = "={{ $today.toFormat('yyyy-MM-dd') }}";
const WEEK_AGO = "={{ $today.minus({ days: 6 }).toFormat('yyyy-MM-dd') }}";

/** The project the e2e write chain creates, and what its nodes read from the nodes before them. */
export const E2E_NEW_PROJECT = 'E2E Café & Co';
const E2E_ADDED = "$('Add keywords').item.json.keywords";

/** The engine rows' throw-away project (created by `project create`, deleted by `project delete`). */
const SCRATCH = 'Scratch Project';

export const FIXTURES: Record<string, OperationFixture> = {
	// ---- Reads
	'project getMany': {
		endpoints: [1],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'project', operation: 'getMany' }),
		e2e: [{ node: 'Projects', parameters: () => ({ resource: 'project', operation: 'getMany' }) }],
	},
	'project get': {
		endpoints: [2],
		returns: 'records',
		mutates: false,
		parameters: () => ({
			resource: 'project',
			operation: 'get',
			project: byName(ACME),
			group: byName('Blog'),
		}),
		e2e: [
			{
				node: 'Project',
				parameters: () => ({ resource: 'project', operation: 'get', project: byName(ACME) }),
			},
		],
	},
	'project getRegions': {
		endpoints: [6],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'project', operation: 'getRegions', project: byName(ACME) }),
		e2e: [
			{
				node: 'Regions',
				parameters: () => ({ resource: 'project', operation: 'getRegions', project: byName(ACME) }),
			},
		],
	},
	'project getMetrics': {
		endpoints: [9],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'project', operation: 'getMetrics', project: byName(ACME) }),
		e2e: [
			{
				node: 'Metrics',
				parameters: () => ({
					resource: 'project',
					operation: 'getMetrics',
					project: byName(ACME),
					timeframe: 'weekly',
				}),
			},
		],
	},
	'tag getMany': {
		endpoints: [2],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'tag', operation: 'getMany', project: byName(ACME) }),
		e2e: [
			{
				node: 'Tags',
				parameters: () => ({ resource: 'tag', operation: 'getMany', project: byName(ACME) }),
			},
		],
	},
	'keyword get': {
		endpoints: [11],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'keyword',
			operation: 'get',
			project: byName(ACME),
			keywordId: seed.acmeKeywords[0],
		}),
		e2e: [
			{
				node: 'Keyword',
				parameters: () => ({
					resource: 'keyword',
					operation: 'get',
					project: byName(ACME),
					keywordId: '100001',
				}),
			},
		],
	},
	'keyword getMany': {
		endpoints: [13],
		returns: 'records',
		mutates: false,
		parameters: () => ({
			resource: 'keyword',
			operation: 'getMany',
			project: byName(ACME),
			returnAll: true,
		}),
		e2e: [
			{
				node: 'Keywords',
				parameters: () => ({
					resource: 'keyword',
					operation: 'getMany',
					project: byName(ACME),
					returnAll: true,
				}),
			},
			{
				// A group whose name has "&", and a Limit.
				node: 'Keywords of a group',
				parameters: () => ({
					resource: 'keyword',
					operation: 'getMany',
					project: byName(ACME),
					group: byName('Shop & Deals'),
					returnAll: false,
					limit: 3,
				}),
			},
		],
	},
	'competitor getHistory': {
		endpoints: [15],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'competitor',
			operation: 'getHistory',
			project: byName(ACME),
			keywordId: seed.acmeKeywords[0],
			startDate: '2026-01-10',
			endDate: '2026-01-11',
		}),
		e2e: [
			{
				node: 'Competitors',
				parameters: () => ({
					resource: 'competitor',
					operation: 'getHistory',
					project: byName(ACME),
					keywordId: '100001',
					startDate: WEEK_AGO,
					endDate: TODAY,
				}),
			},
		],
	},
	'shareOfVoice getLatest': {
		endpoints: [18],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'shareOfVoice', operation: 'getLatest', project: byName(ACME) }),
		e2e: [
			{
				node: 'Share of voice',
				parameters: () => ({
					resource: 'shareOfVoice',
					operation: 'getLatest',
					project: byName(ACME),
				}),
			},
		],
	},
	'shareOfVoice getHistory': {
		endpoints: [19],
		returns: 'records',
		mutates: false,
		parameters: () => ({
			resource: 'shareOfVoice',
			operation: 'getHistory',
			project: byName(ACME),
			daysRange: 7,
		}),
		e2e: [
			{
				node: 'Share of voice history',
				parameters: () => ({
					resource: 'shareOfVoice',
					operation: 'getHistory',
					project: byName(ACME),
					daysRange: 30,
				}),
			},
		],
	},
	'alert getMany': {
		endpoints: [20],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'alert', operation: 'getMany', returnAll: true }),
		e2e: [
			{
				node: 'Alerts',
				parameters: () => ({
					resource: 'alert',
					operation: 'getMany',
					returnAll: true,
					options: { sortDirection: 'asc' },
				}),
			},
		],
	},
	'topPage getMany': {
		endpoints: [21],
		returns: 'records',
		mutates: false,
		parameters: () => ({
			resource: 'topPage',
			operation: 'getMany',
			project: byName(ACME),
			returnAll: true,
		}),
		e2e: [
			{
				node: 'Top pages',
				parameters: () => ({
					resource: 'topPage',
					operation: 'getMany',
					project: byName(ACME),
					returnAll: true,
				}),
			},
		],
	},
	'account get': {
		endpoints: [22],
		returns: 'records',
		mutates: false,
		// Simplify off: the record as the API sends it holds the token.
		parameters: () => ({ resource: 'account', operation: 'get', output: 'raw' }),
		e2e: [{ node: 'Account', parameters: () => ({ resource: 'account', operation: 'get' }) }],
	},
	'aiDomain getMany': {
		endpoints: [23],
		returns: 'records',
		mutates: false,
		parameters: () => ({ resource: 'aiDomain', operation: 'getMany' }),
		e2e: [
			{ node: 'AI domains', parameters: () => ({ resource: 'aiDomain', operation: 'getMany' }) },
		],
	},
	'aiDomain get': {
		endpoints: [24],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'aiDomain',
			operation: 'get',
			domainId: byId(seed.domainId),
		}),
		e2e: [
			{
				node: 'AI domain',
				parameters: (seed) => ({
					resource: 'aiDomain',
					operation: 'get',
					domainId: byId(seed.domainId),
				}),
			},
		],
	},
	'aiSearchTerm getMany': {
		endpoints: [25],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'aiSearchTerm',
			operation: 'getMany',
			domainId: byId(seed.domainId),
		}),
		e2e: [
			{
				node: 'AI search terms',
				parameters: (seed) => ({
					resource: 'aiSearchTerm',
					operation: 'getMany',
					domainId: byId(seed.domainId),
				}),
			},
		],
	},
	'aiMetric getDashboard': {
		endpoints: [26],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'aiMetric',
			operation: 'getDashboard',
			domainId: byId(seed.domainId),
		}),
		e2e: [
			{
				node: 'AI dashboard',
				parameters: (seed) => ({
					resource: 'aiMetric',
					operation: 'getDashboard',
					domainId: byId(seed.domainId),
					filters: { timeframe: '7d', aggregation: 'daily' },
				}),
			},
		],
	},
	'aiMetric getSentiment': {
		endpoints: [27],
		returns: 'report',
		mutates: false,
		parameters: (seed) => ({
			resource: 'aiMetric',
			operation: 'getSentiment',
			domainId: byId(seed.domainId),
		}),
		e2e: [
			{
				node: 'AI sentiment',
				parameters: (seed) => ({
					resource: 'aiMetric',
					operation: 'getSentiment',
					domainId: byId(seed.domainId),
					filters: { topics: ['Running shoes'] },
				}),
			},
		],
	},
	'aiMetric getCitations': {
		endpoints: [28],
		returns: 'report',
		mutates: false,
		parameters: (seed) => ({
			resource: 'aiMetric',
			operation: 'getCitations',
			domainId: byId(seed.domainId),
		}),
		e2e: [
			{
				node: 'AI citations',
				parameters: (seed) => ({
					resource: 'aiMetric',
					operation: 'getCitations',
					domainId: byId(seed.domainId),
				}),
			},
		],
	},
	'rankingHistory getChart': {
		// A POST that only reads.
		endpoints: [14],
		returns: 'records',
		mutates: false,
		parameters: (seed) => ({
			resource: 'rankingHistory',
			operation: 'getChart',
			keywordIds: seed.acmeKeywords[0],
			days: 5,
		}),
		e2e: [
			{
				node: 'Chart',
				parameters: () => ({
					resource: 'rankingHistory',
					operation: 'getChart',
					keywordIds: '100001, 100002',
					days: 14,
				}),
			},
		],
	},
	'rankingHistory getMany': {
		// Reads the keyword list (GET), then posts charts that only read: one row per keyword per day.
		endpoints: [13, 14],
		returns: 'records',
		mutates: false,
		parameters: () => ({
			resource: 'rankingHistory',
			operation: 'getMany',
			project: byName(ACME),
			startDate: '2026-01-14',
			endDate: '2026-01-15',
		}),
		e2e: [
			{
				node: 'Rank rows',
				typeVersion: 1,
				parameters: () => ({
					resource: 'rankingHistory',
					operation: 'getMany',
					project: byName(ACME),
					group: byName('Blog'),
					tags: ['Guides'],
					startDate: WEEK_AGO,
					endDate: TODAY,
					returnAll: true,
				}),
			},
		],
	},

	// ---- Writes
	'project create': {
		endpoints: [7],
		returns: 'records',
		mutates: true,
		parameters: () => ({
			resource: 'project',
			operation: 'create',
			projectName: SCRATCH,
			currencyCode: 'eur',
		}),
		e2e: [
			{
				node: 'Create project',
				parameters: () => ({
					resource: 'project',
					operation: 'create',
					projectName: E2E_NEW_PROJECT,
					currencyCode: 'EUR',
				}),
			},
		],
	},
	'keyword add': {
		endpoints: [10],
		returns: 'records',
		mutates: true,
		parameters: () => ({
			resource: 'keyword',
			operation: 'add',
			project: byName(ACME),
			keywords: ['leak test one', 'leak test two'],
			url: 'acmeshoes.com',
		}),
		e2e: [
			{
				node: 'Add keywords',
				parameters: () => ({
					resource: 'keyword',
					operation: 'add',
					project: byName(E2E_NEW_PROJECT),
					keywords: ['e2e shoes one', 'e2e shoes two', 'e2e shoes three'],
					url: 'e2e-shoes.example.com',
					additionalFields: { tags: 'E2E' },
					options: { chunkSize: 2 },
				}),
			},
		],
	},
	'keyword updateMany': {
		endpoints: [16],
		returns: 'confirmation',
		mutates: true,
		parameters: (seed) => ({
			resource: 'keyword',
			operation: 'updateMany',
			project: byName(ACME),
			keywordIds: seed.acmeKeywords[1],
			updateFields: { notes: 'hi' },
		}),
		e2e: [
			{
				node: 'Update keywords',
				parameters: () => ({
					resource: 'keyword',
					operation: 'updateMany',
					project: byName(E2E_NEW_PROJECT),
					keywordIds: `={{ ${E2E_ADDED}.map((k) => k.id).join(', ') }}`,
					updateFields: { notes: 'updated by the e2e test', isfav: true },
				}),
			},
		],
	},
	'keyword delete': {
		endpoints: [12],
		returns: 'confirmation',
		mutates: true,
		parameters: (seed) => ({
			resource: 'keyword',
			operation: 'delete',
			project: byName(ACME),
			keywordId: seed.acmeKeywords[seed.acmeKeywords.length - 1],
		}),
		e2e: [
			{
				node: 'Delete one keyword',
				parameters: () => ({
					resource: 'keyword',
					operation: 'delete',
					project: byName(E2E_NEW_PROJECT),
					keywordId: `={{ ${E2E_ADDED}[0].id }}`,
				}),
			},
		],
	},
	'keyword deleteMany': {
		endpoints: [17],
		returns: 'confirmation',
		mutates: true,
		parameters: (seed) => ({
			resource: 'keyword',
			operation: 'deleteMany',
			project: byName(ACME),
			keywordIds: seed.acmeKeywords[seed.acmeKeywords.length - 2],
		}),
		e2e: [
			{
				node: 'Delete two keywords',
				parameters: () => ({
					resource: 'keyword',
					operation: 'deleteMany',
					project: byName(E2E_NEW_PROJECT),
					keywordIds: `={{ ${E2E_ADDED}.slice(1).map((k) => k.id).join(',') }}`,
				}),
			},
		],
	},
	'project refresh': {
		endpoints: [5],
		returns: 'message',
		mutates: true,
		parameters: () => ({
			resource: 'project',
			operation: 'refresh',
			project: byName(ACME),
		}),
		e2e: [
			{
				node: 'Refresh ranks',
				parameters: () => ({
					resource: 'project',
					operation: 'refresh',
					project: byName(ACME),
					includeSubGroups: true,
				}),
			},
		],
	},
	'project archive': {
		endpoints: [3],
		returns: 'confirmation',
		mutates: true,
		parameters: () => ({
			resource: 'project',
			operation: 'archive',
			project: byName('Café Zürich'),
		}),
		e2e: [
			{
				node: 'Archive project',
				parameters: () => ({
					resource: 'project',
					operation: 'archive',
					project: byName(E2E_NEW_PROJECT),
				}),
			},
		],
	},
	'project restore': {
		// A GET in the API: a read for the retry policy.
		endpoints: [8],
		returns: 'confirmation',
		mutates: true,
		parameters: () => ({
			resource: 'project',
			operation: 'restore',
			project: byName('Café Zürich'),
		}),
		e2e: [
			{
				node: 'Restore project',
				parameters: () => ({
					resource: 'project',
					operation: 'restore',
					project: byName(E2E_NEW_PROJECT),
				}),
			},
		],
	},
	'project delete': {
		endpoints: [4],
		returns: 'confirmation',
		mutates: true,
		parameters: () => ({ resource: 'project', operation: 'delete', project: byName(SCRATCH) }),
		e2e: [
			{
				node: 'Delete project',
				parameters: () => ({
					resource: 'project',
					operation: 'delete',
					project: byName(E2E_NEW_PROJECT),
				}),
			},
		],
	},
};
