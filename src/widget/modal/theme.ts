/**
 * The dialog in the site's colours (issue 14). The shadow root's stylesheet reads internal custom
 * properties (`--a` accent, `--t` text, `--b` background, `--r` radius, `--f` font); each is the
 * page's own `--svc-*` property on the host when the page sets one (`[data-svc-modal] {
 * --svc-accent: … }`), else the site's theme from GET /config, else the widget's default. Dark
 * mode follows the member's system unless the site fixes a scheme.
 *
 * Values from /config end up in CSS, so each is checked again here (the service checks them when
 * they are saved): a value of another shape is dropped, never written.
 */
import { THEME_COLOUR, THEME_FONT, THEME_FONT_MAX, type SiteTheme } from '../../contract/member';

const colour = (value: string | undefined) => THEME_COLOUR.test(value ?? '');
const font = (value: string | undefined) => !!value && value.length <= THEME_FONT_MAX && THEME_FONT.test(value);

// l: lines of fields (3:1 on the background), e: errors, g and w: good and warning states (badges).
const LIGHT = { t: '#111', b: '#fff', l: '#767676', e: '#b00020', g: '#166534', w: '#92400e' };
const DARK = { t: '#f3f4f6', b: '#1f2937', l: '#9ca3af', e: '#fca5a5', g: '#86efac', w: '#fcd34d' };
const ACCENT = '#1d4ed8';

const palette = (p: typeof LIGHT, theme: SiteTheme, own: boolean) =>
  `--t:var(--svc-text,${(own && theme.text) || p.t});--b:var(--svc-background,${(own && theme.background) || p.b});--l:${p.l};--e:${p.e};--g:${p.g};--w:${p.w}`;

/** The `:host` rules for a theme: what the stylesheet's `var(--a)` and the rest resolve to. */
export function themeRules(given: SiteTheme = {}): string {
  const theme: SiteTheme = {
    ...(colour(given.accent) && { accent: given.accent }),
    ...(colour(given.text) && { text: given.text }),
    ...(colour(given.background) && { background: given.background }),
    ...(Number.isInteger(given.radius) && given.radius! >= 0 && given.radius! <= 32 && { radius: given.radius }),
    ...(font(given.fontFamily) && { fontFamily: given.fontFamily }),
  };
  const scheme = given.colorScheme;
  // Dark mode's accent: the site's own (theme.dark.accent, a page's --svc-accent-dark), else its
  // accent made light enough to read on the dark background (a navy that reads on white vanishes
  // on slate).
  const darkAccent = `--a:var(--svc-accent-dark,${colour(given.dark?.accent) ? given.dark!.accent : readableOn(theme.accent ?? ACCENT, DARK.b)})`;
  const common =
    `--a:var(--svc-accent,${theme.accent ?? ACCENT});--r:var(--svc-radius,${theme.radius ?? 12}px);` +
    `--f:var(--svc-font-family,${theme.fontFamily ?? 'system-ui,sans-serif'})`;
  // The site's text and background are its light scheme's; the dark scheme keeps readable defaults.
  if (scheme === 'dark') return `:host{${common};${darkAccent};${palette(DARK, theme, false)};color-scheme:dark}`;
  const light = `:host{${common};${palette(LIGHT, theme, true)};color-scheme:light}`;
  return scheme === 'light' ? light : `${light}@media (prefers-color-scheme:dark){:host{${darkAccent};${palette(DARK, theme, false)};color-scheme:dark}}`;
}

/** `#rgb` / `#rrggbb` as [r, g, b]. */
const rgbOf = (hex: string): number[] => (hex.length === 4 ? [...hex.slice(1)].map((c) => c + c) : [1, 3, 5].map((i) => hex.slice(i, i + 2))).map((h) => parseInt(h, 16));

/**
 * `accent` as it is when it reads on `background` at 4.5:1 (WCAG's ratio for text: the accent
 * colours links too), else mixed with white a tenth at a time until it does.
 */
export function readableOn(accent: string, background: string): string {
  const [from, on] = [rgbOf(accent), rgbOf(background)];
  for (let white = 0; white <= 10; white++) {
    const mixed = from.map((c) => Math.round(c + ((255 - c) * white) / 10));
    if (contrast(mixed, on) >= 4.5) return white ? `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}` : accent;
  }
  return '#fff';
}

/** Relative luminance of an sRGB colour (WCAG 2.x). */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(x: number[], y: number[]): number {
  const [hi, lo] = [luminance(x), luminance(y)].sort((a, b) => b - a);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** `rgb(29, 78, 216)` / `rgba(…)` as computed styles write colours; undefined for other forms. */
export function parseRgb(text: string): number[] | undefined {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const BLACK = [0, 0, 0];
const WHITE = [255, 255, 255];

/**
 * Text that reads on the accent (black or white: one of them always reaches 4.5:1), and the
 * colour for links and focus rings: the accent when it reads on the background at 4.5:1, else
 * the text colour, so a pale accent never makes a link unreadable.
 */
export function accentColours(accent: number[], background: number[]): { onAccent: string; link: string } {
  return {
    onAccent: contrast(accent, BLACK) > contrast(accent, WHITE) ? '#000' : '#fff',
    link: contrast(accent, background) >= 4.5 ? 'var(--a)' : 'var(--t)',
  };
}

/**
 * Sets `--on-a` and `--link` on the dialog from the colours the browser resolved (the page may
 * have set any CSS colour). Where the browser gives no rgb() (a test DOM), the defaults stay.
 */
export function fitAccent(dialog: HTMLElement): void {
  const view = dialog.ownerDocument.defaultView;
  if (!view) return;
  const probe = (property: string) => {
    dialog.style.setProperty('--probe', `var(${property})`);
    const span = dialog.ownerDocument.createElement('span');
    span.style.color = 'var(--probe)';
    dialog.append(span);
    const rgb = parseRgb(view.getComputedStyle(span).color);
    span.remove();
    return rgb;
  };
  const accent = probe('--a');
  const background = probe('--b');
  dialog.style.removeProperty('--probe');
  if (!accent || !background) return;
  const { onAccent, link } = accentColours(accent, background);
  dialog.style.setProperty('--on-a', onAccent);
  dialog.style.setProperty('--link', link);
}
