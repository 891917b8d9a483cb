/**
 * A screenshot of every example page linked from examples/index.html, at desktop width and at
 * 375 px, against the demo service, logged out and logged in as Ada: written to
 * test-results/examples/ for reviewers (README, "Examples"). Each page also has to fit: no
 * sideways scrolling at 375 px, and no console error.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from '../../../scripts/lib/paths';
import { ADA, expectNoErrors, SCREENSHOT_DIR, useExamplesSuite } from '../support/examples';
import { browserTest } from '../support/suite';

const suite = useExamplesSuite();

/** The pages the index links to, the index first. */
const PAGES = [
  'index.html',
  ...[...readFileSync(join(repoRoot, 'examples/index.html'), 'utf8').matchAll(/href="([a-z-]+\.html)"/g)].map((m) => m[1]!),
];
const WIDTHS = [
  { name: 'desktop', width: 1280 },
  { name: 'mobile', width: 375 },
];

browserTest('the index links every example page', () => {
  expect(PAGES).toEqual(['index.html', 'events.html', 'gated.html', 'member-info.html', 'screens.html', 'metadata.html', 'spa.html', 'subdomains.html', 'welcome.html', 'mail.html', 'library.html']);
});

for (const { name, width } of WIDTHS) {
  for (const file of PAGES) {
    browserTest(`${file} at ${name} width (${width} px): logged out and logged in, fits, no console error, screenshots written`, async () => {
      const context = await suite.newContext({ width, height: 900 });
      const page = await suite.open(context, 'service', file);
      const shoot = async (who: string) => {
        // Let the page draw what it loads after ready (plans, metadata) before the picture.
        await page.page.waitForLoadState('networkidle');
        const path = join(SCREENSHOT_DIR, `${file.replace('.html', '')}-${name}-${who}.png`);
        await page.page.screenshot({ path, fullPage: true });
        expect(statSync(path).size).toBeGreaterThan(5_000);
        const overflow = await page.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${file} scrolls sideways by ${overflow} px at ${width} px`).toBeLessThanOrEqual(0);
      };
      await shoot('logged-out');
      await page.page.evaluate((who) => window.Service.login(who), ADA);
      await page.waitForEvent('Service.member.info');
      await shoot('logged-in');
      expectNoErrors(page);
    });
  }
}
