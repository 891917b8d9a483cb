/**
 * Helpers for the plan and payment screens in happy-dom, on top of ./support.ts: the browser's
 * navigation (`location.assign`) caught instead of followed, card fields filled, the German
 * site `other` started, and the dialog's text read with its whitespace collapsed.
 */
import { waitFor } from '@testing-library/dom';
import { expect, vi } from 'vitest';
import { harness, type Harness } from '../support';
import { fill, installModalEntry, modal } from './support';

/** Test cards (docs/test-cards.md): 0002 is declined as it is saved, so on any plan. */
export const CARD_OK = '4242 4242 4242 4242';
export const CARD_DECLINED = '4000 0000 0000 0002';

/**
 * Catches `window.location.assign` (the screens' `go`): the URLs asked for are recorded and the
 * page stays. happy-dom's Location keeps `assign` on its prototype, so a spy on the instance works;
 * vitest's restoreAllMocks (test/widget/support.ts) puts it back.
 */
export function catchNavigation(): { urls: string[] } {
  const urls: string[] = [];
  vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => void urls.push(String(url)));
  return { urls };
}

/** The dialog's visible words, whitespace collapsed. */
export const dialogText = () => modal().dialog.textContent!.replace(/\s+/g, ' ').trim();

/** Fills the plan sign-up form's card fields. */
export function fillCard(number: string, expiry = '12/34', cvc = '123'): void {
  const m = modal();
  fill(m.control('cardNumber'), number);
  fill(m.control('cardExpiry'), expiry);
  fill(m.control('cardCvc'), cvc);
}

/** Medium date in English, UTC, as format.ts writes it. */
export const enDate = (iso: string | Date) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

type HappyDom = { happyDOM: { setURL(url: string): void } };

/**
 * Runs `body` on a page of the site `other` (locale de, other.example), logged in as Otto when
 * `member` is given, the widget started at `?svcopen=<path>`. The page's URL is put back after.
 */
export async function onOtherSite(
  path: string,
  member: { email: string; password: string } | undefined,
  body: (h: Harness) => Promise<void>,
): Promise<void> {
  const happyDOM = (window as unknown as HappyDom).happyDOM;
  happyDOM.setURL('https://www.other.example/');
  try {
    const h = await harness();
    installModalEntry();
    if (member) {
      h.start({ subdomain: 'other' });
      await waitFor(() => expect(h.service.ready).toBe(true));
      await h.service.login(member);
    }
    history.replaceState(null, '', `/?svcopen=${encodeURIComponent(path)}`);
    h.start({ subdomain: 'other' });
    await waitFor(() => expect(h.service.ready).toBe(true));
    await body(h);
  } finally {
    happyDOM.setURL('https://www.demo.localhost/');
  }
}
