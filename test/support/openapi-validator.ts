/**
 * Holds a response against an OpenAPI 3.1 document the service serves (the Admin API's, the
 * member API's): the status must be documented for the operation, the body must match its
 * schema under the documented media type (`application/json`; bytes of another documented media
 * type, a picture's, are taken as they are), or be absent when the response
 * documents no content (a 204), and documented required headers must be there (and valid).
 *
 * Requests the document has no operation for are held against its shared responses, as the
 * `fallbacks` name them by status: one table for a path it does not list, one for a listed path
 * with another method (whose 405 is held against every operation of the path that documents
 * one, and counts as seen for each). HEAD is held against the GET operation, without a body. One
 * validator per document and base path; each records the (operation, status) pairs it has
 * validated.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, OpenApiObject } from '../../src/service/openapi/document';

export interface ValidatedResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

/** One documented (operation, status) pair; `operation` is `METHOD /template` or a fallback name. */
export interface ResponseKey {
  operation: string;
  status: number;
}

/** The names the fallbacks are recorded under. */
export const UNKNOWN_PATH = '* (unknown path)';
export const OTHER_METHOD = '* (other method on a known path)';

/** What a request the document has no operation for may answer: status → component response name. */
export interface Fallbacks {
  unknownPath: Record<string, string>;
  otherMethod: Record<string, string>;
}

export interface ValidatorOptions {
  /**
   * Paths under the base path (relative to it) the document leaves out on purpose: as outside
   * the base path, their successes are not checked, and a failure is held as an unknown path's.
   */
  outside?: readonly RegExp[];
  /** Checks of the document's own beyond its schemas (the Admin API's paging headers); throw to fail. */
  checks?: readonly ((context: string, response: ValidatedResponse) => void)[];
}

export interface OpenApiValidator {
  /** Throws when the response is not one the document describes for this request. */
  validate(method: string, path: string, response: ValidatedResponse): void;
  /** The (operation, status) pairs validated so far, sorted. */
  seenResponses(): ResponseKey[];
  /**
   * Forgets what was seen: a coverage test calls it as its file starts, so pairs that other
   * files of the same worker saw (suites share a worker's modules) do not count for it.
   */
  forgetSeen(): void;
  /** Every (operation, status) pair the document describes, the fallbacks' included; sorted. */
  documentedResponses(): ResponseKey[];
}

const byKey = (a: ResponseKey, b: ResponseKey) => a.operation.localeCompare(b.operation) || a.status - b.status;

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? e.keyword}${Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('\n');
}

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

/**
 * Compiles schemas of `document` with ajv (JSON Schema 2020-12), its `#/components/schemas/…`
 * references resolved against the document's components, registered once under `componentsId`.
 * `discriminator: true` makes ajv pick a oneOf branch by its tag and report only that branch's
 * errors. It reads the tag values from the branches' `const`s and does not take OpenAPI's
 * `mapping`, which is dropped here (the document tests check the two agree). The validator below
 * and the webhooks' body check (test/webhooks/body-schema.ts) compile with it.
 */
export function schemaCompiler(document: Pick<OpenApiDocument, 'components'>, componentsId: string): { compile(schema: unknown): ValidateFunction } {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true, discriminator: true });
  addFormats(ajv);
  const rewriteRefs = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewriteRefs);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
          return [key, `${componentsId}#/$defs/${value.slice('#/components/schemas/'.length)}`];
        }
        if (key === 'discriminator' && value !== null && typeof value === 'object') {
          return [key, { propertyName: (value as { propertyName: unknown }).propertyName }];
        }
        return [key, rewriteRefs(value)];
      }),
    );
  };
  ajv.addSchema({ $id: componentsId, $defs: rewriteRefs(document.components.schemas) as object });
  return { compile: (schema) => ajv.compile(rewriteRefs(schema) as object) };
}

export function createOpenApiValidator(
  document: OpenApiDocument,
  basePath: string,
  fallbacks: Fallbacks,
  options: ValidatorOptions = {},
): OpenApiValidator {
  // ----------------------------------------------------------------------------------- schemas

  const compiler = schemaCompiler(document, `urn:svc:openapi:${basePath}`);
  const compiled = new Map<string, ValidateFunction>();
  /** Compiles a schema of the document once; `where` (its JSON pointer) is the cache key. */
  const validatorFor = (where: string, schema: unknown): ValidateFunction => {
    let validate = compiled.get(where);
    if (!validate) {
      validate = compiler.compile(schema);
      compiled.set(where, validate);
    }
    return validate;
  };

  // -------------------------------------------------------------------------------- operations

  /** A local `$ref` (`#/components/...`) of the document, resolved. */
  const resolve = (node: OpenApiObject): OpenApiObject => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    let target: unknown = document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (target === undefined) throw new Error(`OpenAPI document: unresolvable $ref ${ref}`);
    return resolve(target as OpenApiObject);
  };

  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`),
  }));

  /**
   * The path relative to the API base, or undefined for a path outside it (which the document
   * does not describe). Built the way `app.request` builds its URL, not as a relative reference,
   * so `//x` or `/\\` stay paths; a whole URL is read as one.
   */
  const apiPath = (path: string): string | undefined => {
    const pathname = new URL(/^https?:\/\//.test(path) ? path : `http://localhost${path}`).pathname;
    return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
  };
  const isOutside = (relative: string | undefined) => relative === undefined || (options.outside ?? []).some((p) => p.test(relative));

  interface Expectation {
    /** `METHOD /template`, or one of the fallbacks. */
    operation: string;
    /** The JSON pointer of the response object (cache key for its schemas). */
    where: string;
    response: OpenApiObject;
  }

  const expectationsFor = (method: string, path: string, status: number): Expectation[] => {
    const relative = apiPath(path);
    const template = isOutside(relative) ? undefined : templates.find((t) => t.pattern.test(relative!))?.template;
    const item = template === undefined ? undefined : document.paths[template];
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
      return [{ operation, where, response: resolve(documented) }];
    }

    // Another method on a listed path: the 405 every operation of the path documents (a path
    // the Admin API reads and acts on, /memberships, has a GET and a POST: both describe it).
    const documenting = item ? Object.keys(item).filter((v) => (item[v]?.responses as Record<string, OpenApiObject> | undefined)?.['405']) : [];
    if (template !== undefined && status === 405 && documenting.length > 0) {
      return documenting.map((verb) => {
        const answer = (item![verb]!.responses as Record<string, OpenApiObject>)['405']!;
        const where = typeof answer.$ref === 'string' ? answer.$ref : `#/paths/${template.replace(/\//g, '~1')}/${verb}/responses/405`;
        return { operation: `${verb.toUpperCase()} ${template}`, where, response: resolve(answer) };
      });
    }
    const operation = template === undefined ? UNKNOWN_PATH : OTHER_METHOD;
    const table = template === undefined ? fallbacks.unknownPath : fallbacks.otherMethod;
    const name = table[String(status)];
    if (!name) {
      throw new Error(
        `OpenAPI: ${method.toUpperCase()} ${relative} has no operation in the document (${operation}) and answered ${status}; ` +
          `such requests may only answer ${Object.keys(table).join(', ')}`,
      );
    }
    const where = `#/components/responses/${name}`;
    return [{ operation, where, response: resolve({ $ref: where }) }];
  };

  // ----------------------------------------------------------------------------------- headers

  const checkHeaders = (context: string, where: string, response: OpenApiObject, headers: Headers): void => {
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
  };

  // ---------------------------------------------------------------------------------- the body

  const checkBody = (context: string, where: string, method: string, documented: OpenApiObject, response: ValidatedResponse): void => {
    const content = documented.content as Record<string, OpenApiObject> | undefined;
    // No content documented (a 204): no body, whatever the headers say.
    if (content === undefined) {
      if (response.body !== undefined) throw new Error(`${context}: the document gives this response no content, but it has a body`);
      return;
    }
    const contentType = response.headers.get('content-type');
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    // Bytes of a documented media type of their own (a picture): what they are, not JSON to check.
    if (mediaType !== undefined && mediaType !== 'application/json' && content[mediaType]) {
      if (method.toUpperCase() === 'HEAD' && response.body !== undefined) throw new Error(`${context}: a HEAD response has a body`);
      return;
    }
    if (mediaType !== 'application/json') {
      throw new Error(`${context}: content-type is ${JSON.stringify(contentType)}, not application/json`);
    }
    const media = content['application/json'];
    if (!media) throw new Error(`${context}: the document gives this response no application/json content`);
    if (method.toUpperCase() === 'HEAD') {
      if (response.body !== undefined) throw new Error(`${context}: a HEAD response has a body`);
      return;
    }
    const validate = validatorFor(`${where}/content/application~1json/schema`, media.schema);
    if (!validate(response.body)) {
      const body = JSON.stringify(response.body) ?? 'undefined';
      throw new Error(
        `${context}: body does not match the documented schema:\n${describeErrors(validate.errors)}\n` +
          `body: ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`,
      );
    }
  };

  // --------------------------------------------------------------------------------- the check

  const seen = new Map<string, ResponseKey>();

  return {
    validate(method, path, response) {
      // Outside the API (e.g. /healthz) the document has nothing to say about a success; a
      // failure there is still the service's error body, checked as an unknown path's.
      if (isOutside(apiPath(path)) && response.status < 400) return;
      for (const { operation, where, response: documented } of expectationsFor(method, path, response.status)) {
        const context = `OpenAPI: ${operation} → ${response.status} (${method.toUpperCase()} ${path})`;
        checkBody(context, where, method, documented, response);
        checkHeaders(context, where, documented, response.headers);
        for (const check of options.checks ?? []) check(context, response);
        seen.set(`${operation} ${response.status}`, { operation, status: response.status });
      }
    },

    seenResponses: () => [...seen.values()].sort(byKey),
    forgetSeen: () => seen.clear(),

    documentedResponses() {
      const keys: ResponseKey[] = [];
      for (const [template, item] of Object.entries(document.paths)) {
        for (const [verb, op] of Object.entries(item)) {
          for (const status of Object.keys((op.responses ?? {}) as object)) {
            keys.push({ operation: `${verb.toUpperCase()} ${template}`, status: Number(status) });
          }
        }
      }
      for (const [operation, table] of [[UNKNOWN_PATH, fallbacks.unknownPath], [OTHER_METHOD, fallbacks.otherMethod]] as const) {
        for (const status of Object.keys(table)) keys.push({ operation, status: Number(status) });
      }
      return keys.sort(byKey);
    },
  };
}
