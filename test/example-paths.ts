/** Where the tests find the example workflows, and the version-1 example kept from an earlier release. */
import { join } from 'node:path';

/** The repository (tests run from build/test/…). */
export const REPOSITORY = join(__dirname, '..', '..');
export const EXAMPLES_DIR = join(REPOSITORY, 'examples');
/** The daily-ranks example as released with node version 1 (not in examples/: users should not copy it). */
export const VERSION_1_EXAMPLE = join(
	REPOSITORY,
	'test',
	'fixtures',
	'examples-v1',
	'daily-ranks-to-google-sheet.json',
);
