/** Plans as the widget's sign-up screens show them (PlanOffer), priced by quotePlan. */
import type { PlanOffer } from '../../contract/member';
import { quotePlan } from '../billing/quote';
import { byListOrder } from '../domain/plan-order';
import type { PlanRecord } from '../store/records';
import type { Store } from '../store/store';
import { WIDGET_TYPES } from './member-info';

const iso = (ms: number) => new Date(ms).toISOString();

export function toPlanOffer(plan: PlanRecord, now: number): PlanOffer {
  const quote = quotePlan(plan, now);
  const taxDescription = plan.type === 'free' ? undefined : plan.billing.taxDescription;
  return {
    id: plan.id,
    publicId: plan.publicId,
    name: plan.name,
    ...(plan.description !== undefined && { description: plan.description }),
    type: WIDGET_TYPES[plan.type],
    ...(quote.currency !== undefined && { currency: quote.currency }),
    dueNow: quote.dueNow,
    ...(quote.recurring && {
      recurring: {
        amountCents: quote.recurring.amountCents,
        subTotalCents: quote.recurring.subTotalCents,
        taxCents: quote.recurring.taxCents,
        interval: quote.recurring.interval,
        ...(quote.recurring.paymentCount !== undefined && { paymentCount: quote.recurring.paymentCount }),
        firstChargeAt: iso(quote.recurring.firstChargeAt),
      },
    }),
    ...(quote.trialDays !== undefined && { trialDays: quote.trialDays }),
    ...(quote.signupFeeCents !== undefined && { signupFeeCents: quote.signupFeeCents }),
    ...(quote.taxPercentage !== undefined && { taxPercentage: quote.taxPercentage }),
    ...(taxDescription !== undefined && { taxDescription }),
    ...(quote.expiresAt !== undefined && { expiresAt: iso(quote.expiresAt) }),
    ...(quote.billingPeriodEnd !== undefined && { billingPeriodEnd: iso(quote.billingPeriodEnd) }),
    ...(quote.billingDate && { billingDate: quote.billingDate }),
    ...(plan.welcomeUrl !== undefined && { welcomeUrl: plan.welcomeUrl }),
    ...(plan.highlight && { highlight: true as const }),
    ...(plan.features?.length && { features: plan.features }),
  };
}

/**
 * The plans open for sign-up: enabled ones (listed or not; a sign-up link may name an unlisted
 * one), in the site's order (the site file's; plans made without a position after, by id).
 */
export async function openPlans(store: Store, siteId: number): Promise<PlanRecord[]> {
  return (await store.listPlans(siteId, { statuses: ['enabled'] }, { limit: 1000 })).items.sort(byListOrder);
}

/** The open plans the site lists publicly (GET /plans, and the plans offered for content). */
export async function listedPlans(store: Store, siteId: number): Promise<PlanRecord[]> {
  return (await openPlans(store, siteId)).filter((p) => p.isPublic);
}

/**
 * The open plan with that public id, or else with that key (the owner's name for it in the site
 * file, so a sign-up link can say `yearly`); undefined when there is none.
 */
export async function findOpenPlan(store: Store, siteId: number, ref: string): Promise<PlanRecord | undefined> {
  const plans = await openPlans(store, siteId);
  return plans.find((p) => p.publicId === ref) ?? plans.find((p) => p.key === ref);
}
