/**
 * Arbitraries for requests a client could send, careless and hostile ones included: paths,
 * methods, query strings, page sizes, and near misses of real keys and cursors.
 */
import fc from 'fast-check';
import { MEMBER_STATUSES, MEMBERSHIP_STATUSES, PLAN_TYPES } from '../../../src/contract/admin';
import { BAD_DATE_TIMES } from '../helpers';

const KNOWN_SEGMENTS = ['admin', 'v1', 'v2', 'sites', 'plans', 'members', 'memberships', 'memberEvents', 'contentLibrary', 'views', 'invoices', 'openapi.json', 'healthz', '1', '2', '17', '999999'];
const ODD_SEGMENTS = [
  '..', '.', '', '%2e%2e', '%2E', '%2F', '%2f..', '..%2f', '%00', '%E0%A4%A', '%', '%%', '%zz', '%C3%A9', '%FF', '%ED%A0%80',
  'é', '☃', '😀', ';', ';a=b', '@', ':', '~', '*', '$', '+', ' ', '%20', '\\', '..\\..', 'plans%2F1', '1%00', 'sites.json',
  'Sites', 'PLANS', '1e3', '0x1', '-0', '-1', '00001', '1.0', '9'.repeat(30), '%u0041', '?', '#', '&',
];

const BROKEN_ENCODINGS = ['%E0%A4%A', '%', '%%', '%zz', '%C3', '%FF%FE', '%00', '%2', '%u0041', '%ED%A0%80', '%C0%AF', '+', '%2B', '&', '=', '==', '%3D', '%26', '%0A', '%0D%0A'];

/** Every filter parameter some list endpoint knows. */
export const KNOWN_PARAMS = [
  'type', 'status', 'planId', 'memberId', 'nodeId', 'firstName', 'lastName', 'email', 'createdAfter', 'createdBefore',
  'billingPeriodEndAfter', 'billingPeriodEndBefore', 'expiresAfter', 'expiresBefore', 'viewedAfter', 'viewedBefore',
];

/** Printable ASCII plus Latin-1: what a header value can carry. */
export const headerText = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength }),
  );

const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...KNOWN_SEGMENTS) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }).map((n) => 'x'.repeat(n * 100)) },
);

/** encodeURIComponent, or the text as it is when it holds a lone surrogate. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
};

const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KNOWN_PARAMS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ENCODINGS) },
  { weight: 1, arbitrary: fc.constantFrom('Status', 'planid', 'status[]', 'created_after', 'limit', 'cursor', '') },
);
const paramValue = fc.oneof(
  fc.constantFrom(...PLAN_TYPES, 'enabled', 'disabled', 'deleted', 'archived', ...MEMBERSHIP_STATUSES, ...MEMBER_STATUSES),
  fc.integer({ min: -5, max: 250 }).map(String),
  fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(...BAD_DATE_TIMES, '2025-06-01', '2025-06-01T00:00:00+02:00', '2025-06-01T00:00:00.123456789Z'),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(...BROKEN_ENCODINGS),
  fc.integer({ min: 1, max: 3000 }).map((n) => 'z'.repeat(n)),
);

/** A query string as clients, careless ones included, write them: encoded, raw, or a bare name. */
export const rawQuery = fc
  .array(fc.tuple(paramName, paramValue, fc.constantFrom('encoded', 'encoded', 'raw', 'bare')), { maxLength: 6 })
  .map((pairs) =>
    pairs.map(([k, v, mode]) => (mode === 'encoded' ? `${encode(k)}=${encode(v)}` : mode === 'raw' ? `${k}=${v}` : k)).join('&'),
  );

/** The reads' paths: the owner's actions would act on the fixture, which these runs must leave as it is. */
const ROUTE_PATHS = ['/sites', '/plans', '/plans/1', '/plans/9', '/members', '/memberships', '/memberEvents', '/contentLibrary/views', '/invoices', '/invoices/1'];

/** Random segments under odd prefixes, or a real route (with a random query) to reach past routing. */
export const requestPath = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ROUTE_PATHS), fc.option(rawQuery)).map(([r, q]) => `/admin/v1${r}${q === null ? '' : `?${q}`}`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/admin/v1', '/admin/v1', '/admin/v1', '/admin', '', '//admin/v1', '/admin//v1', '/Admin/V1', '/admin/v1/', '/admin/v1/..', '/admin/v1/.', '/admin/v2'),
        fc.array(segment, { maxLength: 5 }),
        fc.option(rawQuery),
      )
      .map(([prefix, segments, query]) => `${prefix}/${segments.join('/')}${query === null ? '' : `?${query}`}`),
  },
);

/** Mostly GET, then the other methods a client sends, then any token (but the ones fetch refuses). */
export const requestMethod = fc.oneof(
  { weight: 6, arbitrary: fc.constant('GET') },
  { weight: 4, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get', 'post', 'patch', 'PROPFIND', 'M-SEARCH', 'FOO') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z]{1,12}$/).filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m.toUpperCase())) },
);

/** One character changed, dropped or added, anywhere but in the spare bits of a cursor's last digit. */
export function mutated(text: string, alphabet: string, avoidLast = false): fc.Arbitrary<string> {
  const last = avoidLast ? text.length - 1 : text.length;
  return fc
    .tuple(fc.nat({ max: Math.max(0, last - 1) }), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'delete', 'insert', 'truncate'))
    .map(([i, c, how]) => {
      if (how === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
      if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
      if (how === 'insert') return text.slice(0, i) + c + text.slice(i);
      return text.slice(0, i);
    })
    .filter((m) => m !== text);
}

/** An X-Items-After header: none, in range, out of range, or spelled oddly. */
export const itemsAfter = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -5, max: 205 }).map(String),
  fc.constantFrom(' 5', '5 ', '05', '1e1', '0x10', '+5', '5.0', '', '١', '1_0', '100', '1'),
  headerText(12),
);
