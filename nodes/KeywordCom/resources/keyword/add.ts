import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, DEFAULT_ADD_CHUNK_SIZE } from '../../../shared/constants';
import { groupField, options, projectField } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';
import { readTarget } from '../../operation/target';
import { withDescription } from '../../../shared/errors';
import {
	checkInteger,
	checkKeywordText,
	checkName,
	checkOneOf,
	checkTextList,
	checkUrl,
	InputError,
	toList,
} from '../../../shared/validation';

/** #10 POST /api/v2/groups/{project_name}/keywords — many keywords per item, sent in chunks. */
export const addKeywords = defineOperation({
	resource: 'keyword',
	value: 'add',
	name: 'Add',
	action: 'Add keywords',
	description:
		'Start tracking one or many keywords for a URL in a project or group. Ranks arrive later, after the first update. Duplicates are counted, not added.',
	method: 'POST',
	path: `${API_PREFIX}/groups/{target}/keywords`,
	fields: [
		projectField('The project (or parent project of the group) to add keywords to'),
		groupField(),
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Keyword' },
			default: [],
			required: true,
			description:
				'The keywords to track (at most 150 characters each). An expression may give a list or comma-separated text.',
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. acme.com or https://acme.com/shoes/',
			description:
				'Address to track. Without a trailing "/" the whole domain is tracked (broad); with a "/" that exact address is tracked.',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'string',
			default: 'google.com',
			description: 'The Google domain of the country to track, e.g. google.com or google.co.uk',
		},
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: 'en',
			description: 'Language code, e.g. en or de',
		},
		{
			displayName: 'Device',
			name: 'device',
			type: 'options',
			default: 'se',
			options: [
				{ name: 'Desktop', value: 'se' },
				{ name: 'Mobile', value: 'sem' },
			],
			description: 'Device the ranks are tracked on',
		},
		options(
			[
				{
					displayName: 'Business Listing Name',
					name: 'gmb',
					type: 'string',
					default: '',
					description: 'Exact name of the business listing to track in local results',
				},
				{
					displayName: 'Ignore Local Listings',
					name: 'ignore_local',
					type: 'boolean',
					default: false,
					description: 'Whether to ignore local listings when ranking',
				},
				{
					displayName: 'Ignore Sub-Domains',
					name: 'ignore_sub_domains',
					type: 'boolean',
					default: false,
					description: 'Whether to ignore sub-domains while tracking',
				},
				{
					displayName: 'Location',
					name: 'near',
					type: 'string',
					default: '',
					placeholder: 'e.g. Chicago, IL',
					description: 'Location the searches are made from',
				},
				{
					displayName: 'Source',
					name: 'source',
					type: 'options',
					default: 1,
					options: [
						{ name: 'API', value: 1 },
						{ name: 'Keyword Suggestions', value: 2 },
						{ name: 'Manual', value: 3 },
						{ name: 'Bulk Import', value: 4 },
					],
					description: 'How Keyword.com records the keywords as added (API by default)',
				},
				{
					displayName: 'Tags',
					name: 'tags',
					type: 'string',
					default: '',
					description: 'Tags to add to the keywords, comma-separated',
				},
				{
					displayName: 'URL Tracking Method',
					name: 'url_tracking_method',
					type: 'options',
					default: 'broad',
					options: [
						{ name: 'Broad (Whole Domain)', value: 'broad' },
						{ name: 'Exact (This Address)', value: 'Exact' },
					],
					description: 'Whether ranks count for the whole domain or only for the exact address',
				},
			],
			'Additional Fields',
		),
		options([
			{
				displayName: 'Chunk Size',
				name: 'chunkSize',
				type: 'number',
				default: DEFAULT_ADD_CHUNK_SIZE,
				typeOptions: { minValue: 1, maxValue: 1000 },
				description: `Keywords sent per request when an item carries many keywords (default ${DEFAULT_ADD_CHUNK_SIZE})`,
			},
		]),
	],
	prepare: (input) => {
		const target = readTarget(input);
		const keywords = toList('Keywords', input.get('keywords', [])).map((kw) =>
			checkKeywordText('Keywords', kw),
		);
		if (keywords.length === 0) throw new InputError('Keywords', 'give at least one keyword');
		const extra = (input.get('additionalFields', {}) ?? {}) as IDataObject;
		const attributes: IDataObject = {
			category: target.name,
			url: checkUrl('URL', input.get('url')),
			region: checkName('Region', input.get('region', 'google.com')),
			language: checkName('Language', input.get('language', 'en')),
			type: checkOneOf('Device', input.get('device', 'se'), ['se', 'sem']),
			source: 1,
		};
		for (const [key, value] of Object.entries(extra)) {
			if (key === 'tags') attributes.tags = checkTextList('Tags', value);
			else if (key === 'source') attributes.source = checkInteger('Source', value, 1, 4);
			else if (key === 'url_tracking_method')
				attributes.url_tracking_method = checkOneOf('URL Tracking Method', value, [
					'broad',
					'Exact',
				]);
			else attributes[key] = value;
		}
		return {
			path: { target: target.encoded },
			body: keywords.map((kw) => ({ type: 'keyword', attributes: { ...attributes, kw } })),
			settings: {
				chunkSize: checkInteger(
					'Chunk Size',
					input.get('options.chunkSize', DEFAULT_ADD_CHUNK_SIZE),
					1,
					1000,
				),
			},
		};
	},
	output: { type: 'body', holds: 'keyword' },
	/**
	 * One summary item per input item: the counts of all chunks added together and the created keywords.
	 * Chunks go one after another: a create is never repeated after an ambiguous failure, so a failure stops the run
	 * and says how many chunks were already accepted.
	 */
	run: async ({ input, prepared, url, send, shape }) => {
		const entries = prepared.body as IDataObject[];
		const chunkSize = Number(prepared.settings?.chunkSize ?? DEFAULT_ADD_CHUNK_SIZE);
		let added = 0;
		let duplicates = 0;
		const keywords: IDataObject[] = [];
		const titles: string[] = [];
		for (let start = 0; start < entries.length; start += chunkSize) {
			const chunk = entries.slice(start, start + chunkSize);
			let response;
			try {
				response = await send({ method: 'POST', url, body: { data: chunk } });
			} catch (error) {
				// When earlier chunks were accepted, say so: the user neither loses track nor re-adds them blindly.
				const progress =
					start === 0
						? ''
						: `${start} of ${entries.length} keywords had already been sent in earlier requests and were accepted (added ${added}, duplicates ${duplicates}); the rest were not sent.`;
				throw withDescription({ getNode: () => input.node }, error, progress, input.itemIndex);
			}
			const body = (response.body ?? {}) as IDataObject;
			const counts = ((body.meta as IDataObject | undefined)?.counts ?? {}) as IDataObject;
			added += Number(counts.added ?? 0);
			duplicates += Number(counts.duplicates ?? 0);
			const title = (body.meta as IDataObject | undefined)?.title;
			if (typeof title === 'string') titles.push(title);
			if (Array.isArray(body.data)) {
				keywords.push(...(body.data as unknown[]).map((record) => shape(record, 'keyword')));
			}
		}
		return [
			{
				added,
				duplicates,
				requested: entries.length,
				title:
					titles.length === 1 ? titles[0] : `${added} keywords added, ${duplicates} duplicates`,
				keywords,
			},
		];
	},
});
