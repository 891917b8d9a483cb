/**
 * The OpenAPI 3.1 description of the Admin API, served at GET /admin/v1/openapi.json. It states
 * what the code does: the wire types of src/contract/admin.ts (openapi/schemas.ts), the
 * parameters and headers of params.ts and list-endpoint.ts (openapi/http.ts) and the routes of
 * app.ts (openapi/paths.ts), and the webhooks a site's endpoints receive (openapi/webhooks.ts).
 * test/support/openapi-validator.ts holds every response a test sees against it, and
 * test/webhooks/body-schema.ts every delivery.
 */
import { SCOPES } from '../../contract/admin';
import type { OpenApiDocument, OpenApiObject } from '../openapi/document';
import { headers, parameters, responses } from './openapi/http';
import { ownerPaths } from './openapi/owner-paths';
import { paths } from './openapi/paths';
import { schemas } from './openapi/schemas';
import { webhookParameters, webhookSchemas, webhooks } from './openapi/webhooks';

export type { OpenApiDocument, OpenApiObject } from '../openapi/document';
export type { Schema } from './openapi/schemas';
export { ERROR_CODES } from './openapi/schemas';

const description = `Access to one site's data: the site, its plans, members, memberships, member events, content library views and invoices; and the owner's actions on them (cancel, refund, comp, block, export, erase), each under a write scope of its own.

**Authentication.** Every operation but this description needs \`Authorization: Bearer svc_admin_…\`. A missing, unknown, revoked or expired key is answered 401 \`accessDenied\`; a key over its rate limit 429 \`rateLimited\` with \`Retry-After\`; a valid key whose site's plan no longer includes the Admin API 403 \`forbidden\`, on every endpoint. Each operation names the scope it needs (${SCOPES.map((s) => `\`${s}\``).join(', ')}); a key without it is answered 404 \`notFound\`, exactly as for a resource that does not exist.

**Responses.** Always \`application/json\`, errors included, with \`Cache-Control: no-store\` (answers hold member data), \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\`. Lists are bare JSON arrays ordered by id. A field with no value is omitted, never \`null\`. Every failure answers \`{"errors": [{"path", "code", "message"}]}\`; \`path\` is \`base\` or the parameter or header concerned.

**Paging.** List endpoints return up to \`X-Items-After\` items (1–100, default 25). While \`X-Has-More-Items-After\` is \`true\`, send the \`X-Next-Cursor\` you got as \`X-Cursor\` to read the next page, with the same filters. Cursors are opaque.

**Parameters.** Unknown query parameters are ignored. A malformed one, or a known one given twice, is answered 400 \`invalidParameter\` with one error per parameter. Every \`…After\` bound is inclusive, every \`…Before\` bound exclusive.

**Methods.** HEAD is answered like GET, without a body. Any other method on a path listed here (POST on a read, GET on an action) is answered 405 \`methodNotAllowed\` (response MethodNotAllowed, header \`Allow\`) once the key has passed the checks above; a path not listed here is answered 404 \`notFound\`.`;

export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'svc Admin API', version: '1.0.0', description, license: { name: 'MIT', identifier: 'MIT' } },
  servers: [{ url: '/admin/v1', description: 'Relative to the service origin.' }],
  security: [{ adminKey: [] }],
  tags: [
    { name: 'Sites', description: 'The site the key belongs to: its name, domain and settings.' },
    { name: 'Plans', description: 'What the site sells or gives: free, one-time, instalment and subscription plans, with their prices.' },
    { name: 'Members', description: 'The people who have an account on the site.' },
    { name: 'Memberships', description: 'Which member holds which plan, since when, and until when or what is charged next.' },
    { name: 'Member events', description: 'What happened to members, oldest first: sign-ups, logins, conversions, payments, plan changes.' },
    { name: 'Content library', description: "Members' views of the site's protected content." },
    { name: 'Invoices', description: 'The ledger: every charge attempt, with what was refunded of it.' },
    { name: 'Owner actions', description: 'What the site\'s owner does to members, memberships and invoices, each under a write scope (`members:write`, `memberships:write`, `invoices:write`) and recorded as a member event naming the key.' },
    { name: 'Meta', description: 'This description of the API.' },
    { name: 'Webhooks', description: 'What a site\'s webhook endpoints receive (Standard Webhooks; `svc webhooks add`, docs/webhooks.md): one POST an event.' },
  ],
  // Two paths have both: /memberships lists (GET) and gives (POST).
  paths: mergePaths(paths, ownerPaths),
  webhooks,
  components: {
    securitySchemes: {
      adminKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'svc_admin_…',
        description: 'An Admin API key (`svc_admin_` and 43 more characters) issued with a set of scopes.',
      },
    },
    schemas: { ...schemas, ...webhookSchemas },
    parameters: { ...parameters, ...webhookParameters },
    headers,
    responses,
  },
};

function mergePaths(...documents: Array<Record<string, Record<string, OpenApiObject>>>): Record<string, Record<string, OpenApiObject>> {
  const merged: Record<string, Record<string, OpenApiObject>> = {};
  for (const document of documents) for (const [path, operations] of Object.entries(document)) merged[path] = { ...merged[path], ...operations };
  return merged;
}
