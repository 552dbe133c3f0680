import type { IDataObject } from 'n8n-workflow';

import {
	API_PREFIX,
	DEFAULT_CHART_CHUNK_SIZE,
	DEFAULT_PAGE_CONCURRENCY,
	MAX_CHART_CHUNK_SIZE,
	MAX_CHART_DAYS,
} from '../../../shared/constants';
import {
	concurrencyOption,
	dateField,
	groupField,
	options,
	projectField,
	stringListField,
} from '../../../shared/fields';
import { collectPages, identityOf, orderOfList } from '../../../shared/paging';
import {
	checkDate,
	checkInteger,
	checkTextList,
	InputError,
	said,
	quote,
} from '../../../shared/validation';
import { defineOperation } from '../../operation/define';
import type { OperationRuntime } from '../../operation/types';
import { readTarget } from '../../operation/target';
import { apiDay, DAY_MS, dayNumber, resolveRange } from './days';
import { listedKeyword, rowShaper, rowsOf, type ListedKeyword } from './rows';

/**
 * One row per keyword per day. The document has no such endpoint: the keyword list (#13) gives the keywords of the
 * project or group (read with the ordered reader, as Keyword → Get Many), and the chart (#14) gives the daily ranks of
 * many keywords at once. So the fewest requests are the list's pages plus ⌈keywords / Keywords per Request⌉ charts.
 * The date window is in days.ts, the rows in rows.ts.
 */

/** The keywords the user chose: by id or text (any case), and carrying one of the tags; every keyword without either. */
function choose(
	listed: ListedKeyword[],
	wanted: string[],
	tags: string[],
	target: string,
): ListedKeyword[] {
	const wantedKeys = new Set(wanted.map((entry) => entry.toLowerCase()));
	const tagKeys = new Set(tags.map((tag) => tag.toLowerCase()));
	const matched = new Set<string>();
	const chosen = listed.filter((keyword) => {
		if (wantedKeys.size > 0) {
			const keys = [keyword.id, keyword.keyword.toLowerCase()].filter((key) => wantedKeys.has(key));
			if (keys.length === 0) return false;
			keys.forEach((key) => matched.add(key));
		}
		return tagKeys.size === 0 || keyword.tags.some((tag) => tagKeys.has(tag.toLowerCase()));
	});
	// A keyword typed wrong would otherwise just be missing from the rows.
	const unknown = wanted.find((entry) => !matched.has(entry.toLowerCase()));
	if (unknown !== undefined) {
		throw new InputError(
			'Keywords',
			said`${quote(unknown)} is neither the ID nor the text of a keyword of ${quote(target)}`,
			'Give keyword IDs as listed by Keyword → Get Many, or the keyword texts exactly (case does not matter).',
		);
	}
	return chosen;
}

/** What the settings of prepare() hold, checked. */
interface ExportSettings {
	listUrl: string;
	target: string;
	keywords: string[];
	tags: string[];
	start?: string;
	end?: string;
	chunkSize: number;
	concurrency: number;
}

/**
 * The chart entries of `ids`, by keyword id: chunks of `chunkSize`, at most `concurrency` in flight. An API that
 * serves fewer keywords than asked (a cap the document does not state) is followed, not assumed: the keywords left
 * out are asked again in chunks of the size it served, and the chunks after that use it too. One that refuses the
 * chunk (413, or 422 naming no other cause: it is the only input not already checked) gets it in halves.
 */
async function chartEntries(
	runtime: OperationRuntime,
	ids: string[],
	days: number,
	settings: ExportSettings,
): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	let chunkSize = settings.chunkSize;
	const queue: string[][] = [];
	/** Puts `ids` first, and everything still queued after them, in chunks of the size now known to work. */
	const requeue = (ids: string[], size: number) => {
		chunkSize = Math.min(chunkSize, size);
		const rest = [...ids, ...queue.splice(0).flat()];
		for (let start = 0; start < rest.length; start += chunkSize)
			queue.push(rest.slice(start, start + chunkSize));
	};
	requeue(ids, chunkSize);
	let failed = false;
	const worker = async () => {
		while (!failed && queue.length > 0) {
			const chunk = queue.shift() as string[];
			const answer = await runtime
				.send({
					method: 'POST',
					url: `${API_PREFIX}/keywords/chart`,
					qs: { action: 'chart', limit: days },
					body: { keyword_ids: chunk.map(Number) },
				})
				.then(
					(response) => ({ body: (response.body ?? {}) as IDataObject, failure: undefined }),
					(failure: unknown) => ({ body: {} as IDataObject, failure }),
				);
			if (answer.failure !== undefined) {
				const code = String((answer.failure as { httpCode?: unknown }).httpCode ?? '');
				if (chunk.length > 1 && (code === '413' || code === '422')) {
					requeue(chunk, Math.ceil(chunk.length / 2));
					continue;
				}
				failed = true;
				// Already the transport's KeywordComApiError (status, the API's message, what to do; no token).
				throw answer.failure;
			}
			const entries = Array.isArray(answer.body.data) ? (answer.body.data as IDataObject[]) : [];
			for (const entry of entries) found.set(String(entry.kwid), entry);
			const missing = chunk.filter((id) => !found.has(id));
			if (missing.length > 0 && entries.length > 0 && entries.length < chunk.length)
				requeue(missing, entries.length);
		}
	};
	await Promise.all(
		Array.from({ length: Math.max(1, Math.min(settings.concurrency, queue.length)) }, worker),
	);
	return found;
}

/** #13 GET /api/v2/groups/{project_name}/keywords/ (the keywords), then #14 POST /api/v2/keywords/chart in chunks */
export const getManyRankingRows = defineOperation({
	resource: 'rankingHistory',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many daily ranks',
	description:
		'Get, for a project or group (optionally only some keywords or tags) and a date range of the last 180 days, one item per keyword per day with its rank, ranking URL and change from the day before',
	method: 'POST',
	path: `${API_PREFIX}/keywords/chart`,
	fields: [
		projectField(),
		groupField(),
		dateField(
			'startDate',
			'Start Date',
			'First day of the range, at most 180 days back. Empty: 29 days before the end date (30 days)',
		),
		dateField('endDate', 'End Date', "Last day of the range. Empty: Keyword.com's today"),
		stringListField(
			'keywords',
			'Keywords',
			'Only these keywords, by ID or text (any case). Empty: every keyword of the project or group.',
		),
		{
			displayName: 'Tag Names or IDs',
			name: 'tags',
			type: 'multiOptions',
			default: [],
			typeOptions: { loadOptionsMethod: 'getProjectTags', loadOptionsDependsOn: ['project.value'] },
			description:
				'Only keywords with one of these tags. Empty: every keyword. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		options([
			{
				displayName: 'Keywords per Request',
				name: 'chunkSize',
				type: 'number',
				default: DEFAULT_CHART_CHUNK_SIZE,
				typeOptions: { minValue: 1, maxValue: MAX_CHART_CHUNK_SIZE, numberPrecision: 0 },
				description:
					'How many keywords one chart request asks for. Fewer requests with more; an API that serves fewer is followed.',
			},
			{
				...concurrencyOption(),
				description:
					'How many requests (list pages and charts) to send at once. 1 sends one after another.',
			},
		]),
	],
	prepare: (input) => {
		const target = readTarget(input);
		const start = input.get('startDate', '');
		const end = input.get('endDate', '');
		const settings: ExportSettings = {
			listUrl: `${API_PREFIX}/groups/${target.encoded}/keywords/`,
			target: target.name,
			keywords: checkTextList('Keywords', input.get('keywords', [])),
			tags: checkTextList('Tags', input.get('tags', [])),
			start: start === '' || start === null ? undefined : checkDate('Start Date', start),
			end: end === '' || end === null ? undefined : checkDate('End Date', end),
			chunkSize: checkInteger(
				'Keywords per Request',
				input.get('options.chunkSize', DEFAULT_CHART_CHUNK_SIZE),
				1,
				MAX_CHART_CHUNK_SIZE,
			),
			concurrency: checkInteger(
				'Concurrency',
				input.get('options.concurrency', DEFAULT_PAGE_CONCURRENCY),
				1,
				16,
			),
		};
		// What the dates alone can tell is checked here, before any request; how far back they are needs the API's
		// today, which its first answer gives (checked before any chart request).
		if (settings.start && settings.end && settings.start > settings.end)
			throw new InputError('Start Date', `${settings.start} is after the End Date ${settings.end}`);
		if (settings.start && settings.end) {
			const span = dayNumber(settings.end) - dayNumber(settings.start) + 1;
			if (span > MAX_CHART_DAYS)
				throw new InputError(
					'Start Date',
					`the range has ${span} days; Keyword.com gives at most ${MAX_CHART_DAYS}`,
				);
		}
		return { settings: settings as unknown as IDataObject };
	},
	output: { type: 'records', kind: 'rankingRow' },
	run: async (runtime) => {
		const settings = runtime.prepared.settings as unknown as ExportSettings;
		let today: number | undefined;
		const listed = await collectPages<ListedKeyword>(
			'pagination',
			async (page, perPage, hooks) => {
				const response = await runtime.send(
					{ method: 'GET', url: settings.listUrl, qs: { page, per_page: perPage } },
					hooks,
				);
				today ??= apiDay(response.headers);
				return response.body;
			},
			{
				returnAll: true,
				limit: 0,
				concurrency: settings.concurrency,
				order: orderOfList('keyword'),
				identity: identityOf,
			},
			(records) => records.map(listedKeyword),
		);
		const range = resolveRange(settings, today ?? Math.floor(Date.now() / DAY_MS));
		const chosen = choose(listed, settings.keywords, settings.tags, settings.target);
		// Back from the API's today to the day before the range (the first day's change), at most what the API keeps.
		const days = Math.min(MAX_CHART_DAYS, Math.max(1, (today ?? range.to) - range.from + 2));

		const shape = rowShaper(runtime);
		const { returnAll, limit } = runtime.size;
		const rangeDays = range.to - range.from + 1;
		const results: IDataObject[] = [];
		// With a Limit, chart only the keywords the rows still missing need (each has at most one row a day).
		for (let next = 0; next < chosen.length && (returnAll || results.length < limit); ) {
			const take = returnAll
				? chosen.length
				: Math.max(1, Math.ceil((limit - results.length) / rangeDays));
			const batch = chosen.slice(next, next + take);
			next += batch.length;
			const entries = await chartEntries(
				runtime,
				batch.map((keyword) => keyword.id),
				days,
				settings,
			);
			for (const keyword of batch)
				for (const row of rowsOf(keyword, entries.get(keyword.id), range)) results.push(shape(row));
		}
		return results;
	},
});
