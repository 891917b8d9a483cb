// @vitest-environment happy-dom
/**
 * The loading dialog (src/widget/loading-dialog.ts) while the screens download: a modal dialog
 * with a spinner and the screens' backdrop, named for assistive technology, dressed in the site's
 * theme once GET /config answers; a theme value of another shape is dropped, never written into
 * its style.
 */
import { adoptedCss } from './adopted-css';
import { afterEach, expect, test } from 'vitest';
import { showLoading } from '../../src/widget/loading-dialog';

const dialogOf = () => document.body.lastElementChild!.shadowRoot!.querySelector('dialog')!;

afterEach(() => document.body.replaceChildren());

test('a busy dialog named "Loading…" with its spinner, a backdrop and no border; done takes it away and gives focus back', () => {
  const link = document.body.appendChild(document.createElement('button'));
  link.focus();
  const loading = showLoading(document);
  const dialog = dialogOf();
  expect(dialog.getAttribute('aria-label')).toBe('Loading…');
  expect(dialog.getAttribute('aria-busy')).toBe('true');
  expect(dialog.querySelector('i')).not.toBeNull();
  expect((dialog.parentNode as ShadowRoot).querySelectorAll('style')).toHaveLength(0);
  const style = adoptedCss(dialog.parentNode as ShadowRoot);
  expect(style).toContain('::backdrop{background:rgb(0 0 0/.5)}');
  expect(style).toContain('border:0');
  expect(loading._done()).toBe(dialog.open);
  expect(document.body.querySelectorAll('div')).toHaveLength(0);
  expect(document.activeElement).toBe(link);
});

test('in German on a German page', () => {
  document.documentElement.lang = 'de-AT';
  try {
    showLoading(document);
    expect(dialogOf().getAttribute('aria-label')).toBe('Wird geladen …');
  } finally {
    document.documentElement.lang = '';
  }
});

test('the site\'s theme: its accent for the spinner, its radius, a scheme the site fixes', () => {
  const loading = showLoading(document);
  loading._theme({ accent: '#0f766e', radius: 4, fontFamily: 'Georgia, serif', colorScheme: 'dark' });
  const style = dialogOf().style;
  expect([style.getPropertyValue('--a'), style.borderRadius, style.colorScheme]).toEqual(['#0f766e', '4px', 'dark']);
  // Left as it was: the page's font, the member's scheme.
  loading._theme({});
  expect([style.getPropertyValue('--a'), style.borderRadius, style.colorScheme]).toEqual(['', '', '']);
});

test('colorScheme auto leaves the member\'s scheme (the stylesheet\'s light dark)', () => {
  const loading = showLoading(document);
  loading._theme({ colorScheme: 'dark' });
  loading._theme({ colorScheme: 'auto' });
  expect(dialogOf().style.colorScheme).toBe('');
});
