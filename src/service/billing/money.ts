/**
 * Amounts in minor units (cents, or yen for JPY): every sum, tax and charge is an integer, so
 * nothing drifts the way 0.1 + 0.2 does. Plans store prices as numbers in major units (19.99);
 * they become minor units once, here.
 *
 * Minor digits follow ISO 4217, cross-checked with the currencies payment processors (Stripe)
 * treat as zero- and three-decimal. HUF and TWD have two digits in ISO 4217 and stay at two;
 * a processor that wants them (or ISK) written differently converts in its own adapter.
 */

/** ISO 4217 currencies without a minor unit (Stripe's zero-decimal list, plus ISK). */
const ZERO_DIGITS = new Set([
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
]);
/** ISO 4217 currencies with three minor digits (dinars and rials). */
const THREE_DIGITS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** How many digits the currency's minor unit has: 0, 2 or 3. Case-insensitive; unknown codes get 2. */
export function minorDigits(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DIGITS.has(code)) return 0;
  if (THREE_DIGITS.has(code)) return 3;
  return 2;
}

/**
 * A major-unit amount in minor units, rounded half-up to the nearest one. The amount is read as
 * the decimal it prints as, so 19.99 is 1999 and 1.005 is 101 (not the 100 that
 * `Math.round(1.005 * 100)` gives, as 1.005 * 100 is 100.49999999999999 in floating point).
 */
export function toMinor(amount: number, currency: string): number {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`amount must be a finite non-negative number, got ${amount}`);
  const { units, scale } = asDecimal(amount);
  return checkedInteger(roundHalfUp(units * 10n ** BigInt(minorDigits(currency)), 10n ** BigInt(scale)));
}

/** Minor units back in major units, for display and for the order's `subTotal`/`grandTotal`. */
export function fromMinor(minor: number, currency: string): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`minor units must be an integer, got ${minor}`);
  return minor / 10 ** minorDigits(currency);
}

/**
 * `percentage` percent of an amount in minor units, rounded half-up to the minor unit:
 * 7.5% of 1999 is 149.925 → 150; 4.6% of 750 is 34.5 → 35 (floating point says 34.49999…).
 */
export function percentOf(minor: number, percentage: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`minor units must be a non-negative integer, got ${minor}`);
  if (!Number.isFinite(percentage) || percentage < 0) throw new RangeError(`percentage must be non-negative, got ${percentage}`);
  const { units, scale } = asDecimal(percentage);
  return checkedInteger(roundHalfUp(BigInt(minor) * units, 100n * 10n ** BigInt(scale)));
}

/** A non-negative finite number as an exact decimal fraction `units / 10^scale`, from its shortest printed form. */
function asDecimal(x: number): { units: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!match) throw new RangeError(`not a plain decimal: ${x}`);
  const [, whole, fraction = '', exponent = '0'] = match;
  const scale = fraction.length - Number(exponent);
  const units = BigInt(whole! + fraction);
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

/** numerator / denominator for non-negative operands, halves rounded up. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

function checkedInteger(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount too large: ${value} minor units`);
  return n;
}

/** Currency-formatted text in the site's language, as the Admin API's `amount` in event details is. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(fromMinor(minor, currency));
}
