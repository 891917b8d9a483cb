// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * What the modal's redesign (docs/decisions/0021-modal-design-system.md) added to the screens,
 * against the real service in MSW: the card number grouped with its brand and the expiry's slash
 * (screens/card-fields.ts), the sign-up's order summary (screens/plan-signup.ts), registration
 * naming the plan that follows, the "Saved." notice said once, the header's back button, empty
 * lists leading to the plans, multiple choice as checkboxes, the dialog open at once with a
 * spinner while a screen's data loads, and the icon buttons' words in German.
 */
import { waitFor, within } from '@testing-library/dom';
import { delay, http } from 'msw';
import { expect, test } from 'vitest';
import type { MemberInfo, PlanOffer } from '../../../src/contract/member';
import type { NewPlan } from '../../../src/service/store/records';
import { cardBrand, groupCardNumber } from '../../../src/widget/modal/screens/card-fields';
import { ADA, GRACE, settle, type Harness } from '../support';
import { catchNavigation, dialogText, enDate, fillCard, CARD_OK, onOtherSite } from './plan-support';
import { adaMonthlyFailed, choose, confirmMailedCode, fieldError, fill, hosts, modal, siteSettings, startAt, svcopen, waitForScreen } from './support';

const OTTO = { email: 'otto@other.example', password: 'otto-password' };
const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
let emails = 0;
const newEmail = () => `redesign-${Date.now().toString(36)}-${++emails}@example.com`;

type Modal = ReturnType<typeof modal>;

/** The header's icon buttons, by their (hidden) text: the back button and the close button. */
const headerButton = (m: Modal, text: string) => [...m.root.querySelectorAll<HTMLButtonElement>('header button')].find((b) => b.textContent === text);
/** The header's back button when it shows; undefined when hidden or absent. */
const visibleBack = (m: Modal, text = 'Back') => {
  const back = headerButton(m, text);
  return back && !back.hidden ? back : undefined;
};

/** The screen's status notices ("Saved."), in order. */
const notices = (m: Modal) => [...m.root.querySelectorAll('[role="status"]')].map((s) => s.textContent);

/**
 * Types into a control the way a browser reports it: the value changes with the caret at its end,
 * then an `input` event of that kind (an insertion, or a deletion with Backspace).
 */
function type(control: HTMLInputElement, value: string, inputType = 'insertText'): void {
  control.value = value;
  control.setSelectionRange(value.length, value.length);
  control.dispatchEvent(new InputEvent('input', { inputType, bubbles: true }));
}

/** The brand line under the card number (the number's field, its polite live region). */
const brandOf = (m: Modal) => m.control('cardNumber').parentElement!.querySelector('[aria-live]')!.textContent;

/** A plan of the demo site put straight into the store (no update exists: a new plan). */
async function addPlan(h: Harness, plan: Partial<NewPlan> & Pick<NewPlan, 'publicId' | 'name'> & Record<string, unknown>): Promise<void> {
  await h.mock.store.createPlan({
    siteId: h.mock.sites[0]!.site.id,
    status: 'enabled',
    isPublic: true,
    colorCode: '#334155',
    createdAt: Date.now(),
    ...plan,
  } as NewPlan);
}

/** The plan as the service offers it (GET /plans/:id), read directly, not through the screens. */
async function offerOf(h: Harness, publicId: string): Promise<PlanOffer> {
  const response = await fetch(`${h.base}/plans/${publicId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as PlanOffer;
}

/** Tax on a subtotal, as decision 0013 says: a percentage of the minor units, rounded half-up. */
const taxOf = (cents: number, percentage: number) => Math.floor((cents * percentage) / 100 + 0.5);
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Fills the demo site's register screen (its required fields) and submits it. */
async function register(): Promise<Modal> {
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'a long enough password');
  choose(m.root.querySelector('select')!, 'developer'); // Role, required
  (m.root.querySelector('input[type=checkbox][required]') as HTMLInputElement).click(); // the terms, required
  m.form().requestSubmit();
  return m;
}

// ---------------------------------------------------------------------------------------------
// 1. Card fields

test('cardBrand names the brand a number starts with, as the service names brands; nothing for an unknown start', () => {
  expect(cardBrand('4242424242424242')).toBe('visa');
  expect(cardBrand('4')).toBe('visa');
  expect(cardBrand('5555555555554444')).toBe('mastercard');
  expect(cardBrand('2223003122003222')).toBe('mastercard');
  expect(cardBrand('378282246310005')).toBe('amex');
  expect(cardBrand('341111111111111')).toBe('amex');
  expect(cardBrand('6011111111111117')).toBe('discover');
  expect(cardBrand('')).toBe('');
  expect(cardBrand('9999')).toBe('');
  // 5[1-5] only: 56… is not a Mastercard, 3[47] only: 36… is not American Express.
  expect(cardBrand('5611')).toBe('');
  expect(cardBrand('3611')).toBe('');
});

test('groupCardNumber spaces the digits as printed on the card: 4 4 4 4, American Express 4 6 5, partial numbers too', () => {
  expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
  expect(groupCardNumber('378282246310005')).toBe('3782 822463 10005');
  expect(groupCardNumber('37828')).toBe('3782 8');
  expect(groupCardNumber('3782822463')).toBe('3782 822463');
  expect(groupCardNumber('42424')).toBe('4242 4');
  expect(groupCardNumber('4242')).toBe('4242');
  expect(groupCardNumber('4242424242424242424')).toBe('4242 4242 4242 4242 424');
  expect(groupCardNumber('')).toBe('');
});

test('card number: typed digits are grouped "4242 4242 4242 4242" and the brand shows under the field (Visa, American Express, Mastercard)', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  const m = await waitForScreen('Lifetime');
  const number = m.control('cardNumber');
  expect(brandOf(m)).toBe('');

  type(number, '4242424242424242');
  expect(number.value).toBe('4242 4242 4242 4242');
  expect(brandOf(m)).toBe('Visa');

  type(number, '378282246310005');
  expect(number.value).toBe('3782 822463 10005');
  expect(brandOf(m)).toBe('American Express');

  type(number, '5555555555554444');
  expect(number.value).toBe('5555 5555 5555 4444');
  expect(brandOf(m)).toBe('Mastercard');

  // Typed one digit at a time, grouped as it goes; an unknown start names no brand.
  type(number, '4');
  type(number, `${number.value}2424`);
  expect(number.value).toBe('4242 4');
  type(number, '9999');
  expect(brandOf(m)).toBe('');
  // Letters and punctuation are dropped; at most 19 digits.
  type(number, '4242-4242 abc 4242.4242 4242 4242');
  expect(number.value).toBe('4242 4242 4242 4242 424');
});

test('card number: an edit in the middle (caret not at the end) is left alone', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  const m = await waitForScreen('Lifetime');
  const number = m.control('cardNumber');
  number.value = '42424242';
  number.setSelectionRange(2, 2);
  number.dispatchEvent(new InputEvent('input', { inputType: 'insertText', bubbles: true }));
  expect(number.value).toBe('42424242');
});

test('expiry: "12" typed becomes "12/"; deleting "12/" back to "12" stays "12"; "1234" becomes "12/34"', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  const m = await waitForScreen('Lifetime');
  const expiry = m.control('cardExpiry');
  type(expiry, '1');
  expect(expiry.value).toBe('1');
  type(expiry, '12');
  expect(expiry.value).toBe('12/');
  type(expiry, '12', 'deleteContentBackward');
  expect(expiry.value).toBe('12');
  type(expiry, '1234');
  expect(expiry.value).toBe('12/34');
  type(expiry, '12/3456');
  expect(expiry.value).toBe('12/34');
});

test('a number and expiry formatted as typed still pay: the sign-up goes through', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  catchNavigation();
  const m = await waitForScreen('Lifetime');
  type(m.control('cardNumber'), '4242424242424242');
  type(m.control('cardExpiry'), '1234');
  fill(m.control('cardCvc'), '123');
  expect([m.control('cardNumber').value, m.control('cardExpiry').value]).toEqual(['4242 4242 4242 4242', '12/34']);
  m.form().requestSubmit();
  // Lifetime names no welcome page: the dialog says the sign-up worked.
  await waitFor(() => expect(modal().root.querySelector('[role=status]')?.textContent).toBe('Welcome! You are now a member of Lifetime.'));
});

// ---------------------------------------------------------------------------------------------
// 2. The sign-up's order summary

/** A subscription of $9.99 a month with a $4.99 sign-up fee and 20% tax: rounding shows. */
const PRO = {
  publicId: 'pro',
  name: 'Pro',
  type: 'subscription',
  billing: { price: 9.99, currency: 'usd', interval: { count: 1, unit: 'month' }, signupFee: 4.99, taxPercentage: 20 },
} as const;

/** The summary's rows, each as "label: amount". */
const summaryRows = (m: Modal) => [...m.root.querySelectorAll('.summary > .row')].map((row) => row.textContent);

test('a subscription with a sign-up fee and tax: "Sign-up fee", "plus 20% tax", "Due now" (fee and first month, taxed), then the taxed monthly amount; .price stays before tax', async () => {
  await startAt(at('/member/plans/pro'), { member: GRACE, beforeStart: (h) => addPlan(h, PRO) });
  const m = await waitForScreen('Pro');
  const price = 999;
  const fee = 499;
  const dueSubtotal = price + fee; // the first month and the fee, on one charge
  const dueTax = taxOf(dueSubtotal, 20); // 299.6 → 300
  const monthly = price + taxOf(price, 20); // 999 + 199.8 → 1199
  expect([dueTax, monthly]).toEqual([300, 1199]);

  expect(m.root.querySelector('.price')!.textContent).toBe(`${usd(price)} / month`);
  expect(summaryRows(m)).toEqual([`Sign-up fee: ${usd(fee)}`, `plus 20% tax: ${usd(dueTax)}`, `Due now: ${usd(dueSubtotal + dueTax)}`]);
  expect(m.root.querySelector('.due')!.textContent).toBe('Due now: $17.98');
  expect(m.root.querySelector('.due')!.classList.contains('row')).toBe(true);
  const then = m.root.querySelector('.summary > .muted')!.textContent!;
  expect(then).toMatch(new RegExp(`^Then \\${usd(monthly)} / month from [A-Z][a-z]{2} \\d{1,2}, \\d{4}$`));
  // The fee and the tax are said in the summary, not again in the plan's terms.
  expect([...m.root.querySelectorAll('.terms')].map((p) => p.textContent)).toEqual([]);
  expect(m.control('cardNumber').tagName).toBe('INPUT');
});

test('the order summary\'s "Then … from <date>" is when the next charge falls (the offer\'s billingPeriodEnd), not the sign-up day whose charge is due now', async () => {
  const h = await startAt(at('/member/plans/pro'), { member: GRACE, beforeStart: (started) => addPlan(started, PRO) });
  const m = await waitForScreen('Pro');
  const offer = await offerOf(h, 'pro');
  // No trial: the first month is charged now (in "Due now"); the next charge a month later.
  expect(offer.trialDays).toBeUndefined();
  expect(Date.parse(offer.billingPeriodEnd!) - Date.now()).toBeGreaterThan(27 * 86_400_000);
  expect(m.root.querySelector('.summary > .muted')!.textContent).toBe(`Then $11.99 / month from ${enDate(offer.billingPeriodEnd!)}`);
});

test('a subscription with a 14-day trial and 20% tax: nothing due now, no tax row, then the taxed amount from the trial\'s end', async () => {
  const h = await startAt(at('/member/plans/trial'), {
    member: GRACE,
    beforeStart: (started) => addPlan(started, { publicId: 'trial', name: 'Trial', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14, taxPercentage: 20 } }),
  });
  const m = await waitForScreen('Trial');
  const offer = await offerOf(h, 'trial');
  expect(m.root.querySelector('.price')!.textContent).toBe('$12.00 / month');
  expect([...m.root.querySelectorAll('.terms')].map((p) => p.textContent)).toEqual(['14-day free trial']);
  expect(summaryRows(m)).toEqual(['Due now: $0.00']);
  const trialEnd = Date.parse(offer.billingPeriodEnd!);
  expect(Math.round((trialEnd - Date.now()) / 86_400_000)).toBe(14);
  expect(m.root.querySelector('.summary > .muted')!.textContent).toBe(`Trial ends ${enDate(offer.billingPeriodEnd!)}, then ${usd(1200 + taxOf(1200, 20))} / month`);
  expect(m.form().querySelector('[type=submit]')!.textContent).toBe('Start 14-day free trial');
});

test('a membership in its trial: Your memberships says when the trial ends and the price after it, not a renewal', async () => {
  const h = await startAt(at('/member/plans/trial'), {
    member: GRACE,
    beforeStart: (started) => addPlan(started, { publicId: 'trial', name: 'Trial', type: 'subscription', billing: { price: 12, currency: 'usd', interval: { count: 1, unit: 'month' }, trialPeriodDays: 14, taxPercentage: 20 } }),
  });
  const m = await waitForScreen('Trial');
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await waitFor(() => expect(modal().root.querySelector('.notice')).not.toBeNull());
  const trial = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo.memberships.find((x) => x.publicPlanId === 'trial')!;
  await h.service.open('/member/memberships');
  const list = await waitForScreen('Your memberships');
  await waitFor(() => expect(list.root.querySelector('li .badge')?.textContent).toBe(`Trial ends ${enDate(trial.billingPeriodEnd!)}, then ${usd(1200 + taxOf(1200, 20))} / month`));
  expect(dialogText()).not.toContain('Renews on');
  // Invoices: none yet, and why.
  await h.service.open('/member/invoices');
  await waitForScreen('Invoices');
  await waitFor(() => expect(dialogText()).toContain(`No invoices yet.Your Trial trial ends ${enDate(trial.billingPeriodEnd!)}; its first invoice comes then.`));
});

test('Monthly ($12, no fee, no tax): .price "$12.00 / month", only "Due now: $12.00" and the "Then" line', async () => {
  await svcopen('/member/plans/monthly', GRACE);
  const m = await waitForScreen('Monthly');
  expect(m.root.querySelector('.price')!.textContent).toBe('$12.00 / month');
  expect(summaryRows(m)).toEqual(['Due now: $12.00']);
  expect(m.root.querySelector('.summary > .muted')!.textContent).toMatch(/^Then \$12\.00 \/ month from /);
});

test('a one-time plan with tax: the tax row and "Due now" taxed, no fee row, no "Then" line', async () => {
  await startAt(at('/member/plans/taxed'), {
    member: GRACE,
    beforeStart: (h) => addPlan(h, { publicId: 'taxed', name: 'Taxed once', type: 'oneTimePayment', expiration: { mode: 'none' }, billing: { price: 50, currency: 'usd', taxPercentage: 8.5 } }),
  });
  const m = await waitForScreen('Taxed once');
  const tax = taxOf(5000, 8.5); // 425
  expect(m.root.querySelector('.price')!.textContent).toBe('$50.00 once');
  expect(summaryRows(m)).toEqual([`plus 8.5% tax: ${usd(tax)}`, `Due now: ${usd(5000 + tax)}`]);
  expect(m.root.querySelector('.summary > .muted')).toBeNull();
});

test('a free plan has no order summary', async () => {
  await svcopen('/member/plans/community', GRACE);
  const m = await waitForScreen('Community');
  expect(m.root.querySelector('.price')!.textContent).toBe('Free');
  expect(m.root.querySelector('.summary')).toBeNull();
  expect(m.root.querySelector('.due')).toBeNull();
  expect(dialogText()).not.toContain('Due now');
});

// ---------------------------------------------------------------------------------------------
// 3. Registration names the plan

test('/member/sign_up/monthly, logged out: "Create an account" names the plan that follows', async () => {
  await svcopen('/member/sign_up/monthly');
  const m = await waitForScreen('Create an account');
  await waitFor(() => expect(dialogText()).toContain('Create your account, then sign up for Monthly ($12.00 / month).'));
  const intro = [...m.root.querySelectorAll('p')].filter((p) => p.textContent === 'Create your account, then sign up for Monthly ($12.00 / month).');
  expect(intro).toHaveLength(1);
  // Above the form, not inside it.
  expect(m.form().contains(intro[0]!)).toBe(false);
});

test('/member/sign_up with no plan: no line naming a plan', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  await settle();
  expect(dialogText()).not.toMatch(/then sign up for/);
  expect([...m.root.querySelectorAll('p')].filter((p) => /Create your account/.test(p.textContent!))).toEqual([]);
  expect(h.requests('GET', '/plans/monthly')).toBe(0);
});

// ---------------------------------------------------------------------------------------------
// 4. "Saved." said once

test('account edit saved: the account screen says "Saved." once, as a status; Invoices and back: not again', async () => {
  await svcopen('/member/account/edit', ADA);
  const m = await waitForScreen('Edit your details');
  fill(m.control('firstName'), 'Augusta');
  m.form().requestSubmit();
  const a = await waitForScreen('Your account');
  expect(notices(a)).toEqual(['Saved.']);
  expect(a.q.getByRole('status').textContent).toBe('Saved.');
  expect(a.dialog.textContent).toContain('Augusta Lovelace');
  a.button('Invoices').click();
  const i = await waitForScreen('Invoices');
  expect(notices(i)).toEqual([]);
  expect(dialogText()).not.toContain('Saved.');
  visibleBack(i)!.click();
  const back = await waitForScreen('Your account');
  expect(notices(back)).toEqual([]);
  expect(dialogText()).not.toContain('Saved.');
});

test('e-mail changed: "Saved." once on the account screen; another screen and back: not again', async () => {
  const h = await svcopen('/member/account/email_change', GRACE);
  const m = await waitForScreen('Change e-mail');
  fill(m.control('email'), 'grace@navy.example');
  fill(m.control('password'), GRACE.password);
  m.form().requestSubmit();
  await confirmMailedCode(h, 'grace@navy.example'); // issue 15: confirmed with the mailed code
  const a = await waitForScreen('Your account');
  expect(notices(a)).toEqual(['Saved.']);
  expect(a.dialog.textContent).toContain('grace@navy.example');
  a.button('Edit your details').click();
  const e = await waitForScreen('Edit your details');
  expect(notices(e)).toEqual([]);
  visibleBack(e)!.click();
  const back = await waitForScreen('Your account');
  expect(notices(back)).toEqual([]);
});

test('password changed: "Saved." once on the account screen; another screen and back: not again', async () => {
  await svcopen('/member/account/password_change', GRACE);
  const m = await waitForScreen('Change password');
  fill(m.control('password'), GRACE.password);
  fill(m.control('newPassword'), 'a much longer passphrase');
  m.form().requestSubmit();
  const a = await waitForScreen('Your account');
  expect(notices(a)).toEqual(['Saved.']);
  a.button('Your memberships').click();
  const s = await waitForScreen('Your memberships');
  expect(notices(s)).toEqual([]);
  visibleBack(s)!.click();
  const back = await waitForScreen('Your account');
  expect(notices(back)).toEqual([]);
});

test('a save that fails says no "Saved."', async () => {
  await svcopen('/member/account/password_change', GRACE);
  const m = await waitForScreen('Change password');
  fill(m.control('password'), 'not her password');
  fill(m.control('newPassword'), 'a much longer passphrase');
  m.form().requestSubmit();
  await waitFor(() => expect(m.alert()).toBe('The current password is wrong.'));
  expect(modal().title).toBe('Change password');
  expect(notices(modal())).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 5. The back button

test('the account screen has no visible back button; its "Invoices" has one ("Back"), which returns to "Your account"', async () => {
  await svcopen('/member/account', ADA);
  const a = await waitForScreen('Your account');
  expect(headerButton(a, 'Back')).toBeDefined();
  expect(visibleBack(a)).toBeUndefined();
  expect(a.q.queryByRole('button', { name: 'Back' })).toBeNull();
  a.button('Invoices').click();
  const i = await waitForScreen('Invoices');
  const back = visibleBack(i)!;
  expect(back).toBeDefined();
  expect(i.button('Back')).toBe(back);
  expect(back.type).toBe('button');
  back.click();
  const again = await waitForScreen('Your account');
  expect(again.host).toBe(a.host);
  expect(visibleBack(again)).toBeUndefined();
});

test('plans/all → "Choose: Lifetime": the sign-up goes back to "Plans"', async () => {
  await svcopen('/member/plans/all', GRACE);
  const p = await waitForScreen('Plans');
  expect(visibleBack(p)).toBeUndefined();
  p.button('Choose: Lifetime').click();
  const s = await waitForScreen('Lifetime');
  visibleBack(s)!.click();
  await waitForScreen('Plans');
});

test('/member/account/edit opened directly: back to "Your account"', async () => {
  await svcopen('/member/account/edit', ADA);
  const e = await waitForScreen('Edit your details');
  visibleBack(e)!.click();
  const a = await waitForScreen('Your account');
  expect(visibleBack(a)).toBeUndefined();
});

test('a failed payment\'s "Use another card" leads to the payment method, which goes back to "Your memberships"', async () => {
  await startAt(at('/member/memberships'), {
    member: ADA,
    beforeStart: adaMonthlyFailed,
  });
  const m = await waitForScreen('Your memberships');
  m.button('Use another card').click();
  const p = await waitForScreen('Payment method');
  expect(p.control('cardNumber').tagName).toBe('INPUT');
  expect(p.host).toBe(m.host);
  const back = visibleBack(p);
  expect(back).toBeDefined();
  back!.click();
  await waitForScreen('Your memberships');
  expect(modal().button('Use another card')).toBeDefined();
});

// ---------------------------------------------------------------------------------------------
// 6. Empty lists lead to the plans

test.each([
  { path: '/member/memberships', title: 'Your memberships', sentence: 'You have no membership yet.' },
  { path: '/member/invoices', title: 'Invoices', sentence: 'No invoices yet.' },
])('$title with none (Grace): the sentence and "See the plans", which opens "Plans" with a way back', async ({ path, title, sentence }) => {
  await svcopen(path, GRACE);
  const m = await waitForScreen(title);
  expect(dialogText()).toContain(sentence);
  const see = m.button('See the plans');
  expect(see.type).toBe('button');
  see.click();
  const p = await waitForScreen('Plans');
  expect(p.host).toBe(m.host);
  expect(p.root.querySelectorAll('ul.plans > li')).toHaveLength(4);
  visibleBack(p)!.click();
  const again = await waitForScreen(title);
  expect(dialogText()).toContain(sentence);
  expect(again.button('See the plans')).toBeDefined();
  // Each Back goes one further: the list, opened straight from the page, still leads to the account.
  visibleBack(again)!.click();
  const account = await waitForScreen('Your account');
  expect(visibleBack(account)).toBeUndefined();
});

test('a member with memberships (Ada) gets the list, no "See the plans"', async () => {
  await svcopen('/member/memberships', ADA);
  const m = await waitForScreen('Your memberships');
  expect(m.q.queryByRole('button', { name: 'See the plans' })).toBeNull();
});

// ---------------------------------------------------------------------------------------------
// 7. Multiple choice as checkboxes

test('account edit (Ada): "Topics" is a group of checkboxes with hers ticked; unticking APIs and ticking Billing saves ["widgets", "billing"]', async () => {
  const h = await svcopen('/member/account/edit', ADA);
  const m = await waitForScreen('Edit your details');
  const topicsId = h.mock.sites[0]!.fieldIds.topics!;
  const group = m.q.getByRole('group', { name: 'Topics' });
  expect(group.getAttribute('name')).toBe(`customFields.${topicsId}`);
  const boxes = within(group).getAllByRole('checkbox') as HTMLInputElement[];
  expect(boxes.map((b) => [b.value, b.checked])).toEqual([['widgets', true], ['apis', true], ['billing', false]]);
  // The boxes carry no name of their own: one control per field.
  expect(boxes.map((b) => b.getAttribute('name'))).toEqual([null, null, null]);

  (m.q.getByLabelText('APIs') as HTMLInputElement).click();
  (m.q.getByLabelText('Billing') as HTMLInputElement).click();
  expect(boxes.map((b) => b.checked)).toEqual([true, false, true]);
  m.form().requestSubmit();
  await waitForScreen('Your account');
  const info = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo;
  expect(info.customSignupFields.find((f) => f.id === topicsId)?.value).toEqual(['widgets', 'billing']);
  // The service has it too.
  const session = await h.signIn(ADA);
  expect(session.memberInfo.customSignupFields.find((f) => f.id === topicsId)?.value).toEqual(['widgets', 'billing']);

  // Opened again, the boxes show what was saved.
  modal().button('Edit your details').click();
  const again = await waitForScreen('Edit your details');
  expect((within(again.q.getByRole('group', { name: 'Topics' })).getAllByRole('checkbox') as HTMLInputElement[]).map((b) => b.checked)).toEqual([true, false, true]);
});

/** Makes the demo site's Topics required, through a change of the site's definition. */
async function topicsRequired(h: Harness): Promise<void> {
  const loaded = h.mock.sites[0]!;
  const definition = (await h.mock.store.getSiteDefinition(loaded.site.id))!;
  const topics = definition.signupFields.find((f) => f.id === loaded.fieldIds.topics)!;
  await h.mock.store.applySiteChanges({
    site: { id: loaded.site.id, revision: definition.revision, patch: {} },
    at: Date.now(),
    createPlans: [],
    updatePlans: [],
    createSignupFields: [],
    updateSignupFields: [{ id: topics.id, label: topics.label, required: true, ...(topics.options && { options: topics.options }), position: topics.position, archived: false }],
    createSpaces: [],
    updateSpaces: [],
    createItems: [],
    updateItems: [],
  });
}

test('register, Topics required and none ticked: the service\'s error shows under the group (its aria-describedby slot) and the first box has focus', async () => {
  const h = await startAt(at('/member/sign_up'), { beforeStart: topicsRequired });
  const m = await register();
  const topicsId = h.mock.sites[0]!.fieldIds.topics!;
  const group = m.control<HTMLFieldSetElement>(`customFields.${topicsId}`);
  expect(group.tagName).toBe('FIELDSET');
  expect(group.querySelector('legend')!.textContent).toBe('Topics (required)');
  await waitFor(() => expect(fieldError(m.root, group)).toBe('Topics is required'));
  const slot = m.root.getElementById(group.getAttribute('aria-describedby')!)!;
  expect(group.contains(slot)).toBe(true);
  expect(group.getAttribute('aria-invalid')).toBe('true');
  const first = group.querySelector<HTMLInputElement>('input[type=checkbox]')!;
  expect(first.value).toBe('widgets');
  expect(m.root.activeElement).toBe(first);
  expect(m.alert()).toBe('');
  expect(h.service.getMemberInfo().isLoggedIn).toBe(false);

  // One box ticked: the registration goes through, with it.
  (m.q.getByLabelText('Billing') as HTMLInputElement).click();
  m.form().requestSubmit();
  await waitForScreen('Plans');
  const info = (h.service.getMemberInfo() as { memberInfo: MemberInfo }).memberInfo;
  expect(info.customSignupFields.find((f) => f.id === topicsId)?.value).toEqual(['billing']);
});

// ---------------------------------------------------------------------------------------------
// 8. The dialog opens at once, busy, while a screen's data loads

test('a screen whose data is slow: at once a dialog titled "Loading…" with a spinner and its body aria-busy; once drawn, not busy', async () => {
  let answered = 0;
  const h = await startAt(at('/member/invoices'), {
    member: GRACE,
    beforeStart(started) {
      // Held for 300 ms, then left to the service's own handler.
      started.mock.server.use(
        http.get(`${started.base}/invoices`, async () => {
          await delay(300);
          answered++;
        }),
      );
    },
  });
  await waitFor(() => expect(hosts()).toHaveLength(1), { interval: 5 });
  const loading = modal();
  expect(answered).toBe(0);
  expect(loading.title).toBe('Loading…');
  const body = loading.dialog.querySelector(':scope > div')!;
  expect(body.getAttribute('aria-busy')).toBe('true');
  expect(body.querySelector('.spin')).not.toBeNull();
  expect(loading.root.querySelector('form, table')).toBeNull();
  expect(loading.button('Close')).toBeDefined();

  const m = await waitForScreen('Invoices');
  expect(answered).toBe(1);
  expect(m.host).toBe(loading.host);
  expect(body.hasAttribute('aria-busy')).toBe(false);
  expect(m.root.querySelector('.spin')).toBeNull();
  expect(h.requests('GET', '/invoices')).toBe(1);
});

test('a screen opened from another while its data is slow: the body is busy until it is drawn', async () => {
  const h = await svcopen('/member/account', GRACE);
  const a = await waitForScreen('Your account');
  const body = a.dialog.querySelector(':scope > div')!;
  expect(body.hasAttribute('aria-busy')).toBe(false);
  // GET /plans held for 300 ms, then left to the service's own handler.
  h.mock.server.use(http.get(`${h.base}/plans`, async () => void (await delay(300))));
  a.button('Plans').click();
  expect(body.getAttribute('aria-busy')).toBe('true');
  await settle();
  expect(modal().title).toBe('Your account');
  expect(body.getAttribute('aria-busy')).toBe('true');
  await waitForScreen('Plans');
  expect(body.hasAttribute('aria-busy')).toBe(false);
});

// ---------------------------------------------------------------------------------------------
// 9. German

test('the site other (de): the back and close buttons read "Zurück" and "Schließen"; Zurück leads to "Ihr Konto"', async () => {
  await onOtherSite('/member/invoices', OTTO, async () => {
    const m = await waitForScreen('Rechnungen');
    const back = visibleBack(m, 'Zurück')!;
    expect(back).toBeDefined();
    expect(headerButton(m, 'Schließen')).toBeDefined();
    expect([...m.root.querySelectorAll('header button')].map((b) => b.textContent)).toEqual(['Zurück', 'Schließen']);
    expect(m.button('Schließen')).toBeDefined();
    expect(m.q.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(m.q.queryByRole('button', { name: 'Close' })).toBeNull();
    back.click();
    const a = await waitForScreen('Ihr Konto');
    expect(visibleBack(a, 'Zurück')).toBeUndefined();
  });
});

test('the demo site switched to German (locale de): account edit reads "Angaben bearbeiten" with "Zurück" and "Schließen"', async () => {
  await startAt(at('/member/account/edit'), { member: ADA, beforeStart: siteSettings({ locale: 'de' }) });
  const m = await waitForScreen('Angaben bearbeiten');
  expect([...m.root.querySelectorAll<HTMLButtonElement>('header button')].map((b) => [b.textContent, b.hidden])).toEqual([['Zurück', false], ['Schließen', false]]);
  m.button('Schließen').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
});

// ---------------------------------------------------------------------------------------------
// The card helper the other files use (plain `input` events, no inputType) meets the formatting too.

test('fillCard (plain input events) still yields the grouped number and expiry', async () => {
  await svcopen('/member/plans/lifetime', GRACE);
  const m = await waitForScreen('Lifetime');
  fillCard(CARD_OK.replace(/ /g, ''), '1234');
  expect([m.control('cardNumber').value, m.control('cardExpiry').value]).toEqual(['4242 4242 4242 4242', '12/34']);
});

test.each([
  ['/member/account/email_change', 'Change e-mail'],
  ['/member/memberships', 'Your memberships'],
  ['/member/payment_method/update', 'Payment method'],
])('log in first from %s: the screen asked for opens, with its way back to the account (issue 27)', async (path, title) => {
  await svcopen(path);
  const login = await waitForScreen('Log in');
  fill(login.control('email'), GRACE.email);
  fill(login.control('password'), GRACE.password);
  login.form().requestSubmit();
  const m = await waitForScreen(title);
  visibleBack(m)!.click();
  await waitForScreen('Your account');
});
