/** Small node types of our own, to test the harness without depending on the real nodes. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';

/** Declarative: `requestDefaults` + `routing`, credential keywordComApi. */
export class DeclarativeTestNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Declarative Test',
		name: 'declarativeTest',
		group: ['transform'],
		version: 1,
		description: 'Harness self-test',
		defaults: { name: 'Declarative Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'keywordComApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json' },
		},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'listActive',
				options: [
					{
						name: 'List Active Groups',
						value: 'listActive',
						action: 'List active groups',
						routing: {
							request: { method: 'GET', url: '/api/v2/groups/active' },
							output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data' } }] },
						},
					},
					{
						name: 'Get Group',
						value: 'get',
						action: 'Get a group',
						routing: {
							request: { method: 'GET', url: '=/api/v2/groups/{{$parameter.groupName}}' },
						},
					},
				],
			},
			{
				displayName: 'Group Name',
				name: 'groupName',
				type: 'string',
				default: '',
				displayOptions: { show: { operation: ['get'] } },
			},
			{
				displayName: 'Tag',
				name: 'tag',
				type: 'string',
				default: '',
				routing: { send: { type: 'query', property: 'tag', value: '={{$value || undefined}}' } },
			},
		],
	};
}

/** Programmatic: `execute()` calling `httpRequestWithAuthentication` per item. */
export class ProgrammaticTestNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Programmatic Test',
		name: 'programmaticTest',
		group: ['transform'],
		version: [1, 2],
		description: 'Harness self-test',
		defaults: { name: 'Programmatic Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'keywordComApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/api/v2/groups/active' },
			{ displayName: 'Per Page', name: 'perPage', type: 'number', default: 25 },
			{ displayName: 'Log Credentials', name: 'logCredentials', type: 'boolean', default: false },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		const credentials = await this.getCredentials('keywordComApi');
		const baseUrl = String(credentials.baseUrl).replace(/\/+$/, '');
		for (let i = 0; i < items.length; i++) {
			try {
				const path = this.getNodeParameter('path', i) as string;
				const perPage = this.getNodeParameter('perPage', i) as number;
				if (this.getNodeParameter('logCredentials', i) as boolean) {
					this.logger.debug('About to request', { path, hasToken: Boolean(credentials.apiToken) });
				}
				if (!path.startsWith('/')) {
					throw new NodeOperationError(this.getNode(), `Bad path "${path}"`, { itemIndex: i });
				}
				let response: IDataObject;
				try {
					response = (await this.helpers.httpRequestWithAuthentication.call(this, 'keywordComApi', {
						method: 'GET',
						url: `${baseUrl}${path}`,
						qs: { per_page: perPage },
						json: true,
					})) as IDataObject;
				} catch (error) {
					throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: i });
				}
				out.push({
					json: { path, version: this.getNode().typeVersion, response },
					pairedItem: { item: i },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

/** Polling trigger: remembers the newest alert id in the node's static data. */
export class PollingTestTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Polling Test Trigger',
		name: 'pollingTestTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Harness self-test',
		defaults: { name: 'Polling Test Trigger' },
		polling: true,
		inputs: [],
		outputs: ['main'],
		credentials: [{ name: 'keywordComApi', required: true }],
		properties: [
			{ displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/api/v2/groups/active' },
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const staticData = this.getWorkflowStaticData('node');
		const credentials = await this.getCredentials('keywordComApi');
		const baseUrl = String(credentials.baseUrl).replace(/\/+$/, '');
		staticData.polls = ((staticData.polls as number | undefined) ?? 0) + 1;
		if (this.getNodeParameter('fail') as boolean) {
			staticData.poisoned = true;
			throw new NodeOperationError(this.getNode(), 'Poll failed on purpose');
		}
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'keywordComApi', {
			method: 'GET',
			url: `${baseUrl}${this.getNodeParameter('path') as string}`,
			json: true,
		})) as { data: IDataObject[] };
		const seen = new Set((staticData.seenIds as Array<string | number> | undefined) ?? []);
		const fresh = response.data.filter((g) => !seen.has(g.id as string | number));
		staticData.seenIds = [...seen, ...fresh.map((g) => g.id as string | number)];
		staticData.lastMode = this.getMode();
		staticData.activation = this.getActivationMode();
		if (this.getMode() === 'manual') return [response.data.slice(0, 1).map((json) => ({ json }))];
		if (fresh.length === 0) return null;
		return [fresh.map((json) => ({ json }))];
	}
}
