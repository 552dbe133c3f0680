/**
 * Headless Chromium for the editor test: Debian's /usr/bin/chromium (scripts/install-chromium.sh) driven by
 * playwright-core (a devDependency; required lazily so that the rest of the driver compiles and runs without it).
 */
import * as fs from 'node:fs';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const CHROMIUM_PATH = process.env.KEYWORD_COM_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

/** playwright-core's `chromium` launcher; throws a clear message when playwright-core or Chromium is missing. */
export function chromiumLauncher(): any {
	if (!fs.existsSync(CHROMIUM_PATH)) {
		throw new Error(
			`e2e: ${CHROMIUM_PATH} is missing: run scripts/install-chromium.sh (apt-get install -y chromium)`,
		);
	}
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return (require('playwright-core') as { chromium: any }).chromium;
	} catch (error) {
		throw new Error(
			`e2e: playwright-core is not installed (a devDependency of this project): ${(error as Error).message}`,
		);
	}
}

/** Launches headless Chromium (close it with `browser.close()`). */
export async function launchChromium(): Promise<any> {
	return await chromiumLauncher().launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: CHROMIUM_ARGS,
		timeout: 60_000,
	});
}
