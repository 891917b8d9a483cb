// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * Addresses from the data behind the API that the widget must not follow (security audit: "the
 * widget follows unsafe plan URLs"): a plan's welcome and content URLs, the after-registration
 * redirect and content items' addresses, written to the store directly as a compromised or
 * corrupted database would hold them (the service's own validation never sees them). None is
 * followed, linked or played; each says so once in the console with the `[Service]` prefix.
 */
import { waitFor } from '@testing-library/dom';
import type { MockInstance } from 'vitest';
import { expect, test, vi } from 'vitest';
import type { ContentNodeType } from '../../../src/contract/admin';
import type { NewPlan } from '../../../src/service/store/records';
import { GRACE, recordEvents, settle, type Harness } from '../support';
import { catchNavigation } from './plan-support';
import { fill, hosts, siteSettings, startAt, waitForScreen } from './support';

const at = (path: string) => `/?svcopen=${encodeURIComponent(path)}`;
const JS = 'javascript:window.__ran=1';
const OFF_SITE = '/\t/evil.example';
let emails = 0;
const newEmail = () => `unsafe-${Date.now().toString(36)}-${++emails}@example.com`;

/** console.warn caught; the `[Service]` messages only. */
function catchWarnings(): { spy: MockInstance; service: () => string[] } {
  const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  return { spy, service: () => spy.mock.calls.map((call) => String(call[0])).filter((m) => m.startsWith('[Service] ')) };
}

/** A free public plan `unsafe` on the demo site, with the addresses given, straight into the store. */
async function addPlan(h: Harness, urls: { welcomeUrl?: string; contentUrl?: string }): Promise<number> {
  const loaded = h.mock.sites[0]!;
  const plan = await h.mock.store.createPlan({
    siteId: loaded.site.id,
    publicId: 'unsafe',
    name: 'Unsafe',
    status: 'enabled',
    isPublic: true,
    colorCode: '#000000',
    createdAt: Date.now(),
    type: 'free',
    expiration: { mode: 'none' },
    ...urls,
  } as NewPlan);
  return plan.id;
}

/** Grace is on `planId` (active). */
async function joinGrace(h: Harness, planId: number): Promise<void> {
  const loaded = h.mock.sites[0]!;
  await h.mock.store.createMemberships([
    { siteId: loaded.site.id, memberId: loaded.memberIds.grace!, planId, status: 'active', createdAt: Date.now(), paymentFailure: false },
  ]);
}

/** Fills and submits the demo site's register screen. */
async function register(): Promise<void> {
  const m = await waitForScreen('Create an account');
  fill(m.control('email'), newEmail());
  fill(m.control('password'), 'a long enough password');
  const role = m.root.querySelector('select') as HTMLSelectElement;
  role.value = 'developer';
  role.dispatchEvent(new Event('change', { bubbles: true }));
  (m.root.querySelector('input[type=checkbox][required]') as HTMLInputElement).click();
  m.button('Create account').click();
}

test('a plan whose welcomeUrl is javascript:…: the sign-up succeeds (conversion, member.info), the dialog closes, nothing is followed, one warning', async () => {
  const navigation = catchNavigation();
  const warnings = catchWarnings();
  const h = await startAt(at('/member/plans/unsafe'), { member: GRACE, beforeStart: (h) => addPlan(h, { welcomeUrl: JS }).then(() => undefined) });
  const m = await waitForScreen('Unsafe');
  const events = recordEvents();
  m.form().requestSubmit();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  await settle();
  expect(events.names()).toEqual(['Service.conversion', 'Service.member.info']);
  expect(navigation.urls).toEqual([]);
  expect(warnings.service()).toHaveLength(1);
  expect(warnings.service()[0]).toContain('javascript:');
  expect((window as { __ran?: unknown }).__ran).toBeUndefined();
  expect(h.requests('POST', '/memberships')).toBe(1);
});

test.each([JS, OFF_SITE, ' //evil.example', '\\\\evil.example'])(
  'a member already on a plan whose contentUrl is %j: no form, no navigation, the dialog closes, one warning',
  async (contentUrl) => {
    const navigation = catchNavigation();
    const warnings = catchWarnings();
    const h = await startAt(at('/member/plans/unsafe'), {
      member: GRACE,
      beforeStart: async (h) => joinGrace(h, await addPlan(h, { contentUrl })),
    });
    await waitFor(() => expect(navigation.urls.length + warnings.service().length).toBeGreaterThan(0));
    await settle();
    expect(navigation.urls).toEqual([]);
    expect(hosts()).toHaveLength(0);
    expect(h.requests('POST', '/memberships')).toBe(0);
    expect(warnings.service()).toHaveLength(1);
  },
);

test('after-registration redirect to /\\t/evil.example: registering with no plan named closes the dialog, goes nowhere, one warning', async () => {
  const navigation = catchNavigation();
  const warnings = catchWarnings();
  const h = await startAt(at('/member/sign_up'), { beforeStart: siteSettings({ afterRegistration: { action: 'redirect', url: OFF_SITE } }) });
  await register();
  await waitFor(() => expect(hosts()).toHaveLength(0));
  await settle();
  expect(h.service.getMemberInfo().isLoggedIn).toBe(true);
  expect(navigation.urls).toEqual([]);
  expect(warnings.service()).toHaveLength(1);
  expect(warnings.service()[0]).toContain('evil.example');
});

test('after-registration redirect to /\\t/evil.example: /member/plans, logged in, draws nothing and goes nowhere, one warning', async () => {
  const navigation = catchNavigation();
  const warnings = catchWarnings();
  await startAt(at('/member/plans'), { member: GRACE, beforeStart: siteSettings({ afterRegistration: { action: 'redirect', url: OFF_SITE } }) });
  await waitFor(() => expect(navigation.urls.length + warnings.service().length).toBeGreaterThan(0));
  await settle();
  expect(navigation.urls).toEqual([]);
  expect(hosts()).toHaveLength(0);
  expect(warnings.service()).toHaveLength(1);
});

/** A content item with `url`, opened by the unsafe plan Grace is on. */
async function addContent(h: Harness, type: ContentNodeType, url: string): Promise<number> {
  const loaded = h.mock.sites[0]!;
  const planId = await addPlan(h, {});
  await joinGrace(h, planId);
  const spaceId = await h.mock.store.createContentSpace({ siteId: loaded.site.id, name: 'Unsafe space', planIds: [planId] });
  return h.mock.store.createContentNode({ siteId: loaded.site.id, spaceId, name: 'Unsafe item', type, url });
}

/** Opens /content/<the item>/<view> as Grace. */
async function openContent(type: ContentNodeType, url: string, view: 'download' | 'popup') {
  return startAt('/', {
    member: GRACE,
    beforeStart: async (h) => history.replaceState(null, '', at(`/content/${await addContent(h, type, url)}/${view}`)),
  });
}

test.each([
  ['link', JS],
  ['link', OFF_SITE],
  ['file', JS],
  ['file', OFF_SITE],
] as const)('a content %s at %j (download): nothing is followed or fetched, the dialog says there is a problem, one warning', async (type, url) => {
  const navigation = catchNavigation();
  const warnings = catchWarnings();
  await openContent(type, url, 'download');
  const m = await waitForScreen('Something went wrong');
  await settle();
  expect(navigation.urls).toEqual([]);
  expect(m.root.querySelector('a[href]')).toBeNull();
  expect(warnings.service()).toHaveLength(1);
});

test.each([
  ['link', JS],
  ['link', OFF_SITE],
  ['video', JS],
  ['audio', OFF_SITE],
] as const)('a content %s at %j (popup): no link or player with the address, the dialog says there is a problem, one warning', async (type, url) => {
  const navigation = catchNavigation();
  const warnings = catchWarnings();
  await openContent(type, url, 'popup');
  const m = await waitForScreen('Something went wrong');
  await settle();
  expect(navigation.urls).toEqual([]);
  expect(m.root.querySelector('a[href], video, audio, [src]')).toBeNull();
  expect(warnings.service()).toHaveLength(1);
});
