import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium; .ci/run installs it where apt-get works (playwright's own download is not used). */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM);

/** Says once, for a spec that needs the browser, why it does not run here. */
export function reportMissingChromium(what: string): void {
  if (chromiumMissing)
    console.log(`${what} not checked in a browser: ${CHROMIUM} is missing (apt-get install chromium)`);
}

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM });

/** The requests a page makes to any other host than `origin`'s (data: URLs aside), as they happen. */
export function offHostRequests(page: Page, origin: string): string[] {
  const offHost: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.host !== new URL(origin).host) offHost.push(request.url());
  });
  return offHost;
}
