/**
 * The notices billing sends a member (issue 15): a receipt for each payment, a word when a
 * renewal's payment fails, and a reminder a week before a membership ends. Each is a mail queued
 * in the same store write as what causes it, or (the reminder) once per membership and end date;
 * each can be turned off in the site's mail settings.
 */
import { sendsNotice, siteHome, siteMail, withSvcopen } from '../domain/site-mail';
import type { MemberRecord, NewInvoice, NewMail, PlanRecord, SiteRecord } from '../store/records';
import { formatMoney } from './money';

/** How long before its end a membership's member is told. */
export const ENDING_NOTICE_MS = 7 * 24 * 3600_000;

/** A date in the site's language, as the widget shows dates: "December 25, 2026". */
export const longDate = (at: number, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);

const screen = (site: SiteRecord, path: string) => withSvcopen(siteHome(site), path);

/** The receipt for a paid invoice, as a list of none or one, ready for createInvoice. */
export function receiptMails(site: SiteRecord, member: MemberRecord, plan: PlanRecord, invoice: NewInvoice): NewMail[] {
  if (invoice.status !== 'paid' || !sendsNotice(site, 'receipt')) return [];
  return [
    siteMail(site, member.email, {
      kind: 'receipt',
      planName: plan.name,
      amount: formatMoney(invoice.totalCents, invoice.currency, site.locale),
      date: longDate(invoice.createdAt, site.locale),
      description: invoice.description,
      link: screen(site, '/member/invoices'),
    }, invoice.createdAt),
  ];
}

/** Told once per missed payment (its due date), however many times it is retried. */
export function paymentFailedMails(
  site: SiteRecord,
  member: MemberRecord,
  plan: PlanRecord,
  membershipId: number,
  dueAt: number,
  amount: string,
  now: number,
  reason?: string,
): NewMail[] {
  if (!sendsNotice(site, 'paymentFailed')) return [];
  // The same screen either way: its "Pay now" lets the bank ask (member/pay-now.ts).
  const template = {
    kind: 'paymentFailed' as const, planName: plan.name, amount, link: screen(site, '/member/payment_method/update'),
    ...(reason === 'authentication_required' && { bankAsks: true }),
  };
  return [siteMail(site, member.email, template, now, `paymentFailed:${membershipId}:${dueAt}`)];
}

/** Told once per membership and end date: a membership cancelled, resumed and cancelled again is told again. */
export function endingSoonMails(site: SiteRecord, member: MemberRecord, plan: PlanRecord, membershipId: number, endsAt: number, now: number): NewMail[] {
  if (!sendsNotice(site, 'endingSoon')) return [];
  const template = { kind: 'endingSoon' as const, planName: plan.name, endsOn: longDate(endsAt, site.locale), link: screen(site, '/member/plans/all') };
  return [siteMail(site, member.email, template, now, `endingSoon:${membershipId}:${endsAt}`)];
}
