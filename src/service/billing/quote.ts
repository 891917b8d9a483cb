/**
 * What a plan costs a member signing up now: what the sign-up screen shows and what the first
 * charge takes, in minor units (money.ts). docs/decisions/0013-plan-pricing.md has the reasons.
 *
 * - Prices are tax-exclusive: `taxPercentage` is added on top, once per charge, on the charge's
 *   whole subtotal (price plus sign-up fee), rounded half-up to the minor unit.
 * - Due now: free 0; one-time the price; multi-payment and subscription the first instalment or
 *   period plus the sign-up fee; with a trial nothing (a trial and a fee never come together).
 * - A subscription with a fixed billing date is charged a whole period at sign-up, without
 *   proration, and that period runs until the next fixed date (`billingPeriodEnd`); with a
 *   trial the first charge is at the trial's end and the fixed dates apply from then on.
 */
import type { BillingDate, Interval, PlanType } from '../../contract/admin';
import type { EpochMs, PlanRecord } from '../store/records';
import { firstChargeAt, newMembershipTerms } from './membership-terms';
import { percentOf, toMinor } from './money';

export interface ChargeAmounts {
  subTotalCents: number;
  taxCents: number;
  grandTotalCents: number;
}

/** The charge that repeats: each instalment of a multi-payment plan, each subscription period. */
export interface RecurringCharge {
  /** What each charge takes, tax included. */
  amountCents: number;
  subTotalCents: number;
  taxCents: number;
  interval: Interval;
  /** Multi-payment only: how many instalments in all, the first one included. */
  paymentCount?: number;
  /** The first of these charges: at sign-up (then part of `dueNow`) or at the end of the trial. */
  firstChargeAt: EpochMs;
}

export interface PlanQuote {
  type: PlanType;
  /** Lower-case ISO 4217 code; absent on free plans. */
  currency?: string;
  dueNow: ChargeAmounts;
  recurring?: RecurringCharge;
  trialDays?: number;
  /** Before tax; the tax on it is in `dueNow`. */
  signupFeeCents?: number;
  taxPercentage?: number;
  /** When access ends (free, one-time and multi-payment plans with an expiration). */
  expiresAt?: EpochMs;
  /** When the next charge after sign-up is due: the new membership's `billingPeriodEnd`. */
  billingPeriodEnd?: EpochMs;
  /** Subscriptions billed on a fixed day of the month or year. */
  billingDate?: BillingDate;
}

const NOTHING: ChargeAmounts = { subTotalCents: 0, taxCents: 0, grandTotalCents: 0 };

export function quotePlan(plan: PlanRecord, now: EpochMs): PlanQuote {
  const terms = newMembershipTerms(plan, now);
  const dates = {
    ...(terms.expiresAt !== undefined && { expiresAt: terms.expiresAt }),
    ...(terms.billingPeriodEnd !== undefined && { billingPeriodEnd: terms.billingPeriodEnd }),
  };
  if (plan.type === 'free') return { type: plan.type, dueNow: { ...NOTHING }, ...dates };

  const { currency, taxPercentage } = plan.billing;
  const charge = (subTotalCents: number): ChargeAmounts => {
    const taxCents = taxPercentage ? percentOf(subTotalCents, taxPercentage) : 0;
    return { subTotalCents, taxCents, grandTotalCents: subTotalCents + taxCents };
  };
  const priceCents = toMinor(plan.billing.price, currency);
  const common = { type: plan.type, currency, ...(taxPercentage !== undefined && { taxPercentage }), ...dates };
  if (plan.type === 'oneTimePayment') return { ...common, dueNow: charge(priceCents) };

  const { interval, trialPeriodDays, signupFee } = plan.billing;
  const each = charge(priceCents);
  const recurring: RecurringCharge = {
    amountCents: each.grandTotalCents,
    subTotalCents: each.subTotalCents,
    taxCents: each.taxCents,
    interval: { ...interval },
    ...(plan.type === 'multiPayment' && { paymentCount: plan.billing.paymentCountRequired }),
    firstChargeAt: firstChargeAt(plan.billing, now),
  };
  const signupFeeCents = signupFee !== undefined ? toMinor(signupFee, currency) : undefined;
  return {
    ...common,
    dueNow: trialPeriodDays ? { ...NOTHING } : charge(priceCents + (signupFeeCents ?? 0)),
    recurring,
    ...(trialPeriodDays && { trialDays: trialPeriodDays }),
    ...(signupFeeCents !== undefined && { signupFeeCents }),
    ...(plan.type === 'subscription' && plan.billing.billingDate && { billingDate: { ...plan.billing.billingDate } }),
  };
}
