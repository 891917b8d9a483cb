/**
 * The whole service as one fetch-standard app: the same `fetch` runs under node:http
 * (`svc serve`) and inside MSW (mock-server/). Platform pieces are passed in.
 */
import type { Connection } from './http/client-address';
import { Hono } from 'hono';
import { adminApi, ADMIN_BASE_PATH } from './admin/app';
import { AdminError } from './admin/errors';
import { BusyError } from './auth/bounded-queue';
import { createPasswordHasher, PRODUCTION_SCRYPT, type PasswordHasher } from './auth/passwords';
import { portableScrypt } from './auth/portable-scrypt';
import { HttpError } from './http/http-error';
import { memberApi, MEMBER_BASE_PATH } from './member/app';
import type { PictureEncoder } from './member/pictures/encoder';
import { sharpPictureEncoder } from './member/pictures/sharp-encoder';
import { DEFAULT_SIGNUPS_PER_ADDRESS } from './member/signup-limits';
import { DEFAULT_MAILS_PER_ADDRESS, DEFAULT_SIGN_INS_PER_ADDRESS } from './member/client-limits';
import { randomBytes, toBase64Url } from './crypto/bytes';
import type { RateLimit } from './http/rate-limit';
import { log } from './diagnostics';
import { systemClock, type Clock } from './domain/clock';
import { jsonResponse } from './http/json';
import { SITE_SCHEMA_PATH, siteJsonSchemaText } from './site-file/json-schema';
import { withSecurityHeaders } from './http/security-headers';
import { replaceAnswer } from './http/answer';
import type { Store } from './store/store';
import type { PaymentProcessor } from './payments/processor';
import { oneProcessor, type ProcessorFor } from './payments/processor-for';
import { TestPaymentProcessor } from './payments/test-processor';
import { STRIPE_WEBHOOK_PATH, stripeWebhooks } from './payments/stripe-webhooks';

export interface ServiceOptions {
  store: Store;
  clock?: Clock;
  /** Admin API requests per key; omit for no limit. */
  adminRateLimit?: RateLimit;
  /** Sign-ups per client address; DEFAULT_SIGNUPS_PER_ADDRESS when omitted, `off` for none. */
  signupRateLimit?: RateLimit | 'off';
  /** Sign-in attempts per client address; DEFAULT_SIGN_INS_PER_ADDRESS when omitted, `off` for none. */
  signinRateLimit?: RateLimit | 'off';
  /** Requested mails per client address; DEFAULT_MAILS_PER_ADDRESS when omitted, `off` for none. */
  mailRateLimit?: RateLimit | 'off';
  /** Reverse proxies in front whose X-Forwarded-For is believed (SVC_TRUST_PROXY); 0 by default. */
  trustedProxies?: number;
  /**
   * Member passwords: Node's native scrypt on the server (svc serve passes it); by default the
   * portable one at production cost, correct everywhere but slower.
   */
  passwords?: PasswordHasher;
  /**
   * Takes the payments of plan sign-ups. By default the built-in test processor (DESIGN.md test
   * cards), keeping its customers, cards and charges in `store` (decision 0029), so every process
   * and a restart agree.
   */
  processor?: PaymentProcessor;
  /**
   * The processor each site takes payments through (the site file's `payments:`): `svc serve`
   * gives Stripe sites their Stripe processor (cli/stripe-processors.ts). Without it every site
   * takes `processor`.
   */
  processorFor?: ProcessorFor;
  /** Serve the demo site's mailbox (./member/demo-mailbox): the mock server and `svc serve --demo` only. */
  demoMailbox?: boolean;
  /** SVC_STRIPE_JS_URL, for tests only: where the widget loads Stripe.js from on a Stripe site (a stand-in). */
  stripeJsUrl?: string;
  /** True once the process has been asked to stop: GET /readyz then answers 503 (`svc serve`'s graceful stop). */
  stopping?: () => boolean;
  /**
   * Re-encodes members' uploaded pictures (decision 0039). By default sharp's, imported on the
   * first upload (the mock server's browser build has none: an upload there fails, logged).
   */
  pictures?: PictureEncoder;
}

export async function createServiceApp({
  store,
  clock = systemClock,
  adminRateLimit,
  signupRateLimit = DEFAULT_SIGNUPS_PER_ADDRESS,
  signinRateLimit = DEFAULT_SIGN_INS_PER_ADDRESS,
  mailRateLimit = DEFAULT_MAILS_PER_ADDRESS,
  trustedProxies = 0,
  passwords = createPasswordHasher(portableScrypt, PRODUCTION_SCRYPT),
  processor,
  processorFor,
  demoMailbox = false,
  stripeJsUrl,
  stopping = () => false,
  pictures = sharpPictureEncoder(),
}: ServiceOptions): Promise<Hono> {
  const cursorSecret = await store.secret('admin-cursor', () => toBase64Url(randomBytes(32)));
  const app = new Hono();

  // First, so it wraps everything below: routes, errors, not-founds and CORS preflights alike.
  app.use('*', async (c, next) => {
    await next();
    replaceAnswer(c, withSecurityHeaders(c.res));
  });
  // Liveness, with the part that is down named: the database is asked (a read of no site), and
  // its error goes to the log, not to whoever asks.
  app.get('/healthz', async () => {
    const database = await store.getSite(0).then(() => 'up', (error: unknown) => (log.error('health check: the database did not answer', error), 'down'));
    return jsonResponse({ ok: database === 'up', database }, database === 'up' ? 200 : 503, { 'cache-control': 'no-store' });
  });
  // Readiness, for a load balancer: 503 from the moment a graceful stop begins (SVC_STOP_DELAY_MS).
  app.get('/readyz', () => jsonResponse({ ready: !stopping() }, stopping() ? 503 : 200, { 'cache-control': 'no-store' }));
  // Public and the same for everyone: any origin may read it (editors on the web fetch it too).
  app.get(SITE_SCHEMA_PATH, () =>
    new Response(siteJsonSchemaText(), {
      headers: { 'content-type': 'application/schema+json', 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=3600' },
    }),
  );
  const processors = processorFor ?? oneProcessor(processor ?? new TestPaymentProcessor({ clock, store }));
  app.route(
    ADMIN_BASE_PATH,
    adminApi({ store, clock, processorFor: processors, cursorSecret, ...(adminRateLimit && { rateLimit: adminRateLimit }) }),
  );

  app.route(STRIPE_WEBHOOK_PATH, stripeWebhooks({ store, clock, processorFor: processors }));
  app.route(
    MEMBER_BASE_PATH,
    memberApi({
      store,
      clock,
      passwords,
      processorFor: processors,
      signupsPerAddress: signupRateLimit === 'off' ? undefined : signupRateLimit,
      signInsPerAddress: signinRateLimit === 'off' ? undefined : signinRateLimit,
      mailsPerAddress: mailRateLimit === 'off' ? undefined : mailRateLimit,
      trustedProxies,
      demoMailbox,
      pictures,
      ...(stripeJsUrl && { stripeJsUrl }),
    }),
  );

  app.onError((error, c) => {
    if (error instanceof HttpError) return error.toResponse();
    // The password hashing queue is full (auth/bounded-queue.ts): come back later, not a failure.
    if (error instanceof BusyError) {
      const wait = String(error.retryAfterSeconds);
      const message = `The service is checking many passwords at once; try again in ${wait} s`;
      return new HttpError(429, [{ path: 'base', code: 'rateLimited', message }], { 'retry-after': wait }).toResponse();
    }
    // `svc serve` gives every request an id (access-log.ts): the access line and this one share it.
    const id = (c.env as Connection | undefined)?.requestId;
    log.error(id ? `request ${id} failed` : 'request failed', error);
    return AdminError.of(500, 'internalError', 'The service failed to answer; the failure is logged').toResponse();
  });
  // The same answer as the Admin API's for a path it does not have (`/admin/v2/…` is one of these), no-store included.
  app.notFound(() => AdminError.of(404, 'notFound', 'No such endpoint', 'base', { 'cache-control': 'no-store' }).toResponse());
  // hono looks a request's method up on plain objects, so a method named like an
  // Object.prototype property (`toString`, `constructor`) threw inside its router: a 500, found
  // by the Admin API's fuzzing. Such a method is routed in capitals, another method no route
  // takes, and is answered as any unknown method is (401 without a key, 405, 404).
  const route = app.fetch;
  app.fetch = (request, ...rest) =>
    route(request.method in Object.prototype ? new Request(request, { method: request.method.toUpperCase(), duplex: 'half' } as RequestInit) : request, ...rest);
  return app;
}
