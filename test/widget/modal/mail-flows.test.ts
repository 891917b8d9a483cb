// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The e-mail flows' screens (issue 15) against the real service in MSW: "Forgot password?" and
 * "E-mail me a code" on the log-in screen, the mailed code typed into the dialog, the links in
 * the mails (their svcopen paths) followed as a new page load, registration and log-in on a site
 * that lets members in only once their address is confirmed, and an e-mail change confirmed by
 * code or link. The mails are read from the service's outbox, as a member would read them.
 */
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import type { MemberInfo, SiteConfig } from '../../../src/contract/member';
import type { MailRecord } from '../../../src/service/store/records';
import { ADA, GRACE, recordEvents, settle, type Harness } from '../support';
import { choose, expectAllLabelled, fill, hosts, modal, siteSettings, startAt, svcopen, waitForScreen } from './support';

let emails = 0;
const newEmail = () => `mail-flows-${Date.now().toString(36)}-${++emails}@example.com`;
const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
const requireConfirmed = siteSettings({ mail: { requireConfirmedEmail: true } });

/** Every mail the service queued to `to`, oldest first. */
async function mailsTo(h: Harness, to: string): Promise<MailRecord[]> {
  const { items } = await h.mock.store.listMail(undefined, { limit: 100 });
  return items.filter((mail) => mail.to === to.toLowerCase());
}

/** The newest mail to `to` (there must be one). */
async function lastMail(h: Harness, to: string): Promise<MailRecord> {
  let mails: MailRecord[] = [];
  await waitFor(async () => expect((mails = await mailsTo(h, to))).not.toHaveLength(0));
  return mails.at(-1)!;
}

/** The mail's 6-digit code (a line of its own). */
const codeIn = (mail: MailRecord) => /^(\d{6})$/m.exec(mail.text)?.[1] ?? expect.fail(`no code in ${mail.text}`);
/** The mail's link, as the page address it leads to (path and query: the same origin as this page). */
function linkIn(mail: MailRecord): string {
  const link = /^(https?:\/\/\S+)$/m.exec(mail.text)?.[1] ?? expect.fail(`no link in ${mail.text}`);
  const url = new URL(link);
  expect(url.origin).toBe(location.origin);
  return url.pathname + url.search;
}
/** The svcopen path a mailed link opens. */
const svcopenOf = (address: string) => new URL(address, location.origin).searchParams.get('svcopen');

/**
 * Follows a mailed link: the page loads again at `address` (the same service and its outbox; the
 * dialog that was open goes with the old page).
 */
async function follow(h: Harness, address: string): Promise<void> {
  for (const host of hosts()) (host.shadowRoot!.querySelector('button.close') as HTMLButtonElement).click();
  history.replaceState(null, '', address);
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
}

/** The screen's text, read as a person would (the body under the header). */
const bodyText = () => modal().dialog.textContent ?? '';

/** The demo site's required sign-up answers (a Role, the terms), by field id. */
async function requiredAnswers(h: Harness): Promise<Record<string, string | boolean>> {
  const config = (await (await fetch(`${h.base}/config`)).json()) as SiteConfig;
  const required = (type: string) => config.signupFields.find((field) => field.required && field.type === type)!.id;
  return { [required('select')]: 'developer', [required('checkbox')]: true };
}

/** The log-in screen with `email` typed in. */
async function loginScreen(email = '', options: Parameters<typeof startAt>[1] = {}) {
  const h = await startAt(at('/member/sign_in'), options);
  const m = await waitForScreen('Log in');
  fill(m.control('email'), email);
  return { h, m };
}

test('the log-in screen offers "Forgot password?" (a link) and "E-mail me a code"; both take the address typed so far', async () => {
  const { m } = await loginScreen(ADA.email);
  const forgot = m.button('Forgot password?');
  expect(forgot.type).toBe('button');
  expect(forgot.className).toBe('link');
  // Enter in the password field still logs in: the extra controls are not submit buttons.
  expect([...m.form().querySelectorAll('[type=submit]')].map((b) => b.textContent)).toEqual(['Log in']);
  m.button('E-mail me a code').click();
  const ask = await waitForScreen('E-mail me a code');
  expect(ask.control('email').value).toBe(ADA.email);
  expect(ask.control('email').getAttribute('autocomplete')).toBe('email');
  // Back to log in, then the other way.
  ask.button('Back').click();
  const again = await waitForScreen('Log in');
  fill(again.control('email'), GRACE.email);
  again.button('Forgot password?').click();
  const reset = await waitForScreen('Forgot password?');
  expect(reset.control('email').value).toBe(GRACE.email);
  expectAllLabelled(reset.root);
});

test('forgot password: the reset link is mailed; following it sets a new password, logs in and says so', async () => {
  const { h, m } = await loginScreen(ADA.email);
  m.button('Forgot password?').click();
  const reset = await waitForScreen('Forgot password?');
  reset.button('E-mail me a link').click();
  const sent = await waitForScreen('Check your inbox');
  expect(sent.root.querySelector('[role="status"]')!.textContent).toBe(
    `If ${ADA.email} has an account, we sent a link to set a new password. It works for an hour.`,
  );
  const mail = await lastMail(h, ADA.email);
  const address = linkIn(mail);
  expect(svcopenOf(address)).toMatch(/^\/member\/reset_password\/[A-Za-z0-9_-]{43}$/);

  // The member opens the link: a new page load at that address.
  const events = recordEvents();
  await follow(h, address);
  const page = h;
  const form = await waitForScreen('Change password');
  expect(location.search).toBe(''); // svcopen is out of the address
  const password = form.control('newPassword');
  expect([password.type, password.getAttribute('autocomplete')]).toEqual(['password', 'new-password']);
  fill(password, 'a brand new passphrase');
  form.button('Save').click();
  const account = await waitForScreen('Your account');
  expect(account.root.querySelector('.notice')!.textContent).toBe('Your new password is saved.');
  expect(page.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email: ADA.email } });
  expect(events.of('Service.member.info')).toEqual([{ memberInfo: expect.objectContaining({ email: ADA.email }) }]);
  // The new password works, the old one does not.
  await expect(page.signIn({ email: ADA.email, password: 'a brand new passphrase' })).resolves.toMatchObject({ memberInfo: { email: ADA.email } });
  await expect(page.signIn(ADA)).rejects.toThrow(/401/);
});

test('a reset link used once says so in words the second time, with "Forgot password?" to ask again', async () => {
  const { h, m } = await loginScreen(GRACE.email);
  m.button('Forgot password?').click();
  (await waitForScreen('Forgot password?')).button('E-mail me a link').click();
  await waitForScreen('Check your inbox');
  const address = linkIn(await lastMail(h, GRACE.email));
  const response = await fetch(`${h.base}/password-reset/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: svcopenOf(address)!.split('/').pop(), newPassword: 'used in another tab' }),
  });
  expect(response.status).toBe(201);

  await follow(h, address);
  const form = await waitForScreen('Change password');
  fill(form.control('newPassword'), 'another new passphrase');
  form.button('Save').click();
  await waitFor(() => expect(form.alert()).toBe('This link was used already. Ask for a new one.'));
  form.button('Forgot password?').click();
  await waitForScreen('Forgot password?');
});

test('asking for a reset for an address with no account answers the same, and mails nothing', async () => {
  const nobody = newEmail();
  const { h, m } = await loginScreen(nobody);
  m.button('Forgot password?').click();
  (await waitForScreen('Forgot password?')).button('E-mail me a link').click();
  const sent = await waitForScreen('Check your inbox');
  expect(sent.root.querySelector('[role="status"]')!.textContent).toContain(`If ${nobody} has an account`);
  await settle();
  expect(await mailsTo(h, nobody)).toEqual([]);
});

test('"E-mail me a code": the code field, a wrong code said in words, then the right one (typed with a space) logs in and closes', async () => {
  const { h, m } = await loginScreen(ADA.email);
  m.button('E-mail me a code').click();
  (await waitForScreen('E-mail me a code')).button('E-mail me a code').click();
  const screen = await waitForScreen('Check your inbox');
  expect(bodyText()).toContain(`We sent a 6-digit code to ${ADA.email}.`);
  const field = screen.control('code');
  expect([field.type, field.getAttribute('autocomplete'), field.getAttribute('inputmode')]).toEqual(['text', 'one-time-code', 'numeric']);
  expectAllLabelled(screen.root);
  expect(screen.q.getByLabelText('Code')).toBe(field);
  const code = codeIn(await lastMail(h, ADA.email));

  const wrong = code === '000000' ? '111111' : '000000';
  fill(field, wrong);
  screen.button('Log in').click();
  await waitFor(() => expect(screen.alert()).toBe('This code does not work. Check it, or ask for a new one.'));
  expect(h.service.getMemberInfo().isLoggedIn).toBe(false);

  const events = recordEvents();
  const sent: unknown[] = [];
  h.mock.server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && request.url.endsWith('/sessions')) void request.clone().json().then((body) => sent.push(body));
  });
  fill(field, `${code.slice(0, 3)} ${code.slice(3)}`);
  screen.button('Log in').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(sent).toEqual([{ email: ADA.email, code }]); // the spaces taken out
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email: ADA.email } });
  expect(events.names()).toEqual(['Service.member.info']);
});

test('"Send a new code" mails another and says "Sent."; the newest code logs in', async () => {
  const h = await startAt(at('/member/sign_in_code'));
  const ask = await waitForScreen('E-mail me a code');
  fill(ask.control('email'), GRACE.email);
  ask.button('E-mail me a code').click();
  const screen = await waitForScreen('Check your inbox');
  await lastMail(h, GRACE.email);
  screen.button('Send a new code').click();
  await waitFor(() => expect(screen.root.querySelector('.actions [role="status"]')!.textContent).toBe('Sent.'));
  const mails = await mailsTo(h, GRACE.email);
  expect(mails).toHaveLength(2);
  fill(screen.control('code'), codeIn(mails[1]!));
  screen.button('Log in').click();
  await waitFor(() => expect(h.service.getMemberInfo().isLoggedIn).toBe(true));
});

test('the mailed sign-in link logs in and closes the dialog; the same link again says it was used, with a way to log in', async () => {
  const { h, m } = await loginScreen(ADA.email);
  m.button('E-mail me a code').click();
  (await waitForScreen('E-mail me a code')).button('E-mail me a code').click();
  await waitForScreen('Check your inbox');
  const address = linkIn(await lastMail(h, ADA.email));
  expect(svcopenOf(address)).toMatch(/^\/member\/sign_in\/[A-Za-z0-9_-]{43}$/);
  const events = recordEvents();
  await follow(h, address);
  const page = h;
  await waitFor(() => expect(page.service.getMemberInfo().isLoggedIn).toBe(true));
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.of('Service.member.info')).toEqual([{ memberInfo: expect.objectContaining({ email: ADA.email }) }]);

  await page.service.logout();
  await follow(h, address);
  const again = h;
  const problem = await waitForScreen('Something went wrong');
  expect(problem.root.querySelector('[role="alert"]')!.textContent).toBe('This link was used already. Ask for a new one.');
  expect(again.service.getMemberInfo().isLoggedIn).toBe(false);
  problem.button('Log in').click();
  await waitForScreen('Log in');
});

test('a site that wants addresses confirmed: registering leads to the code screen, and the code signs in and continues as registration would', async () => {
  const h = await startAt(at('/member/sign_up'), { beforeStart: requireConfirmed });
  const events = recordEvents();
  const m = await waitForScreen('Create an account');
  const email = newEmail();
  fill(m.control('email'), email);
  fill(m.control('password'), 'a long enough password');
  choose(m.root.querySelector('select')!, 'developer'); // the demo site's required Role
  (m.root.querySelector('input[type=checkbox][required]') as HTMLInputElement).click(); // and its terms
  m.button('Create account').click();
  const screen = await waitForScreen('Check your inbox');
  expect(bodyText()).toContain(`Confirm your e-mail: we sent a 6-digit code to ${email}.`);
  expect(h.service.getMemberInfo().isLoggedIn).toBe(false);

  fill(screen.control('code'), codeIn(await lastMail(h, email)));
  screen.button('Log in').click();
  // The demo site offers its plans after registering.
  await waitForScreen('Plans');
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } });
  // The registration ends with the code: the page hears of it as after any registration.
  expect(events.of('Service.member.registration')).toEqual([{ memberInfo: expect.objectContaining({ email }) }]);
  // The mail's link leads back to the page the member registered on.
  expect(/^(https?:\/\/\S+)$/m.exec((await lastMail(h, email)).text)?.[1]).toMatch(new RegExp(`^${location.origin}/\\?`));
});

test('Service.register on such a site rejects with emailNotConfirmed, saying where the code went; Service.login({ email, code }) signs in', async () => {
  const h = await startAt('/', { beforeStart: requireConfirmed });
  const email = newEmail();
  const customFields = await requiredAnswers(h);
  const error = await h.service.register({ email, password: 'a long enough password', customFields }).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ServiceError', code: 'emailNotConfirmed', path: 'email' });
  expect((error as Error).message).toContain(email);
  expect(h.service.getMemberInfo().isLoggedIn).toBe(false);
  const member: MemberInfo = await h.service.login({ email, code: codeIn(await lastMail(h, email)) });
  expect(member.email).toBe(email);
});

test('on such a site, a member who has not confirmed their address logs in with the password and is asked for the mailed code', async () => {
  const h = await startAt(at('/member/sign_in'), { beforeStart: requireConfirmed });
  const email = newEmail();
  const password = 'a long enough password';
  // Signed up elsewhere, never confirmed (the service answers 202 and mails a code).
  const signUp = await fetch(`${h.base}/members`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, customFields: await requiredAnswers(h) }),
  });
  expect(signUp.status).toBe(202);
  const m = await waitForScreen('Log in');
  fill(m.control('email'), email);
  fill(m.control('password'), password);
  m.button('Log in').click();
  const screen = await waitForScreen('Check your inbox');
  expect(bodyText()).toContain(`Confirm your e-mail: we sent a 6-digit code to ${email}.`);
  await waitFor(async () => expect(await mailsTo(h, email)).toHaveLength(2)); // the log-in sent a fresh code
  const events = recordEvents();
  fill(screen.control('code'), codeIn(await lastMail(h, email)));
  screen.button('Log in').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } });
  // A log-in, not a registration; and the password typed before the code is kept (shown with it).
  expect(events.of('Service.member.registration')).toEqual([]);
  expect((await h.service.login({ email, password })).email).toBe(email);
});

test('an e-mail change waits for the code mailed to the new address; then the account shows it, "Saved."', async () => {
  const h = await startAt(at('/member/account/email_change'), { member: ADA });
  const m = await waitForScreen('Change e-mail');
  const email = newEmail();
  fill(m.control('email'), email);
  fill(m.control('password'), ADA.password);
  m.button('Save').click();
  const screen = await waitForScreen('Check your inbox');
  expect(bodyText()).toContain(`Confirm your e-mail: we sent a 6-digit code to ${email}.`);
  expect(h.service.getMemberInfo()).toMatchObject({ memberInfo: { email: ADA.email } }); // not yet

  const code = codeIn(await lastMail(h, email));
  fill(screen.control('code'), code === '000000' ? '111111' : '000000');
  screen.button('Save').click();
  await waitFor(() => expect(screen.alert()).toBe('This code does not work. Check it, or ask for a new one.'));

  const events = recordEvents();
  fill(screen.control('code'), code);
  screen.button('Save').click();
  const account = await waitForScreen('Your account');
  expect(account.root.querySelector('.notice')!.textContent).toBe('Saved.');
  expect(account.dialog.textContent).toContain(email);
  expect(h.service.getMemberInfo()).toMatchObject({ memberInfo: { email } });
  expect(events.of('Service.member.info')).toEqual([{ memberInfo: expect.objectContaining({ email }) }]);
});

test('the e-mail change screen keeps a wrong password next to its field, and the same address is no change', async () => {
  await startAt(at('/member/account/email_change'), { member: ADA });
  const m = await waitForScreen('Change e-mail');
  fill(m.control('password'), 'not the password');
  m.button('Save').click();
  await waitFor(() => expect(m.alert()).toBe('The current password is wrong.'));
  fill(m.control('password'), ADA.password);
  m.button('Save').click(); // the address as it is
  const account = await waitForScreen('Your account');
  expect(account.root.querySelector('.notice')!.textContent).toBe('Saved.');
});

test('the link in the e-mail change mail: the new address takes effect, said in words (logged out: with a way to log in)', async () => {
  const h = await startAt(at('/member/account/email_change'), { member: GRACE });
  const m = await waitForScreen('Change e-mail');
  const email = newEmail();
  fill(m.control('email'), email);
  fill(m.control('password'), GRACE.password);
  m.button('Save').click();
  await waitForScreen('Check your inbox');
  const address = linkIn(await lastMail(h, email));
  expect(svcopenOf(address)).toMatch(/^\/member\/account\/email_confirm\/[A-Za-z0-9_-]{43}$/);
  await h.service.logout();
  await follow(h, address);
  const done = await waitForScreen('Change e-mail');
  expect(done.root.querySelector('.notice')!.textContent).toBe(`Your e-mail address is now ${email}.`);
  done.button('Log in').click();
  await waitForScreen('Log in');
});

test('the same link followed while logged in: the account shows the new address, with the words', async () => {
  const h = await startAt(at('/member/account/email_change'), { member: ADA });
  const m = await waitForScreen('Change e-mail');
  const email = newEmail();
  fill(m.control('email'), email);
  fill(m.control('password'), ADA.password);
  m.button('Save').click();
  await waitForScreen('Check your inbox');
  const address = linkIn(await lastMail(h, email));
  await follow(h, address);
  const page = h;
  const account = await waitForScreen('Your account');
  expect(account.root.querySelector('.notice')!.textContent).toBe(`Your e-mail address is now ${email}.`);
  expect(page.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } });
});

test('/member/forgot_password and /member/sign_in_code open their screens directly', async () => {
  const h = await svcopen('/member/forgot_password');
  expect((await waitForScreen('Forgot password?')).control('email').value).toBe('');
  await follow(h, at('/member/sign_in_code'));
  await waitForScreen('E-mail me a code');
});

test('a German site: the log-in screen, the code screen and the errors in German', async () => {
  const h = await startAt(at('/member/sign_in'), { beforeStart: siteSettings({ locale: 'de' }) });
  const m = await waitForScreen('Anmelden');
  expect(m.button('Passwort vergessen?')).toBeDefined();
  fill(m.control('email'), ADA.email);
  m.button('Code per E-Mail senden').click();
  (await waitForScreen('Code per E-Mail senden')).button('Code per E-Mail senden').click();
  const screen = await waitForScreen('Prüfen Sie Ihr Postfach');
  expect(bodyText()).toContain(`Wir haben einen 6-stelligen Code an ${ADA.email} gesendet.`);
  expect(screen.q.getByLabelText('Code')).toBe(screen.control('code'));
  const code = codeIn(await lastMail(h, ADA.email));
  fill(screen.control('code'), code === '000000' ? '111111' : '000000');
  screen.button('Anmelden').click();
  await waitFor(() => expect(screen.alert()).toBe('Dieser Code funktioniert nicht. Prüfen Sie ihn oder fordern Sie einen neuen an.'));
  screen.button('Neuen Code senden').click();
  await waitFor(() => expect(screen.root.querySelector('.actions [role="status"]')!.textContent).toBe('Gesendet.'));
});
