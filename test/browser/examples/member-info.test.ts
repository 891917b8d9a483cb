/**
 * examples/member-info.html, against the demo service and with no service (mock mode): logged out,
 * every `data-svc-member-info` element shows its placeholder and the contact form is empty;
 * logging in through the page's link puts Ada's details into the text and into the form; what
 * she types is never overwritten (not by a later login either), Send shows "Would send: …" with
 * no request; logging out brings the placeholders back; "New message" gives a form the widget
 * fills for whoever is logged in. A member whose name and company look like HTML stays text.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserTest } from '../support/suite';
import { ADA, EXAMPLE_MODES, expectNoErrors, logInThroughLink, useExamplesSuite, type ExampleMode } from '../support/examples';

const suite = useExamplesSuite();

/** What differs between the demo service's site and the mock fixtures. */
const SITE: Record<ExampleMode, { fields: number; company: string; consent: string; adaPlans: string; adaCompany: string }> = {
  // src/service/seed/catalogue.ts; Ada (demo-login.ts) gave only the required fields.
  service: { fields: 6, company: 'Company or school', consent: 'I accept the house rules', adaPlans: 'Community, Monthly', adaCompany: '' },
  // mock-server/fixtures.ts
  mock: { fields: 5, company: 'Company', consent: 'I accept the terms', adaPlans: 'Community, Monthly', adaCompany: 'Analytical Engines' },
};

const PLACEHOLDER = '—';
const detail = (page: Page, name: string) => page.locator(`[data-detail="${name}"]`);
const field = (page: Page, name: string) => page.locator(`#contact [name="${name}"]`);

/** The text of every detail on the page, by its `data-detail` name, and the plans line. */
async function details(page: Page): Promise<Record<string, string>> {
  const shown = await page
    .locator('[data-detail]')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-detail')!, node.textContent ?? ''] as const));
  return { ...Object.fromEntries(shown), plans: (await page.locator('#plans').textContent()) ?? '', greeting: (await page.locator('.member-info-hello').textContent()) ?? '' };
}

async function form(page: Page): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of ['name', 'email', 'company', 'message']) values[name] = await field(page, name).inputValue();
  return values;
}

const logIn = logInThroughLink;

async function logOut(page: Page): Promise<void> {
  await page.locator('#logout-link').click();
  await page.locator('#logout-link').waitFor({ state: 'hidden' });
}

function loggedOut(mode: ExampleMode): Record<string, string> {
  const custom = (labels: string[]) => Object.fromEntries(labels.map((label) => [`custom:${label}`, PLACEHOLDER]));
  return {
    id: PLACEHOLDER, name: PLACEHOLDER, firstName: PLACEHOLDER, lastName: PLACEHOLDER, email: PLACEHOLDER, profileImageUrl: PLACEHOLDER,
    ...custom([SITE[mode].company, SITE[mode].consent]),
    plans: PLACEHOLDER, greeting: 'Hello, friend!',
  };
}

for (const mode of EXAMPLE_MODES) {
  browserTest(`member-info.html (${mode}): placeholders, then Ada's details in the text and the form; typed text is never overwritten`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'member-info.html');
    const p = page.page;
    await p.locator(`body[data-fields-ready="${SITE[mode].fields}"]`).waitFor();
    // One row per custom sign-up field of the site, named by its id.
    const company = p.locator(`[data-detail="custom:${SITE[mode].company}"]`);
    const companyType = await company.getAttribute('data-svc-member-info');
    expect(companyType).toMatch(/^customSignupField\d+$/);
    expect(await field(p, 'company').getAttribute('data-svc-member-info')).toBe(companyType);

    // Logged out: placeholders everywhere, an empty form.
    expect(await details(p)).toMatchObject(loggedOut(mode));
    expect(await form(p)).toEqual({ name: '', email: '', company: '', message: '' });

    await logIn(p);
    await expect.poll(() => details(p)).toMatchObject({
      name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: ADA.email,
      // No image uploaded: the placeholder stays.
      profileImageUrl: PLACEHOLDER,
      // An empty value keeps the placeholder too.
      [`custom:${SITE[mode].company}`]: SITE[mode].adaCompany || PLACEHOLDER,
      [`custom:${SITE[mode].consent}`]: 'Yes',
      plans: SITE[mode].adaPlans, greeting: 'Hello, Ada!',
    });
    const id = await p.evaluate(() => {
      const info = window.Service.getMemberInfo();
      return info.isLoggedIn ? info.memberInfo.id : null;
    });
    expect(await detail(p, 'id').textContent()).toBe(String(id));
    await expect.poll(() => form(p)).toEqual({ name: 'Ada Lovelace', email: ADA.email, company: SITE[mode].adaCompany, message: '' });

    // The member edits the form and sends it: the page shows it, and nothing goes out.
    await field(p, 'name').fill('Ada L.');
    await field(p, 'company').fill('Babbage & Co');
    await field(p, 'message').fill('Hello there');
    const requests: string[] = [];
    p.on('request', (request) => requests.push(request.url()));
    const url = p.url();
    await p.locator('#send').click();
    await expect.poll(() => p.locator('#would-send').textContent()).toMatch(/^Would send: /);
    const sent = (await p.locator('#would-send').textContent())!.slice('Would send: '.length);
    expect(JSON.parse(sent)).toEqual({ name: 'Ada L.', email: ADA.email, company: 'Babbage & Co', message: 'Hello there' });
    expect(requests).toEqual([]);
    expect(p.url()).toBe(url);

    // Logging out brings the placeholders back; the widget does not clear the form.
    await logOut(p);
    await expect.poll(() => details(p)).toMatchObject(loggedOut(mode));
    expect(await form(p)).toEqual({ name: 'Ada L.', email: ADA.email, company: 'Babbage & Co', message: 'Hello there' });

    // A later login fills the text again, but leaves the form as the member left it.
    await logIn(p);
    await expect.poll(() => details(p)).toMatchObject({ name: 'Ada Lovelace', greeting: 'Hello, Ada!' });
    expect(await form(p)).toEqual({ name: 'Ada L.', email: ADA.email, company: 'Babbage & Co', message: 'Hello there' });

    // A new form is filled for whoever is logged in now.
    await p.locator('#new-message').click();
    await expect.poll(() => form(p)).toEqual({ name: 'Ada Lovelace', email: ADA.email, company: SITE[mode].adaCompany, message: '' });
    expect(await p.locator('#would-send').textContent()).toBe('');

    await logOut(p);
    await expect.poll(() => details(p)).toMatchObject(loggedOut(mode));
    await p.locator('#new-message').click();
    expect(await form(p)).toEqual({ name: '', email: '', company: '', message: '' });
    expectNoErrors(page);
  });

  browserTest(`member-info.html (${mode}): a member whose name and company look like HTML stays text`, async () => {
    const context = await suite.newContext();
    const page = await suite.open(context, mode, 'member-info.html');
    const p = page.page;
    await p.locator('body[data-fields-ready]').waitFor();
    const first = '<b>Bold</b>';
    const last = '<i>Italic</i>';
    const companyName = '<img src="/x.png" onerror="window.__ran = 1">Co';

    // Registers through the page's own link, with the site's custom fields.
    await p.locator('#register-link').click();
    const dialog = p.getByRole('dialog', { name: 'Create an account' });
    await dialog.waitFor();
    await dialog.getByLabel('First name').fill(first);
    await dialog.getByLabel('Last name').fill(last);
    await dialog.getByLabel('E-mail').fill(`bold-${mode}-${Date.now()}@example.com`);
    await dialog.getByLabel('Password').fill('bold-password');
    await dialog.getByLabel(SITE[mode].company, { exact: true }).fill(companyName);
    const selects = dialog.locator('select[required]');
    for (let i = 0; i < (await selects.count()); i++) {
      const values = await selects.nth(i).locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      await selects.nth(i).selectOption(values.find(Boolean)!);
    }
    const boxes = dialog.locator('input[type=checkbox][required]');
    for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
    await dialog.getByRole('button', { name: 'Create account' }).click();
    const plans = p.getByRole('dialog', { name: 'Plans' });
    await plans.waitFor();
    await plans.getByRole('button', { name: 'Close' }).click();
    await plans.waitFor({ state: 'detached' });

    await expect.poll(() => details(p)).toMatchObject({
      name: `${first} ${last}`, firstName: first, lastName: last,
      [`custom:${SITE[mode].company}`]: companyName,
      plans: 'none', greeting: `Hello, ${first}!`,
    });
    // Text nodes only: no element was made from the member's details, anywhere they are shown.
    const made = await p.evaluate(() => ({
      elements: [...document.querySelectorAll('[data-svc-member-info]:not(input, textarea, select)')].filter((node) => node.children.length > 0).length,
      bold: document.querySelectorAll('main b, main i, main img').length,
      header: document.querySelector('.who [data-svc-member-info="name"]')!.textContent,
      headerChildren: document.querySelector('.who [data-svc-member-info="name"]')!.children.length,
      ran: (window as unknown as { __ran?: number }).__ran,
    }));
    // The page's own <b>s (in the explanations) are not in [data-svc-member-info]; count them from the HTML.
    const ownBold = (await (await fetch(`${suite.origin(mode)}/examples/member-info.html`)).text()).split('<main>')[1]!.split('</main>')[0]!.match(/<(b|i|img)\b/g)?.length ?? 0;
    expect(made).toEqual({ elements: 0, bold: ownBold, header: `${first} ${last}`, headerChildren: 0, ran: undefined });
    // In the form, the values are the characters as typed.
    await expect.poll(() => form(p)).toEqual({ name: `${first} ${last}`, email: expect.stringMatching(/^bold-/), company: companyName, message: '' });

    if (mode === 'service') {
      // The login survives a reload with the service: the form is filled as it appears, and the company
      // field when the page gives it its attribute (after GET /config), as a member is already there.
      await p.reload();
      await page.waitForEvent('Service.ready');
      await p.locator('body[data-fields-ready]').waitFor();
      await expect.poll(() => form(p)).toEqual({ name: `${first} ${last}`, email: expect.stringMatching(/^bold-/), company: companyName, message: '' });
      expect(await details(p)).toMatchObject({ firstName: first, [`custom:${SITE[mode].company}`]: companyName, plans: 'none' });
      expect(await p.evaluate(() => document.querySelectorAll('main b, main i, main img').length)).toBe(ownBold);
    }

    await logOut(p);
    await expect.poll(() => details(p)).toMatchObject(loggedOut(mode));
    expectNoErrors(page);
  });
}
