/**
 * The HTTP pieces the operations share: query parameter builders (names and rules of
 * ../params.ts), the paging headers of ../list-endpoint.ts, and the error responses of
 * ../auth.ts and ../app.ts.
 */
import type { ErrorCode } from '../../../contract/admin';
import { TEXT_RULE } from '../../domain/validation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../params';
import { componentRef, json, type OpenApiObject } from '../../openapi/document';
import { errorBodyWith, type Schema } from './schemas';

export { componentRef, json, type OpenApiObject } from '../../openapi/document';

// ------------------------------------------------------------------------------ Query parameters

const query = (name: string, description: string, schema: Schema): OpenApiObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** `^[1-9][0-9]{0,14}$` (QueryReader.id, domain/validation.ts parseId). */
export const idParameter = (name: string, description: string) =>
  query(
    name,
    `${description} A positive integer id written as digits alone: \`0372\`, \`372.0\`, \`+372\` or \`3.72e2\` ` +
      'answers 400 `invalidParameter`.',
    { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 },
  );

/**
 * 1–maxLength characters, exact match (QueryReader.string), text by the service's one rule
 * (TEXT_RULE: no control character; a lone surrogate cannot travel in a URL at all).
 */
export const stringParameter = (name: string, description: string, maxLength = 500) =>
  query(name, `${description} Exact match. No control characters (400 otherwise).`, {
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: TEXT_RULE.oneLine.pattern,
  });

export const enumParameter = (name: string, values: readonly string[], description: string) =>
  query(name, description, { type: 'string', enum: [...values] });

/** RFC 3339 date-time with a zone, or a plain date meaning its UTC midnight (parseDateTime). */
const dateTimeSchema: Schema = {
  type: 'string',
  // A type in each branch too: generators that read one branch at a time (openapi-typescript) see a string.
  anyOf: [{ type: 'string', format: 'date-time' }, { type: 'string', format: 'date' }],
  examples: ['2026-01-31T00:00:00Z', '2026-01-31'],
};

/** The `<prefix>After` (inclusive) and `<prefix>Before` (exclusive) pair of one time range. */
export function rangeParameters(prefix: string, what: string): OpenApiObject[] {
  const tail = 'An RFC 3339 date-time with a zone (`Z` or `±hh:mm`), or a plain date meaning 00:00 UTC that day.';
  return [
    query(`${prefix}After`, `Only items whose ${what} is at or after this time (inclusive). ${tail}`, dateTimeSchema),
    query(`${prefix}Before`, `Only items whose ${what} is before this time (exclusive). ${tail}`, dateTimeSchema),
  ];
}

export const parameters: Record<string, OpenApiObject> = {
  XCursor: {
    name: 'X-Cursor',
    in: 'header',
    required: false,
    description:
      'The `X-Next-Cursor` of the previous page; omit it for the first page. Cursors are opaque and bound to ' +
      'the endpoint, the site and the exact filters: any other value answers 400 `invalidCursor`.',
    schema: { type: 'string' },
  },
  XItemsAfter: {
    name: 'X-Items-After',
    in: 'header',
    required: false,
    description: `Page size, an integer from 1 to ${MAX_PAGE_SIZE}; anything else answers 400 \`invalidParameter\`.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
};

export const pagingParameters = [componentRef('parameters', 'XCursor'), componentRef('parameters', 'XItemsAfter')];

// ------------------------------------------------------------------------------------- Headers

export const headers: Record<string, OpenApiObject> = {
  CacheControl: {
    description: 'Always `no-store`, errors included: answers hold member data, so no browser or proxy keeps a copy.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  XHasMoreItemsAfter: {
    description: '`true` when more items follow this page, else `false`.',
    required: true,
    schema: { type: 'boolean' },
  },
  XNextCursor: {
    description: 'Present only when `X-Has-More-Items-After` is `true`: send it as `X-Cursor` for the next page.',
    required: false,
    schema: { type: 'string' },
  },
  XTotalCount: {
    description: 'Items matching the request, ignoring paging.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Whole seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  WWWAuthenticate: {
    description: 'The bearer challenge.',
    required: true,
    schema: { type: 'string', const: 'Bearer realm="svc-admin"' },
  },
  ContentDisposition: {
    description: 'A download: `attachment; filename="member-<id>.json"`.',
    required: true,
    schema: { type: 'string', pattern: '^attachment; filename="member-[0-9]+\\.json"$' },
  },
  Allow: {
    description: 'The methods the path answers: `GET, HEAD` for a read, `POST` for an action, `GET, POST, HEAD` for /memberships.',
    required: true,
    schema: { type: 'string', enum: ['GET, HEAD', 'POST', 'GET, POST, HEAD'] },
  },
};

// ----------------------------------------------------------------------------------- Responses

/** `wireHeaders` maps each response header's name to its component in `headers` above. */
function errorResponse(description: string, codes: readonly ErrorCode[], wireHeaders: Record<string, string> = {}): OpenApiObject {
  return { description, headers: responseHeaders(wireHeaders), content: json(errorBodyWith(codes)) };
}

/** A response's `headers`: `Cache-Control` (every answer has it) and the ones named, wire name → component. */
export function responseHeaders(wireHeaders: Record<string, string> = {}): Record<string, OpenApiObject> {
  const entries = Object.entries({ 'Cache-Control': 'CacheControl', ...wireHeaders });
  return Object.fromEntries(entries.map(([wire, component]) => [wire, componentRef('headers', component)]));
}

export const responses: Record<string, OpenApiObject> = {
  BadRequest: errorResponse(
    'A malformed query parameter or paging header (`invalidParameter`, one error per parameter, `path` naming ' +
      'it), or an `X-Cursor` this endpoint did not issue for these filters (`invalidCursor`).',
    ['invalidCursor', 'invalidParameter'],
  ),
  Unauthorized: errorResponse('The API key is missing, unknown, revoked or expired.', ['accessDenied'], {
    'WWW-Authenticate': 'WWWAuthenticate',
  }),
  Forbidden: errorResponse("The key is valid, but the site's plan no longer includes Admin API access.", ['forbidden']),
  NotFound: errorResponse(
    'No such resource or endpoint, or the key lacks the scope the endpoint needs (a key learns nothing about ' +
      'what its scopes do not cover).',
    ['notFound'],
  ),
  MethodNotAllowed: errorResponse('A method the path does not take (`Allow` names those it does).', ['methodNotAllowed'], { Allow: 'Allow' }),
  TooManyRequests: errorResponse("Over the key's rate limit; wait `Retry-After` seconds.", ['rateLimited'], {
    'Retry-After': 'RetryAfter',
  }),
  InternalError: errorResponse('The service failed to answer (a fault of its own, logged); trying again later may succeed.', ['internalError']),
};
