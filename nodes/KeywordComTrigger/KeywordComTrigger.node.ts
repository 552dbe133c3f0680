import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { listSearch } from '../shared/listSearch';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { accessOf } from '../shared/credentials';
import { domainField, groupField, projectField } from '../shared/fields';
import { outputModeField, readOutputChoice, selectedFieldsField } from '../shared/output';
import { alertCatalogue } from '../shared/recordKinds/alert';
import type { RecordCatalogue } from '../shared/recordKinds/catalogue';
import { redactTokenPieces } from '../shared/redact';
import { InputError } from '../shared/validation';
import { getTags } from '../shared/tagOptions';
import { createApi } from './polling/triggerApi';
import { filterFields, readAiFilters, readFilters } from './filters/triggerFilters';
import { PollBudget, hardDeadlineMs, mayHaveBeenAbandoned, pollBudgetMs } from './polling/budget';
import type { AlertCursor } from './newAlert/alertCursor';
import type { KeywordState } from './keywordUpdated/plan';
import { parseScope, readAiScope } from './polling/scope';
import { readEventState, storedState, type EventName, type EventState } from './state/storedState';
import { dropBaseline, keptState, putBaseline } from './state/activationBaseline';
import { pollKeywordUpdates } from './keywordUpdated/poll';
import { pollNewAlerts } from './newAlert/poll';
import { pollAiVisibility, type AiState } from './aiVisibilityUpdated/poll';
import { fetchTestEvent } from './fetchTestEvent';
import { describeProblem } from './polling/describeProblem';
import { aiDayCatalogue } from './aiVisibilityUpdated/dayItem';
import { keywordUpdateCatalogue } from './keywordUpdated/updateItem';
import {
	MAX_REQUESTS_PER_POLL,
	RequestAllowance,
	type PollOutcome,
	type PollSettings,
} from './polling/pollContract';
import { takePollLock } from './polling/pollLock';
import { rememberSeen, seenLastPoll } from './keywordUpdated/seenLastPoll';
import { recordPoll, startingPoint, unsavedProgress } from './state/unsavedProgress';

function readSettings(context: IPollFunctions, token: string | undefined): PollSettings {
	const event = context.getNodeParameter('event') as EventName;
	try {
		const options = context.getNodeParameter('options', {}) as IDataObject;
		const rawFilters = context.getNodeParameter('filters', {}) as IDataObject;
		// The scope is checked first, then the output (the order an error is reported in).
		const scope =
			event === 'aiVisibilityUpdated'
				? { project: '', group: '', includeGroups: true }
				: parseScope(
						context.getNodeParameter('project', '', { extractValue: true }),
						context.getNodeParameter('group', '', { extractValue: true }),
						options.includeGroups !== false,
					);
		// The Output choice, as in the action node.
		const output = readOutputChoice(
			(name, fallback) => context.getNodeParameter(name, fallback as never) as unknown,
			EVENT_CATALOGUES[event],
		);
		if (event === 'aiVisibilityUpdated') {
			return {
				scope,
				output,
				onlyRankChanges: false,
				ai: readAiScope(
					context.getNodeParameter('domainId', '', { extractValue: true }),
					rawFilters,
				),
				aiFilters: readAiFilters(rawFilters),
				token,
			};
		}
		return {
			scope,
			output,
			onlyRankChanges:
				event === 'keywordUpdated' &&
				(context.getNodeParameter('onlyRankChanges', false) as boolean),
			filters: readFilters(rawFilters, event),
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

/** What each event's items hold: the fields Simplified and Selected Fields give. */
const EVENT_CATALOGUES: Record<EventName, RecordCatalogue> = {
	newAlert: alertCatalogue,
	keywordUpdated: keywordUpdateCatalogue,
	aiVisibilityUpdated: aiDayCatalogue,
};

/** Output, and Selected Fields' Fields for each event (each event's items have fields of their own). */
function triggerOutputFields(): INodeProperties[] {
	const forEvent = (event: EventName): INodeProperties => {
		const field = selectedFieldsField(EVENT_CATALOGUES[event]);
		return {
			...field,
			displayOptions: { show: { ...field.displayOptions?.show, event: [event] } },
		};
	};
	return [
		outputModeField(),
		forEvent('newAlert'),
		forEvent('keywordUpdated'),
		forEvent('aiVisibilityUpdated'),
	];
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
			'Starts the workflow on new Keyword.com rank alerts, when keyword ranks are updated, or when a day of AI visibility is complete',
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
						name: 'AI Visibility Updated',
						value: 'aiVisibilityUpdated',
						description:
							'A day of AI visibility (how AI answers name the brand) is complete. One item per domain and day, with each metric, its change from the day before, and the competitor above.',
					},
					{
						name: 'Keyword Updated',
						value: 'keywordUpdated',
						description:
							'Ranks of a keyword were refreshed (scheduled update or on-demand refresh). One item per keyword, with the new rank, the previous rank and the change.',
					},
					{
						name: 'New Alert',
						value: 'newAlert',
						description: 'A rank-change alert was created. One item per alert.',
					},
				],
			},
			{
				...projectField('Only report events of this project. Leave empty for every project.'),
				required: false,
				displayOptions: { show: { event: ['newAlert', 'keywordUpdated'] } },
			},
			{
				...domainField(),
				required: false,
				description: 'Only report this AI-visibility domain. Leave empty for every domain.',
				displayOptions: { show: { event: ['aiVisibilityUpdated'] } },
			},
			{
				...groupField(),
				description:
					"Only report events of this group of the project. Leave empty for the project (and its groups, see Include Groups). Typed, it is the group's own name (without the project's).",
				displayOptions: { show: { event: ['newAlert', 'keywordUpdated'] } },
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
			...filterFields(),
			...triggerOutputFields(),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: { show: { event: ['newAlert', 'keywordUpdated'] } },
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

	methods = { listSearch, loadOptions: { getTags } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// n8n's poll timeout runs from here: reading the credential (a database query) counts against the budget.
		const startedAt = Date.now();
		const event = this.getNodeParameter('event') as EventName;
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const { token, baseUrl } = accessOf(credentials);
		const settings = readSettings(this, token);
		const nodeData = this.getWorkflowStaticData('node');

		if (this.getMode() === 'manual')
			return await fetchTestEvent(
				this,
				event,
				settings,
				nodeData,
				createApi(this, baseUrl, undefined, credentials),
			);

		// n8n 2.41+ says how long a poll may run; older n8n does not (the method is missing there).
		const fromN8n = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const budgetMs = pollBudgetMs(fromN8n);
		const hardMs = hardDeadlineMs(fromN8n, budgetMs);
		const where = { workflowId: this.getWorkflow().id, node: this.getNode().name };
		const nodeId = this.getNode().id ?? this.getNode().name;
		// One poll at a time per node (two Poll Times firing together would emit the same events twice).
		const pollKey = `${this.getWorkflow().id ?? ''}:${nodeId}`;
		const lock = takePollLock(pollKey, hardMs + 5_000);
		if (!lock) {
			this.logger.debug(
				'Keyword.com Trigger: a poll of this node is still running; this one does nothing',
				where,
			);
			return null;
		}
		try {
			const globalData = this.getWorkflowStaticData('global');
			const kept = keptState(event, nodeData, globalData, nodeId);
			// Where n8n keeps only the state of polls that emit, go on from one that emitted nothing (unsavedProgress.ts).
			const from = startingPoint(this.getNode().parameters, nodeData, globalData, nodeId);
			const unsaved = kept && unsavedProgress(pollKey, from);
			const stored = (unsaved && readEventState(event, unsaved)) || kept;
			const budget = new PollBudget(budgetMs, Date.now, hardMs, stored?.measured, startedAt);
			// Every HTTP try of the poll counts, retries too (the transport asks the allowance before each).
			const allowance = new RequestAllowance(MAX_REQUESTS_PER_POLL);
			const limits = { budget, allowance };
			const api = createApi(this, baseUrl, budget, credentials, undefined, allowance);

			const outcome: PollOutcome<EventState> =
				event === 'aiVisibilityUpdated'
					? await pollAiVisibility(api, stored?.state as AiState | undefined, settings, limits)
					: event === 'newAlert'
						? await pollNewAlerts(api, stored?.state as AlertCursor | undefined, settings, limits)
						: await pollKeywordUpdates(
								api,
								stored?.state as KeywordState | undefined,
								settings,
								limits,
								seenLastPoll(pollKey),
							);
			const elapsedMs = budget.elapsedMs();
			if (mayHaveBeenAbandoned(fromN8n, elapsedMs) || !lock.holds()) {
				this.logger.warn(
					`Keyword.com Trigger: the poll ran ${Math.round(elapsedMs)} ms, up to the timeout behind the ${Math.round(fromN8n ?? 0)} ms budget n8n gave it; n8n may have abandoned it, so it keeps nothing and the next poll reads the same events again`,
					where,
				);
				return null;
			}
			// Only now, after the poll returned, is the state replaced (a throw leaves it as it was).
			Object.assign(nodeData, storedState(event, outcome.state, budget.measured()));
			recordPoll(pollKey, from, outcome.items.length > 0, nodeData);
			if (event === 'keywordUpdated') rememberSeen(pollKey, outcome.state as KeywordState);
			// A first poll places "now", also where n8n's activation saves it even when it drops the node's static
			// data. The baseline goes only with a poll that emits, which n8n saves whole in every mode: an activation
			// poll that emits nothing may have its global data saved and its node data dropped (the durable scheduler,
			// after the workflow was deactivated and activated again before its first emit).
			if (!stored) putBaseline(event, outcome.state, globalData, nodeId);
			else if (outcome.items.length > 0) dropBaseline(globalData, nodeId);
			for (const problem of outcome.problems) {
				const line = redactTokenPieces(describeProblem(problem), token);
				if (problem.gone) this.logger.info(line, where);
				else this.logger.warn(line, where);
			}
			return outcome.items.length > 0 ? [this.helpers.returnJsonArray(outcome.items)] : null;
		} finally {
			lock.release();
		}
	}
}
