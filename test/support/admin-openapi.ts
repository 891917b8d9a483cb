/**
 * The validator every Admin API response a test sees is held against (./admin-request.ts): the
 * document the service serves, its fallbacks, and the Admin API's paging rule, that
 * `X-Next-Cursor` comes exactly when `X-Has-More-Items-After` is `true`.
 *
 * Requests the document has no operation for are held against its shared error responses: a
 * path it does not list may answer 401, 403, 404 or 429; a listed path with another method
 * 401, 403, 405 (as each of the path's operations documents it) or 429.
 */
import { ADMIN_BASE_PATH } from '../../src/service/admin/app';
import { openApiDocument } from '../../src/service/admin/openapi';
import { createOpenApiValidator, type ValidatedResponse } from './openapi-validator';

export { OTHER_METHOD, UNKNOWN_PATH, type ResponseKey, type ValidatedResponse } from './openapi-validator';

function pagingHeaders(context: string, { headers }: ValidatedResponse): void {
  const hasMore = headers.get('x-has-more-items-after');
  const next = headers.get('x-next-cursor');
  if (next !== null && hasMore !== 'true') {
    throw new Error(`${context}: X-Next-Cursor is present but X-Has-More-Items-After is ${JSON.stringify(hasMore)}`);
  }
  if (hasMore === 'true' && next === null) {
    throw new Error(`${context}: X-Has-More-Items-After is true but X-Next-Cursor is missing`);
  }
}

const validator = createOpenApiValidator(
  openApiDocument,
  ADMIN_BASE_PATH,
  {
    unknownPath: { '401': 'Unauthorized', '403': 'Forbidden', '404': 'NotFound', '429': 'TooManyRequests' },
    otherMethod: { '401': 'Unauthorized', '403': 'Forbidden', '429': 'TooManyRequests' },
  },
  { checks: [pagingHeaders] },
);

/** Throws when the response is not one the Admin API's document describes for this request. */
export const validateAgainstOpenApi = validator.validate;
/** The (operation, status) pairs validated so far in this worker, sorted. */
export const seenResponses = validator.seenResponses;
/** Forgets the pairs seen so far (by other files of this worker): openapi.test.ts starts with it. */
export const forgetSeenResponses = validator.forgetSeen;
/** Every (operation, status) pair the document describes, including the two fallbacks; sorted. */
export const documentedResponses = validator.documentedResponses;
