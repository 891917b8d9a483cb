// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** The account forms: edit, e-mail change, password change, payment method (open.ts, screens/account-forms.ts). */
import { adoptedCss } from '../adopted-css';
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../../src/contract/member';
import { ADA, GRACE, recordEvents } from '../support';
import { CARD_OK, fillCard } from './plan-support';
import { confirmMailedCode, expectAllLabelled, fieldError, fill, modal, svcopen, waitForScreen } from './support';

test('account edit is prefilled; saving changes names and custom fields, sends member.info and shows the account', async () => {
  const h = await svcopen('/member/account/edit', ADA);
  const m = await waitForScreen('Edit your details');
  expectAllLabelled(m.root);
  const ids = h.mock.sites[0]!.fieldIds;
  expect(m.control('firstName').value).toBe('Ada');
  expect(m.control(`customFields.${ids.company}`).value).toBe('Analytical Engines');
  expect(m.control(`customFields.${ids.terms}`).checked).toBe(true);
  const events = recordEvents();
  fill(m.control('firstName'), 'Augusta');
  fill(m.control(`customFields.${ids.company}`), '');
  m.form().requestSubmit();
  await waitForScreen('Your account');
  expect(modal().dialog.textContent).toContain('Augusta Lovelace');
  const info = (events.of('Service.member.info').at(-1) as { memberInfo: MemberInfo }).memberInfo;
  expect(info.firstName).toBe('Augusta');
  expect(info.customSignupFields.find((f) => f.id === ids.company)?.value).toBe('');
  expect(info.customSignupFields.find((f) => f.id === ids.role)?.value).toBe('developer');
});

test('account edit: emptying a required field is shown next to it, and nothing changes', async () => {
  const h = await svcopen('/member/account/edit', ADA);
  const m = await waitForScreen('Edit your details');
  const ids = h.mock.sites[0]!.fieldIds;
  m.control<HTMLInputElement>(`customFields.${ids.terms}`).checked = false;
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, m.control(`customFields.${ids.terms}`))).toMatch(/ticked/));
  expect(m.control(`customFields.${ids.terms}`).getAttribute('aria-invalid')).toBe('true');
  const me = h.service.getMemberInfo();
  expect(me.isLoggedIn && me.memberInfo.customSignupFields.find((f) => f.id === ids.terms)?.value).toBe(true);
});

test('e-mail change: a wrong password is shown in words; the right one moves the login to the new address', async () => {
  const h = await svcopen('/member/account/email_change', GRACE);
  const m = await waitForScreen('Change e-mail');
  expectAllLabelled(m.root);
  expect(m.control('email').value).toBe(GRACE.email);
  fill(m.control('email'), 'grace@navy.example');
  fill(m.control('password'), 'not her password');
  m.form().requestSubmit();
  // The form has no e-mail to be wrong: it says which of its fields is.
  await waitFor(() => expect(m.alert()).toBe('The current password is wrong.'));
  fill(m.control('password'), GRACE.password);
  m.form().requestSubmit();
  // The new address takes effect once confirmed with the code mailed to it (issue 15).
  await confirmMailedCode(h, 'grace@navy.example');
  await waitForScreen('Your account');
  const me = h.service.getMemberInfo();
  expect(me.isLoggedIn && me.memberInfo.email).toBe('grace@navy.example');
  await expect(h.signIn(GRACE)).rejects.toThrow(/401/);
  expect((await h.signIn({ email: 'grace@navy.example', password: GRACE.password })).memberInfo.email).toBe('grace@navy.example');
});

test('password change: a wrong current password says so; a short new password is shown next to it; a good one keeps this session and the new password signs in', async () => {
  const h = await svcopen('/member/account/password_change', GRACE);
  const m = await waitForScreen('Change password');
  expectAllLabelled(m.root);
  fill(m.control('password'), 'not her password');
  fill(m.control('newPassword'), 'a much longer passphrase');
  m.form().requestSubmit();
  await waitFor(() => expect(m.alert()).toBe('The current password is wrong.'));
  fill(m.control('password'), GRACE.password);
  fill(m.control('newPassword'), 'short');
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, m.control('newPassword'))).toMatch(/at least 8/));
  fill(m.control('newPassword'), 'a much longer passphrase');
  m.form().requestSubmit();
  await waitForScreen('Your account');
  expect(h.service.getMemberInfo().isLoggedIn).toBe(true);
  await expect(h.service.getMemberMetadata()).resolves.toEqual({});
  expect((await h.signIn({ email: GRACE.email, password: 'a much longer passphrase' })).memberInfo.email).toBe(GRACE.email);
});

test('payment method: none saved, then a card saved and shown; a bad card is named next to its field', async () => {
  await svcopen('/member/payment_method/update', GRACE);
  const m = await waitForScreen('Payment method');
  expectAllLabelled(m.root);
  await waitFor(() => expect(m.root.querySelector('[role="status"]')!.textContent).toBe('No card is saved.'));
  fillCard('4242 4242 4242 4241');
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, m.control('cardNumber'))).not.toBe(''));
  fillCard(CARD_OK);
  m.form().requestSubmit();
  await waitFor(() => expect(m.root.querySelector('[role="status"]')!.textContent).toBe('Saved. Visa •••• 4242'));
});

test('the account forms ask a logged-out visitor to log in first, then open', async () => {
  await svcopen('/member/account/email_change');
  const m = await waitForScreen('Log in');
  fill(m.control('email'), GRACE.email);
  fill(m.control('password'), GRACE.password);
  m.form().requestSubmit();
  await waitForScreen('Change e-mail');
});

test.each(['Edit your details', 'Change e-mail', 'Change password', 'Payment method'])('the account screen links to %s', async (title) => {
  await svcopen('/member/account', GRACE);
  const m = await waitForScreen('Your account');
  m.button(title).click();
  await waitForScreen(title);
});

test('one GET /config serves the screen and, later, the page’s checkbox labels', async () => {
  const h = await svcopen('/member/account/edit', GRACE);
  await waitForScreen('Edit your details');
  document.body.insertAdjacentHTML('beforeend', `<span id="terms" data-svc-member-info="customSignupField${h.mock.sites[0]!.fieldIds.terms}"></span>`);
  await waitFor(() => expect(document.getElementById('terms')!.textContent).toBe('Yes'));
  expect(h.requests('GET', '/config')).toBe(1);
});

test('the account’s menu and the invoices’ table bring their own rules: a screen that draws neither downloads neither', async () => {
  const h = await svcopen('/member/account/edit', ADA);
  await waitForScreen('Edit your details');
  const sheet = () => adoptedCss(modal().root);
  expect(sheet()).not.toContain('.menu');
  expect(sheet()).not.toContain('table{');
  h.service.open('/member/account');
  await waitForScreen('Your account');
  expect(sheet()).toContain('.menu button');
  expect(sheet()).toContain('.avatar');
  h.service.open('/member/invoices');
  await waitForScreen('Invoices');
  expect(sheet()).toContain('table{');
});
