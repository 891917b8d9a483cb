/**
 * Reading query parameters and paging headers. Every malformed value is collected, so one 400
 * names every parameter that is wrong (`path` = the parameter's name). Unknown parameters are
 * ignored; a known one given twice is an error, since either reading could be the wrong one.
 */
import type { ApiError } from '../../contract/admin';
import type { Range } from '../store/queries';
import { AdminError } from './errors';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** RFC 3339 date-time with a zone (`Z` or `±hh:mm`), or a plain date meaning its UTC midnight. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2}))?$/;

export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', , zone = 'Z'] = m;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${m[7] ? m[7].slice(0, 4) : ''}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 31 April over to 1 May; a date that does not exist is an error instead.
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return ms;
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

  string(name: string, maxLength = 500): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (value.length === 0 || value.length > maxLength) {
      this.fail(name, `${name} must be between 1 and ${maxLength} characters`);
      return undefined;
    }
    return value;
  }

  id(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1)) {
      this.fail(name, `${name} must be a positive integer id, got ${JSON.stringify(value.slice(0, 50))}`);
      return undefined;
    }
    return n;
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

export function readPagingHeaders(headers: Headers): PagingHeaders {
  const size = headers.get('x-items-after');
  let limit = DEFAULT_PAGE_SIZE;
  if (size !== null) {
    limit = /^\s*\d{1,3}\s*$/.test(size) ? Number(size) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) {
      throw AdminError.of(400, 'invalidParameter', `X-Items-After must be an integer from 1 to ${MAX_PAGE_SIZE}`, 'X-Items-After');
    }
  }
  const cursor = headers.get('x-cursor') ?? undefined;
  return { limit, cursor };
}
