import { API_PREFIX } from '../../../shared/constants';
import { options } from '../../../shared/fields';
import { defineOperation } from '../../operation/define';

/** #22 GET /api/v2/users/self&include_subscriptions (the flag is part of the path) */
export const getAccount = defineOperation({
	resource: 'account',
	value: 'get',
	name: 'Get',
	action: 'Get account',
	description:
		'Get the account: plan, keywords used of the package, on-demand refreshes and daily additions remaining, currency',
	method: 'GET',
	path: `${API_PREFIX}/users/self&include_subscriptions`,
	fields: [
		options([
			{
				displayName: 'Include API Token',
				name: 'includeApiToken',
				type: 'boolean',
				default: false,
				description:
					"Whether to include the account's API token in the output. Off by default: the token would be stored with every execution.",
			},
		]),
	],
	revealToken: (input) => input.get('options.includeApiToken', false) === true,
	output: { type: 'record', kind: 'account' },
});
