/**
 * The keyword id path segment of #11 and #12. The API takes an optional date written onto the segment itself
 * (`/keywords/123&date=2026-01-05`), not as a query parameter.
 */
export function keywordSegment(keywordId: string, date?: string): string {
	return date ? `${keywordId}&date=${date}` : keywordId;
}
