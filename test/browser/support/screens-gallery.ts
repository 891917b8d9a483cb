/**
 * Every modal screen, in every look, as a picture and through axe-core (issue 14, "Budgets and
 * proof"), in real Chromium against the real service (`svc serve` in the worker). One test file a look
 * (screens-gallery.<look>.test.ts), so the three run side by side on workers of their own.
 *
 * Three looks, each its own service (support/screens-site.ts: the plans, the demo site's sign-up
 * fields, a member menu, content, a member with three invoices, one failed, and a saved card):
 *
 * - `default`: the widget's own theme;
 * - `dark-accent`: the site's theme with a dark accent (`#1e3a8a`) and a logo;
 * - `light-accent`: a light accent (`#fde047`) with the site's own radius (4) and font (Georgia).
 *
 * For each look, each colour scheme (`light`, `dark`: the member's system setting, emulated) and
 * each viewport (1280×800, 390×740: issue 29 names 390 px, a current phone), every screen is opened in one page (one browser context per
 * look and logged in or out, so the widget's scripts are fetched and the member logs in once per
 * look; one page per scheme and viewport: the first screen by `?svcopen=` as the page loads, the
 * others by `Service.open`, as a page's own button would), and once its dialog is
 * named with the screen's title (not "Loading…") and the network is quiet, the viewport is written
 * to test-results/screens/<look>/<scheme>-<width>-<in|out>-<screen>.png. At 1280 px axe-core also
 * runs on the modal host and its open shadow root, as in accessibility.test.ts, and, where the
 * dialog scrolls, color-contrast again at each scroll stop (axe skips text scrolled out of view):
 * no violation may be found. Every violation found is also written to
 * test-results/screens/<look>/axe-violations.{txt,json}, and so is what axe could not decide (its
 * `incomplete`: not a failure, but not checked either).
 * Last, every picture must be there, each more than 3 KB.
 *
 * Tests run one after another (the file has no concurrent test); while one looks at the last screen
 * of its page, the next page's blank page is opened (and the page looked at brought back to the front: Chromium
 * draws a page behind another about once a second). A picture is taken before the axe check, so a
 * screen axe fails on still has its picture.
 */
import type axe from 'axe-core';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureBuild } from '../../../scripts/lib/ensure-build';
import { repoRoot } from '../../../scripts/lib/paths';
import type { SiteTheme } from '../../../src/contract/member';
import { readable, type Violation } from './axe';
import { launchChromium, skipBrowserTests } from './chromium';
import { ARTICLE, CLOSED, MEDIA_URL, startScreensSite, VIDEO, type ScreensSite, type ScreensSiteIds } from './screens-site';
import { browserTest, HOST_A } from './suite';
import { recordEventsIn, WidgetPage } from './widget-page';

/** Where the pictures go (test-results/ is not committed); emptied when the file starts. */
const SCREENS_DIR = join(repoRoot, 'test-results', 'screens');
/** axe-core as accessibility.test.ts runs it, minified: half the parsing on each of ~115 pages. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** A picture smaller than this is taken to be blank. */
const MIN_PNG_BYTES = 3 * 1024;

export interface Look {
  name: string;
  theme?: SiteTheme;
}

export const LOOKS: Look[] = [
  { name: 'default' },
  { name: 'dark-accent', theme: { accent: '#1e3a8a', logoUrl: '/logo.svg' } },
  { name: 'light-accent', theme: { accent: '#fde047', radius: 4, fontFamily: 'Georgia, serif' } },
];

type Scheme = 'light' | 'dark';
const SCHEMES: Scheme[] = ['light', 'dark'];

interface Viewport {
  width: number;
  height: number;
  /** axe runs at this size only (the rules do not depend on the width; the time does). */
  axe: boolean;
}
const VIEWPORTS: Viewport[] = [
  { width: 1280, height: 800, axe: true },
  { width: 390, height: 740, axe: false },
];

interface ScreenCase {
  /** The picture's name. */
  slug: string;
  /** `{lifetime}`, `{community}`, `{yearly}`, `{article}`, `{video}`, `{closed}` stand for that plan's or item's id. */
  path: string;
  loggedIn: boolean;
  /**
   * The dialog's accessible name once the screen is drawn (src/widget/modal/messages.ts), compared
   * loosely: case and spaces aside, as the widget's design changes under these tests.
   */
  dialog: string;
}

const SCREENS: ScreenCase[] = [
  // Logged out.
  { slug: 'log-in', path: '/member/sign_in', loggedIn: false, dialog: 'Log in' },
  { slug: 'register', path: '/member/sign_up', loggedIn: false, dialog: 'Create an account' },
  // All plans show to a visitor; a plan's sign-up takes the account in the same form (open.ts, screenFor).
  { slug: 'plans', path: '/member/plans/all', loggedIn: false, dialog: 'Plans' },
  { slug: 'plan-sign-up', path: '/member/plans/{lifetime}', loggedIn: false, dialog: 'Lifetime' },
  // Protected content asks to log in first.
  // The item's paywall: its plans with their prices, and "Already a member? Log in".
  { slug: 'content-no-access', path: '/content/{closed}', loggedIn: false, dialog: CLOSED },
  // Logged in.
  { slug: 'account', path: '/member/account', loggedIn: true, dialog: 'Your account' },
  // The site has a member menu: a logged-in "Log in" opens it.
  { slug: 'member-menu', path: '/member/sign_in', loggedIn: true, dialog: 'Menu' },
  { slug: 'account-edit', path: '/member/account/edit', loggedIn: true, dialog: 'Edit your details' },
  { slug: 'email-change', path: '/member/account/email_change', loggedIn: true, dialog: 'Change e-mail' },
  { slug: 'password-change', path: '/member/account/password_change', loggedIn: true, dialog: 'Change password' },
  { slug: 'payment-method', path: '/member/payment_method/update', loggedIn: true, dialog: 'Payment method' },
  { slug: 'memberships', path: '/member/memberships', loggedIn: true, dialog: 'Your memberships' },
  { slug: 'invoices', path: '/member/invoices', loggedIn: true, dialog: 'Invoices' },
  { slug: 'all-plans', path: '/member/plans/all', loggedIn: true, dialog: 'Plans' },
  { slug: 'plan-sign-up-paid-tax', path: '/member/plans/{lifetime}', loggedIn: true, dialog: 'Lifetime' },
  // The member is on Monthly: another subscription is a change of plan (decision 0036).
  { slug: 'change-plan', path: '/member/plans/{yearly}', loggedIn: true, dialog: 'Change plan' },
  { slug: 'plan-sign-up-free', path: '/member/plans/{community}', loggedIn: true, dialog: 'Community' },
  // A sign-up link to a plan no longer offered.
  { slug: 'plan-gone', path: '/member/plans/no-longer-offered', loggedIn: true, dialog: 'Plans' },
  { slug: 'content-article', path: '/content/{article}', loggedIn: true, dialog: ARTICLE },
  // Content the member's plans do not open: the plans that do.
  { slug: 'content-no-access', path: '/content/{closed}', loggedIn: true, dialog: CLOSED },
  { slug: 'content-video-popup', path: '/content/{video}/popup', loggedIn: true, dialog: VIDEO },
];

const pngName = (scheme: Scheme, viewport: Viewport, screen: ScreenCase) => `${scheme}-${viewport.width}-${screen.loggedIn ? 'in' : 'out'}-${screen.slug}.png`;

/** One picture (and, at 1280 px, one axe run): a screen in a look, a scheme and a viewport. */
interface Case {
  look: Look;
  scheme: Scheme;
  viewport: Viewport;
  screen: ScreenCase;
  /** `<look>/<scheme>-<width>-<in|out>-<screen>.png` */
  file: string;
  /** The browser context it shares with the cases next to it. */
  group: string;
}

/** In the tests' order: all of a context's cases one after another, so each context opens once. */
function casesOf(look: Look): Case[] {
  return [false, true].flatMap((loggedIn) =>
    SCHEMES.flatMap((scheme) =>
      VIEWPORTS.flatMap((viewport) =>
        SCREENS.filter((s) => s.loggedIn === loggedIn).map((screen) => ({
          look,
          scheme,
          viewport,
          screen,
          file: `${look.name}/${pngName(scheme, viewport, screen)}`,
          group: `${look.name}/${loggedIn ? 'in' : 'out'}`,
        })),
      ),
    ),
  );
}
/** The running file's look's cases (set again as each file starts: files of a worker may share this module). */
let CASES: Case[] = [];

let browser: Browser | undefined;
const sites = new Map<string, ScreensSite>();

interface Found {
  look: string;
  scheme: Scheme;
  width: number;
  state: 'in' | 'out';
  screen: string;
  path: string;
  violations: Violation[];
}
const found: Found[] = [];
/** What axe could not decide, by screen (its `violations` are axe's `incomplete`). */
const undecided: Found[] = [];

/**
 * The context in use: one per look and logged in or out (a case's `group`), closed when the next
 * is asked for. Its pages take each case's viewport and colour scheme, so the widget's scripts come
 * from the context's cache after the first page, and the member logs in once per look.
 */
let current: { key: string; context: BrowserContext } | undefined;

async function contextFor(c: Case): Promise<BrowserContext> {
  if (current?.key === c.group) return current.context;
  await closeShown();
  preparing.clear();
  await current?.context.close();
  current = undefined;
  const context = await browser!.newContext();
  try {
    await recordEventsIn(context);
    // The video player's requests are answered here: the media host is nowhere.
    await context.route(`${MEDIA_URL}/**`, (route) => route.fulfill({ status: 204 }));
    if (c.screen.loggedIn) {
      const site = sites.get(c.look.name)!;
      const page = new WidgetPage(await context.newPage());
      await page.page.goto(site.pages.url(HOST_A));
      await page.waitForEvent('Service.ready');
      await page.page.evaluate(({ email, password }) => window.Service.login({ email, password }), site.member);
      await page.page.close();
    }
  } catch (error) {
    await context.close();
    throw error;
  }
  current = { key: c.group, context };
  return context;
}

/**
 * Counts the page's requests in flight; `idle()` waits until none has been for `quiet` ms (no
 * request started or ended), polling: Playwright's own `networkidle` waits a fixed 500 ms on
 * every page, too long for ~230 pages.
 */
function trackNetwork(page: Page): { idle(quiet?: number, timeout?: number): Promise<void>; pending(): string[] } {
  const inFlight = new Set<unknown>();
  const urls = new Map<unknown, string>();
  let changed = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    urls.set(request, request.url());
    changed = Date.now();
  });
  const done = (request: unknown) => {
    inFlight.delete(request);
    changed = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const pending = () => [...inFlight].map((request) => urls.get(request)!);
  return {
    pending,
    async idle(quiet = 50, timeout = 5_000) {
      const start = Date.now();
      while (inFlight.size > 0 || Date.now() - changed < quiet) {
        if (Date.now() - start > timeout) throw new Error(`the network is still busy after ${timeout} ms: ${pending().join(', ') || '(requests just ended)'}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The title, case and spaces aside. */
const titled = (title: string) => new RegExp(`^\\s*${escapeRegExp(title).replace(/\s+/g, '\\s+')}\\s*$`, 'i');

/** The dialog's accessible name as the page has it now (its aria-labelledby text, else aria-label). */
const shownDialog = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-svc-modal]')?.shadowRoot;
    const dialog = root?.querySelector('dialog');
    if (!root || !dialog) return '(no dialog)';
    const ids = dialog.getAttribute('aria-labelledby')?.split(/\s+/) ?? [];
    const name = ids.map((id) => root.getElementById(id)?.textContent ?? '').join(' ').trim() || dialog.getAttribute('aria-label') || '(no name)';
    return `"${name}": ${dialog.textContent?.replace(/\s+/g, ' ').slice(0, 300)}`;
  });

/** A blank page with the case's viewport and colour scheme, its requests counted from the start. */
interface Prepared {
  page: WidgetPage;
  network: ReturnType<typeof trackNetwork>;
}

async function preparePage(context: BrowserContext, c: Case): Promise<Prepared> {
  const page = new WidgetPage(await context.newPage());
  const network = trackNetwork(page.page);
  await page.page.setViewportSize({ width: c.viewport.width, height: c.viewport.height });
  // Reduced motion: the dialog is drawn where it ends without its 0.2 s entrance, which each of
  // the pictures would otherwise wait out (the picture is the same).
  await page.page.emulateMedia({ colorScheme: c.scheme, reducedMotion: 'reduce' });
  return { page, network };
}

/**
 * Whether the open dialog's accessible name, as aria-labelledby gives it (else aria-label), is
 * `title` (lower case, spaces collapsed). Runs in the page.
 */
function dialogNamed(title: string): boolean {
  const root = document.querySelector('[data-svc-modal]')?.shadowRoot;
  const dialog = root?.querySelector('dialog');
  if (!root || !dialog?.open) return false;
  const ids = dialog.getAttribute('aria-labelledby')?.split(/\s+/).filter(Boolean) ?? [];
  const name = ids.map((id) => root.getElementById(id)?.textContent ?? '').join(' ') || dialog.getAttribute('aria-label') || '';
  return name.replace(/\s+/g, ' ').trim().toLowerCase() === title;
}

/**
 * Opens the case's screen in its page, waits until its dialog has the screen's title (so is drawn,
 * no longer "Loading…") and the network is quiet.
 */
async function openScreen({ page, network }: Prepared, c: Case, fresh: boolean): Promise<WidgetPage> {
  const site = sites.get(c.look.name)!;
  const path = c.screen.path.replace(/\{(\w+)\}/g, (_, key: keyof ScreensSiteIds) => site.ids[key]);
  try {
    if (fresh) await page.page.goto(`${site.pages.url(HOST_A)}?svcopen=${encodeURIComponent(path)}`, { waitUntil: 'domcontentloaded' });
    // The page already shows a screen: the next one opens as the page's own link or button would
    // (Service.open; opening a screen closes the one before).
    else await page.page.evaluate((svcopen) => window.Service.open(svcopen), path);
    // Checked on every frame (a locator's wait backs off to 500 ms between tries).
    await page.page.waitForFunction(dialogNamed, c.screen.dialog.replace(/\s+/g, ' ').trim().toLowerCase(), { polling: 'raf', timeout: 10_000 });
    // The same name as the browser's accessibility tree has it.
    await page.page.getByRole('dialog', { name: titled(c.screen.dialog) }).waitFor({ state: 'visible', timeout: 1_000 });
  } catch (error) {
    const shown = await shownDialog(page.page).catch(() => '(nothing)');
    const events = await page.eventTypes().catch(() => []);
    await page.page.close().catch(() => {});
    throw new Error(
      `${c.screen.path}: no dialog named "${c.screen.dialog}"; the page shows ${shown}\n` +
        `widget events: [${events.join(', ')}]\n${page.log.join('\n')}\n${(error as Error).message}`,
    );
  }
  await network.idle();
  // The dialog's entrance animation over (it fades in: a picture or a contrast taken during it
  // shows the page through the dialog; endless ones, a spinner, are left running), the fonts in
  // (Georgia, where the system has it), and a frame drawn with them.
  await page.page.evaluate(async () => {
    const root = document.querySelector('[data-svc-modal]')?.shadowRoot;
    const running = [...document.getAnimations(), ...(root?.getAnimations() ?? [])];
    await Promise.all(running.filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => {})));
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  return page;
}

/**
 * What overlaps in the dialog as drawn: each pair of controls (buttons, links, fields) and lines
 * of text (paragraphs, labels, headings, badges) whose boxes intersect by more than half a pixel,
 * neither holding the other; a control counts 2 px larger all round, so two that touch overlap.
 * The form's submit button counts with the ring of background colour its box shadow paints
 * around it (.75 rem), which hides what it covers, unless it is stuck to the dialog's bottom edge
 * (a long form scrolling beneath it: what sticky is for). Each as "a ~ b", by tag and text.
 */
function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-svc-modal]')!.shadowRoot!;
    const dialog = root.querySelector('dialog')!;
    const edge = dialog.getBoundingClientRect();
    const nodes = [...dialog.querySelectorAll<HTMLElement>('button,a[href],input,select,textarea,p,label,h2,h3,.badge')].filter((n) => {
      const r = n.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > edge.top && r.top < edge.bottom;
    });
    // A sticky submit button stuck to the bottom edge is where a static one would not be.
    const stuck = (n: HTMLElement) => {
      const drawn = n.getBoundingClientRect().top;
      n.style.position = 'static';
      const own = n.getBoundingClientRect().top;
      n.style.position = '';
      return Math.abs(drawn - own) > 0.5;
    };
    const floating = new Set(nodes.filter((n) => n.matches('form>[type=submit]') && stuck(n)));
    const boxOf = (n: HTMLElement) => {
      const r = n.getBoundingClientRect();
      // The submit's shadow ring; 2 px around any other control, so controls that touch count too.
      // (A menu's rows touch by design: one list, a divider between rows.)
      const ring = n.matches('form>[type=submit]') ? parseFloat(getComputedStyle(n).fontSize) * 0.75 : n.matches(':is(button,a[href],input,select,textarea):not(.menu *)') ? 2 : 0;
      return { left: r.left - ring, right: r.right + ring, top: r.top - ring, bottom: r.bottom + ring };
    };
    const name = (n: HTMLElement) => `${n.tagName.toLowerCase()} "${(n.textContent || n.getAttribute('name') || '').trim().slice(0, 30)}"`;
    const found: string[] = [];
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const [a, b] = [nodes[i]!, nodes[j]!];
        if (a.contains(b) || b.contains(a) || floating.has(a) || floating.has(b)) continue;
        // A label and its own field or the text beside its checkbox are one control.
        if (a.closest('label') === b.closest('label') && a.closest('label')) continue;
        const [x, y] = [boxOf(a), boxOf(b)];
        if (Math.min(x.right, y.right) - Math.max(x.left, y.left) > 0.5 && Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top) > 0.5) found.push(`${name(a)} ~ ${name(b)}`);
      }
    }
    return found;
  });
}

/**
 * axe-core on the open modal: its host and, through it, the open shadow root, as
 * accessibility.test.ts runs it. axe judges the colours of text it can see only: text scrolled out
 * of a scrolling dialog is skipped, text under a sticky part (the submit button) is "incomplete".
 * So where something in the dialog scrolls, it is scrolled by half its height at a time and
 * color-contrast runs again at each stop; a node is a violation if it fails at any stop, and left
 * undecided only if it was decided at none. `incomplete` (what axe could not decide) is no failure,
 * but it is written to the report, since that text was not checked.
 */
async function axeResults(page: Page): Promise<{ violations: Violation[]; incomplete: Violation[] }> {
  // Added after the first picture of the page, which shows the page as the widget left it; once a page.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe;
    const host = document.querySelector('[data-svc-modal]')!;
    const plainNode = (n: axe.NodeResult, where: string) => ({
      target: JSON.stringify(n.target),
      html: n.html,
      summary: (n.failureSummary ?? [...n.any, ...n.all, ...n.none].map((check) => check.message).join('\n')) + where,
    });
    const plain = (list: axe.Result[]) =>
      list.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => plainNode(n, '')) }));
    const results: axe.AxeResults = await run.run(host, { resultTypes: ['violations', 'incomplete'] });
    const violations = plain(results.violations);
    const incomplete = plain(results.incomplete);

    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const scrollers = [...host.shadowRoot!.querySelectorAll<HTMLElement>('*')].filter(
      (e) => e.scrollHeight > e.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(e).overflowY),
    );
    if (!scrollers.length) return { violations, incomplete };
    // Every color-contrast node seen: decided (passed or failed) at some stop, or not.
    const decided = new Set<string>();
    const failed = new Map<string, ReturnType<typeof plainNode>>();
    const undecided = new Map<string, ReturnType<typeof plainNode>>();
    let rule: Omit<Violation, 'nodes'> | undefined;
    const note = (r: axe.AxeResults, where: string) => {
      for (const v of r.violations) {
        rule ??= { id: v.id, impact: v.impact ?? null, help: v.help, helpUrl: v.helpUrl };
        for (const n of v.nodes) {
          const key = JSON.stringify(n.target);
          decided.add(key);
          if (!failed.has(key)) failed.set(key, plainNode(n, where));
        }
      }
      for (const v of r.passes) for (const n of v.nodes) decided.add(JSON.stringify(n.target));
      for (const v of r.incomplete) {
        for (const n of v.nodes) {
          const key = JSON.stringify(n.target);
          if (!undecided.has(key)) undecided.set(key, plainNode(n, where));
        }
      }
    };
    const contrast = (): Promise<axe.AxeResults> => run.run(host, { runOnly: ['color-contrast'], resultTypes: ['violations', 'incomplete', 'passes'] });
    note(await contrast(), '');
    for (const scroller of scrollers) {
      const start = scroller.scrollTop;
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
        const before = scroller.scrollTop;
        scroller.scrollTop += Math.max(1, Math.floor(scroller.clientHeight / 2));
        if (scroller.scrollTop === before) break;
        await frame();
        note(await contrast(), `\n(with the dialog scrolled to ${scroller.scrollTop} px)`);
      }
      scroller.scrollTop = start;
    }
    await frame();
    const fallback = { id: 'color-contrast', impact: 'serious', help: 'Elements must meet minimum color contrast ratio thresholds', helpUrl: '' };
    const contrastRule = (nodes: ReturnType<typeof plainNode>[], base?: Omit<Violation, 'nodes'>) => (nodes.length ? [{ ...(base ?? rule ?? fallback), nodes }] : []);
    const others = (list: Violation[]) => list.filter((v) => v.id !== 'color-contrast');
    const firstContrast = (list: Violation[]) => list.find((v) => v.id === 'color-contrast');
    return {
      violations: [...others(violations), ...contrastRule([...failed.values()], firstContrast(violations))],
      incomplete: [
        ...others(incomplete),
        ...contrastRule(
          [...undecided.entries()].filter(([key]) => !decided.has(key)).map(([, node]) => node),
          firstContrast(incomplete),
        ),
      ],
    };
  });
}

/** Every violation found, by look, scheme and screen, for whoever fixes the styles; then what axe could not decide. */
function writeReport(look: Look): void {
  const dir = join(SCREENS_DIR, look.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'axe-violations.json'), `${JSON.stringify({ violations: found, incomplete: undecided }, null, 2)}\n`);
  const list = (entries: Found[]) =>
    entries.map((f) => `== ${f.look} / ${f.scheme} / ${f.width} / logged ${f.state} / ${f.screen} (svcopen=${f.path})\n${readable(f.violations)}`).join('\n\n');
  const text =
    (found.length ? `VIOLATIONS\n\n${list(found)}` : 'axe found no violation on any screen.') +
    (undecided.length ? `\n\n\nNOT DECIDED BY AXE (incomplete: not checked, not failed)\n\n${list(undecided)}` : '');
  writeFileSync(join(dir, 'axe-violations.txt'), `${text}\n`);
}

/**
 * One page shows every screen of a page group (the cases of a context with the same colour scheme
 * and viewport): the first by `?svcopen=` as the page loads, the others by `Service.open`, so the
 * widget starts, and axe-core is parsed, once a group rather than once a screen (the gallery's
 * time went mostly there). `?svcopen=` itself, on every screen, is router-rows.test.ts's.
 */
let shown: { key: string; prepared: Prepared } | undefined;
const pageKey = (c: Case) => `${c.group}/${c.scheme}/${c.viewport.width}`;

/**
 * The next page group's blank page, opened while a test looks at the last screen of its own (a
 * new page starts a renderer process, the slowest part of opening one); only the blank page:
 * loading the next screen at the same time slowed both down on two cores.
 */
const preparing = new Map<string, Promise<Prepared>>();

async function closeShown(): Promise<void> {
  const page = shown?.prepared.page.page;
  shown = undefined;
  await page?.close().catch(() => {});
}

async function openCase(index: number, context: BrowserContext): Promise<WidgetPage> {
  const c = CASES[index]!;
  const key = pageKey(c);
  const fresh = shown?.key !== key;
  if (fresh) {
    await closeShown();
    const prepared = await (preparing.get(key) ?? preparePage(context, c));
    preparing.delete(key);
    shown = { key, prepared };
  }
  const { prepared } = shown!;
  const next = CASES[index + 1];
  if (next && next.group === c.group && pageKey(next) !== key && !preparing.has(pageKey(next))) {
    const ahead = preparePage(context, next);
    preparing.set(pageKey(next), ahead);
    // A newer page is the one in front, and Chromium draws a page behind it about once a second
    // (requestAnimationFrame, screenshots): this case's page goes back to the front.
    ahead.then(() => prepared.page.page.bringToFront()).catch(() => {}); // a failure is reported by that case's test
  }
  await prepared.page.page.bringToFront();
  try {
    return await openScreen(prepared, c, fresh);
  } catch (error) {
    shown = undefined; // openScreen closed the page: the next case starts afresh
    throw error;
  }
}

/** Registers the hooks and tests of one look's gallery: what a screens-gallery.<look>.test.ts runs. */
export function screensGallery(lookName: string): void {
  const look = LOOKS.find((l) => l.name === lookName);
  if (!look) throw new Error(`no look ${lookName}: ${LOOKS.map((l) => l.name).join(', ')}`);
  CASES = casesOf(look);

  if (!skipBrowserTests) {
    beforeAll(async () => {
      // The module's state is this look's from here: files that share a worker share the module.
      CASES = casesOf(look);
      found.length = undecided.length = 0;
      current = shown = undefined;
      preparing.clear();
      rmSync(join(SCREENS_DIR, look.name), { recursive: true, force: true });
      mkdirSync(join(SCREENS_DIR, look.name), { recursive: true });
      browser = await launchChromium();
      // `svc serve` builds the widget when dist/ is older than src/: here, before the service starts.
      if ((await ensureBuild(['widget'])) === 'failed') throw new Error('the widget did not build (see the [build] lines above)');
      sites.set(look.name, await startScreensSite({ theme: look.theme, tempPrefix: `svc-screens-${look.name}-` }));
    }, 90_000);
    afterAll(async () => {
      await current?.context.close().catch(() => {});
      await browser?.close();
      await Promise.all([...sites.values()].map((site) => site.stop()));
      writeReport(look);
    });
  }

  CASES.forEach((c, index) => {
    const { look, scheme, viewport, screen, file } = c;
    const loggedIn = screen.loggedIn;
    browserTest(`${file}: "${screen.dialog}" (svcopen=${screen.path})${viewport.axe ? ', axe finds no violation' : ''}`, async () => {
      const context = await contextFor(c);
      const page = await openCase(index, context);
      await page.page.bringToFront(); // in case the next page came after openCase
      await page.page.screenshot({ path: join(SCREENS_DIR, file) });
      // Every control and line of text clear of every other, the submit button's shadow included (issue 29).
      expect(await overlaps(page.page), `overlapping in ${file} (svcopen=${screen.path})`).toEqual([]);
      if (!viewport.axe) return;
      const { violations, incomplete } = await axeResults(page.page);
      const where = { look: look.name, scheme, width: viewport.width, state: loggedIn ? ('in' as const) : ('out' as const), screen: screen.slug, path: screen.path };
      if (violations.length) found.push({ ...where, violations });
      if (incomplete.length) undecided.push({ ...where, violations: incomplete });
      expect(violations, `axe on ${file} (look ${look.name}, ${scheme} scheme, ${viewport.width} px, svcopen=${screen.path}):\n${readable(violations)}`).toEqual([]);
    });
  });

  browserTest(`every ${look.name} screen has its picture, each more than 3 KB`, () => {
    const expected = CASES.map((c) => c.file);
    expect(new Set(expected).size).toBe(SCHEMES.length * VIEWPORTS.length * SCREENS.length);
    const written = readdirSync(join(SCREENS_DIR, look.name)).filter((file) => file.endsWith('.png')).map((file) => `${look.name}/${file}`);
    const missing = expected.filter((file) => !written.includes(file));
    expect(missing, `pictures not written (their screens failed to draw, see above):\n${missing.join('\n')}`).toEqual([]);
    expect(written.length).toBe(expected.length);
    const small = written.map((file) => ({ file, bytes: statSync(join(SCREENS_DIR, file)).size })).filter(({ bytes }) => bytes <= MIN_PNG_BYTES);
    expect(small, `pictures of ${MIN_PNG_BYTES} bytes or less (blank?):\n${small.map((s) => `${s.file}: ${s.bytes} B`).join('\n')}`).toEqual([]);
  });
}
