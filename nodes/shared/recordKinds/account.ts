import { isoKey, key, nestedKey, type RecordCatalogue } from './catalogue';

/**
 * The account record (§2.9): every field but those the document calls unused or for system use. The API token is
 * not one of them: it comes only when the user asks for it (Account → Get's Include API Token; output.ts).
 */
export const accountCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		user_id: key('user_id'),
		name: key('name'),
		access_level: key('access_level'),
		plan: nestedKey('package_info', 'title'),
		free_plan: key('is_free_plan'),
		trial_used: key('trial_is_used'),
		keywords_used: key('used'),
		keywords_limit: key('package'),
		refreshes: key('refreshes'),
		daily_added: key('daily_added'),
		currency_code: key('currency_code'),
		history_limit_date: key('serp_and_ranking_history_limit_date'),
		search_console_connected: key('gsc_connected'),
		email_verified: (read) => {
			const verified = read('verified');
			return typeof verified === 'number' || typeof verified === 'boolean'
				? Boolean(verified)
				: null;
		},
		onboarding_done: key('onboarding'),
		master_email: key('addon_master_email'),
		master_disabled: key('addon_master_disabled'),
		phone: key('contactnum'),
		phone_code: key('contactnum_code'),
		country: key('country'),
		state: key('countrystate'),
		last_login_at: isoKey('last_login_at'),
		created_at: isoKey('created_at'),
	},
	// Nine fields: the token, when the user asks for it, is the tenth (output.ts).
	simplified: [
		'id',
		'name',
		'plan',
		'keywords_used',
		'keywords_limit',
		'refreshes',
		'daily_added',
		'currency_code',
		'history_limit_date',
	],
};
