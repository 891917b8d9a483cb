import { answer } from './answer';
import { JSON_CONTENT_SECURITY_POLICY } from './security-headers';

/**
 * Every JSON body the service sends goes through here, so the media type is never forgotten; its
 * headers stay plain on the way out (./answer). The security headers every JSON answer gets
 * (./security-headers) are set from the start, so adding them on the way out changes nothing.
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return answer(JSON.stringify(body), status, {
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    'content-security-policy': JSON_CONTENT_SECURITY_POLICY,
    ...headers,
  });
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** Years 1000 to 9999: four digits, as `toISOString` writes them; outside, it answers itself. */
const FIRST_MS = Date.UTC(1000, 0, 1);
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A time as JSON bodies carry it, exactly `new Date(ms).toISOString()` (`2026-03-01T12:00:00.000Z`),
 * in a quarter of its time: a page of 25 members spent half its serialising in `toISOString`
 * (docs/decisions/0027-request-cost.md). Days to a civil date after Howard Hinnant's
 * `civil_from_days` (proleptic Gregorian, as Date).
 */
export function isoTime(ms: number): string {
  if (!(ms >= FIRST_MS && ms <= LAST_MS) || ms % 1 !== 0) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  // Days since 0000-03-01, in 400-year eras of 146,097 days: leap days fall at the ends of years.
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  const year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
