import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium; .ci/run installs it where apt-get works. Playwright's own browser download is not used. */
const CHROMIUM = '/usr/bin/chromium';

/** Whether browser specs must be skipped here; says why once, naming what they would have checked. */
export function chromiumMissing(checks: string): boolean {
  const missing = !existsSync(CHROMIUM);
  if (missing)
    console.log(`${checks} not checked in a browser: ${CHROMIUM} is missing (apt-get install chromium)`);
  return missing;
}

/** A headless chromium; the caller closes it. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM });
