/**
 * The modal's frame (src/widget/modal/dialog.ts) in real Chromium, where the keyboard, the top
 * layer and focus are the browser's own: Escape, Tab, the Close button, focus given back. The
 * module is bundled for the page here with esbuild; the screens will use it from the widget.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, skipBrowserTests } from './support/chromium';
import { browserTest } from './support/suite';

let browser: Browser | undefined;
let script = '';

if (!skipBrowserTests) {
  beforeAll(async () => {
    browser = await launchChromium();
    const bundle = await build({
      stdin: {
        contents: "import { openDialog } from './src/widget/modal/dialog'; window.openDialog = openDialog;",
        resolveDir: join(import.meta.dirname, '..', '..'),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
    });
    script = bundle.outputFiles[0]!.text;
  });
  afterAll(async () => {
    await browser?.close();
  });
}

async function pageWithDialog(): Promise<Page> {
  const page = await browser!.newPage();
  await page.setContent('<button id="trigger">Open</button><a href="#x" id="behind">behind</a>');
  await page.addScriptTag({ content: script });
  await page.evaluate(() => {
    const w = window as unknown as { openDialog: typeof import('../../src/widget/modal/dialog').openDialog; closedCount: number };
    w.closedCount = 0;
    document.getElementById('trigger')!.addEventListener('click', () => {
      const dialog = w.openDialog(document, { title: 'Log in', closeLabel: 'Close', onClose: () => w.closedCount++ });
      dialog._body.innerHTML = '<label>E-mail <input name="email"></label><button>Log in</button>';
      dialog._focusFirst();
    });
  });
  await page.click('#trigger');
  return page;
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector('[data-svc-modal]');
    const inner = host?.shadowRoot?.activeElement;
    return inner ? `${inner.tagName.toLowerCase()}:${inner.getAttribute('name') ?? inner.textContent}` : document.activeElement?.id;
  });

browserTest('the dialog opens modal with focus on its first field, and Tab never leaves it', async () => {
  const page = await pageWithDialog();
  try {
    expect(await page.getByRole('dialog', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await focused(page)).toBe('input:email');
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
    }
    expect(seen).toEqual(['button:Log in', 'button:Close', 'input:email', 'button:Log in', 'button:Close', 'input:email']);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('button:Close');
    // The page behind is covered: what is under the pointer there is the dialog's host, not the link.
    expect(
      await page.evaluate(() => {
        const box = document.getElementById('behind')!.getBoundingClientRect();
        return document.elementFromPoint(box.x + 2, box.y + 2)?.hasAttribute('data-svc-modal');
      }),
    ).toBe(true);
  } finally {
    await page.close();
  }
});

browserTest('Escape closes the dialog, removes it and gives focus back to what opened it', async () => {
  const page = await pageWithDialog();
  try {
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-svc-modal]').count()).toBe(0);
    expect(await focused(page)).toBe('trigger');
    expect(await page.evaluate(() => (window as unknown as { closedCount: number }).closedCount)).toBe(1);
  } finally {
    await page.close();
  }
});

browserTest('the Close button closes it the same way', async () => {
  const page = await pageWithDialog();
  try {
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await page.locator('[data-svc-modal]').count()).toBe(0);
    expect(await focused(page)).toBe('trigger');
    expect(await page.evaluate(() => (window as unknown as { closedCount: number }).closedCount)).toBe(1);
  } finally {
    await page.close();
  }
});
