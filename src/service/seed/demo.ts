/**
 * Demo data: the `demo` site, made from its site file (plans of every type, a content library,
 * custom sign-up fields), and members with sign-up field values, memberships, member events and content views
 * that look like a real site's. Deterministic for a given seed, and fast enough for a million
 * members (rows go to the store in batches). Seeded members have no password: nobody signs in as them.
 */
import { PLAN_STATUSES } from '../../contract/admin';
import { addInterval, expiryFrom, nextFixedBillingDate } from '../billing/calendar';
import type { Clock } from '../domain/clock';
import type {
  NewContentView,
  NewMember,
  NewMemberEvent,
  NewMembership,
  PlanRecord,
  SignupFieldRecord,
  SignupValueRecord,
  SiteRecord,
} from '../store/records';
import type { Store } from '../store/store';
import { applySiteFile } from '../site-file/apply';
import type { SiteFile } from '../site-file/schema';
import { DEMO_ANSWERS, DEMO_PLAN_WEIGHTS, FIRST_NAMES, LAST_NAMES } from './catalogue';
import { demoSiteFile } from './demo-site-file';
import { SeededRandom } from './random';

export const DEMO_SUBDOMAIN = 'demo';
const DAY = 86_400_000;

export interface SeedCounts {
  members: number;
  memberships: number;
  memberEvents: number;
  contentViews: number;
}

export interface SeedMembersOptions {
  members: number;
  /** Same seed, same data. */
  seed?: number;
  batchSize?: number;
  onProgress?: (membersDone: number, total: number) => void;
}

/**
 * The demo site, made from its site file (examples/sites/demo.yaml) the way an owner makes a
 * site, when it does not exist yet. An existing demo site is left as it is: `svc sites apply`
 * brings it up to date.
 */
export async function ensureDemoSite(store: Store, clock: Clock, file: SiteFile = demoSiteFile()): Promise<{ site: SiteRecord; created: boolean }> {
  const existing = await store.getSiteBySubdomain(file.site.subdomain);
  if (existing) return { site: existing, created: false };
  const { siteId } = await applySiteFile(store, clock, file);
  return { site: (await store.getSite(siteId!))!, created: true };
}

/**
 * What a member filled in at sign-up: every required field, about half of the optional ones.
 * Text answers come from the catalogue entry with the field's label.
 */
function signupValuesFor(rnd: SeededRandom, fields: readonly SignupFieldRecord[]): SignupValueRecord[] {
  const values: SignupValueRecord[] = [];
  for (const field of fields) {
    if (!field.required && !rnd.chance(0.5)) continue;
    const options = (field.options ?? []).map((o) => o.value);
    if (field.type === 'checkbox') {
      values.push({ fieldId: field.id, value: field.required || rnd.chance(0.6) });
    } else if (field.type === 'select') {
      if (options.length > 0) values.push({ fieldId: field.id, value: rnd.pick(options) });
    } else if (field.type === 'multiple-select') {
      const chosen = options.filter(() => rnd.chance(0.4));
      if (chosen.length === 0 && options.length > 0) chosen.push(rnd.pick(options));
      values.push({ fieldId: field.id, value: chosen });
    } else {
      const answers = DEMO_ANSWERS[field.key] ?? ['-'];
      values.push({ fieldId: field.id, value: rnd.pick(answers) });
    }
  }
  return values;
}

/** Adds `members` members (and their memberships, events and views) to a site's demo data. */
export async function seedMembers(
  store: Store,
  clock: Clock,
  site: SiteRecord,
  options: SeedMembersOptions,
): Promise<SeedCounts> {
  const now = clock();
  const seed = options.seed ?? 1;
  const rnd = new SeededRandom(seed);
  // E-mails carry the seed, so growing the same site again with another seed never collides.
  const tag = seed.toString(36);
  const plans = (await store.listPlans(site.id, { statuses: PLAN_STATUSES }, { limit: 1000 })).items;
  const weights = plans.map((p) => DEMO_PLAN_WEIGHTS[p.key] ?? 5);
  const paidPlan = plans.find((p): p is Exclude<PlanRecord, { type: 'free' }> => p.type !== 'free' && p.status === 'enabled');
  const nodes = await store.listContentNodes(site.id);
  const fields = await store.listSignupFields(site.id);
  // Sign-up values draw from their own sequence, so the rest of the data is what it was before they existed.
  const valueRnd = new SeededRandom(seed * 7919 + 1);
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: site.defaultCurrency.toUpperCase() });
  const batchSize = options.batchSize ?? 20_000;
  const counts: SeedCounts = { members: 0, memberships: 0, memberEvents: 0, contentViews: 0 };

  for (let start = 0; start < options.members; start += batchSize) {
    const size = Math.min(batchSize, options.members - start);
    const members: NewMember[] = [];
    for (let i = 0; i < size; i++) {
      const first = rnd.pick(FIRST_NAMES);
      const last = rnd.pick(LAST_NAMES);
      const local = `${first}.${last}`.toLowerCase().normalize('NFD').replace(/[^a-z.]/g, '');
      members.push({
        siteId: site.id,
        email: `${local}.${tag}${start + i}@example.com`,
        ...(rnd.chance(0.97) ? { firstName: first, lastName: last } : {}),
        status: rnd.chance(0.95) ? 'approved' : rnd.chance(0.7) ? 'pending' : 'blocked',
        // Squaring skews sign-ups toward recent months, as on a growing site.
        createdAt: now - Math.ceil(730 * rnd.next() ** 2) * DAY - rnd.int(0, DAY - 1),
        signupValues: signupValuesFor(valueRnd, fields),
      });
    }
    const memberIds = await store.createMembers(members);

    const memberships: NewMembership[] = [];
    const events: NewMemberEvent[] = [];
    const views: NewContentView[] = [];
    memberIds.forEach((memberId, i) => {
      const member = members[i]!;
      const event = (eventType: NewMemberEvent['eventType'], createdAt: number, details: Record<string, unknown> = {}) =>
        events.push({ siteId: site.id, memberId, eventType, details, createdAt: Math.min(createdAt, now) });
      event('signup', member.createdAt);
      const planCount = rnd.weighted([0, 70, 25, 5]);
      const taken = new Set<number>();
      for (let k = 0; k < planCount && plans.length > 0; k++) {
        const plan = plans[rnd.weighted(weights)]!;
        if (taken.has(plan.id)) continue;
        taken.add(plan.id);
        const membership = membershipFor(rnd, site.id, memberId, plan, Math.min(member.createdAt + rnd.int(0, 30) * DAY, now), now);
        memberships.push(membership);
        const amount = plan.type === 'free' ? undefined : money.format(plan.billing.price);
        event('conversion', membership.createdAt, { planId: plan.id, ...(amount && { amount }) });
        if (membership.status === 'cancelled') event('cancellation', membership.createdAt + rnd.int(1, 90) * DAY, { planId: plan.id });
        if (membership.paymentFailure) event('paymentFailed', now - rnd.int(0, 20) * DAY, { planId: plan.id });
      }
      if (paidPlan && rnd.chance(0.1)) {
        const id = `${tag}${memberId.toString(36)}`;
        event('abandonedConversion', member.createdAt + rnd.int(0, 60) * DAY, {
          amount: money.format(paidPlan.billing.price),
          chargeId: `ch_${id}`,
          invoiceId: `in_${id}`,
        });
      }
      for (let k = rnd.int(1, 4); k > 0; k--) event('login', member.createdAt + rnd.int(0, 700) * DAY);
      if (nodes.length > 0) {
        for (let k = rnd.int(0, 6); k > 0; k--) {
          views.push({ siteId: site.id, memberId, nodeId: rnd.pick(nodes).id, viewedAt: Math.min(member.createdAt + rnd.int(0, 700) * DAY, now) });
        }
      }
    });
    await store.createMemberships(memberships);
    await store.createMemberEvents(events);
    await store.createContentViews(views);
    counts.members += size;
    counts.memberships += memberships.length;
    counts.memberEvents += events.length;
    counts.contentViews += views.length;
    options.onProgress?.(counts.members, options.members);
  }
  return counts;
}

/** A membership whose dates agree with its plan: expiry, billing period end, payments made. */
function membershipFor(
  rnd: SeededRandom,
  siteId: number,
  memberId: number,
  plan: PlanRecord,
  createdAt: number,
  now: number,
): NewMembership {
  const m: NewMembership = { siteId, memberId, planId: plan.id, status: 'active', createdAt, paymentFailure: false };
  if (plan.type === 'subscription') {
    const { interval, billingDate } = plan.billing;
    let end = billingDate ? nextFixedBillingDate(now, billingDate) : addInterval(createdAt, interval.count, interval.unit);
    while (end <= now) end = addInterval(end, interval.count, interval.unit);
    m.billingPeriodEnd = end;
    if (rnd.chance(0.08)) m.status = 'cancelled';
    else if (rnd.chance(0.1)) m.cancelsAt = end;
    m.paymentFailure = m.status === 'active' && rnd.chance(0.03);
    return m;
  }
  m.expiresAt = expiryFrom(plan.expiration, createdAt);
  if (m.expiresAt !== undefined && m.expiresAt <= now) m.status = 'expired';
  else if (rnd.chance(0.04)) m.status = 'cancelled';
  if (plan.type === 'multiPayment') {
    const { count, unit } = plan.billing.interval;
    let due = createdAt;
    let paid = 0;
    while (paid < plan.billing.paymentCountRequired && due <= now) {
      paid++;
      due = addInterval(due, count, unit);
    }
    if (paid < plan.billing.paymentCountRequired && m.status === 'active') {
      m.billingPeriodEnd = due;
      m.paymentFailure = rnd.chance(0.05);
    }
  }
  return m;
}
