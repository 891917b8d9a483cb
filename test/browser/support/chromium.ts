/**
 * Debian's Chromium, driven by playwright-core (never a downloaded browser). Missing Chromium
 * fails the suite under CI=true and skips it, loudly, elsewhere.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CHROMIUM, launchHeadlessChromium } from '../../../scripts/lib/chromium';

/** Hosts the tests use, all answered by 127.0.0.1: the site's subdomains and an outsider. */
export const SITE_DOMAIN = 'shop.example';
export const OUTSIDE_HOST = 'evil.example';

const present = existsSync(CHROMIUM);
const required = process.env.CI === 'true';

/** True when the real-browser tests should be skipped here (never under CI=true). */
export const skipBrowserTests = !present && !required;

if (skipBrowserTests) {
  console.warn(
    [
      '',
      '!'.repeat(78),
      `!! ${CHROMIUM} is missing: the real-browser tests (test/browser) are SKIPPED.`,
      '!! Install it (apt-get install chromium) to run them; under CI=true they fail instead.',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
}

/**
 * One browser per test file. playwright's launch() gives it a fresh temporary profile
 * (user-data-dir), removed on close; each test then opens its own context (cookies, storage).
 */
export async function launchChromium(): Promise<Browser> {
  if (!present) throw new Error(`${CHROMIUM} is missing and CI=true: the real-browser suite must run, install chromium`);
  return launchHeadlessChromium([`--host-resolver-rules=MAP *.${SITE_DOMAIN} 127.0.0.1, MAP ${OUTSIDE_HOST} 127.0.0.1`]);
}
