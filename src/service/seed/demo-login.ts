/**
 * One demo member whose password is printed at start-up, so a person trying the widget on
 * the demo site can sign in at once. Member of the first free and the first subscription plan,
 * joined through the member API: a processor customer, the card it asks for, an invoice for
 * whatever was due (nothing, in a trial), and the sign-up and conversion events.
 */
import type { PasswordHasher } from '../auth/passwords';
import type { Clock } from '../domain/clock';
import type { SignupValueRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { BatchRows, moneyText } from './batch-rows';
import { memberBilling } from './member-billing';
import { SeededRandom } from './random';

export const DEMO_LOGIN = { email: 'ada@demo.localhost', password: 'demo-password', firstName: 'Ada', lastName: 'Lovelace' };

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
  const plans = (await store.listPlans(site.id, { statuses: ['enabled'] }, { limit: 100 })).items;
  const free = plans.find((p) => p.type === 'free');
  const subscription = plans.find((p) => p.type === 'subscription');
  // Joined both just now, through the member API: what it writes for that (member-billing.ts).
  const stories = [free, subscription].flatMap((plan) => (plan ? [{ plan, createdAt: now, now }] : []));
  const billing = memberBilling(new SeededRandom(1), 'demoLogin', stories, now);
  const [memberId] = (await store.createMembers([
    {
      siteId: site.id, ...profile, passwordHash: await passwords.hash(password), signupValues, status: 'approved', createdAt: now, emailConfirmedAt: now,
      ...(billing.processorCustomerId && { processorCustomerId: billing.processorCustomerId }),
    },
  ])) as [number];
  const rows = new BatchRows(site.id);
  rows.event(0, 'signup', now);
  rows.add(0, 'demoLogin', billing, moneyText(site), profile);
  await rows.write(store, [memberId], now);
  return memberId;
}
