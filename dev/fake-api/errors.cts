/**
 * Error type and error body of the fake.
 *
 * The real error body is not documented ("Error response body shape ... not shown"), so the fake picks one stable,
 * JSON:API-like shape for every non-2xx answer: `{errors: [{status: '404', title: 'Not Found', detail: '...'}]}`,
 * with an optional `source` (`{parameter}` for query/path values, `{pointer}` for body fields) on validation errors.
 * Handlers throw `ApiError`; the server turns it into that body.
 */

export interface ErrorSource {
	parameter?: string;
	pointer?: string;
}

export interface ErrorIssue {
	detail: string;
	source?: ErrorSource;
}

export interface ErrorObject {
	status: string;
	title: string;
	detail: string;
	source?: ErrorSource;
}

export interface ErrorBody {
	errors: ErrorObject[];
}

const TITLES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthenticated',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	408: 'Request Timeout',
	409: 'Conflict',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function statusTitle(status: number): string {
	return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

export function errorBody(status: number, issues: ErrorIssue[]): ErrorBody {
	return {
		errors: issues.map((issue) => {
			const error: ErrorObject = {
				status: String(status),
				title: statusTitle(status),
				detail: issue.detail,
			};
			if (issue.source) error.source = issue.source;
			return error;
		}),
	};
}

export class ApiError extends Error {
	readonly status: number;
	readonly issues: ErrorIssue[];
	readonly headers: Record<string, string>;

	constructor(
		status: number,
		detail: string | ErrorIssue[],
		source?: ErrorSource,
		headers: Record<string, string> = {},
	) {
		const issues = typeof detail === 'string' ? [{ detail, source }] : detail;
		super(issues.map((i) => i.detail).join('; '));
		this.name = 'ApiError';
		this.status = status;
		this.issues = issues;
		this.headers = headers;
	}

	toBody(): ErrorBody {
		return errorBody(this.status, this.issues);
	}
}

export const notFound = (detail: string): ApiError => new ApiError(404, detail);

export const invalid = (detail: string, source?: ErrorSource): ApiError =>
	new ApiError(422, detail, source);
