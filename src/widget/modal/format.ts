/** Money, dates and intervals in the site's language, by the browser's Intl: no tables here. */
import type { PlanOffer, RecurringPrice } from '../../contract/member';
import type { Messages } from './messages';

export function money(cents: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  // The currency's minor digits, as Intl knows them (0 for JPY, 3 for KWD, 2 mostly).
  return format.format(cents / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A card brand as people write it: `visa` → Visa, `amex` → American Express; an unknown one: nothing. */
export const brandName = (brand: string): string =>
  brand === 'amex' ? 'American Express' : brand === 'unknown' ? '' : brand.charAt(0).toUpperCase() + brand.slice(1);

export const date = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

const monthName = (month: number, locale: string): string =>
  new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, month - 1, 1));

/** "$12.00 / month", "$60.00 / 3 months" for each later charge: before tax, or with it (`taxed`). */
export function perInterval(offer: Pick<PlanOffer, 'currency'> & { recurring?: RecurringPrice }, t: Messages, locale: string, taxed?: boolean): string {
  const { count, unit } = offer.recurring!.interval;
  const per = count === 1 ? t.units[unit] : new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(count);
  return `${money(taxed ? offer.recurring!.amountCents : offer.recurring!.subTotalCents, offer.currency!, locale)} / ${per}`;
}

/** "$12.00 / month", "$60.00 / 3 months", "$199.00 once", "Free". */
export function price(offer: PlanOffer, t: Messages, locale: string): string {
  if (!offer.currency) return t.free;
  return offer.recurring ? perInterval(offer, t, locale) : `${money(offer.dueNow.subTotalCents, offer.currency, locale)} ${t.once}`;
}

/** A tax percentage as people write it in the site's language: "20%" in English, "20 %" in German. */
export const percent = (value: number, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

/**
 * The lines that say what else signing up means: trial, fee, instalments, tax, dates. The fee and
 * the tax are left to the order summary where there is one (`summary`: the plan's sign-up).
 */
export function terms(offer: PlanOffer, t: Messages, locale: string, summary?: boolean): string[] {
  const lines: string[] = [];
  if (offer.trialDays) lines.push(t.trial(offer.trialDays));
  if (offer.signupFeeCents && offer.currency && !summary) lines.push(`${t.signupFee}: ${money(offer.signupFeeCents, offer.currency, locale)}`);
  if (offer.recurring?.paymentCount) lines.push(t.payments(offer.recurring.paymentCount));
  if (offer.taxPercentage && !summary) lines.push(t.tax(percent(offer.taxPercentage, locale)));
  if (offer.billingDate) {
    const { day, month } = offer.billingDate;
    lines.push(t.billedOn(day, month ? monthName(month, locale) : undefined));
  }
  if (offer.expiresAt) lines.push(t.accessUntil(date(offer.expiresAt, locale)));
  return lines;
}
