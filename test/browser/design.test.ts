/**
 * The modal's design system where only a real browser can tell (issue 14): below 480 px the dialog
 * is a full-height sheet with 16 px inputs (iOS zooms into smaller ones) and a submit button that
 * stays in view as the form scrolls; above, a centred card. Motion (the dialog's entrance) only
 * when the member's system allows it. Focus rings on keyboard use. Decorations (chevrons, the
 * icon glyphs) add nothing to accessible names.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest, HOST_A, useBrowserSuite } from './support/suite';
import { WidgetPage } from './support/widget-page';

const suite = useBrowserSuite({ tempPrefix: 'svc-design-' });

/** Without motion unless asked: a box measured mid-entrance would be off by the animation. */
async function open(path: string, title: string, options: { width?: number; height?: number; reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Page> {
  const context = await suite.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, reducedMotion: options.reducedMotion ?? 'reduce' });
  const raw = await context.newPage();
  const page = new WidgetPage(raw);
  await raw.goto(`${suite.pages.url(HOST_A)}?svcopen=${encodeURIComponent(path)}`);
  await page.waitForEvent('Service.ready');
  await raw.getByRole('dialog', { name: title }).waitFor();
  return raw;
}

/** Computed styles of an element in the modal's shadow root, and its box. */
interface Styled {
  css: Record<string, string>;
  top: number;
  bottom: number;
  height: number;
  width: number;
}
const styleOf = (page: Page, selector: string, properties: string[]): Promise<Styled> =>
  page.evaluate(
    ({ selector, properties }) => {
      const element = document.querySelector('[data-svc-modal]')!.shadowRoot!.querySelector(selector)!;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return { css: Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)])), top: box.top, bottom: box.bottom, height: box.height, width: box.width };
    },
    { selector, properties },
  );

browserTest('at 375 px the dialog is a full-height sheet, inputs are 16 px, and the submit button stays in view on a short screen', async () => {
  const page = await open('/member/sign_up', 'Create an account', { width: 375, height: 420 });
  const dialog = await styleOf(page, 'dialog', ['border-top-left-radius']);
  expect([dialog.width, dialog.height, dialog.top]).toEqual([375, 420, 0]);
  expect(dialog.css['border-top-left-radius']).toBe('0px');
  for (const name of ['firstName', 'email', 'password']) expect((await styleOf(page, `[name=${name}]`, ['font-size'])).css['font-size']).toBe('16px');
  // The form is taller than the screen: the button is in view before any scrolling.
  const submit = await styleOf(page, 'form > [type=submit]', ['position']);
  expect(submit.css.position).toBe('sticky');
  expect(submit.bottom).toBeLessThanOrEqual(420);
  expect(submit.top).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Create account' }).click({ trial: true });
});

browserTest('at 1280 px the dialog is a card: narrower than the page, not full height, rounded', async () => {
  const page = await open('/member/sign_in', 'Log in');
  const dialog = await styleOf(page, 'dialog', ['border-top-left-radius']);
  expect(dialog.width).toBeLessThanOrEqual(28 * 16);
  expect(dialog.height).toBeLessThan(800);
  expect(dialog.css['border-top-left-radius']).toBe('12px');
});

browserTest('the entrance animates only when the system allows motion', async () => {
  const moving = await open('/member/sign_in', 'Log in', { reducedMotion: 'no-preference' });
  expect((await styleOf(moving, 'dialog', ['animation-name'])).css['animation-name']).toBe('in');
  const still = await open('/member/sign_in', 'Log in', { reducedMotion: 'reduce' });
  expect((await styleOf(still, 'dialog', ['animation-name'])).css['animation-name']).toBe('none');
});

browserTest('keyboard focus shows a ring; the icon buttons and menu rows are named by their words alone', async () => {
  const page = await open('/member/sign_in', 'Log in');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const active = document.querySelector('[data-svc-modal]')!.shadowRoot!.activeElement!;
    return { name: active.getAttribute('name') ?? active.textContent, outline: getComputedStyle(active).outlineStyle };
  });
  expect(focused.outline).toBe('solid');
  expect(await page.getByRole('button', { name: 'Close', exact: true }).count()).toBe(1);
  const snapshot = await page.getByRole('dialog', { name: 'Log in' }).ariaSnapshot();
  expect(snapshot).toContain('button "Close"');
  expect(snapshot).not.toMatch(/[×←›]/);
});
