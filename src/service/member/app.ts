/**
 * The member API under /member/v1 (docs/member-api.md): what the widget calls. Every route is
 * scoped to one site by its subdomain; browsers may call it only from that site's origins. Its
 * rooms, in the order docs/member-api.md tells them; what they share is built once (./context).
 * GET /openapi.json describes them all (./openapi.ts).
 */
import { Hono } from 'hono';
import { accountRoutes } from './account-routes';
import { contentRoutes } from './content-routes';
import { memberContext, type MemberApiOptions, type MemberEnv } from './context';
import { demoMailboxRoute } from './demo-mailbox';
import { emailChangeRoutes } from './email-change-routes';
import { membershipRoutes } from './membership-routes';
import { meRoutes } from './me-routes';
import { methodsNotAllowed } from './methods';
import { openApiDocument } from './openapi';
import { passwordResetRoutes } from './password-reset-routes';
import { paymentMethodRoutes } from './payment-method-routes';
import { pictureFiles } from './picture-files';
import { pictureRoutes } from './picture-routes';
import { planChangeRoutes } from './plan-change-routes';
import { sessionRoutes } from './session-routes';
import { signInCodeRoute } from './sign-in-code-route';
import { signupRoute } from './signup-route';
import { siteRoutes } from './site-routes';
import { siteScope } from './site-scope';
import { testProcessorRoutes } from './test-processor-routes';

export type { MemberApiOptions } from './context';

export { MEMBER_BASE_PATH } from './base-path';

export function memberApi(options: MemberApiOptions): Hono<MemberEnv> {
  const app = new Hono<MemberEnv>();
  const ctx = memberContext(options);
  // Its description (./openapi.ts): outside /sites/{subdomain}, so no site scope; public, the
  // same for every site, and readable from any origin (editors and generators on the web).
  const openApiBody = JSON.stringify(openApiDocument);
  const openApiHeaders = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
  app.get('/openapi.json', () => new Response(openApiBody, { headers: openApiHeaders }));
  // The members' pictures, outside any site too: an address names its bytes, for any page (decision 0039).
  pictureFiles(app, ctx.store); // GET /pictures/{hash}.webp
  siteScope(app, ctx.store); //   the site by its subdomain, CORS
  siteRoutes(app, { ...ctx, stripeJsUrl: options.stripeJsUrl }); // GET /config, /plans, /plans/{publicId}
  signupRoute(app, ctx); //       POST /members
  sessionRoutes(app, ctx); //     POST /sessions (password, code, link), DELETE /sessions/current
  meRoutes(app, ctx); //          GET /me, /me/metadata
  accountRoutes(app, ctx); //     PATCH /me, PUT /me/password
  pictureRoutes(app, ctx); //     PUT, DELETE /me/picture
  passwordResetRoutes(app, ctx); // POST /password-reset, /password-reset/complete
  signInCodeRoute(app, ctx); //   POST /sign-in-codes
  emailChangeRoutes(app, ctx); // PUT /me/email, POST /me/email/confirm, /email-changes
  membershipRoutes(app, ctx); //  POST, GET /memberships, …/confirm, …/{id}/cancel, …/{id}/pay
  planChangeRoutes(app, ctx); //  GET, POST /memberships/{id}/change, …/change/confirm
  paymentMethodRoutes(app, ctx); // GET /invoices, GET, PUT /payment-method
  testProcessorRoutes(app, ctx); // POST /test-payment-methods, /test-payment-intents/{id}
  contentRoutes(app, ctx); //     protected content
  if (options.demoMailbox) demoMailboxRoute(app, ctx.store);
  methodsNotAllowed(app); //      405 with Allow on every known path
  return app;
}
