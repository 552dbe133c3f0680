import type { IDataObject } from 'n8n-workflow';

import { orNull, type RecordCatalogue } from './catalogue';

export const accountCatalogue: RecordCatalogue = {
	selectable: [
		'id',
		'user_id',
		'name',
		'access_level',
		'package',
		'package_info',
		'used',
		'refreshes',
		'daily_added',
		'currency_code',
		'gsc_connected',
		'is_free_plan',
		'serp_and_ranking_history_limit_date',
		'country',
		'created_at',
		'last_login_at',
	],
	simplifyV1: [
		'id',
		'user_id',
		'name',
		'access_level',
		'package',
		'used',
		'refreshes',
		'daily_added',
		['plan', (read) => (read('package_info') as IDataObject | undefined)?.title],
		'currency_code',
		'gsc_connected',
		'is_free_plan',
		'serp_and_ranking_history_limit_date',
		'api_token',
	],
	// Nine fields: the token, when the user asks for it, is the tenth (output.ts).
	simplified: (read) => ({
		id: orNull(read('id')),
		name: orNull(read('name')),
		plan: orNull((read('package_info') as IDataObject | undefined)?.title),
		keywords_used: orNull(read('used')),
		keywords_limit: orNull(read('package')),
		refreshes: orNull(read('refreshes')),
		daily_added: orNull(read('daily_added')),
		currency_code: orNull(read('currency_code')),
		history_limit_date: orNull(read('serp_and_ranking_history_limit_date')),
	}),
};
