/**
 * The charges after sign-up (docs/decisions/0015-renewals.md): when a membership's
 * `billingPeriodEnd` comes, a subscription renews for a period or a multi-payment plan takes its
 * next instalment, from the member's saved card.
 *
 * - A subscription cancelled at period end is not charged: it ends (`cancelled`) when its
 *   `cancelsAt` comes.
 * - A failed charge sets `paymentFailure` (access stays while it is retried), records a failed
 *   invoice when the processor made one, and a `paymentFailed` member event. It is tried again a
 *   day later, at most MAX_ATTEMPTS times in all; then the membership ends (`cancelled`).
 *   Saving a new card retries at once (`chargeOverdue`).
 * - A success records the paid invoice, clears `paymentFailure` and moves the dates
 *   (membership-terms.ts).
 *
 * Attempts are counted from the member events, so a run that stops half-way loses nothing: the
 * next run finds the same due memberships and their attempts so far.
 *
 * Many processes may bill one database (`svc serve --workers`, `svc billing run`, several
 * machines on PostgreSQL; decision 0025). One run at a time holds the store's `billing-run`
 * lease, renewed as it goes; a run that finds it held does nothing. Beneath it, each membership
 * is claimed (a lease of its own) and read again before it is charged, so even runs that overlap
 * (a lease that lapsed mid-run, a member saving a card) charge a due period once; and the charge
 * carries an idempotency key of the membership, due date and attempt, so a processor that honours
 * keys does not charge twice for a biller that died between the charge and its record.
 */
import type { Clock } from '../domain/clock';
import { randomId } from '../domain/random';
import { PaymentDeclinedError, UnknownPaymentReferenceError, type PaymentProcessor } from '../payments/processor';
import type { ProcessorFor } from '../payments/processor-for';
import { ConflictError } from '../store/errors';
import type { MembershipFilter } from '../store/queries';
import type { MemberRecord, MembershipPatch, MembershipRecord, NewInvoice, PaymentMethodRecord, PlanRecord, SiteRecord } from '../store/records';
import type { MembershipAnnouncement, Store } from '../store/store';
import { formatMoney } from './money';
import { ENDING_NOTICE_MS, endingSoonMails, paymentFailedMails, receiptMails } from './notices';
import { advanceMultiPayment, inTrial, membershipStatus, renewSubscription, type MembershipTerms } from './membership-terms';
import { quotePlan } from './quote';
import { WEBHOOK_HISTORY_MS } from '../webhooks/retry-schedule';

export const RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
export const MAX_ATTEMPTS = 4;
/** The lease one billing run at a time holds; renewed before every page of memberships. */
export const RUN_LEASE = 'billing-run';
export const RUN_LEASE_MS = 5 * 60_000;
/**
 * How long a membership's claim holds: far longer than one charge takes. A biller that dies
 * holding one leaves that membership to the first run after it lapses.
 */
export const CLAIM_MS = 30 * 60_000;

export interface RenewalDeps {
  store: Store;
  /** The time billed at. */
  clock: Clock;
  processor: PaymentProcessor;
  /** Each site's processor (its Stripe account); `processor` for a site it does not name. */
  processorFor?: ProcessorFor;
  /**
   * The real time, which every process shares: leases are taken and kept, and limits swept, at
   * it. Given when `clock` is not real (`svc billing run --at` bills as of a later date); `clock`
   * when not given.
   */
  realClock?: Clock;
}

export interface RenewalReport {
  /** Charges that succeeded. */
  charged: number;
  /** Charges that failed (each one is a `paymentFailed` event). */
  failed: number;
  /** Memberships that ended: cancelled at period end, or after the last failed attempt. */
  ended: number;
  /**
   * Memberships stored `active` whose expiry date has come, now stored `expired`. The member API
   * reads them as expired at once; this brings the stored status (and the Admin API) level.
   */
  expired: number;
  /** Memberships that failed before and wait for their next attempt. */
  waiting: number;
  /**
   * Memberships whose processing threw (a store or processor fault), and the session sweep if it
   * threw; each is tried again next run.
   */
  errors: number;
  /** Member sessions deleted because they had expired (signed-out ones too, once past their expiry). */
  sessionsDeleted: number;
  /** Rate cells, throttled keys and leases deleted because they limit nothing any more. */
  limitsDeleted: number;
  /** Webhook attempts, deliveries and messages older than WEBHOOK_HISTORY_MS deleted. */
  webhookRecordsDeleted: number;
  /** Another run (another process's) held the billing lease: this one did nothing. */
  busy: boolean;
}

/** Told what failed (a membership, the session sweep) and why; the run goes on without it. */
export type RenewalErrorHandler = (error: unknown, what: string) => void;

const emptyReport = (): RenewalReport => ({
  charged: 0, failed: 0, ended: 0, expired: 0, waiting: 0, errors: 0, sessionsDeleted: 0, limitsDeleted: 0, webhookRecordsDeleted: 0, busy: false,
});

const realTime = (deps: RenewalDeps) => (deps.realClock ?? deps.clock)();

/** The run's lease was taken by another run (ours lapsed): it stops, and the other goes on. */
class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

export type RecurringPlan = Extract<PlanRecord, { type: 'subscription' | 'multiPayment' }>;

/**
 * Every site's memberships that are due at `now`, each handled once; then the housekeeping that
 * runs on the same timer: expired member sessions and limits are deleted, so the tables do not
 * grow with every sign-in ever made. Nothing at all when another run holds the billing lease.
 */
export async function runRenewals(deps: RenewalDeps, onError: RenewalErrorHandler = () => undefined): Promise<RenewalReport> {
  const report = emptyReport();
  const holder = randomId(16);
  const keepLease = async () => {
    if (!(await deps.store.tryLease(RUN_LEASE, holder, realTime(deps), RUN_LEASE_MS))) throw new LeaseLostError('another billing run took the lease');
  };
  try {
    await keepLease();
  } catch (error) {
    if (error instanceof LeaseLostError) return { ...report, busy: true };
    throw error;
  }
  try {
    for (const site of await deps.store.listSites()) await renewSite(deps, site, report, onError, keepLease);
    await sweep(deps, report, onError);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    report.errors++;
    onError(error, 'the run stopped: its lease lapsed and another run has it');
  } finally {
    await deps.store.releaseLease(RUN_LEASE, holder);
  }
  return report;
}

async function sweep(deps: RenewalDeps, report: RenewalReport, onError: RenewalErrorHandler): Promise<void> {
  try {
    report.sessionsDeleted = await deps.store.deleteExpiredSessions(deps.clock());
  } catch (error) {
    report.errors++;
    onError(error, 'the expired member sessions could not be deleted');
  }
  try {
    report.limitsDeleted = await deps.store.deleteExpiredLimits(realTime(deps));
  } catch (error) {
    report.errors++;
    onError(error, 'the expired limits could not be deleted');
  }
  try {
    report.webhookRecordsDeleted = await deps.store.deleteOldWebhookRecords(deps.clock() - WEBHOOK_HISTORY_MS);
  } catch (error) {
    report.errors++;
    onError(error, 'the old webhook deliveries could not be deleted');
  }
}

/**
 * The member's memberships that are due, charged now without waiting for the next retry: after
 * they saved a new card. Answers what happened.
 */
export async function chargeOverdue(deps: RenewalDeps, site: SiteRecord, memberId: number): Promise<RenewalReport> {
  const report = emptyReport();
  const now = deps.clock();
  const due = (await deps.store.listMembershipsOfMember(site.id, memberId)).filter((m) => isDue(m, now));
  for (const membership of due) await renewOne(deps, site, membership, report, { retryNow: true });
  return report;
}

export function isDue(m: MembershipRecord, now: number): boolean {
  return membershipStatus(m, now) === 'active' && m.billingPeriodEnd !== undefined && m.billingPeriodEnd <= now;
}

async function renewSite(
  deps: RenewalDeps,
  site: SiteRecord,
  report: RenewalReport,
  onError: RenewalErrorHandler,
  keepLease: () => Promise<void>,
): Promise<void> {
  const now = deps.clock();
  const each = async (filter: MembershipFilter, act: (membership: MembershipRecord) => Promise<void>) => {
    let afterId: number | undefined;
    for (;;) {
      await keepLease();
      const page = await deps.store.listMemberships(site.id, filter, { limit: 200, ...(afterId !== undefined && { afterId }) });
      for (const membership of page.items) {
        try {
          await act(membership);
        } catch (error) {
          report.errors++;
          onError(error, `membership ${membership.id} of site ${site.subdomain} could not be billed`);
        }
      }
      if (!page.hasMore || page.items.length === 0) return;
      afterId = page.items[page.items.length - 1]!.id;
    }
  };
  // Access that has ended is not billed: expire and end first (every member's, imported ones
  // too), then charge what is still active and due.
  await each({ status: 'active', expires: { to: now + 1 } }, async (membership) => {
    await deps.store.updateMembership(site.id, membership.id, { status: 'expired', billingPeriodEnd: null }, 'membership.ended');
    report.expired++;
  });
  await each({ status: 'active', cancels: { to: now + 1 } }, async (membership) => {
    await deps.store.updateMembership(site.id, membership.id, { status: 'cancelled', billingPeriodEnd: null }, 'membership.ended');
    report.ended++;
  });
  // A week before a membership ends (cancelled at period end, or a plan that expires), its member
  // is told, once per end date: the store skips a mail whose once-key it has queued before.
  const endingSoon = async (membership: MembershipRecord, endsAt: number) => {
    const [member, plan] = await Promise.all([deps.store.getMember(site.id, membership.memberId), deps.store.getPlan(site.id, membership.planId)]);
    const mails = member && plan ? endingSoonMails(site, member, plan, membership.id, endsAt, now) : [];
    if (mails.length > 0) await deps.store.queueMail(mails);
  };
  const soon = { from: now, to: now + ENDING_NOTICE_MS };
  await each({ status: 'active', cancels: soon }, (m) => endingSoon(m, m.cancelsAt!));
  await each({ status: 'active', expires: soon }, (m) => endingSoon(m, m.expiresAt!));
  // Members who never paid through the service (imported data: no processor customer)
  // have nothing to charge; the store leaves them out, so a big imported site costs no run time.
  await each({ status: 'active', billingPeriodEnd: { to: now + 1 }, billable: true }, (membership) =>
    renewOne(deps, site, membership, report, { retryNow: false }),
  );
}

/**
 * Bills the membership under its claim. The timer's run, a member saving a card
 * (`chargeOverdue`) and other processes' runs may reach the same membership at once: the one
 * that claims it first bills it, the others leave it. Read again once claimed: whoever billed it
 * before has recorded what they did by the time their claim ended.
 */
async function renewOne(
  deps: RenewalDeps,
  site: SiteRecord,
  listed: MembershipRecord,
  report: RenewalReport,
  options: { retryNow: boolean },
): Promise<void> {
  const claimed = await underClaim(deps, site, listed, async (membership) => {
    if (isDue(membership, deps.clock())) await bill(deps, site, membership, report, options);
  });
  if (claimed === CLAIMED_ELSEWHERE) report.waiting++;
}

/** What underClaim answers when another biller holds the membership's claim. */
export const CLAIMED_ELSEWHERE = Symbol('claimed elsewhere');

/**
 * `work` on the membership as it is once its claim (a lease of its own, taken by one biller at a
 * time in any number of processes) is held; CLAIMED_ELSEWHERE when another holds it, undefined
 * when the membership is gone.
 */
export async function underClaim<T>(
  deps: RenewalDeps,
  site: SiteRecord,
  listed: Pick<MembershipRecord, 'id' | 'memberId'>,
  work: (membership: MembershipRecord) => Promise<T>,
): Promise<T | undefined | typeof CLAIMED_ELSEWHERE> {
  const claim = `renewal:${site.id}:${listed.id}`;
  const holder = randomId(16);
  if (!(await deps.store.tryLease(claim, holder, realTime(deps), CLAIM_MS))) return CLAIMED_ELSEWHERE;
  try {
    const membership = (await deps.store.listMembershipsOfMember(site.id, listed.memberId)).find((m) => m.id === listed.id);
    return membership && (await work(membership));
  } finally {
    await deps.store.releaseLease(claim, holder);
  }
}

/**
 * The plan as a membership pays it: with the billing it joined under when the plan's has changed
 * since (a price change reaches new members only; records.ts `MembershipRecord.billing`).
 */
export const asJoined = <P extends RecurringPlan>(plan: P, membership: Pick<MembershipRecord, 'billing'>): P =>
  membership.billing ? ({ ...plan, billing: membership.billing } as P) : plan;

/** A due membership's charge: what it is for, from whom, and which attempt this is. */
export interface DueCharge {
  plan: RecurringPlan;
  member: MemberRecord;
  customerId: string;
  dueAt: number;
  /** The `paymentFailed` events for this due date so far (the attempt is one more). */
  failures: number;
  /** When the last of them was, if any. */
  lastAttempt: number | undefined;
  amountCents: number;
  subTotalCents: number;
  taxCents: number;
  currency: string;
  description: string;
  /** The member's saved card; undefined when there is none. */
  card: PaymentMethodRecord | undefined;
  processor: PaymentProcessor;
}

/** The charge a due membership owes; undefined when there is none to make (a plan without billing, a member who never paid here). */
export async function dueCharge(deps: RenewalDeps, site: SiteRecord, membership: MembershipRecord): Promise<DueCharge | undefined> {
  const { store, clock } = deps;
  const now = clock();
  const current = await store.getPlan(site.id, membership.planId);
  if (!current || (current.type !== 'subscription' && current.type !== 'multiPayment')) return undefined;
  // A downgrade waiting for this renewal (decision 0036): the renewal is the new plan's, at its price now.
  const next = membership.nextPlanId !== undefined ? await store.getPlan(site.id, membership.nextPlanId) : undefined;
  const plan = next?.type === 'subscription' ? next : asJoined(current, membership);
  const member = await store.getMember(site.id, membership.memberId);
  if (!member?.processorCustomerId) return undefined; // never paid here (chargeOverdue reaches such members too)
  const dueAt = membership.billingPeriodEnd!;
  const failures = (await store.listMemberEvents(site.id, { memberId: membership.memberId, created: { from: dueAt } }, { limit: 1000 })).items.filter(
    (e) => e.eventType === 'paymentFailed' && e.details.membershipId === membership.id,
  );
  const recurring = quotePlan(plan, now).recurring!;
  return {
    plan, member, customerId: member.processorCustomerId, dueAt, failures: failures.length, lastAttempt: failures.at(-1)?.createdAt,
    amountCents: recurring.amountCents, subTotalCents: recurring.subTotalCents, taxCents: recurring.taxCents, currency: plan.billing.currency,
    description: chargeDescription(plan, membership), card: await store.getPaymentMethod(site.id, membership.memberId),
    processor: deps.processorFor?.(site) ?? deps.processor,
  };
}

/** How a charge of a due membership went. */
export type ChargeOutcome = { paid: true; chargeId: string; invoiceId: string } | { paid: false; chargeId?: string; invoiceId?: string; reason: string };

/** The idempotency key of a due membership's charge: one per membership, due date and attempt. */
export const renewalKey = (site: SiteRecord, membership: MembershipRecord, due: DueCharge) =>
  `renewal:${site.id}:${membership.id}:${due.dueAt}:${due.failures + 1}`;

async function bill(
  deps: RenewalDeps,
  site: SiteRecord,
  membership: MembershipRecord,
  report: RenewalReport,
  { retryNow }: { retryNow: boolean },
): Promise<void> {
  const now = deps.clock();
  if (membership.cancelsAt !== undefined && membership.cancelsAt <= now) {
    await deps.store.updateMembership(site.id, membership.id, { status: 'cancelled', billingPeriodEnd: null }, 'membership.ended');
    report.ended++;
    return;
  }
  const due = await dueCharge(deps, site, membership);
  if (!due) return;
  if (!retryNow && due.lastAttempt !== undefined && now - due.lastAttempt < RETRY_AFTER_MS) {
    report.waiting++;
    return;
  }
  let outcome: ChargeOutcome;
  try {
    if (!due.card) throw new UnknownPaymentReferenceError('paymentMethod', 'none saved');
    // One charge per membership, due date and attempt, whoever asks for it and however often.
    const request = { amountCents: due.amountCents, currency: due.currency, description: due.description, idempotencyKey: renewalKey(site, membership, due) };
    outcome = { paid: true, ...(await due.processor.charge(due.customerId, due.card.processorId, request)) };
  } catch (error) {
    outcome = failedCharge(error);
  }
  await recordCharge(deps, site, membership, due, outcome, report);
}

/** A charge's failure as its outcome: declined, or no card to charge; anything else is thrown. */
export function failedCharge(error: unknown): ChargeOutcome {
  if (error instanceof PaymentDeclinedError) return { paid: false, chargeId: error.chargeId, invoiceId: error.invoiceId, reason: error.declineCode };
  if (error instanceof UnknownPaymentReferenceError) return { paid: false, reason: 'noPaymentMethod' };
  throw error;
}

/**
 * What a charge of a due membership leaves: its invoice (paid or failed) with the receipt or the
 * failure notice; paid, the membership's next period; failed, a `paymentFailed` event, and the
 * membership ended after the last attempt.
 */
export async function recordCharge(
  deps: RenewalDeps,
  site: SiteRecord,
  membership: MembershipRecord,
  due: DueCharge,
  outcome: ChargeOutcome,
  report: RenewalReport = emptyReport(),
): Promise<void> {
  const { store, clock } = deps;
  const now = clock();
  const { plan, member, dueAt, failures } = due;
  const update = (patch: MembershipPatch, announce?: MembershipAnnouncement) => store.updateMembership(site.id, membership.id, patch, announce);
  const amount = formatMoney(due.amountCents, due.currency, site.locale);
  // The notice goes with the invoice: a receipt for a payment, a word about a failed one.
  const notices = outcome.paid ? [] : paymentFailedMails(site, member, plan, membership.id, dueAt, amount, now, outcome.reason);
  if (outcome.invoiceId) {
    const invoice: NewInvoice = {
      siteId: site.id, memberId: membership.memberId, planId: plan.id, membershipId: membership.id,
      processorInvoiceId: outcome.invoiceId, processorChargeId: outcome.chargeId!,
      subTotalCents: due.subTotalCents, taxCents: due.taxCents, totalCents: due.amountCents, currency: due.currency,
      status: outcome.paid ? 'paid' : 'failed', description: due.description, createdAt: now,
    };
    try {
      await store.createInvoice(invoice, outcome.paid ? receiptMails(site, member, plan, invoice) : notices);
    } catch (error) {
      // The processor answered a charge taken before under the same key, and the biller that
      // took it (whose claim had lapsed, though it lived) has recorded it: nothing is left to do.
      if (error instanceof ConflictError && error.field === 'processorInvoiceId') {
        report.waiting++;
        return;
      }
      throw error;
    }
  } else if (notices.length > 0) {
    await store.queueMail(notices);
  }
  if (outcome.paid) {
    if (plan.id !== membership.planId) {
      // The downgrade waiting for this renewal takes effect: the membership is on the new plan at its price.
      await update({ ...termsPatch(nextTerms(membership, plan)), planId: plan.id, billing: null, nextPlanId: null }, 'membership.renewed');
      await store.createMemberEvents([
        {
          siteId: site.id, memberId: membership.memberId, eventType: 'planChanged', createdAt: now,
          details: { membershipId: membership.id, fromPlanId: membership.planId, toPlanId: plan.id, when: 'periodEnd', applied: true, invoiceId: outcome.invoiceId },
        },
      ]);
    } else {
      await update(termsPatch(nextTerms(membership, plan)), 'membership.renewed');
    }
    report.charged++;
    return;
  }

  await store.createMemberEvents([
    {
      siteId: site.id, memberId: membership.memberId, eventType: 'paymentFailed', createdAt: now,
      details: {
        planId: plan.id, membershipId: membership.id, amount, reason: outcome.reason, attempt: failures + 1,
        ...(outcome.chargeId && { chargeId: outcome.chargeId }), ...(outcome.invoiceId && { invoiceId: outcome.invoiceId }),
      },
    },
  ]);
  report.failed++;
  if (failures + 1 >= MAX_ATTEMPTS) {
    await update({ status: 'cancelled', paymentFailure: true, billingPeriodEnd: null }, 'membership.ended');
    await store.createMemberEvents([
      { siteId: site.id, memberId: membership.memberId, eventType: 'cancellation', details: { planId: plan.id, reason: 'paymentFailed' }, createdAt: now },
    ]);
    report.ended++;
  } else if (!membership.paymentFailure) {
    await update({ paymentFailure: true });
  }
}

/**
 * "Monthly: renewal", "Monthly: first payment" (the charge that ends a trial renews nothing), or
 * "Course in three payments: payment 2 of 3" (the seed's invoices say the same).
 */
export function chargeDescription(plan: RecurringPlan, membership: Pick<MembershipRecord, 'paymentsMade' | 'createdAt' | 'billingPeriodEnd'>): string {
  if (plan.type === 'subscription') return `${plan.name}: ${inTrial(plan.billing, membership) ? 'first payment' : 'renewal'}`;
  return `${plan.name}: payment ${(membership.paymentsMade ?? 0) + 1} of ${plan.billing.paymentCountRequired}`;
}

function nextTerms(membership: MembershipRecord, plan: RecurringPlan): MembershipTerms {
  const terms: MembershipTerms = {
    status: membership.status,
    createdAt: membership.createdAt,
    paymentFailure: membership.paymentFailure,
    ...(membership.expiresAt !== undefined && { expiresAt: membership.expiresAt }),
    ...(membership.billingPeriodEnd !== undefined && { billingPeriodEnd: membership.billingPeriodEnd }),
    ...(membership.paymentsMade !== undefined && { paymentsMade: membership.paymentsMade }),
  };
  return plan.type === 'subscription' ? renewSubscription(terms, plan) : advanceMultiPayment(terms, plan);
}

function termsPatch(terms: MembershipTerms): MembershipPatch {
  return {
    paymentFailure: false,
    billingPeriodEnd: terms.billingPeriodEnd ?? null,
    ...(terms.paymentsMade !== undefined && { paymentsMade: terms.paymentsMade }),
  };
}
