import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { listSearch } from '../KeywordCom/listSearch';
import { baseUrlOf, CREDENTIAL_TYPE } from '../KeywordCom/shared/constants';
import { groupField, projectField, simplifyField } from '../KeywordCom/shared/fields';
import { InputError } from '../KeywordCom/shared/validation';
import { createApi } from './fetch';
import { parseScope } from './logic/scope';
import {
	readAlertState,
	readKeywordUpdatedState,
	storedState,
	type EventName,
} from './logic/state';
import {
	pollKeywordUpdates,
	pollNewAlerts,
	sampleAlerts,
	sampleKeywordUpdates,
	type PollSettings,
} from './poll';

function readSettings(context: IPollFunctions, token: string | undefined): PollSettings {
	const event = context.getNodeParameter('event') as EventName;
	try {
		const options = context.getNodeParameter('options', {}) as IDataObject;
		return {
			scope: parseScope(
				context.getNodeParameter('project', '', { extractValue: true }),
				context.getNodeParameter('group', '', { extractValue: true }),
				options.includeGroups !== false,
			),
			simplify: context.getNodeParameter('simplify', true) as boolean,
			onlyRankChanges:
				event === 'keywordUpdated' &&
				(context.getNodeParameter('onlyRankChanges', false) as boolean),
			token,
		};
	} catch (error) {
		if (error instanceof InputError) {
			throw new NodeOperationError(context.getNode(), `Invalid ${error.render(token)}`, {
				description: error.hint,
			});
		}
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

export class KeywordComTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Keyword.com Trigger',
		name: 'keywordComTrigger',
		icon: {
			light: 'file:../../icons/keyword-com.svg',
			dark: 'file:../../icons/keyword-com.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description:
			'Starts the workflow on new Keyword.com rank alerts or when keyword ranks are updated',
		defaults: { name: 'Keyword.com Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'keywordComApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: 'newAlert',
				options: [
					{
						name: 'New Alert',
						value: 'newAlert',
						description: 'A rank-change alert was created. One item per alert.',
					},
					{
						name: 'Keyword Updated',
						value: 'keywordUpdated',
						description:
							'Ranks of a keyword were refreshed (scheduled update or on-demand refresh). One item per keyword, with the new rank, the previous rank and the change.',
					},
				],
			},
			{
				...projectField('Only report events of this project. Leave empty for every project.'),
				required: false,
			},
			{
				...groupField(),
				description:
					'Only report events of this group of the project. Leave empty for the project (and its groups, see Include Groups). Type the group name only: the node adds the [sub] separator.',
			},
			{
				displayName: 'Only Rank Changes',
				name: 'onlyRankChanges',
				type: 'boolean',
				default: false,
				displayOptions: { show: { event: ['keywordUpdated'] } },
				description:
					'Whether to report only keywords whose rank differs from the update before (a first rank counts as a change)',
			},
			simplifyField(),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Groups',
						name: 'includeGroups',
						type: 'boolean',
						default: true,
						description:
							"Whether events of the chosen project's groups count too (when a project is chosen and no group)",
					},
				],
			},
		],
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as EventName;
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const token = typeof credentials.apiToken === 'string' ? credentials.apiToken : undefined;
		const baseUrl = baseUrlOf(credentials);
		const settings = readSettings(this, token);
		const api = createApi(this, baseUrl, undefined, credentials);

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest real events, whatever the cursor; static data is left alone.
			const sample =
				event === 'newAlert'
					? await sampleAlerts(api, settings)
					: await sampleKeywordUpdates(api, settings);
			if (typeof sample === 'string') {
				throw new NodeOperationError(this.getNode(), sample, {
					description: 'A test run shows the latest real events; there is none yet.',
				});
			}
			return [this.helpers.returnJsonArray(sample)];
		}

		const staticData = this.getWorkflowStaticData('node');
		let items: IDataObject[];
		if (event === 'newAlert') {
			const outcome = await pollNewAlerts(api, readAlertState(staticData), settings);
			items = outcome.items;
			Object.assign(staticData, storedState(event, outcome.state));
		} else {
			const outcome = await pollKeywordUpdates(api, readKeywordUpdatedState(staticData), settings);
			items = outcome.items;
			Object.assign(staticData, storedState(event, outcome.state));
		}
		// Only now, after every request succeeded, has the state above been replaced (a throw leaves it as it was).
		return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
	}
}
