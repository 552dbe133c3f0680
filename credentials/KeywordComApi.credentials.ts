import type {
	IAuthenticateRuleResponseCode,
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Keyword.com API token (Settings → Account in the web app), sent as a Bearer header on every request.
 * The base URL is a field so the same credential can point at a test server; a trailing slash is tolerated.
 */
export class KeywordComApi implements ICredentialType {
	name = 'keywordComApi';

	displayName = 'Keyword.com API';

	icon: Icon = {
		light: 'file:../icons/keyword-com.svg',
		dark: 'file:../icons/keyword-com.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-keyword-com#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Your API token, found in the Keyword.com app under Settings → Account',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://app.keyword.com',
			required: true,
			description: 'Change only to reach another Keyword.com host (for example a test server)',
		},
	];

	// A function rather than the generic `=Bearer {{$credentials.apiToken}}` template: n8n evaluates a template in its
	// expression sandbox on every request (about 0.7 ms each), and Return All on a large account sends hundreds.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiToken ?? '')}`,
			},
		};
	}

	// The account record is the cheapest authenticated read: a wrong token answers 401.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v2/users/self&include_subscriptions',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Keyword.com rejected the API token (401). Copy it again from Settings → Account in the Keyword.com app.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Keyword.com API answered at this Base URL (404). Leave it at https://app.keyword.com unless you use a test server.',
				},
			},
		] as IAuthenticateRuleResponseCode[],
	};
}
