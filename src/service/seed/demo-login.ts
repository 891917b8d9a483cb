/**
 * One demo member whose password is printed at start-up, so a person trying the widget on
 * the demo site can sign in at once. Member of the first free and the first subscription plan.
 */
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import type { NewMembership, SignupValueRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';

export const DEMO_LOGIN = { email: 'ada@demo.localhost', password: 'demo-password', firstName: 'Ada', lastName: 'Lovelace' };

const DAY = 24 * 3600_000;

export async function ensureDemoLogin(store: Store, clock: Clock, site: SiteRecord, passwords: PasswordHasher): Promise<number> {
  const existing = await store.findMemberLogin(site.id, DEMO_LOGIN.email);
  if (existing) return existing.memberId;
  const now = clock();
  const { password, ...profile } = DEMO_LOGIN;
  const signupValues = (await store.listSignupFields(site.id)).flatMap((field): SignupValueRecord[] => {
    // The required fields get what a real sign-up would have had to give.
    if (!field.required) return [];
    if (field.type === 'checkbox') return [{ fieldId: field.id, value: true }];
    if (field.type === 'select') return [{ fieldId: field.id, value: field.options?.[0]?.value ?? '' }];
    if (field.type === 'multiple-select') return [{ fieldId: field.id, value: (field.options ?? []).slice(0, 1).map((o) => o.value) }];
    return [{ fieldId: field.id, value: 'Demo' }];
  });
  const [memberId] = (await store.createMembers([
    { siteId: site.id, ...profile, passwordHash: await passwords.hash(password), signupValues, status: 'approved', createdAt: now },
  ])) as [number];
  const plans = (await store.listPlans(site.id, { statuses: ['enabled'] }, { limit: 100 })).items;
  const joined: NewMembership[] = [];
  const free = plans.find((p) => p.type === 'free');
  const subscription = plans.find((p) => p.type === 'subscription');
  if (free) joined.push({ siteId: site.id, memberId, planId: free.id, status: 'active', createdAt: now, paymentFailure: false });
  if (subscription) {
    joined.push({ siteId: site.id, memberId, planId: subscription.id, status: 'active', createdAt: now, billingPeriodEnd: now + 30 * DAY, paymentFailure: false });
  }
  if (joined.length > 0) await store.createMemberships(joined);
  return memberId;
}
