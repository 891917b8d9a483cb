/**
 * axe-core on the open modal: its host (`[data-svc-modal]`) and, through it, the open shadow
 * root. A failure lists each rule's id, its help text and the nodes it found, so it can be read
 * without a debugger. accessibility.test.ts and mail-flows.test.ts run it as it is; the screens
 * gallery adds scrolling stops of its own and shares the shapes.
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

/** The violations axe finds in the open modal (axe is added to the page the first time). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe;
    const host = document.querySelector('[data-svc-modal]')!;
    const results = await run.run(host, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), html: n.html, summary: n.failureSummary ?? '' })),
    }));
  });
}

/** Violations as text for a failing expectation's message. */
export const readable = (violations: Violation[]): string =>
  violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.helpUrl}\n` +
        v.nodes.map((n) => `  - ${n.target}\n    ${n.html}\n    ${n.summary.replaceAll('\n', '\n    ')}`).join('\n'),
    )
    .join('\n');
