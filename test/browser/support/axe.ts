/**
 * axe-core on the open modal: its host (`[data-svc-modal]`) and, through it, the open shadow
 * root. A failure lists each rule's id, its help text and the nodes it found, so it can be read
 * without a debugger. accessibility.test.ts and mail-flows.test.ts run it as it is, the owner
 * console's tests on the whole page; the screens gallery adds scrolling stops of its own and
 * shares the shapes.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * The violations axe finds under `selector` (the whole page without one). axe goes in through the
 * DevTools protocol (page.evaluate), which no page's Content-Security-Policy governs: a <script>
 * tag of it would be refused on a page that allows no inline script (the owner console's).
 */
export async function pageViolations(page: Page, selector?: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async (scope) => {
    const run = (window as unknown as { axe: typeof axe }).axe;
    const results = await run.run(scope === undefined ? document : document.querySelector(scope)!, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), html: n.html, summary: n.failureSummary ?? '' })),
    }));
  }, selector);
}

/** The violations axe finds in the open modal: its host and, through it, the open shadow root. */
export const axeViolations = (page: Page): Promise<Violation[]> => pageViolations(page, '[data-svc-modal]');

/** Violations as text for a failing expectation's message. */
export const readable = (violations: Violation[]): string =>
  violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.helpUrl}\n` +
        v.nodes.map((n) => `  - ${n.target}\n    ${n.html}\n    ${n.summary.replaceAll('\n', '\n    ')}`).join('\n'),
    )
    .join('\n');
