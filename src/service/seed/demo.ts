/**
 * Demo data: the `demo` site, made from its site file (plans of every type, a content library,
 * custom sign-up fields), and members with sign-up field values, memberships, invoices, saved
 * cards, member events and content views that look like a real site's and agree with each other
 * as the service's own writes would (member-billing.ts). Deterministic for a given seed, and fast
 * enough for a million members (rows go to the store in batches). Seeded members have no
 * password: nobody signs in as them.
 */
import { PLAN_STATUSES } from '../../contract/admin';
import { expiryFrom } from '../billing/calendar';
import type { Clock } from '../domain/clock';
import type {
  NewContentView,
  NewMember,
  PlanRecord,
  SignupFieldRecord,
  SignupValueRecord,
  SiteRecord,
} from '../store/records';
import type { Store } from '../store/store';
import { applySiteFile } from '../site-file/apply';
import type { SiteFile } from '../site-file/schema';
import type { MembershipStory } from './billing-history';
import { DEMO_ANSWERS, DEMO_PLAN_WEIGHTS, FIRST_NAMES, LAST_NAMES } from './catalogue';
import { demoSiteFile } from './demo-site-file';
import { BatchRows, moneyText, type BillingRowsWriter } from './batch-rows';
import { memberBilling } from './member-billing';
import { SeededRandom } from './random';

export const DEMO_SUBDOMAIN = 'demo';
const DAY = 86_400_000;
/**
 * Members made between two turns of the event loop while a batch is written: about 5 ms of
 * making. At 1,000 (and none while a batch's memberships and events were made) PostgreSQL's
 * server sat idle half the time, waiting for its next statement.
 */
const YIELD_EVERY = 100;
const turn = () => new Promise((resolve) => setImmediate(resolve));

export interface SeedCounts {
  members: number;
  memberships: number;
  memberEvents: number;
  contentViews: number;
  invoices: number;
  paymentMethods: number;
}

export interface SeedMembersOptions {
  members: number;
  /** Same seed, same data. */
  seed?: number;
  batchSize?: number;
  /** Where invoices and cards go: the store's batch methods unless given (a test compares them with the one-row methods). */
  billingRows?: BillingRowsWriter;
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

/**
 * Adds `members` members (and their memberships, invoices, cards, events and views) to a site's
 * demo data. What each member holds is what the service would have written for it
 * (member-billing.ts): the invoices of every charge, the card the billing run charges next.
 */
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
  const money = moneyText(site);
  const batchSize = options.batchSize ?? 20_000;
  const counts: SeedCounts = { members: 0, memberships: 0, memberEvents: 0, contentViews: 0, invoices: 0, paymentMethods: 0 };

  /*
   * Batches are made while the one before is written: making one is CPU work here, writing it is
   * mostly the database's (PostgreSQL's server, on another core), so the two overlap. Making
   * yields every YIELD_EVERY members so the writes under way keep being answered: each of a
   * batch's hundred-odd statements waits for a yield before the next is sent.
   */
  let writing: Promise<void> | undefined;
  for (let start = 0; start < options.members; start += batchSize) {
    const size = Math.min(batchSize, options.members - start);
    const members: NewMember[] = [];
    for (let i = 0; i < size; i++) {
      if (writing && i % YIELD_EVERY === YIELD_EVERY - 1) await turn();
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

    // Everything a member holds, made before any of it is written: the member's customer id goes
    // in with the member. Rows name members and memberships by their place in this batch until
    // the store gives them ids.
    const rows = new BatchRows(site.id);
    const views: NewContentView[] = [];
    for (let i = 0; i < members.length; i++) {
      if (writing && i % YIELD_EVERY === YIELD_EVERY - 1) await turn();
      const member = members[i]!;
      // Made-up members of a long-running site: their addresses count as confirmed at sign-up.
      member.emailConfirmedAt = member.createdAt;
      // Names the member in processor ids; upper-case letters never occur in base 36, so no two read alike.
      const key = `S${tag}M${(start + i).toString(36)}`;
      rows.event(i, 'signup', member.createdAt);
      const planCount = rnd.weighted([0, 70, 25, 5]);
      const taken = new Set<number>();
      const stories: MembershipStory[] = [];
      for (let k = 0; k < planCount && plans.length > 0; k++) {
        const plan = plans[rnd.weighted(weights)]!;
        if (taken.has(plan.id)) continue;
        taken.add(plan.id);
        stories.push(storyFor(rnd, plan, Math.min(member.createdAt + rnd.int(0, 30) * DAY, now), now));
      }
      const attempt = paidPlan && rnd.chance(0.1) ? { plan: paidPlan, at: Math.min(member.createdAt + rnd.int(0, 60) * DAY, now) } : undefined;
      const billing = memberBilling(rnd, key, stories, now, attempt);
      if (billing.processorCustomerId) member.processorCustomerId = billing.processorCustomerId;
      rows.add(i, key, billing, money, member);
      for (let k = rnd.int(1, 4); k > 0; k--) rows.event(i, 'login', member.createdAt + rnd.int(0, 700) * DAY);
      if (nodes.length > 0) {
        for (let k = rnd.int(0, 6); k > 0; k--) {
          views.push({ siteId: site.id, memberId: i, nodeId: rnd.pick(nodes).id, viewedAt: Math.min(member.createdAt + rnd.int(0, 700) * DAY, now) });
        }
      }
    }

    await writing;
    writing = (async () => {
      const memberIds = await store.createMembers(members);
      for (const view of views) view.memberId = memberIds[view.memberId]!;
      const [written] = await Promise.all([rows.write(store, memberIds, now, options.billingRows), store.createContentViews(views)]);
      counts.members += size;
      counts.memberships += written.memberships;
      counts.memberEvents += written.events;
      counts.contentViews += views.length;
      counts.invoices += written.invoices;
      counts.paymentMethods += written.paymentMethods;
      options.onProgress?.(counts.members, options.members);
    })();
    // Not awaited until the next batch is made; a failure meanwhile is not unhandled.
    writing.catch(() => undefined);
  }
  await writing;
  return counts;
}

/**
 * How a membership went, drawn: when it started and whether the member ended it. Its charges
 * and dates follow from these (billing-history.ts).
 */
function storyFor(rnd: SeededRandom, plan: PlanRecord, createdAt: number, now: number): MembershipStory {
  const story: MembershipStory = { plan, createdAt, now };
  // Within 90 days of joining, and by now.
  const cancelledAt = () => {
    const at = createdAt + rnd.int(1, 90) * DAY;
    return at <= now ? at : createdAt + Math.floor((now - createdAt) * rnd.next());
  };
  if (plan.type === 'subscription') {
    if (rnd.chance(0.08)) story.cancelledAt = cancelledAt();
    else if (rnd.chance(0.1)) story.cancelsInCurrentPeriod = rnd.next();
    return story;
  }
  const expiresAt = expiryFrom(plan.expiration, createdAt);
  if ((expiresAt === undefined || expiresAt > now) && rnd.chance(0.04)) story.cancelledAt = cancelledAt();
  return story;
}
