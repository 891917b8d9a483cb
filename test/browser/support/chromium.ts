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

/** The worker's Chromium (the browser suites share a worker's modules: vitest.config.ts). */
let shared: Promise<Browser> | undefined;

/**
 * Chromium for a test file: one browser per worker, shared by the files the worker runs one after
 * another (a launch is about 0.9 s of CPU, 31 files). What a file gets is that browser whose
 * `close()` closes the contexts the file left open instead, so the next file starts on a browser
 * with none; each test opens its own context (cookies, storage). A browser that crashed or was
 * disconnected is launched again for the next file. playwright's launch() gives it a fresh
 * temporary profile (user-data-dir), removed when the worker exits.
 */
export async function launchChromium(): Promise<Browser> {
  if (!present) throw new Error(`${CHROMIUM} is missing and CI=true: the real-browser suite must run, install chromium`);
  const current = await shared?.catch(() => undefined);
  if (!current?.isConnected()) {
    shared = launchHeadlessChromium([`--host-resolver-rules=MAP *.${SITE_DOMAIN} 127.0.0.1, MAP ${OUTSIDE_HOST} 127.0.0.1`]);
  }
  const browser = await shared!;
  const closeContexts = async () => void (await Promise.all(browser.contexts().map((context) => context.close().catch(() => {}))));
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close') return closeContexts;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
