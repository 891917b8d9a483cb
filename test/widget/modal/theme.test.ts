/** The dialog in the site's colours: the rules a theme makes, and the contrast rules that keep it readable. */
import { expect, test } from 'vitest';
import { accentColours, contrast, parseRgb, readableOn, themeRules } from '../../../src/widget/modal/theme';

const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

test('without a theme: the widget default accent, and a dark palette when the system asks for one', () => {
  const rules = themeRules();
  expect(rules).toContain('--a:var(--svc-accent,#1d4ed8)');
  expect(rules).toContain('--t:var(--svc-text,#111)');
  expect(rules).toMatch(/@media \(prefers-color-scheme:dark\)\{:host\{--a:var\(--svc-accent-dark,#[0-9a-f]{6}\);--t:var\(--svc-text,#f3f4f6\);--b:var\(--svc-background,#1f2937\)/);
});

test("the site's theme is the fallback of the page's own --svc-* properties, which therefore win", () => {
  const rules = themeRules({ accent: '#e11d48', text: '#222222', background: '#fffbeb', radius: 4, fontFamily: '"Inter", system-ui, sans-serif' });
  expect(rules).toContain('--a:var(--svc-accent,#e11d48)');
  expect(rules).toContain('--t:var(--svc-text,#222222);--b:var(--svc-background,#fffbeb)');
  expect(rules).toContain('--r:var(--svc-radius,4px)');
  expect(rules).toContain('--f:var(--svc-font-family,"Inter", system-ui, sans-serif)');
  // The light scheme's text and background are the site's; the dark scheme keeps its own.
  expect(rules.split('@media')[1]).toContain('--t:var(--svc-text,#f3f4f6)');
});

test('a fixed scheme has no media query: light stays light, dark is dark always', () => {
  expect(themeRules({ colorScheme: 'light' })).not.toContain('@media');
  const dark = themeRules({ colorScheme: 'dark', background: '#ffffff' });
  expect(dark).not.toContain('@media');
  expect(dark).toContain('--b:var(--svc-background,#1f2937)');
  expect(dark).toContain('color-scheme:dark');
});

test('a value of another shape never reaches the stylesheet (CSS cannot be injected through /config)', () => {
  const rules = themeRules({
    accent: 'red;}body{display:none',
    text: 'url(https://evil.example/x)',
    background: '#12345',
    radius: 9999,
    fontFamily: 'x;}</style><script>alert(1)</script>',
  });
  for (const bad of ['display:none', 'url(', '#12345', '9999', '<script>', '}body']) expect(rules).not.toContain(bad);
  expect(rules).toContain('--a:var(--svc-accent,#1d4ed8)');
});

test('the text on the accent is black or white, whichever reads better, and always at least 4.5:1', () => {
  for (let i = 0; i < 4096; i++) {
    const accent = [(i >> 8) * 17, ((i >> 4) & 15) * 17, (i & 15) * 17];
    const { onAccent } = accentColours(accent, [255, 255, 255]);
    expect(contrast(accent, onAccent === '#000' ? [0, 0, 0] : [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
  }
  expect(accentColours(hex('#1d4ed8'), hex('#ffffff')).onAccent).toBe('#fff');
  expect(accentColours(hex('#facc15'), hex('#ffffff')).onAccent).toBe('#000');
});

test('links and focus rings use the accent only where it reads on the background at 4.5:1', () => {
  expect(accentColours(hex('#1d4ed8'), hex('#ffffff')).link).toBe('var(--a)');
  expect(accentColours(hex('#facc15'), hex('#ffffff')).link).toBe('var(--t)');
  expect(accentColours(hex('#1d4ed8'), hex('#1f2937')).link).toBe('var(--t)');
  expect(contrast(hex('#1d4ed8'), hex('#ffffff'))).toBeCloseTo(6.7, 1);
});

test('computed colours are read from rgb() and rgba(); other forms are left alone', () => {
  expect(parseRgb('rgb(29, 78, 216)')).toEqual([29, 78, 216]);
  expect(parseRgb('rgba(0, 0, 0, 0.5)')).toEqual([0, 0, 0]);
  expect(parseRgb('oklch(0.5 0.2 260)')).toBeUndefined();
});

/** The dark scheme's accent, as the rules give it for that scheme. */
const darkAccentOf = (rules: string) => /--a:var\(--svc-accent-dark,(#[0-9a-f]{3,6})\)/.exec(rules)?.[1];

test('dark mode: an accent that reads on white but not on the dark background is lightened until it reads at 4.5:1', () => {
  const navy = '#1e3a8a';
  expect(contrast(hex(navy), hex('#1f2937'))).toBeLessThan(2);
  for (const scheme of ['auto', 'dark'] as const) {
    const rules = themeRules({ accent: navy, colorScheme: scheme });
    const dark = darkAccentOf(rules)!;
    expect(contrast(hex(dark), hex('#1f2937'))).toBeGreaterThanOrEqual(4.5);
    // The same hue, lighter: still more blue than red.
    expect(hex(dark)[2]).toBeGreaterThan(hex(dark)[0]!);
    // The light scheme keeps the site's accent as it is.
    if (scheme === 'auto') expect(rules.split('@media')[0]).toContain(`--a:var(--svc-accent,${navy})`);
  }
  // The widget's own accent too; an accent that reads already stays itself.
  expect(contrast(hex(darkAccentOf(themeRules())!), hex('#1f2937'))).toBeGreaterThanOrEqual(4.5);
  expect(readableOn('#fde047', '#1f2937')).toBe('#fde047');
  expect(readableOn('#000', '#1f2937')).not.toBe('#000');
});

test('dark mode: the site’s own dark accent (theme.dark.accent), then a page’s --svc-accent-dark, win over the lightened one', () => {
  const rules = themeRules({ accent: '#1e3a8a', dark: { accent: '#93c5fd' } });
  expect(rules).toContain('--a:var(--svc-accent-dark,#93c5fd)');
  // A value of another shape is dropped, never written: the lightened accent stands.
  const bad = themeRules({ accent: '#1e3a8a', dark: { accent: 'red;}body{display:none' } });
  expect(bad).not.toContain('display:none');
  expect(contrast(hex(darkAccentOf(bad)!), hex('#1f2937'))).toBeGreaterThanOrEqual(4.5);
  // Light only: no dark accent at all.
  expect(themeRules({ colorScheme: 'light', accent: '#1e3a8a' })).not.toContain('--svc-accent-dark');
});
