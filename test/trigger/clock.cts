/**
 * How the fake-API suites of the trigger keep time. The fake's `Date` header follows its clock (`dateFromClock`): the
 * trigger takes the header for the clock of the API's stamps (README, what it takes for granted). A Keyword Updated
 * poll comes `AFTER_CRAWL_MS` after the crawls it is to report: one in the very second of a poll is left to the next
 * poll (another crawl may still come in that second; plan.test.cts covers it).
 */
export const AFTER_CRAWL_MS = 60_000;
