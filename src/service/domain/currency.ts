/**
 * Currencies a site may charge in: the codes of ISO 4217 (the `currency-codes` package carries
 * the list ISO publishes), less the ones that are not money a member can pay with.
 */
import { code as isoCode } from 'currency-codes';
import { z } from 'zod';

/**
 * In ISO 4217 but not for prices: precious metals, IMF and development-bank units, fund codes,
 * and the codes reserved for testing and for "no currency".
 */
const NOT_MONEY = new Set([
  'XAU', 'XAG', 'XPD', 'XPT', 'XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX',
  'BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW',
]);

/** Whether `code` (any case) is an ISO 4217 currency a price can be in. */
export function isCurrency(code: string): boolean {
  const upper = code.toUpperCase();
  return /^[A-Z]{3}$/.test(upper) && !NOT_MONEY.has(upper) && isoCode(upper) !== undefined;
}

/** A currency code as a site owner writes it (`usd`, `EUR`), kept lower-case as the service stores it. */
export const isoCurrency = z
  .string()
  .refine(isCurrency, { error: (issue) => `must be an ISO 4217 currency code such as usd or eur (${JSON.stringify(issue.input)} is not one)` })
  .transform((c) => c.toLowerCase());
