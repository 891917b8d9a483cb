/**
 * One seeded member's payments, as the service would hold them: their memberships with every
 * charge (billing-history.ts), the processor customer every plan sign-up makes, the card the paid
 * sign-ups saved, and a declined first charge (an abandoned conversion) when they had one.
 *
 * Cards are test cards of the built-in processor (docs/test-cards.md), with ids of the form it
 * gives them: `pm_test_ok_…` (4242, 4444) succeeds, `pm_test_declined_…` (0341) is declined. The
 * seed writes the processor's side too (its customer and card records, decision 0029), so the
 * billing run of `svc serve` charges them as it would a card saved through the member API.
 *
 * - A paid sign-up saves a good card: POST /memberships asks for one, even when a trial has
 *   nothing due yet.
 * - A declined first charge (0341) leaves that card saved. A member who later joined a paid plan
 *   entered a good card then, so the attempt is placed before their first paid sign-up; a member
 *   who never did keeps the declined card.
 * - Some members' cards start to fail after their last paid sign-up (they saved 0341 in the
 *   payment method form): their next renewal or instalment fails, is retried, and either waits
 *   for its next attempt now or ended the membership.
 */
import type { ChargeAmounts } from '../billing/quote';
import type { DeclineCode } from '../payments/processor';
import type { EpochMs, NewPaymentMethod, PlanRecord } from '../store/records';
import { amountsOf, membershipHistory, type MembershipHistory, type MembershipStory } from './billing-history';
import type { SeededRandom } from './random';

/** A test card: what the member typed, as the processor keeps it (brand, last four digits). */
const GOOD_CARDS = [
  { brand: 'visa', last4: '4242' },
  { brand: 'mastercard', last4: '4444' },
] as const;
const DECLINED_CARD = { brand: 'visa', last4: '0341' } as const;

/** How often a member's card starts to fail after their last paid sign-up. */
const FAILING_CARD_CHANCE = 0.05;

export interface AbandonedSignUp {
  planId: number;
  at: EpochMs;
  amounts: ChargeAmounts;
  currency: string;
  description: string;
}

export interface MemberBilling {
  histories: MembershipHistory[];
  /** Set once the member signed up to any plan (a free one too) or tried a paid one. */
  processorCustomerId?: string;
  card?: Omit<NewPaymentMethod, 'siteId' | 'memberId'>;
  /** How the processor declines every charge on the card (0341); absent when they succeed. */
  cardDeclineCode?: DeclineCode;
  abandoned?: AbandonedSignUp;
}

/**
 * `key` names the member in processor ids (unique in the site); `attempt` is a declined attempt
 * to join a paid plan, if the member made one (moved before their first paid sign-up, if any).
 */
export function memberBilling(
  rnd: SeededRandom,
  key: string,
  stories: readonly MembershipStory[],
  now: EpochMs,
  attempt?: { plan: Exclude<PlanRecord, { type: 'free' }>; at: EpochMs },
): MemberBilling {
  let histories = stories.map(membershipHistory);
  const paidSignUps = stories.filter((s) => s.plan.type !== 'free').map((s) => s.createdAt);
  const firstPaid = paidSignUps.length > 0 ? Math.min(...paidSignUps) : undefined;
  const lastPaid = paidSignUps.length > 0 ? Math.max(...paidSignUps) : undefined;

  let abandoned: AbandonedSignUp | undefined;
  if (attempt) {
    const at = firstPaid === undefined ? attempt.at : Math.min(attempt.at, firstPaid);
    const { dueNow } = amountsOf(attempt.plan, at);
    // A sign-up with nothing due now charges nothing, so nothing can be declined.
    if (dueNow.grandTotalCents > 0) {
      abandoned = { planId: attempt.plan.id, at, amounts: dueNow, currency: attempt.plan.billing.currency, description: attempt.plan.name };
    }
  }

  // The card that starts to fail: saved after every charge so far, and the latest charge, a
  // renewal or instalment, was the first one declined.
  let failingFrom: EpochMs | undefined;
  const recurring = stories.some((s) => s.plan.type === 'subscription' || s.plan.type === 'multiPayment');
  if (lastPaid !== undefined && recurring && rnd.chance(FAILING_CARD_CHANCE)) {
    const times = histories.flatMap((h) => h.charges.map((c) => c.at)).sort((a, b) => a - b);
    const latest = times.at(-1);
    if (latest !== undefined && latest > lastPaid) {
      const before = Math.max(lastPaid, ...times.filter((t) => t < latest));
      failingFrom = before + 1 + Math.floor((latest - before - 1) * rnd.next());
      histories = stories.map((s) => membershipHistory({ ...s, declinedFrom: latest }));
    }
  }

  const billing: MemberBilling = { histories };
  if (stories.length > 0 || abandoned) billing.processorCustomerId = `cus_test_${key}`;
  if (abandoned) billing.abandoned = abandoned;
  const savedAt = failingFrom ?? firstPaid ?? abandoned?.at;
  if (savedAt !== undefined) {
    const declined = failingFrom !== undefined || firstPaid === undefined;
    const { brand, last4 } = declined ? DECLINED_CARD : rnd.pick(GOOD_CARDS);
    const year = new Date(now).getUTCFullYear();
    billing.card = {
      processorId: `pm_test_${declined ? 'declined' : 'ok'}_${key}`,
      brand,
      last4,
      expMonth: rnd.int(1, 12),
      // Good for at least another year, so every charge the billing run makes finds it valid.
      expYear: year + rnd.int(1, 4),
      createdAt: savedAt,
    };
    if (declined) billing.cardDeclineCode = 'card_declined';
  }
  return billing;
}
