/** Where the tests find the example workflows. */
import { join } from 'node:path';

/** The repository (tests run from build/test/…). */
export const REPOSITORY = join(__dirname, '..', '..');
export const EXAMPLES_DIR = join(REPOSITORY, 'examples');
