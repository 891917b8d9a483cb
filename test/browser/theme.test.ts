/**
 * The dialog in the site's colours, in Chromium (issue 14): the site's theme from GET /config,
 * a page's own `--svc-*` properties winning over it, text on the accent picked by contrast, and
 * a pale accent never used for links.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';
import { WidgetPage } from './support/widget-page';

// A pale accent (yellow) and a warm background: black text on the buttons, links in the text colour.
const suite = useBrowserSuite({
  tempPrefix: 'svc-theme-',
  setup: async (store, site) =>
    void (await store.updateSite(site.id, {
      theme: { accent: '#facc15', text: '#222222', background: '#fffbeb', radius: 4, fontFamily: 'Georgia, serif', colorScheme: 'light' },
    })),
});

async function openSignIn(pageCss?: string): Promise<Page> {
  const context = await suite.newContext();
  const raw = await context.newPage();
  if (pageCss) await raw.addInitScript((css) => document.addEventListener('DOMContentLoaded', () => document.head.append(Object.assign(document.createElement('style'), { textContent: css }))), pageCss);
  const page = new WidgetPage(raw);
  await raw.goto(`${suite.pages.url(HOST_A)}?svcopen=${encodeURIComponent('/member/sign_in')}`);
  await page.waitForEvent('Service.ready');
  await raw.getByRole('dialog', { name: 'Log in' }).waitFor();
  return raw;
}

/** Computed styles inside the dialog's shadow root. */
const styles = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-svc-modal]')!.shadowRoot!;
    const css = (selector: string) => getComputedStyle(root.querySelector(selector)!);
    const dialog = css('dialog');
    const submit = css('button[type=submit]');
    const link = root.querySelector('a,.link');
    return {
      background: dialog.backgroundColor,
      text: dialog.color,
      radius: dialog.borderTopLeftRadius,
      font: dialog.fontFamily,
      button: submit.backgroundColor,
      buttonText: submit.color,
      link: link ? getComputedStyle(link).color : undefined,
    };
  });

browserTest("the site's theme colours the dialog; a pale accent gets black text and never colours a link", async () => {
  const page = await openSignIn();
  const s = await styles(page);
  expect(s).toMatchObject({
    background: 'rgb(255, 251, 235)',
    text: 'rgb(34, 34, 34)',
    radius: '4px',
    font: 'Georgia, serif',
    button: 'rgb(250, 204, 21)',
    buttonText: 'rgb(0, 0, 0)',
  });
  // Yellow on cream is 1.4:1: links take the text colour.
  expect(s.link).toBe('rgb(34, 34, 34)');
});

browserTest("a page's own --svc-* properties win over the site's theme, and the text on the accent follows them", async () => {
  const page = await openSignIn('[data-svc-modal]{--svc-accent:#5b21b6;--svc-radius:0px}');
  const s = await styles(page);
  expect(s).toMatchObject({ button: 'rgb(91, 33, 182)', buttonText: 'rgb(255, 255, 255)', radius: '0px', background: 'rgb(255, 251, 235)' });
  expect(s.link).toBe('rgb(91, 33, 182)');
});
