// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The modal's plan and payment screens (open.ts; screens/plans, plan-signup, memberships,
 * invoices, account), against the real service in MSW with the demo fixture's plans and the
 * built-in test processor (docs/member-api.md "Payments").
 */
import { http, HttpResponse } from 'msw';
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import type { ConversionDetail, MemberInfo } from '../../../src/contract/member';
import { de } from '../../../src/widget/modal/locales/de';
import { ADA, GRACE, recordEvents, settle, type Harness } from '../support';
import { CARD_DECLINED, CARD_OK, catchNavigation, dialogText, enDate, fillCard, onOtherSite } from './plan-support';
import { adaMonthlyFailed, choose, confirmMailedCode, expectAllLabelled, fieldError, fill, hosts, modal, silenceWarnings, startAt, svcopen, waitForScreen } from './support';

const OTTO = { email: 'otto@other.example', password: 'otto-password' };

let emails = 0;
const newEmail = () => `plans-${Date.now().toString(36)}-${++emails}@example.com`;

/** Fills and submits the demo site's register screen (its required custom fields included). */
async function register(h: Harness, email = newEmail()): Promise<string> {
  const m = await waitForScreen('Create an account');
  fillAccount(h, email);
  m.form().requestSubmit();
  return email;
}

/** Fills the account's fields of the dialog's form, the register screen's or a plan's (the demo site's custom questions included). */
function fillAccount(h: Harness, email: string): void {
  const m = modal();
  const ids = h.mock.sites[0]!.fieldIds;
  fill(m.control('firstName'), 'Katherine');
  fill(m.control('lastName'), 'Johnson');
  fill(m.control('email'), email);
  fill(m.control('password'), 'orbital-mechanics');
  choose(m.control<HTMLSelectElement>(`customFields.${ids.role}`), 'other');
  m.control(`customFields.${ids.terms}`).checked = true;
}

/** Waits for the words a sign-up on a plan with no welcome page ends on: the reader stays on the page. */
const joined = (plan: string) => waitFor(() => expect(modal().root.querySelector('.notice')?.textContent).toBe(`Welcome! You are now a member of ${plan}.`));

/** The membership publicPlanIds in the last Service.member.info. */
const lastInfoPlans = (events: ReturnType<typeof recordEvents>) => {
  const infos = events.of('Service.member.info') as { memberInfo: MemberInfo }[];
  return infos.at(-1)!.memberInfo.memberships.map((m) => m.publicPlanId).sort();
};

/** A decline is said next to the card's number, which is marked invalid (the form's own alert stays empty). */
function declined(m: ReturnType<typeof modal>): string {
  const number = m.control('cardNumber');
  const text = fieldError(m.root, number);
  if (text) {
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(m.alert()).toBe('');
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// /member/plans/all

test('plans/all: the public enabled plans with prices, terms and a Choose button each; archived ones are absent', async () => {
  await svcopen('/member/plans/all', GRACE);
  const m = await waitForScreen('Plans');
  const items = [...m.root.querySelectorAll('ul.plans > li')];
  expect(items.map((li) => li.querySelector('h3')!.textContent)).toEqual(['Community', 'Lifetime', 'Course in three payments', 'Monthly']);
  const priceOf = (name: string) => items.find((li) => li.querySelector('h3')!.textContent === name)!.querySelector('.price')!.textContent;
  expect(priceOf('Community')).toBe('Free');
  expect(priceOf('Lifetime')).toBe('$199.00 once');
  expect(priceOf('Course in three payments')).toBe('$60.00 / month');
  expect(priceOf('Monthly')).toBe('$12.00 / month');
  const course = items[2]!.textContent!;
  expect(course).toContain('3 payments');
  expect(course).toMatch(/Access until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  // A year from now (the course's expiration), give or take a day around midnight UTC.
  const year = new Date().getUTCFullYear() + 1;
  expect(course).toContain(String(year));
  expect(dialogText()).not.toContain('Founders 2024');
  for (const name of ['Community', 'Lifetime', 'Course in three payments', 'Monthly']) {
    expect(m.button(`Choose: ${name}`).type).toBe('button');
  }
  // Monthly alone among the subscriptions: no switch, nothing hidden, nothing recommended.
  expect(m.root.querySelector('.switch, .top, .includes')).toBeNull();
  expect(items.filter((li) => (li as HTMLElement).hidden)).toEqual([]);
});

test('plans/all: a site that sells monthly and yearly gets a switch, on the yearly ones when the recommended plan is yearly; its features are ticked', async () => {
  await startAt(`/?svcopen=${encodeURIComponent('/member/plans/all')}`, {
    member: GRACE,
    beforeStart: async (h) => {
      await h.mock.store.createPlan({
        siteId: h.mock.sites[0]!.site.id, publicId: 'yearly', name: 'Yearly', status: 'enabled', isPublic: true, colorCode: '#0f766e', createdAt: Date.now(),
        type: 'subscription', billing: { price: 120, currency: 'usd', interval: { count: 1, unit: 'year' } }, highlight: true, features: ['Everything', 'Two months free'],
      });
    },
  });
  const m = await waitForScreen('Plans');
  const shown = () => [...m.root.querySelectorAll<HTMLElement>('ul.plans > li')].filter((li) => !li.hidden).map((li) => li.querySelector('h3')!.textContent);
  const period = (name: string) => m.root.querySelector<HTMLInputElement>(`.switch input[value=${name}]`)!;
  expect(m.root.querySelector('.switch')!.getAttribute('aria-label')).toBe('Billing period');
  expect([...m.root.querySelectorAll('.switch label')].map((l) => l.textContent)).toEqual(['Monthly', 'Yearly']);
  expect(period('year').checked).toBe(true);
  // The plans that are neither monthly nor yearly subscriptions stay whichever is chosen.
  expect(shown()).toEqual(['Community', 'Lifetime', 'Course in three payments', 'Yearly']);
  const yearly = [...m.root.querySelectorAll('ul.plans > li')].find((li) => li.querySelector('h3')!.textContent === 'Yearly')!;
  expect(yearly.className).toBe('top');
  expect(yearly.querySelector('.badge')!.textContent).toBe('Recommended');
  expect([...yearly.querySelectorAll('.includes li')].map((li) => li.textContent)).toEqual(['Everything', 'Two months free']);
  period('month').click();
  expect(shown()).toEqual(['Community', 'Lifetime', 'Course in three payments', 'Monthly']);
  period('year').click();
  expect(shown()).toContain('Yearly');
});

test('plans/all: the plan description is sanitized rich text: the community plan\'s <strong> is an element in the shadow root', async () => {
  await svcopen('/member/plans/all', GRACE);
  const m = await waitForScreen('Plans');
  const community = m.root.querySelector('ul.plans > li')!;
  const strong = community.querySelector('.rich strong');
  expect(strong).not.toBeNull();
  expect(strong!.textContent).toBe('public');
  expect(strong!.getRootNode()).toBe(m.root);
  expect(community.querySelector('.rich')!.textContent).toBe('Join the community: the newsletter and the public library.');
  // Text, never markup: no raw tag shows.
  expect(dialogText()).not.toContain('<strong>');
});

test('plans/all: "Choose: Lifetime" opens that plan\'s sign-up in the same dialog', async () => {
  await svcopen('/member/plans/all', GRACE);
  const m = await waitForScreen('Plans');
  m.button('Choose: Lifetime').click();
  const s = await waitForScreen('Lifetime');
  expect(s.host).toBe(m.host);
  expect(hosts()).toHaveLength(1);
  expect(s.root.querySelector('.due')!.textContent).toBe('Due now: $199.00');
});

test('plans/all, logged out: the plans with their prices first, and "Already a member? Log in", which comes back to them marked', async () => {
  const h = await svcopen('/member/plans/all');
  const m = await waitForScreen('Plans');
  expect([...m.root.querySelectorAll('ul.plans > li h3')].map((h3) => h3.textContent)).toEqual(['Community', 'Lifetime', 'Course in three payments', 'Monthly']);
  expect([...m.root.querySelectorAll('ul.plans > li .price')].map((p) => p.textContent)).toEqual(['Free', '$199.00 once', '$60.00 / month', '$12.00 / month']);
  expect(m.root.querySelector('.badge')).toBeNull();
  expect(h.requests('POST', '/members')).toBe(0);
  m.button('Log in').click();
  const login = await waitForScreen('Log in');
  fill(login.control('email'), ADA.email);
  fill(login.control('password'), ADA.password);
  login.form().requestSubmit();
  const again = await waitForScreen('Plans');
  await waitFor(() => expect([...again.root.querySelectorAll('ul.plans > li')].filter((li) => li.querySelector('.badge.ok')).map((li) => li.querySelector('h3')!.textContent)).toEqual(['Community', 'Monthly']));
  expect(again.q.queryByRole('button', { name: 'Log in' })).toBeNull();
});

test.each([
  ['community', 'Community', 'Join free'],
  ['lifetime', 'Lifetime', 'Pay $199.00'],
  ['course3', 'Course in three payments', 'Pay $60.00'],
  ['monthly', 'Monthly', 'Subscribe'],
])('the sign-up button says what happens: %s → "%s" reads "%s"', async (plan, title, label) => {
  await svcopen(`/member/plans/${plan}`, GRACE);
  const m = await waitForScreen(title);
  expect([...m.form().querySelectorAll('[type=submit]')].map((b) => b.textContent)).toEqual([label]);
});

// ---------------------------------------------------------------------------------------------
// A visitor's sign-up in one step: the account and the plan on the plan's screen


test('logged out, plans/all → Choose: Monthly: the account and the card on the plan\'s screen, one button: registered, signed up, paid', async () => {
  const h = await svcopen('/member/plans/all');
  const events = recordEvents();
  catchNavigation();
  (await waitForScreen('Plans')).button('Choose: Monthly').click();
  const m = await waitForScreen('Monthly');
  expect(m.root.querySelector('.due')!.textContent).toBe('Due now: $12.00');
  // The account first, then the card, in one form with one button; the first field has the focus.
  const names = [...m.form().querySelectorAll('input, select')].map((c) => (c as HTMLInputElement).name);
  expect(names.slice(0, 4)).toEqual(['firstName', 'lastName', 'email', 'password']);
  expect(names.slice(-3)).toEqual(['cardNumber', 'cardExpiry', 'cardCvc']);
  expect(m.form().querySelectorAll('[type=submit]')).toHaveLength(1);
  expect(m.root.activeElement).toBe(m.control('firstName'));
  expectAllLabelled(m.root);
  expect(m.q.getByRole('button', { name: 'Log in' })).toBeDefined();
  const email = newEmail();
  fillAccount(h, email);
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await joined('Monthly');
  expect(events.names()).toEqual(['Service.member.registration', 'Service.member.info', 'Service.conversion', 'Service.member.info']);
  const info = h.service.getMemberInfo();
  expect(info.isLoggedIn && info.memberInfo.email).toBe(email);
  expect(lastInfoPlans(events)).toEqual(['monthly']);
  expect([h.requests('POST', '/members'), h.requests('POST', '/test-payment-methods'), h.requests('POST', '/memberships')]).toEqual([1, 1, 1]);
});

test('logged out, the password left empty: the code mailed to the address logs the new member in, then the plan’s screen takes the card', async () => {
  const h = await svcopen('/member/plans/monthly');
  const events = recordEvents();
  catchNavigation();
  const m = await waitForScreen('Monthly');
  const email = newEmail();
  fillAccount(h, email);
  fill(m.control('password'), '');
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await confirmMailedCode(h, email);
  // Logged in by the code, on the plan's screen again: now a member's, with the card to pay.
  const plan = await waitForScreen('Monthly');
  await waitFor(() => expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } }));
  expect(plan.root.querySelector('[name=password]')).toBeNull();
  fillCard(CARD_OK);
  plan.form().requestSubmit();
  await joined('Monthly');
  expect(lastInfoPlans(events)).toEqual(['monthly']);
  // One account, made without a password.
  expect(h.requests('POST', '/members')).toBe(1);
  expect((await h.mock.store.findMemberLogin(h.mock.sites[0]!.site.id, email))?.passwordHash).toBeUndefined();
});

test('logged out, the free plan: the account alone, one button, "Join free" (no "Create account", then "Sign up")', async () => {
  const h = await svcopen('/member/plans/community');
  const events = recordEvents();
  catchNavigation();
  const m = await waitForScreen('Community');
  expect(m.root.querySelector('[name=cardNumber]')).toBeNull();
  fillAccount(h, newEmail());
  m.form().requestSubmit();
  await waitFor(() => expect(events.names()).toContain('Service.conversion'));
  expect(lastInfoPlans(events)).toEqual(['community']);
  expect([h.requests('POST', '/members'), h.requests('POST', '/memberships')]).toEqual([1, 1]);
});

test('logged out, an e-mail with an account already: said in the form; no card taken, no membership', async () => {
  const h = await svcopen('/member/plans/lifetime');
  const events = recordEvents();
  const m = await waitForScreen('Lifetime');
  fillAccount(h, GRACE.email);
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await waitFor(() => expect(m.alert()).toBe('There is an account with this e-mail already. Log in instead.'));
  expect(m.button('Pay $199.00').disabled).toBe(false);
  expect(events.names()).toEqual([]);
  expect([h.requests('POST', '/test-payment-methods'), h.requests('POST', '/memberships')]).toEqual([0, 0]);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('logged out, a card declined after the account is made: the account fields go, the card is tried again, no second account', async () => {
  const h = await svcopen('/member/plans/lifetime');
  const events = recordEvents();
  catchNavigation();
  const m = await waitForScreen('Lifetime');
  const email = newEmail();
  fillAccount(h, email);
  fillCard(CARD_DECLINED);
  m.form().requestSubmit();
  await waitFor(() => expect(declined(m)).toBe('The card was declined. Try another card.'));
  // Logged in now, with no plan; the form keeps the card only.
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email, memberships: [] } });
  expect(m.form().querySelector('[name=email]')).toBeNull();
  expect(m.q.queryByRole('button', { name: 'Log in' })).toBeNull();
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await joined('Lifetime');
  expect(events.names()).toEqual(['Service.member.registration', 'Service.member.info', 'Service.conversion', 'Service.member.info']);
  // The declined card was refused as it was saved (docs/test-cards.md): one account, two cards, one sign-up.
  expect([h.requests('POST', '/members'), h.requests('POST', '/test-payment-methods'), h.requests('POST', '/memberships')]).toEqual([1, 2, 1]);
});

// ---------------------------------------------------------------------------------------------
// /member/plans/:planPublicId: a free plan

test('free plan: no card fields; Sign up sends Service.conversion, then member.info with the plan, then goes to the welcome URL and closes', async () => {
  const h = await svcopen('/member/plans/community', GRACE);
  const navigation = catchNavigation();
  const events = recordEvents();
  // Spec 2.7: MemberInfo is the member's state at the moment of the event, the plan just bought included.
  const heldInListener: string[][] = [];
  document.addEventListener('Service.conversion', () => {
    const info = h.service.getMemberInfo();
    heldInListener.push(info.isLoggedIn ? info.memberInfo.memberships.map((m) => m.publicPlanId).sort() : []);
  }, { once: true });
  const m = await waitForScreen('Community');
  expect(m.root.querySelector('.price')!.textContent).toBe('Free');
  expect(m.root.querySelectorAll('input, select, textarea')).toHaveLength(0);
  expect(m.root.querySelector('.due')).toBeNull();
  expect(m.root.querySelector('.rich strong')?.textContent).toBe('public');
  const submit = m.button('Join free');
  expect(submit.type).toBe('submit');
  m.form().requestSubmit();

  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(navigation.urls).toEqual(['https://demo.localhost/welcome']);
  expect(events.names()).toEqual(['Service.conversion', 'Service.member.info']);
  const detail = events.of('Service.conversion')[0] as ConversionDetail;
  expect(Object.keys(detail).sort()).toEqual(['member', 'membership', 'order']);
  expect(detail.membership).toMatchObject({ publicPlanId: 'community', name: 'Community', status: 'active', welcomeUrl: 'https://demo.localhost/welcome' });
  expect(detail.order).not.toHaveProperty('currency');
  expect(detail.order).toMatchObject({ grandTotalCents: 0, grandTotal: 0 });
  expect(detail.member.processorCustomerId).toEqual(expect.any(String));
  expect(detail.member.processorCustomerId).not.toBe('');
  expect(lastInfoPlans(events)).toEqual(['community']);
  expect(heldInListener).toEqual([['community']]);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true });
  expect(h.requests('POST', '/memberships')).toBe(1);
});

// ---------------------------------------------------------------------------------------------
// A paid plan

test('paid plan: "Due now: $199.00", labelled card fields; 4242… pays and the conversion carries usd 19900 / 199', async () => {
  const h = await svcopen('/member/plans/lifetime', GRACE);
  const navigation = catchNavigation();
  const events = recordEvents();
  const m = await waitForScreen('Lifetime');
  expect(m.root.querySelector('.price')!.textContent).toBe('$199.00 once');
  expect(m.root.querySelector('.due')!.textContent).toBe('Due now: $199.00');
  expect([...m.root.querySelectorAll('input')].map((i) => i.name)).toEqual(['cardNumber', 'cardExpiry', 'cardCvc']);
  expect((m.q.getByLabelText('Card number') as HTMLInputElement).name).toBe('cardNumber');
  expect((m.q.getByLabelText('Expiry (MM/YY)') as HTMLInputElement).name).toBe('cardExpiry');
  expect((m.q.getByLabelText('Security code') as HTMLInputElement).name).toBe('cardCvc');
  expectAllLabelled(m.root);
  expect(m.root.activeElement).toBe(m.control('cardNumber'));

  fillCard(CARD_OK);
  m.form().requestSubmit();
  // Lifetime has no welcome page in the fixture: the reader stays on the page, the dialog saying it worked.
  await waitFor(() => expect(modal().root.querySelector('.notice')).not.toBeNull());
  const done = modal();
  expect(done.title).toBe('Lifetime');
  expect(done.q.getByRole('status').textContent).toBe('Welcome! You are now a member of Lifetime.');
  expect(done.root.querySelector('form')).toBeNull();
  expect(done.root.activeElement).toBe(done.button('Continue'));
  expect(events.names()).toEqual(['Service.conversion', 'Service.member.info']);
  const detail = events.of('Service.conversion')[0] as ConversionDetail;
  expect(detail.order).toMatchObject({ currency: 'usd', grandTotalCents: 19900, grandTotal: 199 });
  expect(detail.membership).toMatchObject({ publicPlanId: 'lifetime', status: 'active' });
  expect(detail.member.processorCustomerId).toEqual(expect.any(String));
  expect(lastInfoPlans(events)).toEqual(['lifetime']);
  expect(navigation.urls).toEqual([]);
  expect(h.requests('POST', '/memberships')).toBe(1);
  done.button('Continue').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(navigation.urls).toEqual([]);
});

test('paid plan, declined card 4000 0000 0000 0002: the words in the form, no conversion, no membership', async () => {
  const h = await svcopen('/member/plans/lifetime', GRACE);
  const navigation = catchNavigation();
  const events = recordEvents();
  const m = await waitForScreen('Lifetime');
  fillCard(CARD_DECLINED);
  m.form().requestSubmit();
  await waitFor(() => expect(declined(m)).toBe('The card was declined. Try another card.'));
  expect(m.form().contains(m.root.querySelector('[role="alert"]'))).toBe(true);
  expect(m.button('Pay $199.00').disabled).toBe(false);
  await settle();
  expect(events.names()).toEqual([]);
  expect(navigation.urls).toEqual([]);
  expect(hosts()).toHaveLength(1);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { memberships: [] } });
  const session = await h.signIn(GRACE);
  expect((await h.me(session.token)).member!.memberships).toEqual([]);
});

test('paid plan: declined, then another card (4242…) in the same form succeeds', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  catchNavigation();
  const events = recordEvents();
  const m = await waitForScreen('Lifetime');
  fillCard(CARD_DECLINED);
  m.form().requestSubmit();
  await waitFor(() => expect(declined(m)).toBe('The card was declined. Try another card.'));
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await joined('Lifetime');
  expect(events.names()).toEqual(['Service.conversion', 'Service.member.info']);
});

// ---------------------------------------------------------------------------------------------
// Already a member; sign_up/:plan

test('a member already on the plan (Ada, monthly) goes straight to its content URL, without a form', async () => {
  const h = await svcopen('/member/plans/monthly', ADA);
  const navigation = catchNavigation();
  const events = recordEvents();
  const ada = h.service.getMemberInfo() as { memberInfo: MemberInfo };
  const monthly = ada.memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  await waitFor(() => expect(navigation.urls).toEqual([monthly.contentUrl]));
  expect(hosts()).toHaveLength(0);
  expect(h.requests('POST', '/memberships')).toBe(0);
  expect(events.names()).toEqual([]);
});

test('/member/plans with no plan, logged in: the plans screen', async () => {
  await svcopen('/member/plans', GRACE);
  await waitForScreen('Plans');
});

test('sign_up/lifetime, logged out: the register screen, then the lifetime sign-up in the same dialog', async () => {
  const h = await svcopen('/member/sign_up/lifetime');
  const events = recordEvents();
  const first = await waitForScreen('Create an account');
  const email = await register(h);
  const m = await waitForScreen('Lifetime');
  expect(m.host).toBe(first.host);
  expect(hosts()).toHaveLength(1);
  expect(m.root.querySelector('.due')!.textContent).toBe('Due now: $199.00');
  expect(m.control('cardNumber').tagName).toBe('INPUT');
  expect(events.names()).toEqual(['Service.member.registration', 'Service.member.info']);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } });
});

// ---------------------------------------------------------------------------------------------
// /member/memberships

test('memberships (Ada): Community and Monthly with their dates as badges; "Cancel: Monthly" asks first, "Keep it" keeps it, "Yes, cancel it" cancels at period end', async () => {
  const h = await svcopen('/member/memberships', ADA);
  const m = await waitForScreen('Your memberships');
  const info = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo;
  const monthly = info.memberships.find((x) => x.publicPlanId === 'monthly')!;
  expect(monthly.billingPeriodEnd).toBeDefined();
  const items = () => [...modal().root.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
  // With what Monthly costs Ada (GET /memberships); Community is free and says nothing of a price.
  expect(items()).toEqual(['Community', `Monthly Renews on ${enDate(monthly.billingPeriodEnd!)}$12.00 / monthCancel: Monthly`]);
  expect(modal().root.querySelector('li .badge.ok')!.textContent).toBe(`Renews on ${enDate(monthly.billingPeriodEnd!)}`);
  expect(m.q.queryByRole('button', { name: 'Cancel: Community' })).toBeNull();
  // Cancel is never where the member lands: the header's Back button has the focus.
  expect(m.root.activeElement).toBe(m.root.querySelector('header button'));
  expect(m.root.activeElement).not.toBe(m.button('Cancel: Monthly'));

  // Asked first, in the card: what it means, and the two answers; "Keep it" changes nothing.
  m.button('Cancel: Monthly').click();
  expect(modal().q.getByRole('alert').textContent).toBe(`Cancel Monthly? You keep access until ${enDate(monthly.billingPeriodEnd!)}, and nothing more is charged.`);
  // The safe choice is the one focused (issue 29): Enter pressed once too often keeps the plan.
  expect(modal().root.activeElement).toBe(modal().button('Keep it'));
  modal().button('Keep it').click();
  expect(modal().q.queryByRole('button', { name: 'Yes, cancel it' })).toBeNull();
  expect(h.requests('POST', `/memberships/${monthly.id}/cancel`)).toBe(0);

  const events = recordEvents();
  modal().button('Cancel: Monthly').click();
  modal().button('Yes, cancel it').click();
  await waitFor(() => expect(items()[1]).toMatch(/^Monthly Ends on /));
  expect(h.requests('POST', `/memberships/${monthly.id}/cancel`)).toBe(1);
  const after = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  expect(after.cancelsOn).toBeDefined();
  // Nothing more is due: no date of a next charge (spec 2.7), the end date instead.
  expect(after.billingPeriodEnd).toBeUndefined();
  expect(after.cancelsOn).toBe(monthly.billingPeriodEnd);
  expect(items()[1]).toBe(`Monthly Ends on ${enDate(after.cancelsOn!)}$12.00 / month`);
  expect(modal().root.querySelector('li .badge.warn')!.textContent).toBe(`Ends on ${enDate(after.cancelsOn!)}`);
  expect(modal().q.queryByRole('button', { name: /Cancel/ })).toBeNull();
  expect(modal().title).toBe('Your memberships');
  // The refreshed member reached the page too.
  expect(events.names()).toContain('Service.member.info');
});

test('memberships: a cancellation the service refuses is reported in the card, and may be tried again', async () => {
  const h = await svcopen('/member/memberships', ADA);
  await waitForScreen('Your memberships');
  const monthly = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  h.mock.server.use(http.post(`${h.base}/memberships/${monthly.id}/cancel`, () => HttpResponse.json({ error: { code: 'internal', message: 'The service failed.' } }, { status: 500 })));
  modal().button('Cancel: Monthly').click();
  modal().button('Yes, cancel it').click();
  await waitFor(() => expect(modal().root.querySelector('li [role=alert].field-error')).not.toBeNull());
  expect(modal().root.querySelector('li [role=alert].field-error')!.textContent).not.toBe('');
  expect(modal().button('Cancel: Monthly').disabled).toBe(false);
  expect((h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!.cancelsOn).toBeUndefined();
});

test('a failed payment: the membership says so and leads to the card form; a new card is charged at once and clears it', async () => {
  const h = await startAt(`/?svcopen=${encodeURIComponent('/member/memberships')}`, {
    member: ADA,
    beforeStart: adaMonthlyFailed,
  });
  const m = await waitForScreen('Your memberships');
  expect(m.q.getByRole('alert').textContent).toBe('The last payment failed; it is tried again in a day. Use another card');
  m.button('Use another card').click();
  await waitForScreen('Payment method');
  fillCard(CARD_OK);
  modal().form().requestSubmit();
  const monthlyNow = () =>
    (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  await waitFor(() => expect(monthlyNow().paymentFailure).toBe(false));
  expect(Date.parse(monthlyNow().billingPeriodEnd!)).toBeGreaterThan(Date.now());
});

test('memberships, logged out: log in first, then the list', async () => {
  await svcopen('/member/memberships');
  const m = await waitForScreen('Log in');
  fill(m.control('email'), ADA.email);
  fill(m.control('password'), ADA.password);
  m.form().requestSubmit();
  const list = await waitForScreen('Your memberships');
  expect(list.host).toBe(m.host);
  expect([...list.root.querySelectorAll('li h3')].map((s) => s.textContent)).toEqual(['Community', 'Monthly']);
});

test('memberships with none (Grace): says so', async () => {
  await svcopen('/member/memberships', GRACE);
  await waitForScreen('Your memberships');
  expect(dialogText()).toContain('You have no membership yet.');
});

// ---------------------------------------------------------------------------------------------
// /member/invoices

test('invoices with none: "No invoices yet."', async () => {
  await svcopen('/member/invoices', GRACE);
  const m = await waitForScreen('Invoices');
  expect(m.root.querySelector('table')).toBeNull();
  expect(dialogText()).toContain('No invoices yet.');
});

/** Grace signs up for Lifetime with the test card that pays; Continue closes the dialog. */
async function paidLifetime() {
  const h = await svcopen('/member/plans/lifetime', GRACE);
  catchNavigation();
  await waitForScreen('Lifetime');
  fillCard(CARD_OK);
  modal().form().requestSubmit();
  await joined('Lifetime');
  modal().button('Continue').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  return h;
}

test('invoices after a paid sign-up: one row with the date, "Lifetime", "$199.00", "Paid"', async () => {
  const h = await paidLifetime();

  // A reload at ?svcopen=/member/invoices, as a link in the page would do; the login stays.
  history.replaceState(null, '', `/?svcopen=${encodeURIComponent('/member/invoices')}`);
  h.start();
  const m = await waitForScreen('Invoices');
  const rows = [...m.root.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  expect(rows).toEqual([[`Lifetime${enDate(new Date())}`, '$199.00', 'Paid']]);
  expect(m.root.querySelector('tbody time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  // Column headers name each cell for a screen reader.
  expect([...m.root.querySelectorAll('thead th')].map((th) => [th.getAttribute('scope'), th.textContent])).toEqual([
    ['col', 'Invoice'], ['col', 'Amount'], ['col', 'Status'],
  ]);
});

test('invoices: a declined attempt beside the paid invoice reads as an attempt, not a second invoice', async () => {
  const h = await svcopen('/member/plans/lifetime', GRACE);
  catchNavigation();
  const m = await waitForScreen('Lifetime');
  // 0341: the card is saved, then the charge fails: an attempt in the ledger.
  fillCard('4000 0000 0000 0341');
  m.form().requestSubmit();
  await waitFor(() => expect(declined(m)).toMatch(/declined/));
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await joined('Lifetime');
  history.replaceState(null, '', `/?svcopen=${encodeURIComponent('/member/invoices')}`);
  h.start();
  const list = await waitForScreen('Invoices');
  const rows = [...list.root.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.firstChild!.textContent));
  expect(rows).toEqual([
    ['Lifetime', '$199.00', 'Paid'],
    ['Lifetime (attempt, not charged)', '$199.00', 'Failed'],
  ]);
});

test('invoices: a payment refunded through the processor reads as the invoice, with a Refunded badge', async () => {
  const h = await paidLifetime();
  // What Stripe's charge.refunded does to the ledger (payments/stripe-events.ts).
  const site = (await h.mock.store.getSiteBySubdomain('demo'))!;
  const member = (await h.mock.store.findMemberLogin(site.id, GRACE.email))!;
  const [invoice] = await h.mock.store.listInvoicesOfMember(site.id, member.memberId);
  expect(await h.mock.store.markInvoiceRefunded(site.id, invoice!.processorChargeId)).toMatchObject({ status: 'refunded' });
  history.replaceState(null, '', `/?svcopen=${encodeURIComponent('/member/invoices')}`);
  h.start();
  const list = await waitForScreen('Invoices');
  const rows = [...list.root.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.firstChild!.textContent));
  expect(rows).toEqual([['Lifetime', '$199.00', 'Refunded']]);
  // Neither good news nor bad: no colour of its own.
  expect(list.root.querySelector('tbody .badge')!.className).toBe('badge ');
});

test('plans/all marks the plans the member has already', async () => {
  await svcopen('/member/plans/all', ADA);
  const m = await waitForScreen('Plans');
  const marked = [...m.root.querySelectorAll('.plans li')].filter((li) => li.querySelector('.badge')?.textContent === 'Your plan').map((li) => li.querySelector('h3')!.textContent);
  const ada = (m.root.ownerDocument.defaultView as unknown as { Service: { getMemberInfo(): { memberInfo: MemberInfo } } }).Service.getMemberInfo();
  const active = ada.memberInfo.memberships.filter((x) => x.status === 'active').map((x) => x.name);
  expect(marked.length).toBeGreaterThan(0);
  expect(marked.every((name) => active.includes(name!))).toBe(true);
  // Nothing to buy it again; the others keep their button.
  for (const name of marked) expect(m.q.queryByRole('button', { name: `Choose: ${name}` })).toBeNull();
  expect(m.q.getAllByRole('button', { name: /^Choose: / }).length).toBe(4 - marked.length);
});

test('invoices, logged out: log in first, then the invoices', async () => {
  await svcopen('/member/invoices');
  const m = await waitForScreen('Log in');
  fill(m.control('email'), GRACE.email);
  fill(m.control('password'), GRACE.password);
  m.form().requestSubmit();
  await waitForScreen('Invoices');
  expect(dialogText()).toContain('No invoices yet.');
});

// ---------------------------------------------------------------------------------------------
// Account links

test.each([
  { link: 'Your memberships', title: 'Your memberships' },
  { link: 'Invoices', title: 'Invoices' },
  { link: 'Plans', title: 'Plans' },
])('account: the "$link" link opens that screen in the same dialog', async ({ link, title }) => {
  await svcopen('/member/account', ADA);
  const m = await waitForScreen('Your account');
  const button = m.button(link);
  expect(button.type).toBe('button');
  button.click();
  const next = await waitForScreen(title);
  expect(next.host).toBe(m.host);
  expect(hosts()).toHaveLength(1);
});

// ---------------------------------------------------------------------------------------------
// German

test('the site other (de): the plans screen reads "Tarife", the free plan "Kostenlos"', async () => {
  await onOtherSite('/member/plans/all', OTTO, async () => {
    const m = await waitForScreen('Tarife');
    const items = [...m.root.querySelectorAll('ul.plans > li')];
    expect(items.map((li) => li.querySelector('h3')!.textContent)).toEqual(['Basic']);
    expect(items[0]!.querySelector('.price')!.textContent).toBe('Kostenlos');
    // Otto is on Basic: marked, with nothing to buy it again.
    expect(items[0]!.querySelector('.badge')!.textContent).toBe(de.yourPlan);
    expect(m.q.queryByRole('button', { name: 'Auswählen: Basic' })).toBeNull();
    expect(m.button('Schließen')).toBeDefined();
  });
});

test('the site other (de): Otto\'s invoices read "Rechnungen" and "Noch keine Rechnungen."', async () => {
  await onOtherSite('/member/invoices', OTTO, async () => {
    await waitForScreen('Rechnungen');
    expect(dialogText()).toContain('Noch keine Rechnungen.');
  });
});

// ---------------------------------------------------------------------------------------------
// Failures to load

test('plans cannot load (GET /plans fails): "Something went wrong" and the words in the dialog', async () => {
  silenceWarnings();
  const h = await svcopen('/member/account', GRACE);
  const m = await waitForScreen('Your account');
  h.failNetwork('plans');
  m.button('Plans').click();
  const p = await waitForScreen('Something went wrong');
  expect(p.root.querySelector('[role="alert"]')!.textContent).toBe('The service could not be reached. Check the connection and try again.');
  expect(p.host).toBe(m.host);
});

test.each([
  ['a plan that does not exist', 'no-such-plan'],
  ['an archived plan (Founders 2024)', 'founders'],
])('%s, opened by svcopen: "This plan is no longer offered", and the way to the plans; no sign-up', async (_, plan) => {
  const h = await svcopen(`/member/plans/${plan}`, GRACE);
  const p = await waitForScreen('Plans');
  expect(p.q.getByRole('alert').textContent).toBe('This plan is no longer offered.');
  expect(p.root.querySelector('form')).toBeNull();
  expect(h.requests('GET', `/plans/${plan}`)).toBe(1);
  expect(h.requests('POST', '/memberships')).toBe(0);
  p.button('See the plans').click();
  await waitFor(() => expect(modal().root.querySelectorAll('ul.plans > li')).toHaveLength(4));
});

test('a plan whose data cannot load (GET /plans/lifetime unreachable): "Something went wrong" and the words', async () => {
  silenceWarnings();
  const h = await svcopen('/member/account', GRACE);
  const m = await waitForScreen('Your account');
  h.failNetwork('plans/lifetime');
  // Reload at the plan's address: the plan cannot be fetched.
  history.replaceState(null, '', `/?svcopen=${encodeURIComponent('/member/plans/lifetime')}`);
  h.start();
  const p = await waitForScreen('Something went wrong');
  expect(p.host).not.toBe(m.host);
  expect(p.root.querySelector('[role="alert"]')!.textContent).toBe('The service could not be reached. Check the connection and try again.');
});

test('the account opens on a summary of what the member holds: each plan, what it costs them and when it next charges, above the menu', async () => {
  const h = await svcopen('/member/account', ADA);
  const m = await waitForScreen('Your account');
  const monthly = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  const boxes = [...m.root.querySelectorAll('.summary')].map((box) => box.textContent);
  expect(boxes).toEqual(['Community ', `Monthly Renews on ${enDate(monthly.billingPeriodEnd!)}$12.00 / month`]);
  // The summary comes before the menu, and the menu's first entry has the focus (nothing in the summary is a control).
  const summary = m.root.querySelector('.summary')!;
  expect(summary.compareDocumentPosition(m.root.querySelector('ul.menu')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(m.root.activeElement?.textContent).toBe('Your memberships');
});

test('plans/all, a member who keeps the price they joined at (the owner raised it since): their plan shows what they pay, the others the offered price', async () => {
  const h = await svcopen('/member/plans/all', ADA);
  await waitForScreen('Plans');
  const monthly = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  // What GET /memberships says Ada pays: $10, where newcomers are offered $12.
  h.mock.server.use(
    http.get(`${h.base}/memberships`, () =>
      HttpResponse.json([{ id: monthly.id, currency: 'usd', recurring: { amountCents: 1000, subTotalCents: 1000, taxCents: 0, interval: { count: 1, unit: 'month' } } }]),
    ),
  );
  const priceOf = (name: string) =>
    [...modal().root.querySelectorAll('ul.plans > li')].find((li) => li.querySelector('h3')!.textContent === name)!.querySelector('.price')!.textContent;
  expect(priceOf('Monthly')).toBe('$12.00 / month'); // GET /memberships said $12 the first time
  h.service.open('/member/plans/all');
  await waitFor(() => expect(priceOf('Monthly')).toBe('$10.00 / month'));
  expect(priceOf('Lifetime')).toBe('$199.00 once');
});

/** Grace pays Lifetime with 4242…: her card is saved. Then the sign-up of `plan` is open. */
async function withSavedCard(plan: string, title: string): Promise<{ h: Harness; m: ReturnType<typeof modal> }> {
  const h = await svcopen('/member/plans/lifetime', GRACE);
  await waitForScreen('Lifetime');
  fillCard(CARD_OK);
  modal().form().requestSubmit();
  await waitFor(() => expect(modal().root.querySelector('.notice')).not.toBeNull());
  h.service.open(`/member/plans/${plan}`);
  return { h, m: await waitForScreen(title) };
}

test('beside a saved card, a new card’s fields wait behind "Use another card"; left there, the saved card pays', async () => {
  const { h, m } = await withSavedCard('monthly', 'Monthly');
  expect(m.form().querySelector('p.muted')!.textContent).toBe('Pay with your saved Visa card ending 4242. Use another card');
  const number = m.control('cardNumber');
  expect(number.closest('[hidden]')).not.toBeNull();
  // The focus is on what shows: "Use another card", not the hidden number.
  expect(m.root.activeElement).toBe(m.button('Use another card'));
  m.form().requestSubmit();
  await waitFor(() => expect(modal().root.querySelector('.notice')).not.toBeNull());
  expect(h.requests('POST', '/test-payment-methods')).toBe(1); // Lifetime's card only
});

test('"Use another card" shows the fields (the link goes); a declined new card is said next to its number', async () => {
  const { h, m } = await withSavedCard('monthly', 'Monthly');
  m.button('Use another card').click();
  expect(m.control('cardNumber').closest('[hidden]')).toBeNull();
  expect(m.q.queryByRole('button', { name: 'Use another card' })).toBeNull();
  fillCard(CARD_DECLINED);
  m.form().requestSubmit();
  await waitFor(() => expect(declined(m)).toBe('The card was declined. Try another card.'));
  expect(h.requests('POST', '/test-payment-methods')).toBe(2);
});

/** Ada (on Monthly, $12) with two more subscriptions on offer: Lite ($5, a downgrade) and Euro (another currency). */
async function adaWithMorePlans(path: (ids: { lite: string; euro: string; pro: string }) => string): Promise<Harness> {
  const ids = { lite: 'lite-plan', euro: 'euro-plan', pro: 'pro-plan' };
  return startAt(`/?svcopen=${encodeURIComponent(path(ids))}`, {
    member: ADA,
    beforeStart: async (h) => {
      const site = h.mock.sites[0]!.site.id;
      const common = { siteId: site, status: 'enabled', isPublic: true, colorCode: '#0f766e', createdAt: Date.now(), type: 'subscription' } as const;
      await h.mock.store.createPlan({ ...common, publicId: ids.lite, name: 'Lite', billing: { price: 5, currency: 'usd', interval: { count: 1, unit: 'month' } } });
      await h.mock.store.createPlan({ ...common, publicId: ids.euro, name: 'Euro', billing: { price: 12, currency: 'eur', interval: { count: 1, unit: 'month' } } });
      await h.mock.store.createPlan({ ...common, publicId: ids.pro, name: 'Pro', billing: { price: 40, currency: 'usd', interval: { count: 1, unit: 'month' } } });
    },
  });
}

test('a member on a subscription who opens another: "Change plan", what changes and when; the change waits for the period’s end', async () => {
  const h = await adaWithMorePlans((ids) => `/member/plans/${ids.lite}`);
  const m = await waitForScreen('Change plan');
  const monthly = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'monthly')!;
  const end = enDate(monthly.billingPeriodEnd!);
  expect(dialogText()).toContain('From Monthly to Lite.');
  expect(dialogText()).toContain(`Nothing is due now: the change takes effect on ${end}, when your current period ends.`);
  expect(dialogText()).toContain(`Then $5.00 / month from ${end}`);
  // No card fields: nothing is charged now, and one button.
  expect(m.root.querySelector('[name=cardNumber]')).toBeNull();
  m.button('Change plan').click();
  await waitFor(() => expect(modal().q.getByRole('status').textContent).toBe(`Your plan changes to Lite on ${end}.`));
  expect(h.requests('POST', `/memberships/${monthly.id}/change`)).toBe(1);
  expect(h.requests('POST', '/memberships')).toBe(0);
  // The memberships say it until then, in place of the renewal.
  await h.service.open('/member/memberships');
  const list = await waitForScreen('Your memberships');
  await waitFor(() => expect([...list.root.querySelectorAll('li .badge')].map((b) => b.textContent)).toContain(`Moves to Lite on ${end}`));
  expect(dialogText()).not.toContain('Renews on');
});

test('an upgrade with no card saved: the card’s fields on "Change plan"; a bank that asks (3155) is answered, then the change is confirmed', async () => {
  const h = await adaWithMorePlans((ids) => `/member/plans/${ids.pro}`);
  const m = await waitForScreen('Change plan');
  expect(dialogText()).toContain('Due now: $');
  // The test processor's window for the bank's question is the browser's own confirm dialog.
  const asked: string[] = [];
  const confirm = globalThis.confirm;
  globalThis.confirm = (message?: string) => (asked.push(String(message)), true);
  try {
    fillCard('4000 0025 0000 3155');
    m.button('Change plan').click();
    await waitFor(() => expect(modal().q.getByRole('status').textContent).toBe('Your plan is now Pro.'));
  } finally {
    globalThis.confirm = confirm;
  }
  expect(asked).toHaveLength(1);
  const monthly = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.name === 'Pro')!;
  expect(monthly.publicPlanId).toBe('pro-plan');
  expect(h.requests('POST', `/memberships/${monthly.id}/change`)).toBe(1);
  expect(h.requests('POST', `/memberships/${monthly.id}/change/confirm`)).toBe(1);
  expect(h.requests('POST', '/memberships')).toBe(0);
});

test('an upgrade declined: said next to the card’s number, and the member keeps the plan', async () => {
  const h = await adaWithMorePlans((ids) => `/member/plans/${ids.pro}`);
  const m = await waitForScreen('Change plan');
  fillCard('4000 0000 0000 0341');
  m.button('Change plan').click();
  await waitFor(() => expect(fieldError(m.root, m.control('cardNumber'))).toBe('The card was declined. Try another card.'));
  expect(m.control('cardNumber').getAttribute('aria-invalid')).toBe('true');
  expect((h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.map((x) => x.publicPlanId)).toContain('monthly');
});

test('a member holding a subscription who opens a plan that is none (one-time): that plan’s sign-up, not a change', async () => {
  await adaWithMorePlans(() => '/member/plans/lifetime');
  const m = await waitForScreen('Lifetime');
  expect(m.root.querySelector('[name=cardNumber]')).not.toBeNull();
  expect(dialogText()).not.toContain('Change plan');
});

test('a change the rules refuse (another currency): the plan’s sign-up as before, beside what the member holds', async () => {
  await adaWithMorePlans((ids) => `/member/plans/${ids.euro}`);
  const m = await waitForScreen('Euro');
  expect(m.root.querySelector('[name=cardNumber]')).not.toBeNull();
});
