/**
 * What changing a running subscription to another plan would do, by the rules of
 * docs/decisions/0036-changing-plans.md: an upgrade (a higher price per day) now, the unused part
 * of the period paid for credited by the day; a downgrade at the period's end; during a trial, now
 * and free, the trial's end kept. Pure arithmetic on the membership and the two plans: the quote
 * the member API answers before a change, and what a change will charge.
 */
import type { IntervalUnit } from '../../contract/admin';
import type { EpochMs, MembershipRecord, PlanRecord } from '../store/records';
import { addInterval, DAY_MS } from './calendar';
import { inTrial, subscriptionPeriodEnd } from './membership-terms';
import { percentOf } from './money';
import { quotePlan, type ChargeAmounts, type RecurringCharge } from './quote';

export interface PlanChangeQuote {
  /** `now`: an upgrade, or any change during a trial; `periodEnd`: a downgrade, at the renewal. */
  when: 'now' | 'periodEnd';
  /** The two plans' currency. */
  currency: string;
  /** Before tax: what the unused part of the period paid for is worth (an upgrade's; else 0). */
  creditCents: number;
  /** Charged at the change: an upgrade's new period less the credit, with the new plan's tax. */
  dueNow: ChargeAmounts;
  /** The charge after that, at the new plan's price (tax included), and when. */
  next: { amountCents: number; at: EpochMs };
}

/** Why a membership cannot change to a plan (409 `notChangeable` on the member API). */
export class NotChangeableError extends Error {
  override readonly name = 'NotChangeableError';
}

/** Average days in an interval unit: enough to compare prices per day across intervals. */
const UNIT_DAYS: Record<IntervalUnit, number> = { day: 1, week: 7, month: 365.25 / 12, year: 365.25 };

/** A subscription's price per day, before tax. */
const perDay = ({ subTotalCents, interval }: RecurringCharge) => subTotalCents / (interval.count * UNIT_DAYS[interval.unit]);

/**
 * The quote of changing `membership` (on `current`, priced as the member joined it: renewals.ts
 * `asJoined`) to `target` at `now`. Throws NotChangeableError for a change the rules refuse.
 */
export function quotePlanChange(membership: MembershipRecord, current: PlanRecord, target: PlanRecord, now: EpochMs): PlanChangeQuote {
  const end = membership.billingPeriodEnd;
  if (current.type !== 'subscription' || membership.status !== 'active' || end === undefined || end <= now) {
    throw new NotChangeableError('Only a running subscription changes plan (an instalment plan is paid to its end)');
  }
  if (target.type !== 'subscription') throw new NotChangeableError(`${target.name} is not a subscription: join it beside what you have`);
  if (target.id === current.id) throw new NotChangeableError(`You are on ${target.name} already`);
  if (target.billing.currency !== current.billing.currency) throw new NotChangeableError(`${target.name} is billed in another currency`);
  const next = quotePlan(target, now).recurring!;
  const was = quotePlan(current, now).recurring!;
  const { currency } = target.billing;
  const nothing: ChargeAmounts = { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 };
  // During a trial: now and free; the first charge stays at the trial's end, at the new price.
  if (inTrial(current.billing, membership)) return { when: 'now', currency, creditCents: 0, dueNow: nothing, next: { amountCents: next.amountCents, at: end } };
  if (perDay(next) <= perDay(was)) return { when: 'periodEnd', currency, creditCents: 0, dueNow: nothing, next: { amountCents: next.amountCents, at: end } };

  // An upgrade: the days left of what was paid for this period, by the day, rounded down.
  const { interval } = current.billing;
  const start = Math.max(membership.createdAt, addInterval(end, -interval.count, interval.unit));
  const periodDays = Math.max(1, Math.round((end - start) / DAY_MS));
  const daysLeft = Math.min(periodDays, Math.floor((end - now) / DAY_MS));
  const creditCents = Math.floor((was.subTotalCents * daysLeft) / periodDays);
  const subTotalCents = Math.max(0, next.subTotalCents - creditCents);
  const taxCents = target.billing.taxPercentage ? percentOf(subTotalCents, target.billing.taxPercentage) : 0;
  // A new period starts now (a fixed billing date: its next one, as a sign-up's first period).
  // A credit worth more than the new period is not lost: the period runs longer by the days it pays for.
  const leftover = creditCents - next.subTotalCents;
  const at = subscriptionPeriodEnd(target.billing, now) + (leftover > 0 ? Math.floor(leftover / perDay(next)) * DAY_MS : 0);
  return { when: 'now', currency, creditCents, dueNow: { subTotalCents, taxCents, grandTotalCents: subTotalCents + taxCents }, next: { amountCents: next.amountCents, at } };
}
