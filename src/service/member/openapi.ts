/**
 * The OpenAPI 3.1 description of the member API (what the widget calls), served at
 * GET /member/v1/openapi.json. It states what the code does, as docs/member-api.md tells it: the
 * wire types of src/contract/member.ts (openapi/*-schemas.ts), the shared parameters, headers and
 * errors (openapi/http.ts) and the routes of app.ts (openapi/*-paths.ts). The member suites hold
 * every response they see against it (test/member/support.ts).
 *
 * The demo's mailbox (demo-mailbox.ts) is left out: only the mock server and `svc serve --demo`
 * mount it, for the demo site alone.
 */
import type { OpenApiDocument } from '../openapi/document';
import { accountSchemas } from './openapi/account-schemas';
import { billingSchemas } from './openapi/billing-schemas';
import { errorSchemas } from './openapi/errors';
import { headers, parameters, responses } from './openapi/http';
import { paths } from './openapi/paths';
import { requestSchemas } from './openapi/request-schemas';
import { siteSchemas } from './openapi/site-schemas';

const description = `What the widget calls: one site's settings and plans, signing up and in, the member's account and picture, metadata, memberships, payments and protected content. Every path but this description and the members' pictures (\`/pictures/{file}\`, for any page) is under \`/sites/{subdomain}\`, the site's subdomain.

**Sessions.** Signing up or in answers a bearer token (\`svc_session_…\`) for that site only; operations marked with \`memberSession\` need it as \`Authorization: Bearer …\`, and answer 401 \`unauthenticated\` without a live one (missing, unknown, expired, revoked, another site's, or a blocked member's). Sessions slide 7 days ahead on each use, up to 30 days after sign-in.

**CORS.** Browsers may call a site only from its domain and its subdomains (http or https, any port; loopback too for the demo site). A request whose \`Origin\` is any other is answered 403 \`originNotAllowed\` on every path under the site; one without an \`Origin\` is not a browser's and is served. An allowed origin gets \`Access-Control-Allow-Origin\` (echoing it) and \`Vary: Origin\` on every answer, errors included, and a preflight (\`OPTIONS\`) is answered 204 (response Preflight) on any path under the site.

**Bodies.** JSON objects, at most 64 KiB (413 \`invalidBody\` beyond); anything else is 400 \`invalidBody\`. A picture's upload is its bytes instead, at most 2 MiB. One 400 \`invalidField\` names every bad field in \`path\`. Optional fields are omitted, never \`null\`. Text may hold no control character or lone surrogate.

**Responses.** JSON (\`application/json\`) but for the 204s, which have no body, and a picture's bytes (\`image/webp\`). Every answer carries \`X-Content-Type-Options: nosniff\`, a JSON one \`Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\`; answers holding member data \`Cache-Control: no-store\`. Every failure answers \`{"errors": [{"path", "code", "message"}]}\`; each response below names the codes it can carry.

**Limits.** Password checks, sign-ups, sign-ins, wrong codes and mails asked for are counted per e-mail, per client address and per member (docs/member-api.md); past a limit, and when the service is hashing as many passwords as it queues, the answer is 429 \`rateLimited\` with \`Retry-After\`.

**Methods.** HEAD is answered like GET, without a body. Another method on a path listed here is answered 405 \`methodNotAllowed\` with \`Allow\` (response MethodNotAllowed); a path not listed here, or a site that does not exist, 404 \`notFound\`.`;

export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'svc member API', version: '1.0.0', description, license: { name: 'MIT', identifier: 'MIT' } },
  servers: [{ url: '/member/v1', description: 'Relative to the service origin.' }],
  // Most operations need no session; those that do say so.
  security: [],
  tags: [
    { name: 'Site', description: 'What a visitor reads before signing in: the site\'s settings for the widget and the plans open for sign-up.' },
    { name: 'Sessions', description: 'Signing up, in (password, mailed code or link) and out, and the mails that let a member in.' },
    { name: 'Account', description: 'The signed-in member: names, custom fields, address and password.' },
    { name: 'Metadata', description: 'A JSON object the site keeps for each member (spec 2.8, decision 0009).' },
    { name: 'Memberships', description: 'Joining plans, what they cost, changing, cancelling and paying them, with the bank\'s 3-D Secure questions.' },
    { name: 'Payments', description: 'Invoices, the saved card, and the built-in test processor\'s card field and bank window.' },
    { name: 'Content', description: 'Protected content: an item for a member whose plan opens it, and the plans that open it.' },
    { name: 'Meta', description: 'This description of the API.' },
  ],
  paths,
  components: {
    securitySchemes: {
      memberSession: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'svc_session_…',
        description: 'The token signing up or in answered (`svc_session_` and 43 more characters), for its site only.',
      },
    },
    schemas: { ...siteSchemas, ...accountSchemas, ...billingSchemas, ...requestSchemas, ...errorSchemas },
    parameters,
    headers,
    responses,
  },
};
