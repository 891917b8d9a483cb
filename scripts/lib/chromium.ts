/**
 * Debian's Chromium, driven by playwright-core (never a downloaded browser), headless, as the
 * real-browser tests and the browser benchmarks launch it. playwright gives every launch a fresh
 * temporary profile (user-data-dir), removed on close.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function launchHeadlessChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // Never a proxy, whatever the environment says: every host here is on this machine.
      '--no-proxy-server',
      ...extraArgs,
    ],
  });
}
