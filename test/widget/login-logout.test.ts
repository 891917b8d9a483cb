// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** login, register and logout through `window.Service`, and the events each one sends (spec 6.1). */
import { waitFor } from '@testing-library/dom';
import { expect, test, vi } from 'vitest';
import type { SiteConfig } from '../../src/contract/member';
import type { Harness } from './support';
import { ADA, GRACE, harness, joinCommunity, MALLORY, recordEvents, settle } from './support';

async function ready(): Promise<Harness> {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  return h;
}

test('login resolves with the member and sends member.info, without reloading the page', async () => {
  const h = await ready();
  const events = recordEvents();
  const href = location.href;
  const member = await h.service.login(ADA);
  expect(member).toMatchObject({ email: ADA.email, firstName: 'Ada', name: 'Ada Lovelace' });
  expect(events.names()).toEqual(['Service.member.info']);
  expect(events[0]!.detail).toEqual({ memberInfo: member });
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });
  expect(location.href).toBe(href);
  // The stored token is a live session of this member.
  expect((await h.me(localStorage.getItem('svc:demo:token')!)).member).toEqual(member);
});

test('getMemberInfo and event details are copies: a page changing them changes nothing inside', async () => {
  const h = await ready();
  let fromEvent: { memberInfo: { firstName: string } } | undefined;
  document.addEventListener('Service.member.info', (event) => {
    fromEvent = event.detail;
    event.detail.memberInfo.firstName = 'Changed by a listener';
  }, { once: true });
  await h.service.login(ADA);
  expect(fromEvent).toBeDefined();
  const first = h.service.getMemberInfo();
  if (!first.isLoggedIn) throw new Error('expected a member');
  expect(first.memberInfo.firstName).toBe('Ada');
  first.memberInfo.firstName = 'Mallory';
  first.memberInfo.memberships.length = 0;
  const second = h.service.getMemberInfo();
  expect(second).toMatchObject({ isLoggedIn: true, memberInfo: { firstName: 'Ada' } });
  if (second.isLoggedIn) expect(second.memberInfo.memberships).toHaveLength(2);
});

test('logging in over another login signs the earlier session out on the service', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const first = localStorage.getItem('svc:demo:token')!;
  const events = recordEvents();
  const grace = await h.service.login(GRACE);
  expect(grace.email).toBe(GRACE.email);
  expect(events.names()).toEqual(['Service.member.info']);
  const second = localStorage.getItem('svc:demo:token')!;
  expect(second).not.toBe(first);
  await waitFor(async () => expect((await h.me(first)).status).toBe(401));
  expect((await h.me(second)).member).toEqual(grace);
});

test('wrong credentials reject with invalidCredentials, send nothing and keep the page logged out', async () => {
  const h = await ready();
  const events = recordEvents();
  const error = await h.service.login({ email: ADA.email, password: 'not the password' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ code: 'invalidCredentials', path: 'base' });
  expect(events.names()).toEqual([]);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('a blocked member’s login rejects with memberBlocked', async () => {
  const h = await ready();
  await expect(h.service.login(MALLORY)).rejects.toMatchObject({ code: 'memberBlocked' });
});

test('a bad login body rejects with the field error the service gives', async () => {
  const h = await ready();
  await expect(h.service.login({ email: 'not an address', password: 'x' })).rejects.toMatchObject({
    code: 'invalidField',
    path: 'email',
  });
});

/** Values for the demo site's required custom sign-up fields, keyed by field id. */
async function requiredFields(h: Harness) {
  const config = (await (await fetch(`${h.base}/config`)).json()) as SiteConfig;
  const field = (label: string) => config.signupFields.find((f) => f.label === label)!.id;
  return { role: field('Role'), values: { [field('Role')]: 'designer', [field('I accept the terms')]: true } };
}

test('register sends member.registration, then member.info, with the new member', async () => {
  const h = await ready();
  const { values } = await requiredFields(h);
  const events = recordEvents();
  const member = await h.service.register({
    email: 'new.member@demo.localhost',
    password: 'long enough password',
    firstName: 'New',
    lastName: 'Member',
    customFields: values,
  });
  expect(member).toMatchObject({ email: 'new.member@demo.localhost', name: 'New Member', memberships: [] });
  expect(events.names()).toEqual(['Service.member.registration', 'Service.member.info']);
  expect(events[0]!.detail).toEqual({ memberInfo: member });
  expect(events[1]!.detail).toEqual({ memberInfo: member });
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: member });
});

test('register with a taken e-mail rejects with emailTaken on path email, and sends nothing', async () => {
  const h = await ready();
  const { values } = await requiredFields(h);
  const events = recordEvents();
  await expect(
    h.service.register({ email: ADA.email, password: 'long enough password', customFields: values }),
  ).rejects.toMatchObject({ code: 'emailTaken', path: 'email' });
  expect(events.names()).toEqual([]);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('register without a required custom field rejects with invalidField naming the field', async () => {
  const h = await ready();
  const { role } = await requiredFields(h);
  await expect(
    h.service.register({ email: 'someone@demo.localhost', password: 'long enough password' }),
  ).rejects.toMatchObject({ code: 'invalidField', path: `customFields.${role}` });
});

test('logout sends member.logout, signs out on the service and forgets the login', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const token = localStorage.getItem('svc:demo:token')!;
  const events = recordEvents();
  await expect(h.service.logout()).resolves.toBeUndefined();
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(events[0]!.detail).toBeNull();
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
  expect(localStorage.getItem('svc:demo:token')).toBeNull();
  expect((await h.me(token)).status).toBe(401);
  // Logged out, nothing more happens: no info on focus, no second logout.
  window.dispatchEvent(new Event('focus'));
  await h.service.logout();
  await settle();
  expect(events.names()).toEqual(['Service.member.logout']);
});

test('logout works when the service cannot be reached', async () => {
  const h = await ready();
  await h.service.login(ADA);
  h.failNetwork('sessions/current');
  const events = recordEvents();
  await h.service.logout();
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('logging in as someone else replaces the member', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const events = recordEvents();
  const grace = await h.service.login(GRACE);
  expect(events.of('Service.member.info')).toEqual([{ memberInfo: grace }]);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: grace });
});

test('a session revoked on the service is noticed on the next check: member.logout', async () => {
  const h = await ready();
  await h.service.login(ADA);
  await h.revoke(localStorage.getItem('svc:demo:token')!);
  const events = recordEvents();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 31_000);
  document.dispatchEvent(new Event('visibilitychange'));
  await waitFor(() => expect(events.names()).toEqual(['Service.member.logout']));
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('coming back to the page after 30 s checks the member; member.info only when something changed', async () => {
  const h = await ready();
  await h.service.login(GRACE);
  const events = recordEvents();
  vi.useFakeTimers({ toFake: ['Date'] });

  // Too soon: no request.
  vi.setSystemTime(Date.now() + 20_000);
  window.dispatchEvent(new Event('focus'));
  await settle();
  expect(h.requests('GET', '/me')).toBe(0);

  // Later, nothing changed: one request, no event.
  vi.setSystemTime(Date.now() + 11_000);
  window.dispatchEvent(new Event('focus'));
  await waitFor(() => expect(h.requests('GET', '/me')).toBe(1));
  await settle();
  expect(events.names()).toEqual([]);

  // Later still, the member joined a plan elsewhere: member.info with the change.
  await joinCommunity(h.mock, 'grace');
  vi.setSystemTime(Date.now() + 31_000);
  document.dispatchEvent(new Event('visibilitychange'));
  await waitFor(() => expect(events.names()).toEqual(['Service.member.info']));
  expect(events[0]!.detail).toMatchObject({ memberInfo: { email: GRACE.email, memberships: [{ name: 'Community' }] } });
});

test('a hidden page does not check the member', async () => {
  const h = await ready();
  await h.service.login(GRACE);
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
  document.dispatchEvent(new Event('visibilitychange'));
  await settle();
  expect(h.requests('GET', '/me')).toBe(0);
});
