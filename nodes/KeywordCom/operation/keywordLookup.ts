import { API_PREFIX } from '../../shared/constants';
import {
	normalizeKeywordText,
	summarizeKeyword,
	type KeywordSummary,
} from '../../shared/keywordText';
import { collectPages, identityOf, orderOfList } from '../../shared/paging';
import type { ApiRequest, ApiResponse, AttemptHooks } from '../../shared/transport';
import {
	checkKeywordText,
	InputError,
	quote,
	said,
	type MessageParts,
} from '../../shared/validation';
import type { OperationInput } from './types';
import type { Target } from './target';

/**
 * As an AI tool, Keyword ID may be the keyword's text ("running shoes"): an agent knows keywords by what they say.
 * The text is looked up in the project's keyword list before the operation's request. Exactly one keyword must have
 * it; none or several fail the item naming the candidates, and nothing else is sent (a Delete never goes out on a
 * guess).
 */

export const KEYWORD_ID_PARAMETER = 'keywordId';
const FIELD = 'Keyword ID';

/**
 * The most keywords a lookup reads (8 pages of 250). A larger project is refused rather than searched in part: a
 * keyword of the same text could be in the part not read.
 */
export const KEYWORD_LOOKUP_MAX = 2000;

/** Candidates an error names at most. */
const CANDIDATES_SHOWN = 5;

const HINT =
	"Give the keyword's numeric ID instead (Keyword → Get Many lists the keywords of a project with their IDs).";

/**
 * The text to look up, checked: only as a tool, and only when the value is not an ID (digits). Anything else is
 * checked as an ID by the operation, as before.
 */
export function keywordTextToLookUp(value: unknown, asTool: boolean): string | undefined {
	if (!asTool || typeof value !== 'string' || /^\s*\d+\s*$/.test(value)) return undefined;
	return checkKeywordText(FIELD, value);
}

/** Keyword ID while the other values are checked, before the lookup: any valid ID, never sent. */
export const STAND_IN_KEYWORD_ID = '1';

/** The item's parameters with Keyword ID replaced (the ID found, or a stand-in while the rest is checked). */
export function withKeywordId(input: OperationInput, id: string): OperationInput {
	return {
		...input,
		get: (name, fallback) => (name === KEYWORD_ID_PARAMETER ? id : input.get(name, fallback)),
	};
}

type Send = (request: Omit<ApiRequest, 'base'>, hooks?: AttemptHooks) => Promise<ApiResponse>;

/** Candidates as parts of an error message: `id "label"`, each label quoted (it is the user's data). */
function listed(keywords: KeywordSummary[]): MessageParts {
	const parts: MessageParts[] = keywords
		.slice(0, CANDIDATES_SHOWN)
		.map((keyword, index) => [index === 0 ? '' : ', ', `${keyword.id} `, quote(keyword.label, 80)]);
	const more = keywords.length - CANDIDATES_SHOWN;
	return [...parts.flat(), ...(more > 0 ? [` and ${more} more`] : [])];
}

/**
 * The ID of the one keyword of `target` whose text is `text` (case and spaces aside). Reads the keyword list with the
 * ordered read of Get Many (a list changing meanwhile loses nothing), up to KEYWORD_LOOKUP_MAX keywords.
 */
export async function lookUpKeywordId(send: Send, target: Target, text: string): Promise<string> {
	const url = `${API_PREFIX}/groups/${target.encoded}/keywords/`;
	const keywords = await collectPages(
		'pagination',
		async (page, perPage, hooks) =>
			(await send({ method: 'GET', url, qs: { page, per_page: perPage } }, hooks)).body,
		{
			returnAll: false,
			limit: KEYWORD_LOOKUP_MAX + 1,
			concurrency: 2,
			order: orderOfList('keyword'),
			identity: identityOf,
		},
		(records) =>
			records
				.map(summarizeKeyword)
				.filter((keyword): keyword is KeywordSummary => keyword !== undefined),
	);
	const where = quote(target.name);
	if (keywords.length > KEYWORD_LOOKUP_MAX) {
		throw new InputError(
			FIELD,
			said`${quote(text)} cannot be looked up by its text: ${where} has more than ${KEYWORD_LOOKUP_MAX} keywords`,
			HINT,
		);
	}
	const wanted = normalizeKeywordText(text);
	const matches = keywords.filter((keyword) => normalizeKeywordText(keyword.text) === wanted);
	if (matches.length === 1) return matches[0].id;
	if (matches.length > 1) {
		throw new InputError(
			FIELD,
			[
				...said`${quote(text)} is the text of ${matches.length} keywords of ${where}: `,
				...listed(matches),
			],
			'Give the ID of the keyword you mean (the number before its name); nothing was changed.',
		);
	}
	const near = keywords.filter((keyword) => normalizeKeywordText(keyword.text).includes(wanted));
	throw new InputError(
		FIELD,
		near.length > 0
			? [
					...said`no keyword of ${where} is ${quote(text)}; keywords containing it: `,
					...listed(near),
				]
			: said`no keyword of ${where} is ${quote(text)}`,
		HINT,
	);
}
