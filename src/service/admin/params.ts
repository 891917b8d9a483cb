/**
 * Reading query parameters and paging headers. Every malformed value is collected, so one 400
 * names every parameter that is wrong (`path` = the parameter's name). Unknown parameters are
 * ignored; a known one given twice is an error, since either reading could be the wrong one.
 */
import type { ApiError } from '../../contract/admin';
import { parseId, textProblem } from '../domain/validation';
import type { Range } from '../store/queries';
import { AdminError } from './errors';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** RFC 3339 date-time with a zone (`Z` or `±hh:mm`), or a plain date meaning its UTC midnight. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2}))?$/;

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/**
 * Epoch milliseconds, or undefined for text that is not a real RFC 3339 instant. Stored times
 * are whole milliseconds, so finer digits round up: `x >= t` and `x < t` then hold for exactly
 * the stored times they hold for with the exact fraction.
 */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const zone = m[8] ?? 'Z';
  const offsetMinutes = /^[Zz]$/.test(zone) ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (Math.abs(offsetMinutes) >= 24 * 60 || Number(zone.slice(4, 6)) > 59) return undefined;
  const utc = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, 0);
  const fractionMs = m[7] ? Math.ceil(Number(`0.${m[7]}`) * 1000 - 1e-9) : 0;
  return utc.getTime() + fractionMs - offsetMinutes * 60_000;
}

export class QueryReader {
  readonly errors: ApiError[] = [];

  constructor(private readonly params: URLSearchParams) {}

  private raw(name: string): string | undefined {
    const values = this.params.getAll(name);
    if (values.length > 1) {
      this.fail(name, `${name} is given ${values.length} times; give it once`);
      return undefined;
    }
    return values[0];
  }

  fail(path: string, message: string): void {
    this.errors.push({ path, code: 'invalidParameter', message });
  }

  /**
   * A text parameter: 1 to `maxLength` characters of text by the one rule of the service
   * (textProblem: no control character, tab and line breaks included, no lone surrogate), so a
   * NUL never reaches a store (PostgreSQL refuses it with an error of its own).
   */
  string(name: string, maxLength = 500): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (value.length === 0 || value.length > maxLength) {
      this.fail(name, `${name} must be between 1 and ${maxLength} characters`);
      return undefined;
    }
    const problem = textProblem(value);
    if (problem) {
      this.fail(name, `${name} ${problem}`);
      return undefined;
    }
    return value;
  }

  id(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const id = parseId(value);
    if (id === undefined) {
      this.fail(name, `${name} must be a positive integer id without leading zeros, got ${JSON.stringify(value.slice(0, 50))}`);
    }
    return id;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      this.fail(name, `${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value.slice(0, 50))}`);
      return undefined;
    }
    return value as T;
  }

  dateTime(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const ms = parseDateTime(value);
    if (ms === undefined) {
      this.fail(name, `${name} must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z, got ${JSON.stringify(value.slice(0, 50))}`);
    }
    return ms;
  }

  /** `<prefix>After` (inclusive) and `<prefix>Before` (exclusive) as one range. */
  range(after: string, before: string): Range | undefined {
    const from = this.dateTime(after);
    const to = this.dateTime(before);
    if (from === undefined && to === undefined) return undefined;
    return { ...(from !== undefined && { from }), ...(to !== undefined && { to }) };
  }

  /** Throws the 400 when anything was malformed. */
  done(): void {
    if (this.errors.length > 0) throw new AdminError(400, this.errors);
  }
}

export interface PagingHeaders {
  limit: number;
  cursor: string | undefined;
}

/** Reads the paging headers; a bad page size joins the query's errors, so one 400 names all. */
export function readPagingHeaders(headers: Headers, query: QueryReader): PagingHeaders {
  const size = headers.get('x-items-after');
  let limit = DEFAULT_PAGE_SIZE;
  if (size !== null) {
    const n = /^\s*\d{1,3}\s*$/.test(size) ? Number(size) : NaN;
    if (n >= 1 && n <= MAX_PAGE_SIZE) limit = n;
    else query.fail('X-Items-After', `X-Items-After must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const cursor = headers.get('x-cursor') ?? undefined;
  return { limit, cursor };
}
