import type { OperationInput } from '../../operation/types';
import { readTarget } from '../../operation/target';
import { checkNumericId, checkOptionalDate } from '../../../shared/validation';

/**
 * The keyword id path segment of #11 and #12. The API takes an optional date written onto the segment itself
 * (`/keywords/123&date=2026-01-05`), not as a query parameter.
 */
export function keywordSegment(keywordId: string, date?: string): string {
	return date ? `${keywordId}&date=${date}` : keywordId;
}

/** Path values of #11 and #12: the project or group, and the keyword id with its optional date. */
export function keywordPath(input: OperationInput): Record<string, string> {
	return {
		target: readTarget(input).encoded,
		keyword: keywordSegment(
			checkNumericId('Keyword ID', input.get('keywordId')),
			checkOptionalDate('Date', input.get('options.date', '')),
		),
	};
}
