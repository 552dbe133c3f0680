/**
 * The editor in the user's words, read from the built node descriptions (both nodes, nested parameters too), so a new
 * operation or field cannot break it: actions in n8n's style ("Get many keywords"), no API jargon in what the panel
 * shows, dropdowns alphabetical or a scale smallest first, collections sorted with one placeholder style, real-looking
 * placeholders, a picker wherever a list exists (projects by name, keywords and tags from their lists), n8n date
 * fields for dates, and Selected Fields offering the names Simplified uses, sorted, never the API's keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { KeywordCom } from '../../nodes/KeywordCom/KeywordCom.node';
import { KeywordComTrigger } from '../../nodes/KeywordComTrigger/KeywordComTrigger.node';
import { byName, inAnAllowedOrder } from './option-order.cjs';

const NODES: INodeTypeDescription[] = [
	new KeywordCom().description,
	new KeywordComTrigger().description,
];

interface Seen {
	property: INodeProperties;
	where: string;
}

function everyParameter(description: INodeTypeDescription): Seen[] {
	const seen: Seen[] = [];
	const visit = (properties: INodeProperties[], where: string) => {
		for (const property of properties) {
			const show = property.displayOptions?.show ?? {};
			const scope = [show.resource, show.operation, show.event].flat().filter(Boolean).join('.');
			const here = `${where}${scope ? `${scope} ` : ''}${property.name}`;
			seen.push({ property, where: here });
			if (property.type === 'collection') visit(property.options as INodeProperties[], `${here}.`);
			if (property.type === 'fixedCollection')
				for (const group of property.options as INodePropertyCollection[])
					visit(group.values, `${here}.${group.name}.`);
		}
	};
	visit(description.properties, `${description.name}: `);
	return seen;
}

const PARAMETERS = NODES.flatMap(everyParameter);
const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];
const OPERATIONS = PARAMETERS.filter(({ property }) => property.name === 'operation').flatMap(
	({ property }) =>
		optionsOf(property).map((option) => ({
			resource: String(property.displayOptions?.show?.resource?.[0]),
			option,
		})),
);
const operationParameters = (resource: string, operation: string) =>
	PARAMETERS.filter(
		({ property }) =>
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	).map(({ property }) => property);

/** Everything of a parameter the panel shows a user. */
function shownText(property: INodeProperties): Array<[string, string]> {
	const texts: Array<[string, string]> = [
		['name', property.displayName],
		['description', property.description ?? ''],
		['hint', property.hint ?? ''],
		['placeholder', property.placeholder ?? ''],
	];
	if (property.type === 'options' || property.type === 'multiOptions')
		for (const option of optionsOf(property))
			texts.push([`option ${option.name}`, `${option.name} ${option.description ?? ''}`]);
	for (const mode of (property.modes ?? []) as Array<{ placeholder?: string }>)
		texts.push(['mode placeholder', mode.placeholder ?? '']);
	return texts;
}

/** The API's own words, which the panel must not show (names of its keys, codes, query syntax). */
const JARGON: Array<[RegExp, string]> = [
	[/\[sub\]/, 'the [sub] separator'],
	[/\w\[\]/, 'query syntax (topics[])'],
	[/\bstatus \d\b/, 'a status code'],
	[/\b\d\s*=\s*[A-Z]/, 'a numeric code'],
	[/\bas is\b/i, '"as is"'],
	[/\bsuffix\b/i, 'a path suffix'],
	[/\b(passed|sent) (to|as)\b/i, 'what is sent to the API'],
	[
		/\b(kw|grank|grank_int|prevrank|rankingurl|gmb|isfav|tagsSplited|searchTermTopicRef)\b/,
		'an API key',
	],
];

describe('the editor in the user’s words', () => {
	it('finds what it checks: both nodes, every operation, nested parameters', () => {
		assert.equal(NODES.length, 2);
		assert.ok(OPERATIONS.length >= 30, `${OPERATIONS.length} operations`);
		assert.ok(
			PARAMETERS.some(({ where }) => where.includes('.')),
			'collection fields',
		);
	});

	it('actions are n8n’s: "<Verb> <a|an|many> <thing>" or "<Verb> <thing>", short, in lower case (but AI)', () => {
		for (const { resource, option } of OPERATIONS) {
			const action = String(option.action);
			assert.match(
				action,
				/^(Get|Create|Delete|Update|Add|Archive|Restore|Refresh) ((a|an|many) )?([a-z]+|AI)( ([a-z]+|AI))*$/,
				`${resource} ${option.value}: "${action}"`,
			);
			assert.ok(action.split(' ').length <= 5, `${resource} ${option.value}: "${action}" is long`);
		}
	});

	it('no API jargon in names, descriptions, hints, placeholders and options', () => {
		const found: string[] = [];
		for (const { property, where } of PARAMETERS)
			for (const [part, text] of shownText(property))
				for (const [pattern, what] of JARGON)
					if (pattern.test(text)) found.push(`${where} (${part}): ${what} in "${text}"`);
		for (const { resource, option } of OPERATIONS)
			for (const [pattern, what] of JARGON)
				if (pattern.test(`${option.description ?? ''}`))
					found.push(`${resource} ${option.value} (description): ${what}`);
		assert.deepEqual(found, []);
	});

	it('dropdowns list their options alphabetically, or a scale smallest first (7, 30, 90 days; top 3, 10, 20, N)', () => {
		for (const { property, where } of PARAMETERS.filter(
			({ property }) => property.type === 'options',
		)) {
			if (property.name === 'operation' || property.typeOptions?.loadOptionsMethod) continue;
			assert.ok(
				inAnAllowedOrder(optionsOf(property)),
				`${where}: ${optionsOf(property)
					.map((o) => o.name)
					.join(', ')}`,
			);
		}
	});

	it('collections list their fields alphabetically, with one placeholder style', () => {
		const placeholders: Record<string, string> = {
			options: 'Add option',
			filters: 'Add filter',
			additionalFields: 'Add field',
			updateFields: 'Add field',
		};
		for (const { property, where } of PARAMETERS.filter(
			({ property }) => property.type === 'collection',
		)) {
			const names = (property.options as INodeProperties[]).map((option) => option.displayName);
			assert.deepEqual(names, [...names].sort(byName), where);
			assert.equal(property.placeholder, placeholders[property.name], `${where}: its placeholder`);
		}
	});

	it('placeholders show a real-looking value ("e.g. …"), and IDs look like the API’s', () => {
		for (const { property, where } of PARAMETERS) {
			const typed = [
				property.type === 'collection' ? '' : (property.placeholder ?? ''),
				...((property.modes ?? []) as Array<{ type: string; placeholder?: string }>)
					.filter((mode) => mode.type === 'string')
					.map((mode) => mode.placeholder ?? ''),
			].filter((text) => text !== '');
			for (const text of typed) {
				assert.match(text, /^e\.g\. \S/, `${where}: "${text}"`);
				if (/\bid\b/i.test(property.displayName) || property.name.endsWith('Id'))
					assert.ok(
						text.length >= 'e.g. 123456'.length,
						`${where}: "${text}" looks like no real ID`,
					);
			}
		}
	});

	it('a project is picked by name wherever an operation takes one (its numeric ID is the node’s job)', () => {
		for (const { property, where } of PARAMETERS) {
			assert.notEqual(property.name, 'projectId', `${where}: a numeric project ID field`);
			if (property.name === 'project' || property.name === 'group')
				assert.equal(property.type, 'resourceLocator', where);
		}
		for (const { resource, option } of OPERATIONS) {
			const names = operationParameters(resource, String(option.value)).map((p) => p.name);
			const url = String(option.routing?.request?.url ?? '');
			if (/\{(target|projectId)\}|keywords\/refresh|keywords\/chart/.test(url))
				assert.ok(
					names.includes('project') && names.includes('group'),
					`${resource} ${option.value}: project and group pickers`,
				);
		}
	});

	it('keywords and tags asked by ID are picked from their lists; dates are n8n date fields', () => {
		for (const { property, where } of PARAMETERS) {
			if (/^(keywordIds|tagId|tags)$/.test(property.name) && property.type !== 'string')
				assert.ok(property.typeOptions?.loadOptionsMethod, `${where}: from a list`);
			if (/^(keywordIds|tagId)$/.test(property.name))
				assert.ok(property.typeOptions?.loadOptionsMethod, `${where}: from a list`);
			if (/date$/i.test(property.name)) assert.equal(property.type, 'dateTime', where);
		}
	});

	it('Selected Fields offers the names Simplified uses, sorted, never the API’s keys', () => {
		const lists = PARAMETERS.filter(({ property }) => property.name === 'fields');
		assert.ok(lists.length >= 20, `${lists.length} Selected Fields lists`);
		for (const { property, where } of lists) {
			assert.equal(property.type, 'multiOptions', `${where}: a list, not typed names`);
			const names = optionsOf(property).map((option) => option.name);
			assert.deepEqual(
				names,
				[...names].sort((a, b) => a.localeCompare(b)),
				where,
			);
			for (const name of names) {
				assert.match(name, /^[a-z][a-z0-9_]*$/, `${where}: ${name}`);
				for (const [pattern] of JARGON.slice(-1))
					assert.doesNotMatch(name, pattern, `${where}: ${name}`);
			}
		}
	});
});
