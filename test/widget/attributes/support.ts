/**
 * Helpers shared by the data-svc-* attribute tests (spec 4.1): a started widget, the fixture's
 * ids, extra members and memberships written straight into the mock service's store, and what
 * the page looks like (computed display, the widget's hidden mark).
 */
import { waitFor } from '@testing-library/dom';
import { expect, vi } from 'vitest';
import type { MembershipStatus } from '../../../src/contract/admin';
import type { SignupFieldValue } from '../../../src/contract/member';
import { createPasswordHasher, TEST_SCRYPT } from '../../../src/service/auth/passwords';
import { portableScrypt } from '../../../src/service/auth/portable-scrypt';
import { harness, type Harness } from '../support';

export const HIDDEN = 'data-svc-hidden';

/** A harness whose widget has started and is ready (nobody logged in unless storage says so). */
export async function ready(): Promise<Harness> {
  const h = await harness();
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  return h;
}

/** The demo site's ids, as the store gave them when the fixtures were loaded. */
export function demo(h: Harness) {
  return h.mock.sites[0]!;
}

/** The id of one of the demo site's custom sign-up fields: company, bio, role, topics, terms. */
export function fieldId(h: Harness, key: 'company' | 'bio' | 'role' | 'topics' | 'terms'): number {
  const id = demo(h).fieldIds[key];
  if (id === undefined) throw new Error(`no field ${key}`);
  return id;
}

/** `data-svc-member-info` value naming a demo custom field. */
export const field = (h: Harness, key: Parameters<typeof fieldId>[1]) => `customSignupField${fieldId(h, key)}`;

/** By id, with a clear failure when the markup lacks it. */
export function $<T extends Element = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no #${id}`);
  return element as unknown as T;
}

/** The element's display as the browser computes it: the widget's style and the page's. */
export const display = (id: string | Element) => getComputedStyle(typeof id === 'string' ? $(id) : id).display;
export const isShown = (id: string | Element) => display(id) !== 'none';

let counter = 0;

/** A new approved member of the demo site who can sign in; returns the credentials and id. */
export async function addMember(
  h: Harness,
  profile: { firstName?: string; lastName?: string; profileImageUrl?: string; signupValues?: Record<string, SignupFieldValue> } = {},
  siteIndex = 0,
): Promise<{ email: string; password: string; id: number }> {
  const site = h.mock.sites[siteIndex]!;
  const email = `extra${++counter}@example.com`;
  const password = `extra-password-${counter}`;
  const passwords = createPasswordHasher(portableScrypt, TEST_SCRYPT);
  const { signupValues = {}, ...rest } = profile;
  const [id] = await h.mock.store.createMembers([
    {
      siteId: site.site.id,
      email,
      status: 'approved',
      createdAt: Date.now() - 86_400_000,
      passwordHash: await passwords.hash(password),
      ...rest,
      signupValues: Object.entries(signupValues).map(([key, value]) => ({ fieldId: site.fieldIds[key]!, value })),
    },
  ]);
  return { email, password, id: id! };
}

/** Adds a membership of a demo plan (by fixture key) to a member (fixture key or id). */
export async function addMembership(
  h: Harness,
  member: 'ada' | 'grace' | number,
  planKey: 'community' | 'lifetime' | 'course' | 'monthly' | 'founders',
  status: MembershipStatus = 'active',
  extra: { expiresAt?: number; cancelsAt?: number } = {},
): Promise<void> {
  const site = demo(h);
  await h.mock.store.createMemberships([
    {
      siteId: site.site.id,
      memberId: typeof member === 'number' ? member : site.memberIds[member]!,
      planId: site.planIds[planKey]!,
      status,
      createdAt: Date.now() - 86_400_000,
      paymentFailure: false,
      ...extra,
    },
  ]);
}

/** console.warn, silenced (happy-dom elements print at length) and recorded. */
export const silenceWarnings = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);

/** Lets the MutationObserver's callback (a microtask) run. */
export const microtask = () => Promise.resolve();
