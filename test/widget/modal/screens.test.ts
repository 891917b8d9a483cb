// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * The svcopen router's first screens (spec 4.1, the svcopen table; DESIGN.md "Widget modal"):
 * log in, register, account and sign-out, with the real service in MSW. The modal bundle is not
 * downloaded here: its entry is put on window, as the download would leave it (support.ts).
 */
import { waitFor } from '@testing-library/dom';
import { http } from 'msw';
import { expect, test, vi } from 'vitest';
import type { MemberInfo } from '../../../src/contract/member';
import { imported } from '../modal-import-stand-in';
import { ADA, GRACE, harness, recordEvents, settle } from '../support';

vi.mock('../../../src/widget/modal-import', () => import('../modal-import-stand-in'));
import {
  choose,
  expectAllLabelled,
  fieldError,
  fill,
  hosts,
  installModalEntry,
  plain,
  silenceWarnings,
  startAt,
  svcopen,
  waitForScreen,
} from './support';

/** The demo site's custom fields by fixture key (ids as the store gave them). */
const fieldName = (h: Awaited<ReturnType<typeof svcopen>>, key: 'company' | 'bio' | 'role' | 'topics' | 'terms') =>
  `customFields.${h.mock.sites[0]!.fieldIds[key]}`;

let emails = 0;
const newEmail = () => `modal-${Date.now().toString(36)}-${++emails}@example.com`;

// ---------------------------------------------------------------------------------------------
// /member/sign_in

test('sign_in, logged out: the login screen, with e-mail and password fields and a link to register', async () => {
  const h = await svcopen('/member/sign_in');
  const m = await waitForScreen('Log in');
  const email = m.q.getByLabelText('E-mail') as HTMLInputElement;
  const password = m.q.getByLabelText('Password') as HTMLInputElement;
  expect([email.tagName, email.name, email.type]).toEqual(['INPUT', 'email', 'email']);
  expect([password.tagName, password.name, password.type]).toEqual(['INPUT', 'password', 'password']);
  const submit = m.button('Log in');
  expect(submit.type).toBe('submit');
  expect(submit.form).toBe(m.form());
  expect(m.root.querySelectorAll('input, select, textarea')).toHaveLength(2);
  // Focus is in the dialog, on its first field.
  expect(m.root.activeElement).toBe(email);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });

  const toRegister = m.button('Create an account');
  expect(toRegister.type).toBe('button');
  toRegister.click();
  const r = await waitForScreen('Create an account');
  expect(hosts()).toHaveLength(1); // the same dialog, another screen
  expect(r.host).toBe(m.host);
  expect(r.control('firstName').tagName).toBe('INPUT');
  expect(r.control('customFields.' + h.mock.sites[0]!.fieldIds.role).tagName).toBe('SELECT');
});

test('sign_in, logged out: logging in through the form sends member.info and closes the dialog', async () => {
  const h = await svcopen('/member/sign_in');
  const events = recordEvents();
  const m = await waitForScreen('Log in');
  fill(m.control('email'), ADA.email);
  fill(m.control('password'), ADA.password);
  m.form().requestSubmit();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.names()).toEqual(['Service.member.info']);
  expect((events[0]!.detail as { memberInfo: MemberInfo }).memberInfo.email).toBe(ADA.email);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email: ADA.email } });
  expect(h.requests('POST', '/sessions')).toBe(1);
});

test('sign_in, logged in, on a site without a member menu: the account screen, with the name and e-mail as text and a Log out button', async () => {
  await startAt(`/?svcopen=${encodeURIComponent('/member/sign_in')}`, { member: ADA, beforeStart: plain });
  const m = await waitForScreen('Your account');
  // No field to fill in but the picture's file (decision 0039): name and e-mail are text.
  expect([...m.root.querySelectorAll('input, select, textarea')].map((control) => control.getAttribute('name'))).toEqual(['profileImage']);
  const body = m.dialog.textContent!;
  expect(body).toContain('Ada Lovelace');
  expect(body).toContain(ADA.email);
  // As a header of their own, not inside a control: initials (hidden from assistive technology), name, e-mail.
  const who = m.root.querySelector('.who')!;
  expect(who.querySelector('.avatar')!.getAttribute('aria-hidden')).toBe('true');
  expect(who.querySelector('.avatar')!.textContent).toBe('AL');
  expect(who.querySelector('strong')!.textContent).toBe('Ada Lovelace');
  expect(who.querySelector('.muted')!.textContent!.trim()).toBe(ADA.email);
  expect(m.button('Log out').type).toBe('button');
});

test('the account screen’s Log out button logs out (member.logout, the session revoked) and closes the dialog', async () => {
  const h = await svcopen('/member/account', ADA);
  const token = localStorage.getItem('svc:demo:token')!;
  const events = recordEvents();
  const m = await waitForScreen('Your account');
  m.button('Log out').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  expect((await h.me(token)).status).toBe(401);
});

// ---------------------------------------------------------------------------------------------
// /member/sign_up

test('sign_up, logged out: the register screen with names, e-mail, password and all five kinds of custom field', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  // The API's field names, in order (a multiple choice's group carries its name, its boxes none).
  const names = [...m.form().querySelectorAll('input, select, textarea, fieldset')].filter((c) => c.tagName === 'FIELDSET' || !c.closest('fieldset')).map((c) => c.getAttribute('name'));
  expect(names).toEqual([
    'firstName',
    'lastName',
    'email',
    'password',
    fieldName(h, 'company'),
    fieldName(h, 'bio'),
    fieldName(h, 'role'),
    fieldName(h, 'topics'),
    fieldName(h, 'terms'),
  ]);
  expect((m.q.getByLabelText('First name') as HTMLInputElement).name).toBe('firstName');
  expect((m.q.getByLabelText('Last name') as HTMLInputElement).name).toBe('lastName');
  expect((m.q.getByLabelText('E-mail') as HTMLInputElement).type).toBe('email');
  expect((m.q.getByLabelText('Password') as HTMLInputElement).type).toBe('password');

  const company = m.q.getByLabelText('Company') as HTMLInputElement;
  expect([company.tagName, company.type, company.name]).toEqual(['INPUT', 'text', fieldName(h, 'company')]);
  const bio = m.q.getByLabelText('About you');
  expect([bio.tagName, bio.getAttribute('name')]).toEqual(['TEXTAREA', fieldName(h, 'bio')]);
  const role = m.q.getByLabelText('Role (required)') as HTMLSelectElement;
  expect([role.tagName, role.name, role.multiple]).toEqual(['SELECT', fieldName(h, 'role'), false]);
  expect([...role.options].map((o) => o.value)).toEqual(['', 'developer', 'designer', 'other']);
  expect(role.value).toBe(''); // nothing chosen for the member
  expect([...role.options].slice(1).map((o) => o.textContent)).toEqual(['Developer', 'Designer', 'Other']);
  // A multiple choice is a group of checkboxes named by its legend (no Ctrl-click list box).
  const topics = m.q.getByRole('group', { name: 'Topics' });
  expect([topics.tagName, topics.getAttribute('name')]).toEqual(['FIELDSET', fieldName(h, 'topics')]);
  expect([...topics.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].map((o) => o.value)).toEqual(['widgets', 'apis', 'billing']);
  expect((m.q.getByLabelText('APIs') as HTMLInputElement).checked).toBe(false);
  const terms = m.q.getByLabelText('I accept the terms (required)') as HTMLInputElement;
  expect([terms.tagName, terms.type, terms.name, terms.checked]).toEqual(['INPUT', 'checkbox', fieldName(h, 'terms'), false]);
  // Only the required ones say so.
  const labels = [...m.root.querySelectorAll('label')].map((l) => l.textContent);
  expect(labels.filter((l) => l!.includes('(required)'))).toEqual(['Role (required)', 'I accept the terms (required)']);
  expect(m.button('Create account').type).toBe('submit');
  // And back to logging in.
  m.button('Log in').click();
  await waitForScreen('Log in');
});

test('sign_up on a site whose after-registration action is to stay: registers the member with every field (registration, then member.info) and closes', async () => {
  const h = await startAt(`/?svcopen=${encodeURIComponent('/member/sign_up')}`, { beforeStart: plain });
  const events = recordEvents();
  const m = await waitForScreen('Create an account');
  const email = newEmail();
  fill(m.control('firstName'), 'Katherine');
  fill(m.control('lastName'), 'Johnson');
  fill(m.control('email'), email);
  fill(m.control('password'), 'orbital-mechanics');
  fill(m.control(fieldName(h, 'company')), 'NASA');
  fill(m.control<HTMLTextAreaElement>(fieldName(h, 'bio')), 'Computes trajectories.\nBy hand.');
  choose(m.control<HTMLSelectElement>(fieldName(h, 'role')), 'other');
  for (const value of ['apis', 'billing']) m.control(fieldName(h, 'topics')).querySelector<HTMLInputElement>(`[value=${value}]`)!.click();
  m.control(fieldName(h, 'terms')).click();
  m.button('Create account').click();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.names()).toEqual(['Service.member.registration', 'Service.member.info']);
  const member = (events[1]!.detail as { memberInfo: MemberInfo }).memberInfo;
  expect(member).toMatchObject({ email, firstName: 'Katherine', lastName: 'Johnson', name: 'Katherine Johnson' });
  const byId = Object.fromEntries(member.customSignupFields.map((f) => [f.id, f.value]));
  const ids = h.mock.sites[0]!.fieldIds;
  expect(byId).toEqual({
    [ids.company!]: 'NASA',
    [ids.bio!]: 'Computes trajectories.\nBy hand.',
    [ids.role!]: 'other',
    [ids.topics!]: ['apis', 'billing'],
    [ids.terms!]: true,
  });
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true, memberInfo: { email } });
});

test('sign_up, logged in, on a site without a member menu: the account screen', async () => {
  await startAt(`/?svcopen=${encodeURIComponent('/member/sign_up')}`, { member: GRACE, beforeStart: plain });
  const m = await waitForScreen('Your account');
  expect(m.dialog.textContent).toContain('Grace Hopper');
  expect(m.dialog.textContent).toContain(GRACE.email);
});

// ---------------------------------------------------------------------------------------------
// /member/account

test('account, logged in: the account screen', async () => {
  await svcopen('/member/account', ADA);
  const m = await waitForScreen('Your account');
  expect(m.button('Log out')).toBeDefined();
  expect(m.dialog.textContent).toContain(ADA.email);
});

test('account, logged out: log in first, then the account screen in the same dialog', async () => {
  const h = await svcopen('/member/account');
  const m = await waitForScreen('Log in');
  fill(m.control('email'), GRACE.email);
  fill(m.control('password'), GRACE.password);
  m.button('Log in').click();
  const a = await waitForScreen('Your account');
  expect(a.host).toBe(m.host);
  expect(a.root.querySelector('.who')!.textContent).toBe(`GHGrace Hopper ${GRACE.email}`);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true });
});

// ---------------------------------------------------------------------------------------------
// /member/sign_out

test('sign_out, logged in: logs the member out on the service, without downloading the modal', async () => {
  const warn = silenceWarnings();
  const h = await startAt('/?svcopen=/member/sign_out', { member: ADA, entry: false });
  const token = localStorage.getItem('svc:demo:token');
  expect(token).not.toBeNull();
  await waitFor(() => expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false }));
  await waitFor(async () => expect((await h.me(token!)).status).toBe(401));
  expect(h.requests('DELETE', '/sessions/current')).toBe(1);
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
  await settle();
  expect(imported).toEqual([]);
  expect(hosts()).toHaveLength(0);
  expect(warn).not.toHaveBeenCalled();
  expect(location.search).toBe('');
});

test('sign_out sends member.logout after the start-up events', async () => {
  const h = await startAt('/', { member: ADA, entry: false }); // logged in now
  const events = recordEvents();
  history.replaceState(null, '', '/?svcopen=/member/sign_out');
  h.start(); // a page load with svcopen
  await waitFor(() => expect(events.names()).toContain('Service.member.logout'));
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.info', 'Service.member.logout']);
});

test('sign_out, logged out: nothing happens (no request, no event beyond start-up, no modal)', async () => {
  const warn = silenceWarnings();
  const events = recordEvents();
  const h = await startAt('/?svcopen=/member/sign_out', { entry: false });
  await settle();
  await settle();
  expect(events.names()).toEqual(['Service.ready', 'Service.member.logout']); // what any logged-out start sends
  expect(h.requests('DELETE', '/sessions/current')).toBe(0);
  expect(imported).toEqual([]);
  expect(hosts()).toHaveLength(0);
  expect(warn).not.toHaveBeenCalled();
  expect(location.search).toBe('');
});

// ---------------------------------------------------------------------------------------------
// Paths that are no route

test.each(['/member/nowhere', '/member/sign_in/extra', '/content/a b', '/content/42/print', 'member/sign_in', ''])(
  '%j names no route: one warning that it names no screen; nothing opens',
  async (path) => {
    const warn = silenceWarnings();
    await startAt(`/shop/?a=1&svcopen=${encodeURIComponent(path)}#top`);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    await settle();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] /);
    expect(String(warn.mock.calls[0]![0])).toContain('names no screen');
    expect(hosts()).toHaveLength(0);
    expect(location.pathname + location.search + location.hash).toBe('/shop/?a=1#top');
  },
);

test('svcopen leaves the address once the screen opens: other parameters and the hash stay', async () => {
  await startAt('/course/?utm=x&svcopen=%2Fmember%2Fsign_in&page=2#lesson-3');
  await waitForScreen('Log in');
  expect(location.pathname + location.search + location.hash).toBe('/course/?utm=x&page=2#lesson-3');
});

test('svcopen leaves every other parameter exactly as written: no re-encoding, a bare flag stays bare', async () => {
  // Only svcopen is the widget's; the rest of the address belongs to the site, as it wrote it.
  await startAt('/search/?q=a%20b&next=/pricing&flag&svcopen=%2Fmember%2Fsign_in#top');
  await waitForScreen('Log in');
  expect(location.pathname + location.search + location.hash).toBe('/search/?q=a%20b&next=/pricing&flag#top');
});

test('a trailing slash is allowed: /member/sign_in/ opens the login screen', async () => {
  await svcopen('/member/sign_in/');
  await waitForScreen('Log in');
});

test('a trailing slash on sign_out logs out too', async () => {
  const h = await startAt('/?svcopen=/member/sign_out/', { member: GRACE, entry: false });
  await waitFor(() => expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false }));
  expect(imported).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// Errors next to the form, in words

test('a wrong password: the form’s alert line says so, nothing is sent, the dialog stays open', async () => {
  const h = await svcopen('/member/sign_in');
  const events = recordEvents();
  const m = await waitForScreen('Log in');
  fill(m.control('email'), ADA.email);
  fill(m.control('password'), 'not the password');
  m.form().requestSubmit();
  await waitFor(() => expect(m.alert()).toBe('The e-mail or the password is wrong.'));
  expect(m.button('Log in').disabled).toBe(false);
  expect(events.names()).toEqual([]);
  expect(hosts()).toHaveLength(1);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  // The next try clears the message and, with the right password, goes through.
  fill(m.control('password'), ADA.password);
  m.form().requestSubmit();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  expect(events.names()).toEqual(['Service.member.info']);
});

test('the submit button is disabled while the request runs, and a second submit sends nothing', async () => {
  const h = await svcopen('/member/sign_in');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Holds the request, then lets the service answer it (a handler answering nothing falls through).
  h.mock.server.use(http.post(`${h.base}/sessions`, async () => void (await gate)));
  const m = await waitForScreen('Log in');
  fill(m.control('email'), ADA.email);
  fill(m.control('password'), 'not the password');
  const submit = m.button('Log in');
  m.form().requestSubmit();
  expect(submit.disabled).toBe(true);
  await settle();
  expect(submit.disabled).toBe(true);
  m.form().requestSubmit();
  release();
  await waitFor(() => expect(m.alert()).toBe('The e-mail or the password is wrong.'));
  expect(submit.disabled).toBe(false);
  expect(h.requests('POST', '/sessions')).toBe(1);
});

test('sign-up with a taken e-mail: the emailTaken message in the form’s alert line', async () => {
  const h = await svcopen('/member/sign_up');
  const events = recordEvents();
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), ADA.email);
  fill(m.control('password'), 'long enough password');
  choose(m.control<HTMLSelectElement>(fieldName(h, 'role')), 'developer');
  m.control(fieldName(h, 'terms')).click();
  m.form().requestSubmit();
  await waitFor(() => expect(m.alert()).toBe('There is an account with this e-mail already. Log in instead.'));
  expect(events.names()).toEqual([]);
  expect(hosts()).toHaveLength(1);
  expect(m.button('Create account').disabled).toBe(false);
});

test('a missing required custom field: the service’s words in that field’s slot, aria-invalid, focus on it', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'long enough password');
  m.control(fieldName(h, 'terms')).click();
  m.form().requestSubmit();
  const role = m.control<HTMLSelectElement>(fieldName(h, 'role'));
  await waitFor(() => expect(fieldError(m.root, role)).toBe('Role is required'));
  expect(role.getAttribute('aria-invalid')).toBe('true');
  expect(m.root.activeElement).toBe(role);
  expect(m.alert()).toBe('');
  for (const other of m.root.querySelectorAll('input, select, textarea')) {
    if (other !== role) expect(other.hasAttribute('aria-invalid'), other.getAttribute('name')!).toBe(false);
  }
  expect(hosts()).toHaveLength(1);
});

test('a short password: the message next to the password field; fixing it and the next error moves there', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  const password = m.control('password');
  const role = m.control<HTMLSelectElement>(fieldName(h, 'role'));
  fill(m.control('email'), newEmail());
  fill(password, 'short');
  choose(role, 'designer');
  m.control(fieldName(h, 'terms')).click();
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, password)).toBe('A password has at least 8 characters'));
  expect(password.getAttribute('aria-invalid')).toBe('true');
  expect(role.hasAttribute('aria-invalid')).toBe(false);

  // Now the password is fine but the role is missing: the old error goes, the new one shows.
  fill(password, 'long enough password');
  choose(role, '');
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, role)).toBe('Role is required'));
  expect(role.getAttribute('aria-invalid')).toBe('true');
  expect(password.hasAttribute('aria-invalid')).toBe(false);
  expect(fieldError(m.root, password)).toBe('');
});

test('several bad fields at once: each shows its own message, and focus goes to the first of them', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  const password = m.control('password');
  const role = m.control<HTMLSelectElement>(fieldName(h, 'role'));
  const terms = m.control(fieldName(h, 'terms'));
  fill(m.control('email'), newEmail());
  fill(password, 'short');
  m.form().requestSubmit();
  await waitFor(() => expect(fieldError(m.root, password)).toBe('A password has at least 8 characters'));
  expect(fieldError(m.root, role)).toBe('Role is required');
  expect(fieldError(m.root, terms)).toBe('I accept the terms must be ticked');
  expect([password, role, terms].map((c) => c.getAttribute('aria-invalid'))).toEqual(['true', 'true', 'true']);
  expect(m.root.activeElement).toBe(password);
});

test('an unticked required checkbox: its slot says it must be ticked', async () => {
  const h = await svcopen('/member/sign_up');
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'long enough password');
  choose(m.control<HTMLSelectElement>(fieldName(h, 'role')), 'developer');
  m.form().requestSubmit();
  const terms = m.control(fieldName(h, 'terms'));
  await waitFor(() => expect(fieldError(m.root, terms)).toBe('I accept the terms must be ticked'));
  expect(terms.getAttribute('aria-invalid')).toBe('true');
});

// ---------------------------------------------------------------------------------------------
// Locale

test('the demo site (locale en) reads English', async () => {
  await svcopen('/member/sign_in');
  const m = await waitForScreen('Log in');
  expect(m.button('Close')).toBeDefined();
  expect(m.q.getByLabelText('E-mail')).toBeDefined();
});

test('the site other (locale de) reads German: Anmelden, Schließen', async () => {
  const happyDOM = (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM;
  happyDOM.setURL('https://www.other.example/');
  try {
    const h = await harness();
    installModalEntry();
    history.replaceState(null, '', '/?svcopen=/member/sign_in');
    h.start({ subdomain: 'other' });
    await waitFor(() => expect(h.service.ready).toBe(true));
    const m = await waitForScreen('Anmelden');
    expect(m.button('Schließen')).toBeDefined();
    expect(m.button('Anmelden').type).toBe('submit');
    expect((m.q.getByLabelText('E-Mail') as HTMLInputElement).name).toBe('email');
    expect((m.q.getByLabelText('Passwort') as HTMLInputElement).name).toBe('password');
    expect(m.button('Konto erstellen').type).toBe('button');
    // Wrong password, in German.
    fill(m.control('email'), 'otto@other.example');
    fill(m.control('password'), 'falsch-falsch');
    m.form().requestSubmit();
    await waitFor(() => expect(m.alert()).toBe('E-Mail oder Passwort ist falsch.'));
    m.button('Schließen').click();
    expect(hosts()).toHaveLength(0);
  } finally {
    happyDOM.setURL('https://www.demo.localhost/');
  }
});

// ---------------------------------------------------------------------------------------------
// The dialog's conventions, on every screen

test.each([
  { path: '/member/sign_in', member: undefined, title: 'Log in', first: 'email' },
  { path: '/member/sign_up', member: undefined, title: 'Create an account', first: 'firstName' },
  { path: '/member/account', member: ADA, title: 'Your account', first: 'Your memberships' },
])('$title: one host with an open shadow root, a labelled modal dialog, labelled fields; Close closes and focus returns', async ({ path, member, title, first }) => {
  let pageButton!: HTMLElement;
  await startAt(`/?svcopen=${encodeURIComponent(path)}`, {
    ...(member && { member }),
    beforeStart() {
      document.body.insertAdjacentHTML('beforeend', '<button id="page-button">Page</button>');
      pageButton = document.getElementById('page-button')!;
      pageButton.focus();
    },
  });
  const m = await waitForScreen(title);
  expect(hosts()).toHaveLength(1);
  expect(m.host.shadowRoot).toBe(m.root);
  expect(m.dialog.tagName).toBe('DIALOG');
  expect(m.dialog.open).toBe(true);
  expect(m.dialog.getAttribute('role')).toBe('dialog');
  expect(m.dialog.getAttribute('aria-modal')).toBe('true');
  const heading = m.root.getElementById(m.dialog.getAttribute('aria-labelledby')!)!;
  expect(heading.textContent).toBe(title);
  expect(m.q.getByRole('dialog', { name: title })).toBe(m.dialog);
  expectAllLabelled(m.root);
  // Every action is a button with visible text.
  for (const button of m.root.querySelectorAll('button')) expect(button.textContent!.trim()).not.toBe('');
  // Focus moved into the dialog, to its first control.
  const focused = m.root.activeElement!;
  expect(focused.getAttribute('name') ?? focused.textContent).toBe(first);
  expect(document.activeElement).toBe(m.host);

  m.button('Close').click();
  expect(hosts()).toHaveLength(0);
  expect(document.activeElement).toBe(pageButton);
});

// ---------------------------------------------------------------------------------------------
// Password fields

/** The rule a new password's field says; a sign-up's may be left empty (an account that logs in with mailed codes). */
const RULES = { current: undefined, new: 'At least 8 characters.', optional: 'At least 8 characters, or none: we e-mail you a code to log in.' };

test.each([
  ['/member/sign_in', 'Log in', undefined, [['password', 'current']]],
  ['/member/sign_up', 'Create an account', undefined, [['password', 'optional']]],
  ['/member/account/password_change', 'Change password', ADA, [['password', 'current'], ['newPassword', 'new']]],
  ['/member/account/email_change', 'Change e-mail', ADA, [['password', 'current']]],
] as const)('%s: every password field has a "Show password" toggle, and a new password says its rule before it is broken', async (path, title, member, fields) => {
  await svcopen(path, member);
  const m = await waitForScreen(title);
  for (const [name, kind] of fields) {
    const rule = RULES[kind];
    const control = m.control(name);
    const field = control.closest('.field')!;
    const toggle = [...field.querySelectorAll('button')].find((b) => b.textContent === 'Show password')!;
    expect(toggle.type).toBe('button');
    expect([control.type, toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
    control.value = 'secret words';
    toggle.click();
    expect([control.type, toggle.getAttribute('aria-pressed'), control.value]).toEqual(['text', 'true', 'secret words']);
    toggle.click();
    expect([control.type, toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
    // The rule is there from the start, and read with the field; the error slot stays its own.
    const described = control.getAttribute('aria-describedby')!.split(' ').map((id) => m.root.getElementById(id)!.textContent);
    expect(described).toEqual(rule ? ['', rule] : ['']);
    expect(control.getAttribute('minlength')).toBe(rule ? '8' : null);
    expect(control.required).toBe(kind !== 'optional');
  }
});
