import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearch } from '../shared/listSearch';
import { loadOptions } from '../shared/loadOptions';
import { accountDescription } from './resources/account';
import { aiDomainDescription } from './resources/aiDomain';
import { aiMetricDescription } from './resources/aiMetric';
import { aiSearchTermDescription } from './resources/aiSearchTerm';
import { alertDescription } from './resources/alert';
import { competitorDescription } from './resources/competitor';
import { keywordDescription } from './resources/keyword';
import { projectDescription } from './resources/project';
import { rankingHistoryDescription } from './resources/rankingHistory';
import { shareOfVoiceDescription } from './resources/shareOfVoice';
import { tagDescription } from './resources/tag';
import { topPageDescription } from './resources/topPage';

/**
 * Keyword.com: the SERP Tracker API v2 and the AI Visibility API as a declarative node. Each resource folder holds
 * one file per operation; `operation/` turns an operation's data into its description and runs it; `../shared/` holds
 * what this node and the trigger both use (fields, validation, transport, paging, record shaping, redaction).
 */
export class KeywordCom implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Keyword.com',
		name: 'keywordCom',
		icon: {
			light: 'file:../../icons/keyword-com.svg',
			dark: 'file:../../icons/keyword-com.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Track keyword rankings, alerts, share of voice and AI visibility with Keyword.com',
		defaults: { name: 'Keyword.com' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'keywordComApi', required: true }],
		// No baseURL here: the runner sends every request, to the credential's base URL (shared/credentials.ts).
		requestDefaults: {
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'AI Visibility Domain', value: 'aiDomain' },
					{ name: 'AI Visibility Metric', value: 'aiMetric' },
					{ name: 'AI Visibility Search Term', value: 'aiSearchTerm' },
					{ name: 'Alert', value: 'alert' },
					{ name: 'Competitor', value: 'competitor' },
					{ name: 'Keyword', value: 'keyword' },
					{ name: 'Project or Group', value: 'project' },
					{ name: 'Ranking History', value: 'rankingHistory' },
					{ name: 'Share of Voice', value: 'shareOfVoice' },
					{ name: 'Tag', value: 'tag' },
					{ name: 'Top Page', value: 'topPage' },
				],
				default: 'keyword',
			},
			...accountDescription,
			...aiDomainDescription,
			...aiMetricDescription,
			...aiSearchTermDescription,
			...alertDescription,
			...competitorDescription,
			...keywordDescription,
			...projectDescription,
			...rankingHistoryDescription,
			...shareOfVoiceDescription,
			...tagDescription,
			...topPageDescription,
			{
				// n8n's Retry On Fail runs the whole item again, on top of the retries of shared/transport.ts, and it
				// repeats a write the transport deliberately does not repeat (an ambiguous failure may have been applied).
				displayName:
					'This node already retries rate limits and, for reads, server errors. Leave the Retry On Fail setting off: with it on, the retries multiply and a failed write may be sent again.',
				name: 'retryOnFailNotice',
				type: 'notice',
				default: '',
			},
		],
	};

	methods = { listSearch, loadOptions };
}
