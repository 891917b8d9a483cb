/**
 * The member API's validator (./openapi-validator.ts over the document the service serves at
 * /member/v1/openapi.json), and the one way the member suites read a response through it.
 *
 * Requests the document has no operation for may answer what its info.description says: under
 * a site, a CORS preflight (204), a refused origin (403), no such site or path (404), and on a
 * listed path another method 405. The demo's mailbox (only with the demo) is left out of the
 * document: its answers are not checked, as a path outside the API's would not be.
 */
import { MEMBER_BASE_PATH } from '../../src/service/member/app';
import { openApiDocument } from '../../src/service/member/openapi';
import { createOpenApiValidator, type Fallbacks, type OpenApiValidator } from './openapi-validator';

export const MEMBER_FALLBACKS: Fallbacks = {
  unknownPath: { '204': 'Preflight', '403': 'OriginNotAllowed', '404': 'NotFound' },
  otherMethod: { '204': 'Preflight', '403': 'OriginNotAllowed', '404': 'NotFound', '405': 'MethodNotAllowed' },
};

/** The paths the document leaves out on purpose, relative to /member/v1. */
export const LEFT_OUT = [/^\/sites\/[^/]+\/mailbox$/];

/** A validator of its own, recording only what it is given: a coverage test's. */
export const createMemberValidator = (): OpenApiValidator =>
  createOpenApiValidator(openApiDocument, MEMBER_BASE_PATH, MEMBER_FALLBACKS, { outside: LEFT_OUT });

/** The one every member suite's requests go through (test/member/support.ts). */
export const memberOpenApi = createMemberValidator();

/**
 * Holds `response` against the document and hands it back unread: a clone is read, so the test
 * reads the original as it would have. A body that is not JSON is passed on as its text, which
 * the validator then refuses where JSON or no body is documented.
 */
export async function validated(validator: OpenApiValidator, method: string, path: string, response: Response): Promise<Response> {
  const text = await response.clone().text();
  let body: unknown;
  if (text !== '') {
    const json = /^application\/json\b/i.test(response.headers.get('content-type') ?? '');
    try {
      body = json ? JSON.parse(text) : text;
    } catch (error) {
      throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} → ${response.status}: the body is not JSON: ${String(error)}`);
    }
  }
  validator.validate(method, path, { status: response.status, headers: response.headers, body });
  return response;
}
