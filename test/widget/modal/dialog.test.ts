// @vitest-environment happy-dom
/** The modal's frame: where it lives, what it says it is, how it closes and where focus goes. */
import { adoptedCss } from '../adopted-css';
import { afterEach, expect, test, vi } from 'vitest';
import { MODAL_ATTRIBUTE, openDialog, type Dialog } from '../../../src/widget/modal/dialog';

afterEach(() => {
  document.body.innerHTML = '';
});

function open(onClose = vi.fn()): { dialog: Dialog; onClose: typeof onClose; trigger: HTMLButtonElement } {
  document.body.innerHTML = '<button id="trigger">Log in</button><input id="other">';
  const trigger = document.getElementById('trigger') as HTMLButtonElement;
  trigger.focus();
  const dialog = openDialog(document, { title: 'Log in', closeLabel: 'Close', onClose });
  return { dialog, onClose, trigger };
}

const hosts = () => document.querySelectorAll(`[${MODAL_ATTRIBUTE}]`);
const dialogOf = (d: Dialog) => d._root.querySelector('dialog')!;
const button = (d: Dialog, text: string) => [...d._root.querySelectorAll('button')].find((b) => b.textContent === text)!;

test('one host with data-svc-modal and an open shadow root holds a modal dialog labelled by its title', () => {
  const { dialog } = open();
  expect(hosts()).toHaveLength(1);
  expect(hosts()[0]!.shadowRoot).toBe(dialog._root);
  const element = dialogOf(dialog);
  expect(element.open).toBe(true);
  expect(element.getAttribute('role')).toBe('dialog');
  expect(element.getAttribute('aria-modal')).toBe('true');
  const title = dialog._root.getElementById(element.getAttribute('aria-labelledby')!)!;
  expect(title.tagName).toBe('H2');
  expect(title.textContent).toBe('Log in');
  dialog._setTitle('Account');
  expect(title.textContent).toBe('Account');
});

test('styles stay inside: the page gains no style element and the dialog has its own', () => {
  const { dialog } = open();
  expect(document.querySelectorAll('style')).toHaveLength(0);
  expect(document.adoptedStyleSheets).toHaveLength(0);
  // A constructed sheet, which a page's Content-Security-Policy does not refuse; no <style> inside either.
  expect(dialog._root.querySelectorAll('style')).toHaveLength(0);
  expect(adoptedCss(dialog._root)).toContain('dialog{');
});

test('focus moves in: to the first control of the body, or else to the close button', () => {
  const { dialog } = open();
  expect(dialog._root.activeElement).toBe(button(dialog, 'Close'));
  const email = document.createElement('input');
  email.name = 'email';
  dialog._body.append(email);
  dialog._focusFirst();
  expect(dialog._root.activeElement).toBe(email);
});

test('the Close button closes: the host leaves the page, focus returns, onClose runs once', () => {
  const { dialog, onClose, trigger } = open();
  button(dialog, 'Close').click();
  expect(hosts()).toHaveLength(0);
  expect(document.activeElement).toBe(trigger);
  dialog._close();
  expect(onClose).toHaveBeenCalledTimes(1);
});

test('Escape (the dialog’s cancel event) closes it the same way', () => {
  const { dialog, onClose, trigger } = open();
  const cancel = new Event('cancel', { cancelable: true });
  dialogOf(dialog).dispatchEvent(cancel);
  expect(cancel.defaultPrevented).toBe(true);
  expect(hosts()).toHaveLength(0);
  expect(document.activeElement).toBe(trigger);
  expect(onClose).toHaveBeenCalledTimes(1);
});

test('Tab wraps from the last control to the first, Shift+Tab from the first to the last', () => {
  const { dialog } = open();
  const input = document.createElement('input');
  const submit = document.createElement('button');
  submit.textContent = 'Log in';
  dialog._body.append(input, submit);
  const tab = (shiftKey: boolean) => {
    const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true });
    dialog._root.activeElement!.dispatchEvent(event);
    return event.defaultPrevented;
  };
  submit.focus();
  expect(tab(false)).toBe(true);
  expect(dialog._root.activeElement).toBe(button(dialog, 'Close'));
  expect(tab(true)).toBe(true);
  expect(dialog._root.activeElement).toBe(submit);
  input.focus();
  expect(tab(false)).toBe(false); // in the middle, the browser moves focus itself
});

test('focus is not returned to an element the page has removed meanwhile', () => {
  const { dialog, trigger } = open();
  trigger.remove();
  expect(() => dialog._close()).not.toThrow();
  expect(hosts()).toHaveLength(0);
});

test('focus goes to the first form field, before a link in the text above it; with no field, to the first control', () => {
  const { dialog } = open();
  dialog._body.innerHTML = '<p>Read <a href="https://example.com/terms">the terms</a>.</p><form><input name="cardNumber"><button>Pay</button></form>';
  dialog._focusFirst();
  expect(dialog._root.activeElement?.getAttribute('name')).toBe('cardNumber');
  dialog._body.innerHTML = '<p>Read <a href="https://example.com/terms">the terms</a>.</p><button>Next</button>';
  dialog._focusFirst();
  expect(dialog._root.activeElement?.textContent).toBe('the terms');
  dialog._body.innerHTML = '<p>Nothing to do.</p>';
  dialog._focusFirst();
  expect(dialog._root.activeElement?.textContent).toBe('Close');
});

test('the icon buttons are named by their text (the glyph is CSS); the back button shows only with a way back, calls it, and is skipped by the Tab wrap while hidden', () => {
  const { dialog } = open();
  const close = dialog._root.querySelector('button.close')!;
  expect([close.textContent, close.className]).toEqual(['Close', 'icon close']);
  const back = dialog._root.querySelector<HTMLButtonElement>('header button')!;
  expect(back.hidden).toBe(true);
  const tab = (shiftKey: boolean) => dialog._root.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true }));
  (close as HTMLElement).focus();
  tab(true); // Shift+Tab from the only visible control stays on it, never on the hidden back button
  expect(dialog._root.activeElement).toBe(close);
  const went = vi.fn();
  dialog._setBack(went);
  expect(back.hidden).toBe(false);
  back.click();
  expect(went).toHaveBeenCalledTimes(1);
  dialog._setBack();
  expect(back.hidden).toBe(true);
});

test('the site’s theme and words arrive after the dialog opened: the style and the icon buttons’ names follow', () => {
  const { dialog } = open();
  dialog._site({ accent: '#0f766e' }, 'Schließen', 'Zurück');
  expect(adoptedCss(dialog._root)).toContain('#0f766e');
  expect([...dialog._root.querySelectorAll('button.icon')].map((b) => b.textContent)).toEqual(['Zurück', 'Schließen']);
});

test('a group of screens adds its own rules once, and they outlive the site’s theme arriving', () => {
  const { dialog } = open();
  const sheet = () => adoptedCss(dialog._root);
  expect(sheet()).not.toContain('.menu');
  dialog._addStyle('.menu li{color:red}');
  dialog._addStyle('.menu li{color:red}');
  expect(sheet().split('.menu li{color:red}')).toHaveLength(2);
  dialog._site({ accent: '#0f766e' }, 'Close', 'Back');
  expect(sheet()).toContain('#0f766e');
  expect(sheet()).toContain('.menu li{color:red}');
});

test('no site name yet (the loading dialog, or /config failed): no brand line', () => {
  const { dialog } = open();
  expect(dialog._root.querySelector<HTMLElement>('.brand')!.hidden).toBe(true);
  dialog._site({}, 'Close', 'Back');
  expect(dialog._root.querySelector<HTMLElement>('.brand')!.hidden).toBe(true);
  dialog._site({}, 'Close', 'Back', 'Acme');
  expect(dialog._root.querySelector<HTMLElement>('.brand')!.textContent).toBe('Acme');
});
