/**
 * Helpers for the svcopen screens in happy-dom: the modal bundle's entry put on `window` as the
 * download would (no script is fetched), the widget started like a page load with `svcopen` in
 * the address, and the dialog read from its shadow root the way a person would (roles, labels).
 */
import { waitFor, within } from '@testing-library/dom';
import { afterEach, expect, vi } from 'vitest';
import { modalEntryKey, modalSuffix } from '../../../src/widget/modal/host';
import { messagesFor } from '../../../src/widget/modal/locales';
import { modalEntry } from '../../../src/widget/modal/open';
import { WIDGET_LOCALES } from '../../../src/contract/member';
import { imported } from '../modal-import-stand-in';
import type { SitePatch } from '../../../src/service/store/records';
import { ADA, harness, type Harness } from '../support';

afterEach(() => {
  // Close what a test left open through its own Close button, so the bundle forgets it too.
  for (const host of document.querySelectorAll('[data-svc-modal]')) {
    const close = host.shadowRoot?.querySelector('header button') as HTMLButtonElement | null;
    close?.click();
    host.remove();
  }
  for (const locale of WIDGET_LOCALES) delete (window as unknown as Record<symbol, unknown>)[modalEntryKey(modalSuffix(locale))];
  history.replaceState(null, '', '/');
  document.body.innerHTML = '';
  imported.length = 0;
});

/**
 * What each language's modal bundle leaves on window once downloaded (src/widget/modal/index*.ts):
 * widgets-modal.js in English, widgets-modal.de.js in German.
 */
export function installModalEntry(): void {
  for (const locale of WIDGET_LOCALES) (window as unknown as Record<symbol, unknown>)[modalEntryKey(modalSuffix(locale))] = modalEntry(messagesFor(locale));
}

export const hosts = () => document.querySelectorAll('[data-svc-modal]');

/**
 * Starts the widget on `address` (which carries svcopen), logged in as `member` first if given:
 * that member logs in on a page without svcopen, then the page "reloads" at `address`.
 */
export async function startAt(
  address: string,
  options: {
    member?: { email: string; password: string };
    entry?: boolean;
    /** Runs before the page "loads" at `address`: add page elements, change the demo site's settings. */
    beforeStart?: (h: Harness) => void | Promise<void>;
  } = {},
): Promise<Harness> {
  const h = await harness();
  if (options.entry !== false) installModalEntry();
  if (options.member) {
    history.replaceState(null, '', '/');
    h.start();
    await waitFor(() => expect(h.service.ready).toBe(true));
    await h.service.login(options.member);
  }
  history.replaceState(null, '', address);
  await options.beforeStart?.(h);
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  return h;
}

export const svcopen = (path: string, member?: { email: string; password: string }) =>
  startAt(`/?svcopen=${encodeURIComponent(path)}`, member ? { member } : {});

/**
 * The demo site's settings changed before the page loads (the fixture has a member menu and
 * offers the plans after registering; `plain` is a site with neither).
 */
export const siteSettings = (patch: SitePatch) => (h: Harness) => h.mock.store.updateSite(h.mock.sites[0]!.site.id, patch).then(() => undefined);
export const plain = siteSettings({ memberMenu: false, afterRegistration: { action: 'stay' } });

export { ADA };

/** A `beforeStart`: Ada's Monthly fell due an hour ago and its charge failed. */
export async function adaMonthlyFailed(started: Harness): Promise<void> {
  const site = started.mock.sites[0]!;
  const monthly = (await started.mock.store.listMembershipsOfMember(site.site.id, site.memberIds.ada!)).find((x) => x.planId === site.planIds.monthly)!;
  await started.mock.store.updateMembership(site.site.id, monthly.id, { paymentFailure: true, billingPeriodEnd: Date.now() - 3_600_000 });
}

/** The open dialog: its host's shadow root, the <dialog>, its title and Testing Library queries. */
export function modal() {
  const all = hosts();
  expect(all, 'one [data-svc-modal] host').toHaveLength(1);
  const host = all[0]!;
  const root = host.shadowRoot;
  if (!root) throw new Error('the modal host has no open shadow root');
  const dialog = root.querySelector('dialog');
  if (!dialog) throw new Error('no <dialog> in the modal');
  const titleId = dialog.getAttribute('aria-labelledby');
  const title = titleId ? root.getElementById(titleId) : null;
  const q = within(root as unknown as HTMLElement);
  return {
    host,
    root,
    dialog,
    title: title?.textContent ?? null,
    q,
    /** The form's controls by name (the API's field names). */
    control: <T extends HTMLElement = HTMLInputElement>(name: string) => {
      const element = root.querySelector(`[name="${name}"]`);
      if (!element) throw new Error(`no control named ${name}`);
      return element as unknown as T;
    },
    form: () => root.querySelector('form')!,
    alert: () => root.querySelector('form [role="alert"]')?.textContent ?? null,
    button: (name: string | RegExp) => q.getByRole('button', { name }) as HTMLButtonElement,
  };
}

/** Waits for the one dialog to show `title`. */
export async function waitForScreen(title: string): Promise<ReturnType<typeof modal>> {
  await waitFor(() => expect(modal().title).toBe(title));
  return modal();
}

/** Types a value the way a person does: the value changes and `input` fires. */
export function fill(control: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

export function choose(select: HTMLSelectElement, ...values: string[]): void {
  for (const option of select.options) option.selected = values.includes(option.value);
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The error shown next to a control (its aria-describedby slot). */
export function fieldError(root: ShadowRoot, control: Element): string {
  // Its error slot among what describes it (a new password's rule too).
  const id = control.getAttribute('aria-describedby')?.split(' ').find((one) => one.endsWith('-error'));
  return (id && root.getElementById(id)?.textContent) || '';
}

/** Every input, select and textarea has a <label for> naming it. */
export function expectAllLabelled(root: ShadowRoot): void {
  const controls = [...root.querySelectorAll('input, select, textarea')];
  for (const control of controls) {
    // A choice in a group (a multiple-select's checkboxes) is labelled by the label around it.
    const around = control.closest('fieldset label');
    if (around) {
      expect(around.textContent!.trim(), `label around a ${control.getAttribute('value')} box`).not.toBe('');
      continue;
    }
    expect(control.id, `${control.getAttribute('name')} has an id`).not.toBe('');
    const label = root.querySelector(`label[for="${control.id}"]`);
    expect(label, `label for ${control.getAttribute('name')}`).not.toBeNull();
    expect(label!.textContent!.trim()).not.toBe('');
  }
}

/**
 * On the code screen ("Check your inbox": an e-mail change's, a sign-up's without a password),
 * types the newest code mailed to `email` and confirms it.
 */
export async function confirmMailedCode(h: Harness, email: string): Promise<void> {
  const m = await waitForScreen('Check your inbox');
  let code: string | undefined;
  await waitFor(async () => {
    const { items } = await h.mock.store.listMail(undefined, { limit: 100 });
    code = /^(\d{6})$/m.exec(items.filter((mail) => mail.to === email).at(-1)?.text ?? '')?.[1];
    expect(code, `a code mailed to ${email}`).toBeDefined();
  });
  fill(m.control('code'), code!);
  m.form().requestSubmit();
}

export const silenceWarnings = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);
