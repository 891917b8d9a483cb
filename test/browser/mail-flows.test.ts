/**
 * Issue 15's mail flows in real Chromium, end to end through a real SMTP server: the widget's
 * screens on a page of the site, the real service (`svc serve` in the worker), and mail that really goes out and
 * is read back the way an inbox would read it.
 *
 * The SMTP server (smtp-server, loopback, a random port, with a user and password) is started by
 * this file before the service, and `svc serve` is given it as SVC_SMTP_URL, as a site owner
 * would. Beside the service, on the same SQLite file, this file runs a sender of its own
 * (`sendQueuedMail` with `createMailTransport(readMailConfig({ SVC_SMTP_URL }))`, as serve.ts
 * wires it) whenever a test waits for a mail, so nothing waits for serve's 2-second pass; the
 * store's leases keep the two from sending one mail twice. Each delivered message is parsed with
 * mailparser's simpleParser: its subject, its HTML (no remote resources) and the one link or the
 * code in its text.
 *
 * 1. Forgot password: the reset link leads back to the page that asked, sets a new password and
 *    signs in; the old password stops working, the new one works, and the link works once.
 * 2. E-mail me a code: a wrong code in words, then the right one (typed with a space) signs in;
 *    five wrong codes spend it, and the right one is then refused, with "ask for a new one".
 * 3. The sign-in link in the code mail signs in another browser, once.
 * 4. A site that wants addresses confirmed first: sign-up shows "Check your inbox", the code
 *    from the welcome mail signs in; signing up again with the address shows the very same
 *    screen, and the address's owner gets an "already have an account" mail.
 * 5. E-mail change: the code sent to the new address moves the account; the old address is told.
 *    The same change confirmed by the mailed link in a browser that is not logged in.
 * 6. Forgot password for an address with no account: the same screen, and no mail at all.
 * 7. axe-core (as accessibility.test.ts runs it) on every new screen, with no violation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Locator, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { MAIL_EVERY_MS } from '../../src/cli/commands/serve';
import type { MemberInfo } from '../../src/contract/member';
import { systemClock } from '../../src/service/domain/clock';
import { createMailTransport, readMailConfig, type MailTransport } from '../../src/service/mail';
import { sendQueuedMail, type MailSendDeps } from '../../src/service/mail/send-queued';
import type { MailRecord } from '../../src/service/store/records';
import { openSqliteStore } from '../../src/service/store/sqlite';
import type { Store } from '../../src/service/store/store';
import { axeViolations, readable } from './support/axe';
import { skipBrowserTests } from './support/chromium';
import { createMember, uniqueEmail } from './support/members';
import { browserTest, useBrowserSuite } from './support/suite';
import type { WidgetPage } from './support/widget-page';

/** The test site's name (support/service.ts: `svc sites create --name Shop`): every mail's subject names it. */
const SITE_NAME = 'Shop';
/**
 * This file's site is on a loopback name, `shop.localhost` (its pages on `a.shop.localhost`, which
 * Chromium resolves to 127.0.0.1 by itself), not on shop.example as the suite's other files: a
 * mailed link leads back to the page asked from only on the site's own scheme and port (issue 26),
 * https on the default port for a site on the internet, any for one on a loopback name, and the
 * suite serves its pages over http on a port of their own. The page is loopback.html, the install
 * code without cookieDomain (a page on a.shop.localhost cannot set shop.example's cookie).
 */
const LOOPBACK_DOMAIN = 'shop.localhost';
const HOST = `a.${LOOPBACK_DOMAIN}`;
const HOME = 'loopback.html';
/** The page members ask from, with a query of its own that the mailed links must keep. */
const PAGE = `${HOME}?from=mail-test`;

// ---------------------------------------------------------------------------------------------
// The SMTP server: started before the service, which is given it as SVC_SMTP_URL.

interface Delivered {
  /** The envelope's recipients, lower case. */
  rcpt: string[];
  mail: ParsedMail;
}

const delivered: Delivered[] = [];
const SMTP_USER = 'svc-mail-test';
const SMTP_PASSWORD = 'smtp-s3cret';

async function startSmtp(): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // serve's pooled connection may still be open when this closes: do not wait 30 s for it.
    closeTimeout: 1_000,
    onAuth: (auth, _session, done) =>
      auth.username === SMTP_USER && auth.password === SMTP_PASSWORD ? done(null, { user: SMTP_USER }) : done(new Error('Invalid username or password')),
    onData: (stream, session, done) =>
      void simpleParser(stream).then(
        (mail) => {
          delivered.push({ rcpt: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), mail });
          done();
        },
        done,
      ),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port };
}

const smtp = skipBrowserTests ? undefined : await startSmtp();
const SMTP_URL = smtp ? `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}` : '';
// Registered before the suite's own hooks: with vitest's stacked hooks this runs last, once
// `svc serve` (and its pooled SMTP connection) has stopped.
if (smtp) afterAll(() => new Promise<void>((resolve) => smtp.server.close(() => resolve())));

const suite = useBrowserSuite({
  tempPrefix: 'svc-mail-',
  env: { SVC_SMTP_URL: SMTP_URL },
  setup: async (store, site) => void (await store.updateSite(site.id, { domain: LOOPBACK_DOMAIN })),
});

// ---------------------------------------------------------------------------------------------
// A sender beside the service, on the same SQLite file, through the same SMTP server.

let sender: { store: Store; transport: MailTransport; deps: MailSendDeps } | undefined;
const senderReports: string[] = [];

if (!skipBrowserTests) {
  beforeAll(() => {
    const store = openSqliteStore(suite.service.db);
    const config = readMailConfig({ SVC_SMTP_URL: SMTP_URL }, suite.service.db);
    const transport = createMailTransport(config);
    const deps: MailSendDeps = { store, transport, clock: systemClock, from: config.from, report: (m) => senderReports.push(m) };
    sender = { store, transport, deps };
  });
  afterAll(async () => {
    await sender?.transport.close();
    await sender?.store.close();
  });
}

/** Sends everything due now (the sender's pass, run here instead of waiting for serve's). */
async function sendNow(): Promise<void> {
  while ((await sendQueuedMail(sender!.deps)) > 0);
}

/** Messages already handed to a test: each is taken once. */
const taken = new Set<ParsedMail>();

const describeDelivered = () =>
  delivered.map((d) => `  ${d.rcpt.join(',')}: ${d.mail.subject}`).join('\n') || '  (nothing)';

/** The first mail to `to` whose subject matches, not taken before: sends what is due until it comes. */
async function nextMail(to: string, subject: RegExp, timeout = 10_000): Promise<ParsedMail> {
  const end = Date.now() + timeout;
  for (;;) {
    const hit = delivered.find((d) => !taken.has(d.mail) && d.rcpt.includes(to.toLowerCase()) && subject.test(d.mail.subject ?? ''));
    if (hit) {
      taken.add(hit.mail);
      return hit.mail;
    }
    if (Date.now() > end) {
      throw new Error(
        `no mail to ${to} with a subject like ${subject} within ${timeout} ms; the SMTP server got:\n${describeDelivered()}\n` +
          `the sender said: ${senderReports.join('\n') || '(nothing)'}\nthe service's log:\n${suite.service.log.slice(-20).join('\n')}`,
      );
    }
    await sendNow();
    await sleep(100);
  }
}

/** Every mail the store holds, oldest first. */
async function storedMails(): Promise<MailRecord[]> {
  const all: MailRecord[] = [];
  for (let afterId: number | undefined; ; ) {
    const page = await sender!.store.listMail(undefined, { limit: 500, ...(afterId !== undefined && { afterId }) });
    all.push(...page.items);
    if (!page.hasMore || page.items.length === 0) return all;
    afterId = page.items.at(-1)!.id;
  }
}

const LINK = /https?:\/\/[^\s<>"']+/g;
const linksIn = (text: string): string[] => [...text.matchAll(LINK)].map((m) => m[0]);

/** The one link in the mail's text (there must be exactly one), also the HTML's link. */
function onlyLink(mail: ParsedMail): string {
  const links = linksIn(mail.text ?? '');
  expect(links, `the links in "${mail.subject}":\n${mail.text}`).toHaveLength(1);
  const link = links[0]!;
  expect(htmlOf(mail).replaceAll('&amp;', '&'), 'the HTML holds the same link').toContain(`href="${link}"`);
  return link;
}

/** The 6-digit code, on its own line of the text. */
function codeIn(mail: ParsedMail): string {
  const codes = [...(mail.text ?? '').matchAll(/^(\d{6})$/gm)].map((m) => m[1]!);
  expect(codes, `the code in "${mail.subject}":\n${mail.text}`).toHaveLength(1);
  return codes[0]!;
}

function htmlOf(mail: ParsedMail): string {
  expect(typeof mail.html, `"${mail.subject}" has an HTML part`).toBe('string');
  return mail.html as string;
}

/** Names the site, from the site, and an HTML part that loads nothing from anywhere. */
function expectSiteMail(mail: ParsedMail): void {
  expect(mail.subject).toContain(SITE_NAME);
  expect(mail.from?.value[0]?.name).toBe(SITE_NAME);
  const html = htmlOf(mail);
  for (const remote of [/<img/i, /\bsrc\s*=/i, /url\(/i, /<link/i]) expect(html, `"${mail.subject}": ${remote} in its HTML`).not.toMatch(remote);
}

/** A code that is not `code`. */
const wrongCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

// ---------------------------------------------------------------------------------------------
// The widget.

const dialogOf = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });

/** What the open dialog shows, for failure messages. */
const dialogText = (page: Page) =>
  page.evaluate(() => document.querySelector('[data-svc-modal]')?.shadowRoot?.querySelector('dialog')?.textContent ?? '(no dialog)');

/** Waits for the dialog titled `name`; fails with what is shown instead. */
async function shown(page: WidgetPage, name: string): Promise<Locator> {
  const dialog = dialogOf(page.page, name);
  try {
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  } catch (error) {
    throw new Error(`no dialog "${name}"; the page shows: ${await dialogText(page.page)}\n${page.log.join('\n')}\n${(error as Error).message}`);
  }
  return dialog;
}

/** `Service.open(path)`, as a page's own code opens a screen. */
const openScreen = (page: WidgetPage, path: string) => page.page.evaluate((p) => window.Service.open(p), path);

/** Navigates the page to `url` (a mailed link) and waits for the widget. */
async function follow(page: WidgetPage, url: string): Promise<void> {
  await page.page.goto(url);
  await page.waitForEvent('Service.ready');
}

/** The form's error in words, once the submission has come back. */
async function formError(dialog: Locator): Promise<string> {
  const form = dialog.locator('form');
  await expect.poll(() => form.getAttribute('aria-busy'), { timeout: 5_000 }).toBeNull();
  await expect.poll(async () => (await dialog.locator('.form-error').textContent()) ?? '', { timeout: 5_000 }).not.toBe('');
  return (await dialog.locator('.form-error').textContent())!;
}

const loggedInEmail = (page: WidgetPage) =>
  page.page.evaluate(() => {
    const info = window.Service.getMemberInfo();
    return info.isLoggedIn ? info.memberInfo.email : null;
  });

/** Service.member.info says `email` is logged in, and so does getMemberInfo(). */
async function expectSignedIn(page: WidgetPage, email: string): Promise<void> {
  await expect
    .poll(
      async () => (await page.events()).filter((e) => e.type === 'Service.member.info').map((e) => (e.detail as { memberInfo: MemberInfo }).memberInfo.email),
      { timeout: 5_000, message: `Service.member.info for ${email}\n${page.log.join('\n')}` },
    )
    .toContain(email);
  expect(await loggedInEmail(page)).toBe(email);
}

/** `Service.login` in a browser of its own: 'ok', or the rejection's code. */
async function tryPassword(email: string, password: string): Promise<string> {
  const context = await suite.newContext();
  const page = await suite.open(context, HOST, PAGE);
  return page.page.evaluate(
    (credentials) => window.Service.login(credentials).then(() => 'ok', (error: { code?: string }) => error.code ?? String(error)),
    { email, password },
  );
}

/** Log in, then "Forgot password?" for `email`: answers the "Check your inbox" dialog. */
async function askResetLink(page: WidgetPage, email: string, checkA11y = false): Promise<Locator> {
  await openScreen(page, '/member/sign_in');
  const login = await shown(page, 'Log in');
  await login.getByRole('button', { name: 'Forgot password?', exact: true }).click();
  const forgot = await shown(page, 'Forgot password?');
  if (checkA11y) await expectNoAxeViolations(page.page, 'the forgot-password form');
  await forgot.getByLabel('E-mail').fill(email);
  await forgot.getByRole('button', { name: 'E-mail me a link', exact: true }).click();
  return shown(page, 'Check your inbox');
}

/** Log in, then "E-mail me a code" for `email`: answers the code screen. */
async function askCode(page: WidgetPage, email: string, checkA11y = false): Promise<Locator> {
  await openScreen(page, '/member/sign_in');
  const login = await shown(page, 'Log in');
  await login.getByLabel('E-mail').fill(email);
  await login.getByRole('button', { name: 'E-mail me a code', exact: true }).click();
  const ask = await shown(page, 'E-mail me a code');
  // What was typed on the log-in form comes along.
  expect(await ask.getByLabel('E-mail').inputValue()).toBe(email);
  if (checkA11y) await expectNoAxeViolations(page.page, 'the e-mail-me-a-code form');
  await ask.getByRole('button', { name: 'E-mail me a code', exact: true }).click();
  return shown(page, 'Check your inbox');
}

/** The mailed code's field: name="code", and the browser may offer the code from the mail. */
async function codeFieldOf(dialog: Locator): Promise<Locator> {
  const field = dialog.locator('input[name="code"]');
  expect(await field.count()).toBe(1);
  expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
  // Its label is "Code": the field Playwright (and a screen reader) finds by that name.
  expect(await dialog.getByLabel('Code', { exact: true }).getAttribute('name')).toBe('code');
  return field;
}

/** Types `code` into the code screen and presses its button (`button`). */
async function submitCode(dialog: Locator, code: string, button: string): Promise<void> {
  await dialog.locator('input[name="code"]').fill(code);
  await dialog.getByRole('button', { name: button, exact: true }).click();
}

// ---------------------------------------------------------------------------------------------
// axe on the open modal (support/axe.ts, as accessibility.test.ts runs it).

async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe on ${screen}:\n${readable(violations)}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

browserTest('Forgot password?: the mailed link leads back to the page, sets a new password and signs in; the old password stops working; the link works once', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST), { firstName: 'Grace', lastName: 'Hopper' });
  const context = await suite.newContext();
  const page = await suite.open(context, HOST, PAGE);
  const asked = new URL(page.page.url());

  // The log-in screen offers both ways in without a password.
  await openScreen(page, '/member/sign_in');
  const login = await shown(page, 'Log in');
  expect(await login.getByRole('button', { name: 'Forgot password?', exact: true }).count()).toBe(1);
  expect(await login.getByRole('button', { name: 'E-mail me a code', exact: true }).count()).toBe(1);
  await dialogOf(page.page, 'Log in').getByRole('button', { name: 'Close', exact: true }).click();
  await login.waitFor({ state: 'detached' });

  const inbox = await askResetLink(page, member.email, true);
  expect(await inbox.getByRole('status').textContent()).toBe(`If ${member.email} has an account, we sent a link to set a new password. It works for an hour.`);
  await expectNoAxeViolations(page.page, 'check your inbox (a reset link sent)');

  const mail = await nextMail(member.email, /^Reset your password/);
  expectSiteMail(mail);
  const link = new URL(onlyLink(mail));
  // Back to the page the member asked from, its own query kept.
  expect(link.origin + link.pathname).toBe(asked.origin + asked.pathname);
  expect(link.searchParams.get('from')).toBe('mail-test');
  expect(link.searchParams.get('svcopen')).toMatch(/^\/member\/reset_password\/[\w-]{20,}$/);

  // Following it (in the same browser, as a click in the mail would) opens the reset screen.
  await follow(page, link.href);
  const reset = await shown(page, 'Change password');
  // svcopen (and the token in it) leaves the address bar; the page's own query stays.
  expect(new URL(page.page.url()).searchParams.has('svcopen')).toBe(false);
  expect(new URL(page.page.url()).searchParams.get('from')).toBe('mail-test');
  expect(await reset.locator('input[name="newPassword"]').getAttribute('type')).toBe('password');
  await expectNoAxeViolations(page.page, 'the reset screen');
  await reset.locator('input[name="newPassword"]').fill('a-brand-new-password');
  await reset.getByRole('button', { name: 'Save', exact: true }).click();
  await expectSignedIn(page, member.email);
  const account = await shown(page, 'Your account');
  expect(await account.textContent()).toContain('Your new password is saved.');
  await expectNoAxeViolations(page.page, 'the account after a reset (its notice)');

  // The old password no longer logs in; the new one does.
  expect(await tryPassword(member.email, member.password)).toBe('invalidCredentials');
  expect(await tryPassword(member.email, 'a-brand-new-password')).toBe('ok');

  // The same link again, in another browser: the screen, then the refusal in words.
  const again = await suite.open(await suite.newContext(), HOST, HOME);
  await follow(again, link.href);
  const second = await shown(again, 'Change password');
  await second.locator('input[name="newPassword"]').fill('someone-elses-password');
  await second.getByRole('button', { name: 'Save', exact: true }).click();
  expect(await formError(second)).toBe('This link was used already. Ask for a new one.');
  expect(await loggedInEmail(again)).toBeNull();
  await expectNoAxeViolations(again.page, 'the reset screen saying the link was used');
  // And that password was not set.
  expect(await tryPassword(member.email, 'someone-elses-password')).toBe('invalidCredentials');
});

browserTest('E-mail me a code: name="code" with autocomplete="one-time-code"; a wrong code in words, then the right one signs in', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const page = await suite.open(await suite.newContext(), HOST, PAGE);
  const screen = await askCode(page, member.email, true);
  expect(await screen.textContent()).toContain(`We sent a 6-digit code to ${member.email}.`);
  await codeFieldOf(screen);
  await expectNoAxeViolations(page.page, 'the code screen');

  const mail = await nextMail(member.email, /^Your code to log in to/);
  expectSiteMail(mail);
  const code = codeIn(mail);
  // The code mail holds a sign-in link too, back to this page.
  const link = new URL(onlyLink(mail));
  expect(link.origin + link.pathname).toBe(`${suite.origin(HOST)}/${HOME}`);
  expect(link.searchParams.get('svcopen')).toMatch(/^\/member\/sign_in\/[\w-]{20,}$/);

  await submitCode(screen, wrongCode(code), 'Log in');
  expect(await formError(screen)).toBe('This code does not work. Check it, or ask for a new one.');
  expect(await page.count('Service.member.info')).toBe(0);
  expect(await loggedInEmail(page)).toBeNull();
  await expectNoAxeViolations(page.page, 'the code screen with a wrong code');

  // Typed as a person might, with a space in the middle.
  await submitCode(screen, `${code.slice(0, 3)} ${code.slice(3)}`, 'Log in');
  await expectSignedIn(page, member.email);
  await screen.waitFor({ state: 'detached', timeout: 5_000 });
});

browserTest('a code allows five tries: after five wrong codes the right one is refused, in the same words as a wrong one; a new code then signs in', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const page = await suite.open(await suite.newContext(), HOST, PAGE);
  const screen = await askCode(page, member.email);
  const code = codeIn(await nextMail(member.email, /^Your code to log in to/));

  for (let n = 1; n <= 5; n++) {
    await submitCode(screen, wrongCode(code, n), 'Log in');
    expect(await formError(screen), `wrong code #${n}`).toBe('This code does not work. Check it, or ask for a new one.');
  }
  await submitCode(screen, code, 'Log in');
  // The same words as a wrong code: the answer tells nobody whether the address has a live code (issue 26).
  expect(await formError(screen)).toBe('This code does not work. Check it, or ask for a new one.');
  expect(await loggedInEmail(page)).toBeNull();
  expect(await page.count('Service.member.info')).toBe(0);

  // "Send a new code": said when it is sent, and that code works.
  await screen.getByRole('button', { name: 'Send a new code', exact: true }).click();
  await expect.poll(() => screen.getByRole('status').textContent(), { timeout: 5_000 }).toBe('Sent.');
  const fresh = codeIn(await nextMail(member.email, /^Your code to log in to/));
  await submitCode(screen, fresh, 'Log in');
  await expectSignedIn(page, member.email);
});

browserTest('the sign-in link in the code mail signs in another browser (page.goto), once; a second visit says the link was used', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const asking = await suite.open(await suite.newContext(), HOST, PAGE);
  const codeScreen = await askCode(asking, member.email);
  const mail = await nextMail(member.email, /^Your code to log in to/);
  const link = onlyLink(mail);

  const page = await suite.open(await suite.newContext(), HOST, HOME);
  await follow(page, link);
  await expectSignedIn(page, member.email);
  // Signed in, the dialog closes by itself.
  await expect.poll(() => page.page.evaluate(() => document.querySelectorAll('[data-svc-modal]').length), { timeout: 5_000 }).toBe(0);
  expect(new URL(page.page.url()).searchParams.has('svcopen')).toBe(false);

  const again = await suite.open(await suite.newContext(), HOST, HOME);
  await follow(again, link);
  const problem = await shown(again, 'Something went wrong');
  expect(await problem.getByRole('alert').textContent()).toBe('This link was used already. Ask for a new one.');
  expect(await problem.getByRole('button', { name: 'Log in', exact: true }).count()).toBe(1);
  expect(await loggedInEmail(again)).toBeNull();
  await expectNoAxeViolations(again.page, 'a used sign-in link');

  // The code and the link are one token: the code of that mail is spent too.
  await submitCode(codeScreen, codeIn(mail), 'Log in');
  expect(await formError(codeScreen)).toBe('This code does not work. Check it, or ask for a new one.');
  expect(await loggedInEmail(asking)).toBeNull();
});

/** Signs up in the modal of a fresh browser; answers the page and the dialog shown after it. */
async function registerInDialog(email: string, password: string): Promise<{ page: WidgetPage; dialog: Locator }> {
  const page = await suite.open(await suite.newContext(), HOST, PAGE);
  await openScreen(page, '/member/sign_up');
  const form = await shown(page, 'Create an account');
  await form.getByLabel('First name').fill('Katherine');
  await form.getByLabel('Last name').fill('Johnson');
  await form.getByLabel('E-mail').fill(email);
  if (password) await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Create account', exact: true }).click();
  return { page, dialog: await shown(page, 'Check your inbox') };
}

browserTest('a sign-up with the password left empty: "Check your inbox", the welcome mail’s code signs in; the account has no password to log in with', async () => {
  const email = uniqueEmail('passwordless');
  const { page, dialog } = await registerInDialog(email, '');
  expect(await dialog.textContent()).toContain(`Confirm your e-mail: we sent a 6-digit code to ${email}.`);
  expect(await loggedInEmail(page)).toBeNull();
  const welcome = await nextMail(email, /^Welcome to/);
  await submitCode(dialog, codeIn(welcome), 'Log in');
  await expectSignedIn(page, email);
  await page.waitForEvent('Service.member.registration');
  expect(await tryPassword(email, 'any password at all')).toBe('invalidCredentials');
});

browserTest('a site that wants addresses confirmed first: sign-up → "Check your inbox" → the code from the welcome mail signs in; the same address again shows the same screen and mails the owner instead', async () => {
  await suite.service.withStore((store, site) => store.updateSite(site.id, { mail: { requireConfirmedEmail: true } }));
  try {
    const email = uniqueEmail('confirm-first');
    const first = await registerInDialog(email, 'katherine-first-pw');
    const firstText = await first.dialog.textContent();
    expect(firstText).toContain(`Confirm your e-mail: we sent a 6-digit code to ${email}.`);
    await codeFieldOf(first.dialog);
    // Nobody is signed in until the code comes back.
    expect(await loggedInEmail(first.page)).toBeNull();
    expect(await first.page.count('Service.member.registration')).toBe(0);
    await expectNoAxeViolations(first.page.page, 'check your inbox after signing up (confirm first)');

    const welcome = await nextMail(email, /^Welcome to/);
    expectSiteMail(welcome);
    const link = new URL(onlyLink(welcome));
    expect(link.searchParams.get('svcopen')).toMatch(/^\/member\/sign_in\/[\w-]{20,}$/);
    await submitCode(first.dialog, codeIn(welcome), 'Log in');
    await expectSignedIn(first.page, email);
    // The registration ends with the code.
    await first.page.waitForEvent('Service.member.registration');

    // Someone signs up with the same address: the very same screen, and they are not signed in.
    const second = await registerInDialog(email, 'a-strangers-password');
    expect(await second.dialog.textContent()).toBe(firstText);
    expect(await second.dialog.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).name))).toEqual(['code']);
    const owners = await nextMail(email, /^You already have an account on/);
    expectSiteMail(owners);
    expect(await loggedInEmail(second.page)).toBeNull();
    expect(await second.page.count('Service.member.registration')).toBe(0);
    // The store's word for it: a welcome mail, then accountExists, to the one address.
    const kinds = (await storedMails()).filter((m) => m.to === email).map((m) => m.kind);
    expect(kinds).toEqual(['welcome', 'accountExists']);
    // The stranger's password opens nothing.
    expect(await tryPassword(email, 'a-strangers-password')).toBe('invalidCredentials');
  } finally {
    await suite.service.withStore((store, site) => store.updateSite(site.id, { mail: null }));
  }
});

/** Logs `member` in on a fresh page, then asks to move the account to `to`: answers the code screen. */
async function askEmailChange(member: { email: string; password: string }, to: string, checkA11y = false): Promise<{ page: WidgetPage; dialog: Locator }> {
  const page = await suite.open(await suite.newContext(), HOST, PAGE);
  await page.page.evaluate((credentials) => window.Service.login(credentials), { email: member.email, password: member.password });
  await expectSignedIn(page, member.email);
  await openScreen(page, '/member/account/email_change');
  const form = await shown(page, 'Change e-mail');
  await form.getByLabel('New e-mail').fill(to);
  await form.getByLabel('Current password').fill(member.password);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = await shown(page, 'Check your inbox');
  expect(await dialog.textContent()).toContain(`Confirm your e-mail: we sent a 6-digit code to ${to}.`);
  await codeFieldOf(dialog);
  if (checkA11y) await expectNoAxeViolations(page.page, 'the e-mail change code screen');
  return { page, dialog };
}

browserTest('e-mail change: the code mailed to the new address moves the account, and the old address is told', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const to = uniqueEmail('moved');
  const { page, dialog } = await askEmailChange(member, to, true);

  const mail = await nextMail(to, /^Confirm your new e-mail address for/);
  expectSiteMail(mail);
  const link = new URL(onlyLink(mail));
  expect(link.origin + link.pathname).toBe(`${suite.origin(HOST)}/${HOME}`);
  expect(link.searchParams.get('svcopen')).toMatch(/^\/member\/account\/email_confirm\/[\w-]{20,}$/);
  // Nothing has changed yet.
  expect(await loggedInEmail(page)).toBe(member.email);

  await submitCode(dialog, codeIn(mail), 'Save');
  const account = await shown(page, 'Your account');
  await expect.poll(() => account.textContent(), { timeout: 5_000 }).toContain(to);
  expect(await account.textContent()).toContain('Saved.');
  expect(await loggedInEmail(page)).toBe(to);

  const notice = await nextMail(member.email, /^Your e-mail address on .* has changed/);
  expectSiteMail(notice);
  expect(notice.text).toContain(to);
  expect(linksIn(notice.text ?? '')).toEqual([]);

  // The link of the mail whose code was used: refused, in words.
  const other = await suite.open(await suite.newContext(), HOST, HOME);
  await follow(other, link.href);
  const problem = await shown(other, 'Something went wrong');
  expect(await problem.getByRole('alert').textContent()).toBe('This link was used already. Ask for a new one.');
  await expectNoAxeViolations(other.page, 'a used e-mail confirmation link');

  // Logging in is by the new address now.
  expect(await tryPassword(member.email, member.password)).toBe('invalidCredentials');
  expect(await tryPassword(to, member.password)).toBe('ok');
});

browserTest('e-mail change confirmed by the mailed link in a browser that is not logged in: "Your e-mail address is now …", with a way to log in', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const to = uniqueEmail('linked');
  await askEmailChange(member, to);
  const link = onlyLink(await nextMail(to, /^Confirm your new e-mail address for/));

  const page = await suite.open(await suite.newContext(), HOST, HOME);
  await follow(page, link);
  const done = await shown(page, 'Change e-mail');
  expect(await done.getByRole('status').textContent()).toBe(`Your e-mail address is now ${to}.`);
  expect(await done.getByRole('button', { name: 'Log in', exact: true }).count()).toBe(1);
  expect(await loggedInEmail(page)).toBeNull();
  await expectNoAxeViolations(page.page, 'an e-mail change confirmed by its link');

  const notice = await nextMail(member.email, /^Your e-mail address on .* has changed/);
  expect(notice.text).toContain(to);
  expect(await tryPassword(to, member.password)).toBe('ok');
});

browserTest('Forgot password? for an address with no account: the same screen as for a member, and no mail goes', async () => {
  const member = await createMember(suite.service.url, suite.origin(HOST));
  const nobody = uniqueEmail('nobody');
  const placeholder = (text: string | null, email: string) => (text ?? '').replaceAll(email, '<address>');

  const forMember = await askResetLink(await suite.open(await suite.newContext(), HOST, PAGE), member.email);
  const forNobody = await askResetLink(await suite.open(await suite.newContext(), HOST, PAGE), nobody);
  expect(placeholder(await forNobody.textContent(), nobody)).toBe(placeholder(await forMember.textContent(), member.email));

  // The member's mail goes (the pipeline works meanwhile)…
  await nextMail(member.email, /^Reset your password/);
  // …and, after this sender's pass and one of serve's, none to the other address, nor any queued for it.
  await sendNow();
  await sleep(MAIL_EVERY_MS + 500);
  await sendNow();
  expect(delivered.filter((d) => d.rcpt.includes(nobody.toLowerCase())).map((d) => d.mail.subject)).toEqual([]);
  expect((await storedMails()).filter((m) => m.to === nobody)).toEqual([]);
});
