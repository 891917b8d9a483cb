/**
 * What a membership pays, in the words of a member's page: nothing when it is comped or on a
 * free plan, else its price and how often: the price it joined at when its plan's has changed
 * since (the API's `joinedBilling`, what renewals charge, so the page says so), or its plan's.
 */
import type { Interval, Membership, Plan } from '../../contract/admin';

type Billing = NonNullable<Membership['joinedBilling']>;
import { money } from '../format';
import { isRecurringBilling } from '../metrics/mrr';

const every = ({ count, unit }: Interval): string => (count === 1 ? `every ${unit}` : `every ${count} ${unit}s`);

export function membershipPays(membership: Membership, plan: Plan | undefined): string {
  if (membership.comp) return 'nothing (given for free)';
  if (membership.type === 'free') return 'nothing (a free plan)';
  const billing: Billing | undefined = membership.joinedBilling ?? (plan && plan.type !== 'free' ? plan.billing : undefined);
  // A plan the key cannot read (read.plans) and no price of its own: nothing to say.
  if (!billing) return '';
  const price = money(billing.price, billing.currency);
  const how = isRecurringBilling(billing) ? `${price} ${every(billing.interval)}` : `${price} once`;
  return membership.joinedBilling ? `${how}, the price it joined at` : how;
}
