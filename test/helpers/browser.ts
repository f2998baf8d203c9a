/** Launches Debian's headless Chromium through playwright-core for browser end-to-end tests. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Path of the system Chromium (`apt-get install chromium`), overridable with `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run. On CI a missing browser is an error (the run installs it), so the tests are
 * never silently skipped there; on a developer machine without Chromium they are skipped with a notice.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM_PATH}; .ci/run installs it with apt-get`);
  console.warn(`skipping browser tests: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return false;
}

/** Launches headless Chromium with the flags this closed-network machine needs, and autoplay allowed. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
