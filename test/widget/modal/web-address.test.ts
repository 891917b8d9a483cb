// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/pricing/"}
/**
 * What the screens accept as an address to show, play, open or go to: decided the way the
 * browser will resolve it (the URL parser drops tabs and newlines anywhere and trims C0 controls
 * and spaces at the ends, and reads `\` as `/` in http(s) URLs), so an address written as a path
 * never leaves the page's origin and nothing but http(s) is ever followed.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { richText } from '../../../src/widget/modal/rich-text';
import { webAddress } from '../../../src/widget/modal/web-address';

afterEach(() => {
  vi.restoreAllMocks();
});

const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);

test.each([
  'https://cdn.example.com/a.mp4',
  'http://example.com/x',
  'HTTPS://EXAMPLE.COM/',
  'https://x.example/welcome',
  'http://x.example/welcome',
  '/examples/library/kit.pdf',
  '/a?b=c',
  '/members/welcome?a=1#b',
  'https://www.demo.localhost/members/',
  // A relative path is a page of the same site, as the browser reads it.
  'files/x.pdf',
  '?page=2',
])('%j is kept, and nothing is said', (url) => {
  const warn = warnings();
  expect(webAddress(url)).toBe(url);
  expect(warn).not.toHaveBeenCalled();
});

test.each([
  // not a web address
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  ' javascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u001fjavascript:alert(1)',
  'javascript://%0aalert(1)',
  'data:text/html,<script>1</script>',
  'DATA:text/html,x',
  'vbscript:msgbox(1)',
  'blob:https://www.demo.localhost/0b1c2d3e-0000-4000-8000-000000000000',
  'file:///etc/passwd',
  'ftp://example.com/x',
  'mailto:help@demo.localhost',
  'http://[bad',
  // a "path" the browser resolves to another host
  '//evil.example/x',
  ' //evil.example',
  '\t//evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\r\n/evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  '/\\evil.example',
  '/\\evil.example/x',
  '\u0001//evil.example',
  // nothing
  '',
  undefined,
])('%j is refused, with one [Service] warning', (url) => {
  const warn = warnings();
  expect(webAddress(url)).toBeUndefined();
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] /);
});

test('a path resolves against the page: with a <base> on another origin, it would leave the site, so it is refused', () => {
  const base = document.createElement('base');
  base.href = 'https://cdn.example/assets/';
  document.head.append(base);
  try {
    const warn = warnings();
    expect(webAddress('/members/welcome')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    // Written as an absolute http(s) URL, the base does not matter.
    expect(webAddress('https://www.demo.localhost/members/welcome')).toBe('https://www.demo.localhost/members/welcome');
  } finally {
    base.remove();
  }
});

test.each(['/\t/evil.example', '/\n/evil.example', '\\\\evil.example', '\t//evil.example'])(
  'a rich-text link to %j goes through the same check: it loses its address, quietly (sanitizing, not a warning)',
  (href) => {
    const warn = warnings();
    const box = document.createElement('div');
    const anchor = document.createElement('a');
    anchor.setAttribute('href', href);
    anchor.textContent = 'text';
    box.append(richText(document, anchor.outerHTML));
    expect(box.querySelector('a')!.hasAttribute('href')).toBe(false);
    expect(box.textContent).toBe('text');
    expect(warn).not.toHaveBeenCalled();
  },
);
