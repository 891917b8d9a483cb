/**
 * examples/gated.html, against the demo service and with no service (mock mode): every pair of
 * `data-svc-show` / `data-svc-hide` boxes (auth, free, paid, plan(a, b), and one plan(<publicId>)
 * pair per public plan, added by the page after it fetched the plans) shows exactly the box the
 * page's legend promises, for nobody, for Ada (Community + Monthly) and for a member who has just
 * registered through the page's own link (no plan); logging out brings the placeholders back.
 * No-flicker: every show-element is hidden in the HTML, and no frame the browser paints ever shows
 * a box it should not (logged out in both modes; a stored login, which only service mode keeps
 * over a reload, is drawn before the first paint).
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest } from '../support/suite';
import { ADA, EXAMPLE_MODES, expectNoErrors, logInThroughLink, useExamplesSuite, type ExampleMode, type ExamplePage } from '../support/examples';

const suite = useExamplesSuite();

/** The public plans of each mode, in the member API's order (src/service/seed/catalogue.ts, mock-server/fixtures.ts). */
const PLANS: Record<ExampleMode, string[]> = {
  service: ['Community', 'Seven-day pass', 'Lifetime', 'Workshop 2027', 'Course in three payments', 'Monthly', 'Yearly'],
  mock: ['Community', 'Lifetime', 'Course in three payments', 'Monthly'],
};
const ADA_PLANS = ['Community', 'Monthly'];

type Visitor = 'nobody' | 'ada' | 'fresh';

/** The box of each pair that `visitor` should see: `<pair>:content` or `<pair>:placeholder`, sorted. */
function expectedBoxes(mode: ExampleMode, visitor: Visitor): string[] {
  const pairs: [string, boolean][] = [
    ['auth', visitor !== 'nobody'],
    ['free', visitor === 'ada'],
    ['paid', visitor === 'ada'],
    // plan(Lifetime, Monthly): Ada is on Monthly.
    ['list', visitor === 'ada'],
    ...PLANS[mode].map((name): [string, boolean] => [`plan:${name}`, visitor === 'ada' && ADA_PLANS.includes(name)]),
  ];
  return pairs.map(([pair, content]) => `${pair}:${content ? 'content' : 'placeholder'}`).sort();
}

/** The boxes Playwright finds visible, one `isVisible()` per box. */
async function visibleBoxes(page: Page): Promise<string[]> {
  const boxes = page.locator('[data-block]');
  const keys = await boxes.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-block')!));
  const visible: string[] = [];
  for (const [i, key] of keys.entries()) if (await boxes.nth(i).isVisible()) visible.push(key);
  return visible.sort();
}

/** Every legend cell of the Now column, as `<pair>=<what it reads>/<ok|err>`. */
async function legendNow(page: Page): Promise<string[]> {
  return page
    .locator('td[data-now]')
    .evaluateAll((cells) => cells.map((cell) => `${cell.getAttribute('data-now')}=${cell.textContent}/${cell.className}`));
}

async function expectVisitor(page: ExamplePage, mode: ExampleMode, visitor: Visitor): Promise<void> {
  const boxes = expectedBoxes(mode, visitor);
  await expect.poll(() => visibleBoxes(page.page), { timeout: 5_000 }).toEqual(boxes);
  // The legend's Now column agrees, and reads the same boxes.
  const now = boxes.map((box) => {
    const at = box.lastIndexOf(':');
    return `${box.slice(0, at)}=${box.slice(at + 1)}/ok`;
  });
  await expect.poll(async () => (await legendNow(page.page)).sort()).toEqual(now);
  expect(await page.page.locator('th.gated-now').getAttribute('data-visitor')).toBe(visitor);
}

const logIn = logInThroughLink;

/** The sign-up form, whatever custom fields the site has: every required select gets its first answer, every required checkbox a tick. */
async function register(page: Page, email: string): Promise<void> {
  await page.locator('#register-link').click();
  const dialog = page.getByRole('dialog', { name: 'Create an account' });
  await dialog.waitFor();
  await dialog.getByLabel('First name').fill('Nina');
  await dialog.getByLabel('Last name').fill('Noplan');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Password').fill('no-plan-password');
  const selects = dialog.locator('select[required]');
  for (let i = 0; i < (await selects.count()); i++) await selectFirstAnswer(selects.nth(i));
  const boxes = dialog.locator('input[type=checkbox][required]');
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
  await dialog.getByRole('button', { name: 'Create account' }).click();
  // The demo site's after-registration action offers its plans: close that.
  const plans = page.getByRole('dialog', { name: 'Plans' });
  await plans.waitFor();
  await plans.getByRole('button', { name: 'Close' }).click();
  await plans.waitFor({ state: 'detached' });
}

async function selectFirstAnswer(select: Locator): Promise<void> {
  const values = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  await select.selectOption(values.find(Boolean)!);
}

for (const mode of EXAMPLE_MODES) {
  browserTest(`gated.html (${mode}): each pair shows the box the legend promises, for nobody, Ada and a new member`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'gated.html');
    // The plan pairs are built from the site's public plans: one per plan, none hard-coded.
    await page.page.locator(`body[data-plans-ready="${PLANS[mode].length}"]`).waitFor();
    const planPairs = await page.page
      .locator('[data-block^="plan:"][data-block$=":content"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-block')));
    expect(planPairs).toEqual(PLANS[mode].map((name) => `plan:${name}:content`));
    // Each names its plan by the public id at the end of the plan's sign-up link.
    const community = page.page.locator('[data-block="plan:Community:content"]');
    const criterion = await community.getAttribute('data-svc-show');
    expect(criterion).toMatch(/^plan\(.+\)$/);
    const signUp = await page.page.locator('[data-block="plan:Community:placeholder"] a').getAttribute('href');
    expect(signUp).toBe(`?svcopen=/member/plans/${criterion!.slice(5, -1)}`);

    await expectVisitor(page, mode, 'nobody');

    await logIn(page.page);
    await expectVisitor(page, mode, 'ada');
    expect(await page.page.locator('[data-block="auth:content"] [data-svc-member-info="firstName"]').textContent()).toBe('Ada');

    await page.page.locator('#logout-link').click();
    await expectVisitor(page, mode, 'nobody');

    await register(page.page, `nina-${mode}-${Date.now()}@example.com`);
    await expectVisitor(page, mode, 'fresh');
    expect(await page.page.locator('[data-block="auth:content"] [data-svc-member-info="firstName"]').textContent()).toBe('Nina');

    await page.page.locator('#logout-link').click();
    await expectVisitor(page, mode, 'nobody');
    // The placeholder of the member's first name is back.
    expect(await page.page.locator('[data-block="auth:content"] [data-svc-member-info="firstName"]').textContent()).toBe('member');
    expectNoErrors(page);
  });

  browserTest(`gated.html (${mode}): no flicker: show-elements are hidden in the HTML, and no painted frame shows a wrong box`, async () => {
    // Every show-element of the page's HTML carries the inline display:none.
    const html = await (await fetch(`${suite.origin(mode)}/examples/gated.html`)).text();
    const shows = html.match(/<[a-z]+\b[^>]*\bdata-svc-show="[^"]*"[^>]*>/g) ?? [];
    expect(shows.length).toBeGreaterThanOrEqual(4);
    for (const tag of shows) expect(tag, tag).toContain('style="display:none"');

    const context = await suite.newContext();
    await recordFrames(context);
    const page = await suite.open(context, mode, 'gated.html');
    await page.page.locator('body[data-plans-ready]').waitFor();
    await waitForFrames(page.page);
    expectFrames(await framesOf(page.page), expectedBoxes(mode, 'nobody'));

    if (mode === 'service') {
      // A stored login survives a reload only with the service (mock mode starts from its fixtures):
      // the widget reads it synchronously and draws Ada's boxes before the first paint.
      await page.page.evaluate((ada) => window.Service.login(ada), ADA);
      await expectVisitor(page, mode, 'ada');
      await page.page.reload();
      await page.waitForEvent('Service.ready');
      await page.page.locator('body[data-plans-ready]').waitFor();
      await waitForFrames(page.page);
      const frames = await framesOf(page.page);
      // Frames with the page's static boxes were recorded (under load the renderer may paint
      // before the whole body is parsed, so not necessarily the first frame: a full run saw 5 of
      // them there once), and in every frame, the first included, each box present was drawn as
      // Ada's login says: read before the first paint, never corrected after it.
      expect(Math.max(...frames.map((frame) => frame.present.length))).toBeGreaterThanOrEqual(6);
      expectFrames(frames, expectedBoxes(mode, 'ada'));
      await page.page.locator('#logout-link').click();
      await expectVisitor(page, mode, 'nobody');
    }
    expectNoErrors(page);
  });
}

/** One animation frame: the boxes that were there, and those visible. */
interface BoxFrame {
  present: string[];
  visible: string[];
}

/** The page's record of its frames, kept off the global Window type (other tests declare their own). */
type FrameWindow = Window & { __gatedFrames: BoxFrame[] };
const framesOf = (page: Page) => page.evaluate(() => (window as unknown as FrameWindow).__gatedFrames);

/**
 * Records, in every animation frame from the start of each page load, which boxes exist and which
 * are visible. A requestAnimationFrame callback runs right before the browser paints, so this is
 * what each painted frame showed.
 */
async function recordFrames(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const frames: BoxFrame[] = ((window as unknown as FrameWindow).__gatedFrames = []);
    const record = () => {
      const boxes = [...document.querySelectorAll('[data-block]')];
      frames.push({
        present: boxes.map((box) => box.getAttribute('data-block')!),
        visible: boxes.filter((box) => box.checkVisibility()).map((box) => box.getAttribute('data-block')!),
      });
      if (frames.length < 40) requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
}

async function waitForFrames(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as FrameWindow).__gatedFrames.length >= 40, undefined, { timeout: 10_000 });
}

/** In each frame, the boxes visible are exactly those of `boxes` that were there. */
function expectFrames(frames: BoxFrame[], boxes: string[]): void {
  expect(frames.length).toBeGreaterThan(0);
  for (const [i, frame] of frames.entries()) {
    expect(frame.visible.sort(), `frame ${i}`).toEqual(frame.present.filter((box) => boxes.includes(box)).sort());
  }
}
