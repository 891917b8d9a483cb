/** Date-times on the wire: how the suites spell them, compare them, and which spellings are malformed. */

/** RFC 3339 date-time, as OpenAPI's `format: date-time`. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const iso = (ms: number) => new Date(ms).toISOString();

/** Date-times compared as instants: any RFC 3339 spelling of the same moment is equal. */
export function sameInstants<T>(value: T): T {
  if (typeof value === 'string' && DATE_TIME.test(value)) return new Date(Date.parse(value)).toISOString() as T;
  if (Array.isArray(value)) return value.map(sameInstants) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sameInstants(v)])) as T;
  }
  return value;
}

/** Malformed date-time values a range parameter must refuse. */
export const BAD_DATE_TIMES = [
  'yesterday',
  'now',
  '1700000000000',
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29',
  '2024-01-01T24:00:00Z',
  '2024-01-01T12:60:00Z',
  '2024-01-01T12:00:00',
  '2024-01-01T12:00:00+2:00',
  '2024-1-1',
  '01/02/2024',
  '',
  ' ',
  '2024-01-01T00:00:00Zjunk',
];
