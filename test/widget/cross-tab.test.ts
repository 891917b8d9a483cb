// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * Other tabs of the same site share localStorage; the browser tells this tab with a `storage`
 * event. happy-dom has one tab, so the other tab's writes are made here and the event sent by hand.
 */
import { waitFor } from '@testing-library/dom';
import { expect, test } from 'vitest';
import type { MemberInfo } from '../../src/contract/member';
import { fingerprint } from '../../src/widget/member-cache';
import { ADA, GRACE, harness, joinCommunity, recordEvents, settle } from './support';

const TOKEN_KEY = 'svc:demo:token';
const MEMBER_KEY = 'svc:demo:member';

/** What another tab's widget writes, and the event this tab then gets. */
function otherTab(key: string, value: string | null): void {
  const oldValue = localStorage.getItem(key);
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, oldValue, newValue: value, storageArea: localStorage }));
}

async function ready() {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  return h;
}

test('a login in another tab: member.info here, with the member the other tab cached', async () => {
  const h = await ready();
  const session = await h.signIn(ADA);
  const events = recordEvents();
  otherTab(MEMBER_KEY, JSON.stringify({ f: fingerprint(session.token), m: session.memberInfo }));
  otherTab(TOKEN_KEY, session.token);
  expect(events.names()).toEqual(['Service.member.info']);
  expect(events[0]!.detail).toEqual({ memberInfo: session.memberInfo });
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: true, memberInfo: session.memberInfo });
  await expect(h.service.getMemberMetadata()).resolves.toEqual({ theme: 'dark' });
});

test('a login in another tab whose cache this tab cannot use: asks the service, then member.info', async () => {
  const h = await ready();
  const session = await h.signIn(GRACE);
  const events = recordEvents();
  otherTab(TOKEN_KEY, session.token);
  await waitFor(() => expect(events.names()).toEqual(['Service.member.info']));
  expect(events[0]!.detail).toEqual({ memberInfo: session.memberInfo });
  expect(h.requests('GET', '/me')).toBe(1);
});

test('a logout in another tab: member.logout here', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const events = recordEvents();
  otherTab(MEMBER_KEY, null);
  otherTab(TOKEN_KEY, null);
  expect(events.names()).toEqual(['Service.member.logout']);
  expect(h.service.getMemberInfo()).toEqual({ isLoggedIn: false });
});

test('storage cleared in another tab (localStorage.clear()): member.logout here', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const events = recordEvents();
  localStorage.clear();
  window.dispatchEvent(new StorageEvent('storage', { key: null }));
  expect(events.names()).toEqual(['Service.member.logout']);
});

test('fresher member data found by another tab: member.info here, once', async () => {
  const h = await ready();
  const member = await h.service.login(GRACE);
  const token = localStorage.getItem(TOKEN_KEY)!;
  await joinCommunity(h.mock, 'grace');
  const fresh = (await h.me(token)).member!;
  const events = recordEvents();
  otherTab(MEMBER_KEY, JSON.stringify({ f: fingerprint(token), m: fresh }));
  otherTab(MEMBER_KEY, JSON.stringify({ f: fingerprint(token), m: fresh }));
  expect(events.names()).toEqual(['Service.member.info']);
  expect((events[0]!.detail as { memberInfo: MemberInfo }).memberInfo.memberships).not.toEqual(member.memberships);
});

test('storage events for other keys change nothing', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const events = recordEvents();
  otherTab('svc:other:token', 'svc_session_xyz');
  otherTab('unrelated', null);
  await settle();
  expect(events.names()).toEqual([]);
  expect(h.requests('GET', '/me')).toBe(0);
});

test('this tab’s login reaches other tabs: the token and member are in localStorage', async () => {
  const h = await ready();
  const member = await h.service.login(ADA);
  const token = localStorage.getItem(TOKEN_KEY)!;
  expect(token).toMatch(/^svc_session_/);
  expect(JSON.parse(localStorage.getItem(MEMBER_KEY)!)).toEqual({ f: fingerprint(token), m: member });
});
