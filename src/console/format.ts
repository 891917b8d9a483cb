/** How numbers, money and times read on the page, in the browser's language. */
import { fromMinor } from '../service/billing/money';

const numbers = new Intl.NumberFormat();

export const count = (n: number): string => numbers.format(n);

/** An amount in a currency's major unit (`12.5`, `usd`) as `$12.50`. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(amount);
  } catch {
    // A code Intl does not know still reads: `12.50 XYZ`.
    return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** An amount in minor units (an invoice's cents, or yen) as money, with the service's own digits per currency. */
export const minor = (amount: number, currency: string): string => money(fromMinor(amount, currency), currency);

/** `2026-03-02 14:05 UTC`: the API's times, in UTC as it gives them, to the minute. */
export function dateTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const day = (iso: string | undefined): string => (iso ? iso.slice(0, 10) : '');
