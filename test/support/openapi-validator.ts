/**
 * Holds every Admin API response a test sees against the OpenAPI document the service serves:
 * the status must be documented for the operation, the body must match its schema, the media
 * type must be `application/json`, documented required headers must be there (and valid), and
 * `X-Next-Cursor` must come exactly when `X-Has-More-Items-After` is `true`.
 *
 * Requests the document has no operation for are held against its shared error responses: a
 * path it does not list may answer 401, 403, 404 or 429; a listed path with another method
 * 401, 403, 405 or 429. HEAD is held against the GET operation, without a body.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ADMIN_BASE_PATH } from '../../src/service/admin/app';
import { openApiDocument, type OpenApiObject } from '../../src/service/admin/openapi';

export interface ValidatedResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One documented (operation, status) pair; `operation` is `METHOD /template` or a fallback name. */
export interface ResponseKey {
  operation: string;
  status: number;
}

/** What a request the document has no operation for may answer, by status. */
export const UNKNOWN_PATH = '* (unknown path)';
export const OTHER_METHOD = '* (other method on a known path)';
const FALLBACKS: Record<string, Record<string, string>> = {
  [UNKNOWN_PATH]: { '401': 'Unauthorized', '403': 'Forbidden', '404': 'NotFound', '429': 'TooManyRequests' },
  // Its 405 is the path's GET operation's (expectationFor).
  [OTHER_METHOD]: { '401': 'Unauthorized', '403': 'Forbidden', '429': 'TooManyRequests' },
};

// ------------------------------------------------------------------------------------- schemas

const COMPONENTS_ID = 'urn:svc-admin:openapi-components';

// `discriminator: true` makes ajv pick the oneOf branch by its tag and report only that branch's
// errors, instead of every branch's. It reads the tag values from the branches' `const`s and
// does not take OpenAPI's `mapping`, which rewriteRefs drops (the test checks the two agree).
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true, discriminator: true });
addFormats(ajv);

/** `#/components/schemas/X` → the same schema in the registered components schema; no discriminator mapping. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        return [key, `${COMPONENTS_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`];
      }
      if (key === 'discriminator' && value !== null && typeof value === 'object') {
        return [key, { propertyName: (value as { propertyName: unknown }).propertyName }];
      }
      return [key, rewriteRefs(value)];
    }),
  );
}

ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(openApiDocument.components.schemas) as object });

const compiled = new Map<string, ValidateFunction>();

/** Compiles a schema of the document once; `where` (its JSON pointer) is the cache key. */
function validatorFor(where: string, schema: unknown): ValidateFunction {
  let validate = compiled.get(where);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as object);
    compiled.set(where, validate);
  }
  return validate;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? e.keyword}${Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('\n');
}

// ---------------------------------------------------------------------------------- operations

/** A local `$ref` (`#/components/...`) of the document, resolved. */
function resolve(node: OpenApiObject): OpenApiObject {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  let target: unknown = openApiDocument;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (target === undefined) throw new Error(`OpenAPI document: unresolvable $ref ${ref}`);
  return resolve(target as OpenApiObject);
}

const templates = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`),
}));

/** The request path relative to the API base, without query string or fragment. */
/**
 * The path relative to the API base, or undefined for a path outside the Admin API (which the
 * document does not describe). Built the way `app.request` builds its URL, not as a relative
 * reference, so `//x` or `/\\` stay paths.
 */
function apiPath(path: string): string | undefined {
  const pathname = new URL(`http://localhost${path}`).pathname;
  return pathname.startsWith(`${ADMIN_BASE_PATH}/`) ? pathname.slice(ADMIN_BASE_PATH.length) : undefined;
}

interface Expectation {
  /** `METHOD /template`, or one of the fallbacks. */
  operation: string;
  /** The JSON pointer of the response object (cache key for its schemas). */
  where: string;
  response: OpenApiObject;
}

function expectationFor(method: string, path: string, status: number): Expectation {
  const relative = apiPath(path);
  const template = relative === undefined ? undefined : templates.find((t) => t.pattern.test(relative))?.template;
  const item = template === undefined ? undefined : openApiDocument.paths[template];
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const op = item && Object.hasOwn(item, verb) ? item[verb] : undefined;

  if (template !== undefined && op) {
    const operation = `${method.toUpperCase()} ${template}`;
    const responses = (op.responses ?? {}) as Record<string, OpenApiObject>;
    const documented = responses[String(status)];
    if (!documented) {
      throw new Error(
        `OpenAPI: ${operation} (${String(op.operationId)}) answered ${status}, which is not documented ` +
          `(documented: ${Object.keys(responses).join(', ')})`,
      );
    }
    const where = typeof documented.$ref === 'string' ? documented.$ref : `#/paths/${template.replace(/\//g, '~1')}/${verb}/responses/${status}`;
    return { operation, where, response: resolve(documented) };
  }

  // Another method on a listed path: its 405 is documented on the path's GET operation.
  const get = item?.get?.responses as Record<string, OpenApiObject> | undefined;
  if (template !== undefined && status === 405 && get?.['405']) {
    return { operation: `GET ${template}`, where: String(get['405'].$ref), response: resolve(get['405']) };
  }
  const fallback = template === undefined ? UNKNOWN_PATH : OTHER_METHOD;
  const operation = fallback;
  const name = FALLBACKS[fallback]![String(status)];
  if (!name) {
    throw new Error(
      `OpenAPI: ${method.toUpperCase()} ${relative} has no operation in the document (${fallback}) and answered ${status}; ` +
        `such requests may only answer ${Object.keys(FALLBACKS[fallback]!).join(', ')}`,
    );
  }
  const where = `#/components/responses/${name}`;
  return { operation, where, response: resolve({ $ref: where }) };
}

// ------------------------------------------------------------------------------------- headers

/** A header value read as the simple-style scalar its schema names. */
function headerValue(text: string, schema: OpenApiObject): unknown {
  switch (schema.type) {
    case 'integer':
      return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function checkHeaders(context: string, where: string, response: OpenApiObject, headers: Headers): void {
  const documented = (response.headers ?? {}) as Record<string, OpenApiObject>;
  for (const [name, ref] of Object.entries(documented)) {
    const header = resolve(ref);
    const text = headers.get(name);
    if (text === null) {
      if (header.required === true) throw new Error(`${context}: required header ${name} is missing`);
      continue;
    }
    const schema = (header.schema ?? {}) as OpenApiObject;
    const validate = validatorFor(`${where}/headers/${name}`, schema);
    if (!validate(headerValue(text, schema))) {
      throw new Error(`${context}: header ${name}: ${JSON.stringify(text)} does not match its schema:\n${describeErrors(validate.errors)}`);
    }
  }

  const hasMore = headers.get('x-has-more-items-after');
  const next = headers.get('x-next-cursor');
  if (next !== null && hasMore !== 'true') {
    throw new Error(`${context}: X-Next-Cursor is present but X-Has-More-Items-After is ${JSON.stringify(hasMore)}`);
  }
  if (hasMore === 'true' && next === null) {
    throw new Error(`${context}: X-Has-More-Items-After is true but X-Next-Cursor is missing`);
  }
}

// ---------------------------------------------------------------------------------- the check

const seen = new Map<string, ResponseKey>();

/** Throws when the response is not one the OpenAPI document describes for this request. */
export function validateAgainstOpenApi(method: string, path: string, response: ValidatedResponse): void {
  // Outside /admin/v1 (e.g. /healthz) the document has nothing to say about a success; a
  // failure there is still the service's error body, checked as an unknown path below.
  if (apiPath(path) === undefined && response.status < 400) return;
  const { operation, where, response: documented } = expectationFor(method, path, response.status);
  const context = `OpenAPI: ${operation} → ${response.status} (${method.toUpperCase()} ${path})`;

  const contentType = response.headers.get('content-type');
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new Error(`${context}: content-type is ${JSON.stringify(contentType)}, not application/json`);
  }
  const content = (documented.content ?? {}) as Record<string, OpenApiObject>;
  const media = content['application/json'];
  if (!media) throw new Error(`${context}: the document gives this response no application/json content`);

  if (method.toUpperCase() === 'HEAD') {
    if (response.body !== undefined) throw new Error(`${context}: a HEAD response has a body`);
  } else {
    const validate = validatorFor(`${where}/content/application~1json/schema`, media.schema);
    if (!validate(response.body)) {
      const body = JSON.stringify(response.body) ?? 'undefined';
      throw new Error(
        `${context}: body does not match the documented schema:\n${describeErrors(validate.errors)}\n` +
          `body: ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`,
      );
    }
  }

  checkHeaders(context, where, documented, response.headers);
  seen.set(`${operation} ${response.status}`, { operation, status: response.status });
}

/** The (operation, status) pairs validated so far in this test file, sorted. */
export function seenResponses(): ResponseKey[] {
  return [...seen.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.status - b.status);
}

/** Every (operation, status) pair the document describes, including the two fallbacks; sorted. */
export function documentedResponses(): ResponseKey[] {
  const keys: ResponseKey[] = [];
  for (const [template, item] of Object.entries(openApiDocument.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      for (const status of Object.keys((op.responses ?? {}) as object)) {
        keys.push({ operation: `${verb.toUpperCase()} ${template}`, status: Number(status) });
      }
    }
  }
  for (const [operation, statuses] of Object.entries(FALLBACKS)) {
    for (const status of Object.keys(statuses)) keys.push({ operation, status: Number(status) });
  }
  return keys.sort((a, b) => a.operation.localeCompare(b.operation) || a.status - b.status);
}
