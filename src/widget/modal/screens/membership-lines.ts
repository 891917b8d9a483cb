import type { Membership, MembershipPrice } from '../../../contract/member';
import { date, perInterval } from '../format';
import type { ScreenContext } from '../screen';
import { el, type Child } from '../ui';

/**
 * What a membership is to its member, as the account's summary and the memberships' cards say
 * it: its state as a badge (ends, expires, a trial's end and the price after it, moves to a
 * cheaper plan, renews), and
 * what it costs them (the price they joined at, GET /memberships).
 */
export function membershipLines({ doc, t, config: { locale } }: ScreenContext, m: Membership, price: MembershipPrice | undefined): Child[] {
  // A trial's end is the first charge, not a renewal.
  const [cls, text] = m.cancelsOn ? ['warn', t.cancelsOn(date(m.cancelsOn, locale))]
    : m.expiresOn ? ['warn', t.expiresOn(date(m.expiresOn, locale))]
      : price?.trialEndsAt ? ['ok', t.trialThen(perInterval(price, t, locale, true), date(price.trialEndsAt, locale))]
        : m.billingPeriodEnd && m.nextPlanName ? ['ok', t.movesTo(m.nextPlanName, date(m.billingPeriodEnd, locale))]
          : m.billingPeriodEnd ? ['ok', t.renewsOn(date(m.billingPeriodEnd, locale))]
          : [];
  return [
    el(doc, 'h3', {}, m.name),
    ' ',
    text ? el(doc, 'span', { class: `badge ${cls}` }, text) : null,
    price && !price.trialEndsAt ? el(doc, 'p', { class: 'terms' }, perInterval(price, t, locale, true)) : null,
  ];
}

/** What each running subscription or instalment plan costs the member, by membership id; none when the call fails (the dates still show). */
export const membershipPrices = async ({ host }: ScreenContext): Promise<Map<number, MembershipPrice>> =>
  new Map((await host.call<MembershipPrice[]>('GET', '/memberships').catch(() => [])).map((p) => [p.id, p]));
