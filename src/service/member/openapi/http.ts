/**
 * The HTTP pieces the member API's operations share: path parameters, headers, and the error
 * responses every route under a site can give (../site-scope.ts, ../sessions.ts, ../body.ts,
 * ../methods.ts, the app's error handler), plus the CORS preflight ../site-scope.ts answers.
 */
import type { MemberApiErrorCode } from '../../../contract/member';
import { componentRef, json, type OpenApiObject } from '../../openapi/document';
import { errorBodyWith, type Schema } from '../../openapi/schema-helpers';
import { ALLOWED_METHODS } from '../cors';
import { CODE_MEANINGS } from './errors';

// ---------------------------------------------------------------------------------- parameters

const pathParameter = (name: string, description: string, schema: Schema): OpenApiObject => ({ name, in: 'path', required: true, description, schema });

export const parameters: Record<string, OpenApiObject> = {
  Subdomain: pathParameter('subdomain', 'The site\'s subdomain, as the widget\'s install code names it. No such site: 404 `notFound`.', { type: 'string', minLength: 1 }),
  MembershipId: pathParameter(
    'id',
    'A membership of the signed-in member, by id: digits alone (`0372`, `372.0`, `+372` or `3.72e2` is 400 `invalidField` on `id`).',
    { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 },
  ),
  PictureFile: pathParameter(
    'file',
    'The picture\'s SHA-256 (64 lower-case hex digits) and `.webp`, as a `profileImageUrl` names it; anything else names no picture (404).',
    { type: 'string', pattern: '^[0-9a-f]{64}\\.webp$' },
  ),
  ContentId: pathParameter(
    'contentId',
    'An item by its id (digits alone) or its key in the site file (`issue-41`); anything else names no item (404).',
    { type: 'string', minLength: 1 },
  ),
};

// ------------------------------------------------------------------------------------- headers

export const headers: Record<string, OpenApiObject> = {
  CacheControl: {
    description: '`no-store` on answers that hold member data: no browser or proxy keeps a copy.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  RetryAfter: { description: 'Whole seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 1 } },
  Allow: { description: 'The methods the path takes, comma-separated.', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  AccessControlAllowOrigin: { description: 'The request\'s `Origin`, echoed.', required: true, schema: { type: 'string' } },
  AccessControlAllowMethods: { description: 'Every method of the member API.', required: true, schema: { type: 'string', const: ALLOWED_METHODS } },
  AccessControlAllowHeaders: { description: 'The request headers a page may send.', required: true, schema: { type: 'string', const: 'Authorization, Content-Type' } },
  ImmutableCacheControl: {
    description: 'A picture\'s address names its bytes: any cache may keep it for a year, and need never ask again.',
    required: true,
    schema: { type: 'string', const: 'public, max-age=31536000, immutable' },
  },
  PictureContentSecurityPolicy: {
    description: 'Opened as a page, nothing in it loads or runs, and no page may frame it.',
    required: true,
    schema: { type: 'string', const: "default-src 'none'; frame-ancestors 'none'; sandbox" },
  },
  ContentDisposition: { description: 'Shown, not downloaded.', required: true, schema: { type: 'string', const: 'inline' } },
  AnyOrigin: { description: 'Any page may read it.', required: true, schema: { type: 'string', const: '*' } },
  AccessControlMaxAge: { description: 'Seconds a browser may keep the preflight\'s answer.', required: true, schema: { type: 'integer', const: 600 } },
};

/** A response's `headers` from wire name → component name. */
export function responseHeaders(wireHeaders: Record<string, string>): Record<string, OpenApiObject> {
  return Object.fromEntries(Object.entries(wireHeaders).map(([wire, component]) => [wire, componentRef('headers', component)]));
}

// ----------------------------------------------------------------------------------- responses

/** Headers each error status carries. */
const ERROR_HEADERS: Partial<Record<number, Record<string, string>>> = {
  405: { Allow: 'Allow' },
  429: { 'Retry-After': 'RetryAfter' },
};

/** An error response naming the codes it can carry, each with when it is sent. */
export function errorResponse(status: number, codes: readonly MemberApiErrorCode[]): OpenApiObject {
  return {
    description: codes.map((code) => `\`${code}\`: ${CODE_MEANINGS[code]}`).join(' '),
    ...(ERROR_HEADERS[status] && { headers: responseHeaders(ERROR_HEADERS[status]) }),
    content: json(errorBodyWith(codes)),
  };
}

/**
 * The error responses with one code each, shared by the operations whose status carries that
 * code alone (./operation.ts picks them), and MethodNotAllowed and Preflight, which answer the
 * methods no operation takes (info.description says so).
 */
export const SHARED_ERRORS: Record<string, [status: number, code: MemberApiErrorCode]> = {
  Unauthenticated: [401, 'unauthenticated'],
  OriginNotAllowed: [403, 'originNotAllowed'],
  NotFound: [404, 'notFound'],
  MethodNotAllowed: [405, 'methodNotAllowed'],
  PayloadTooLarge: [413, 'invalidBody'],
  TooManyRequests: [429, 'rateLimited'],
  InternalError: [500, 'internalError'],
};

export const responses: Record<string, OpenApiObject> = {
  ...Object.fromEntries(Object.entries(SHARED_ERRORS).map(([name, [status, code]]) => [name, errorResponse(status, [code])])),
  Preflight: {
    description:
      'A CORS preflight (`OPTIONS` with an allowed `Origin`), on any path under a site: no body. A refused `Origin` is ' +
      'answered 403 `originNotAllowed`; without an `Origin`, `OPTIONS` is a method like any other (405 or 404).',
    headers: responseHeaders({
      'Access-Control-Allow-Origin': 'AccessControlAllowOrigin',
      'Access-Control-Allow-Methods': 'AccessControlAllowMethods',
      'Access-Control-Allow-Headers': 'AccessControlAllowHeaders',
      'Access-Control-Max-Age': 'AccessControlMaxAge',
    }),
  },
};
