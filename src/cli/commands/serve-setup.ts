/**
 * The parts of `svc serve` that one process, a cluster's primary and its workers share: the
 * settings read once, the first start on a new database, the HTTP server, what is said at start,
 * the background work (billing, mail) and the stop signal. ./serve puts them together.
 */
import type { Logger } from 'pino';
import { withAccessLog } from '../../service/access-log';
import { serviceLogger } from '../logger';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuild } from '../../../scripts/lib/ensure-build';
import { distDir, repoRoot } from '../../../scripts/lib/paths';
import { SCOPES } from '../../contract/admin';
import { issueApiKey } from '../../service/auth/api-keys';
import { createPasswordHasher, type PasswordHasher } from '../../service/auth/passwords';
import { createServiceApp } from '../../service/app';
import { runRenewals, type RenewalDeps } from '../../service/billing/renewals';
import { systemClock } from '../../service/domain/clock';
import { createMailTransport, MailConfigError, readMailConfig, type MailConfig } from '../../service/mail';
import { startMailSender } from '../../service/mail/send-queued';
import { startWebhookSender } from '../../service/webhooks/sender';
import { TestPaymentProcessor } from '../../service/payments/test-processor';
import { runPeriodically } from '../../service/periodic';
import { nodeScrypt } from '../../service/platform/node-scrypt';
import { ensureDemoLogin, DEMO_LOGIN } from '../../service/seed/demo-login';
import { listen, type RunningServer } from '../../service/server';
import { withStaticFiles } from '../../service/static-files';
import { describeDatabase } from '../../service/store/open';
import type { Store } from '../../service/store/store';
import { dbPath, serveConfig, UsageError, type ServeConfig } from '../config';
import { paymentsProblems, processorsFromEnv, type Env } from '../stripe-processors';
import { webhookSecretWarnings } from '../webhook-secret-warnings';
import type { Io } from '../io';

export const BILLING_EVERY_MS = 5 * 60_000;
/** How often the outbox is looked at for mail that has come due (a retry, another process's). */
export const MAIL_EVERY_MS = 2_000;

export interface ServeSettings {
  database: string;
  demo: boolean;
  config: ServeConfig;
  mail: MailConfig;
  passwords: PasswordHasher;
  /** The environment: Stripe sites' secrets are read from the variables their site file names. */
  env: Env;
  /** The process's logger (SVC_LOG_LEVEL): the service's messages and one access line a request. */
  logger: Logger;
}

/** Everything from flags and environment, checked before anything starts: a bad value is a usage error (exit 2). */
export function readServeSettings(flags: { db?: string; demo: boolean }, env: NodeJS.ProcessEnv): ServeSettings {
  const config = serveConfig(env);
  const database = dbPath(flags.db, env);
  try {
    const logger = serviceLogger(env);
    return { database, demo: flags.demo, config, mail: readMailConfig(env, database), passwords: createPasswordHasher(nodeScrypt, config.scrypt), env, logger };
  } catch (error) {
    if (error instanceof MailConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Resolves with the first SIGINT or SIGTERM. Listening from the start, so one that comes early still stops cleanly. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/**
 * Builds dist/ when it is missing or older than src/widget (a fresh clone, an edited widget), so
 * `npm start` serves a current /scripts/widgets.js. A failed build does not stop the service:
 * the member and Admin APIs work without it. True when a widget bundle is there to serve.
 */
export async function prepareWidget(io: Io): Promise<boolean> {
  const outcome = await ensureBuild(['widget']);
  const built = existsSync(join(distDir, 'widgets.js'));
  if (outcome === 'no-widget') io.err('src/widget/index.ts does not exist yet: /scripts/widgets.js answers 404');
  if (outcome === 'failed') {
    io.err(`the widget build failed (see above): ${built ? 'serving the previous build from dist/' : '/scripts/widgets.js answers 404'}`);
  }
  return built;
}

export interface FirstStart {
  siteCount: number;
  /** The demo site, when this start seeded it (its key is issued once the service is up). */
  demoSiteId?: number;
}

/** With --demo, an empty database gets the demo site and its published member login; without it nothing is created. */
export async function firstStart(store: Store, settings: ServeSettings): Promise<FirstStart> {
  const sites = await store.listSites();
  // A Stripe site whose secrets are not in the environment would take no payment, or take it on
  // the wrong account: nothing starts until it is set right (decision 0033).
  const problems = paymentsProblems(sites, settings.env);
  if (problems.length > 0) throw new UsageError(`cannot start: ${problems.join('\n')}`);
  const siteCount = sites.length;
  if (siteCount > 0 || !settings.demo) return { siteCount };
  // The demo's site file and seeding (the site-file reader, YAML, the HTML sanitizer) load with --demo only.
  const { ensureDemoSite, seedMembers } = await import('../../service/seed/demo');
  const { site } = await ensureDemoSite(store, systemClock);
  await seedMembers(store, systemClock, site, { members: 300, seed: 1 });
  await ensureDemoLogin(store, systemClock, site, settings.passwords);
  return { siteCount, demoSiteId: site.id };
}

/**
 * The whole service (APIs, widget, examples, schema) listening on the configured port. Its
 * `close` is a graceful stop: GET /readyz answers 503 for SVC_STOP_DELAY_MS while everything else
 * is still served, then the server stops taking connections and finishes the requests under way.
 */
export async function startHttp(store: Store, settings: ServeSettings): Promise<RunningServer> {
  const { config } = settings;
  let stopping = false;
  const app = await createServiceApp({
    stopping: () => stopping,
    store,
    clock: systemClock,
    passwords: settings.passwords,
    processorFor: processorsFromEnv(settings.env, new TestPaymentProcessor({ clock: systemClock, store })),
    signupRateLimit: config.signupRateLimit,
    signinRateLimit: config.signinRateLimit,
    mailRateLimit: config.mailRateLimit,
    trustedProxies: config.trustedProxies,
    ...(config.rateLimit && { adminRateLimit: config.rateLimit }),
    // The demo site's mailbox for examples/mail.html: with --demo only, and the demo site's only.
    demoMailbox: settings.demo,
    // For tests only (README, "Payments"): a Stripe stand-in's Stripe.js instead of Stripe's.
    ...(settings.env.SVC_STRIPE_JS_URL && { stripeJsUrl: settings.env.SVC_STRIPE_JS_URL }),
  });
  const files = withStaticFiles(app.fetch, { scriptsDir: distDir, examplesDir: join(repoRoot, 'examples') });
  const server = await listen(withAccessLog(files, (line) => settings.logger.info(line, 'request')), config.port, config.host);
  return {
    url: server.url,
    async close() {
      // /readyz says so first, for SVC_STOP_DELAY_MS, while every request is still answered.
      stopping = true;
      if (config.stopDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.stopDelayMs));
      await server.close();
    },
  };
}


/**
 * Issues the demo key, once the service is up (a failed start never swallows its one showing),
 * and says where everything is, and which site-file webhook endpoints have no secret to sign
 * with. The key goes to stdout before "serving on": a script that waits for that line has the
 * key already.
 */
export async function announce(
  store: Store,
  io: Io,
  { url, settings, start, widgetReady, workers }: { url: string; settings: ServeSettings; start: FirstStart; widgetReady: boolean; workers: number },
): Promise<void> {
  const demoKey =
    start.demoSiteId === undefined ? undefined : (await issueApiKey(store, systemClock, { siteId: start.demoSiteId, scopes: [...SCOPES] })).key;
  if (demoKey) io.out(demoKey);
  const processes = workers > 1 ? `, ${workers} workers` : '';
  io.err(`serving on ${url} (database ${describeDatabase(settings.database)}${processes})`);
  io.err(`Admin API:  ${url}/admin/v1/sites   (OpenAPI: ${url}/admin/v1/openapi.json)`);
  if (widgetReady) io.err(`widget:     ${url}/scripts/widgets.js`);
  if (existsSync(join(repoRoot, 'examples'))) io.err(`examples:   ${url}/examples/`);
  if (demoKey) {
    // The key is said once, on stdout: never again in a hint on stderr, where logs keep it.
    io.err('seeded the demo site (subdomain demo) with 300 members; its Admin API key (all scopes) is the line on stdout, shown once');
    io.err(`try: curl -H "Authorization: Bearer $KEY" ${url}/admin/v1/members   (KEY: that line)`);
    io.err(`demo member sign-in: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  } else if (start.siteCount === 0) {
    io.err('this database has no site yet, and nobody can sign in to anything. Describe yours in a file and apply it');
    io.err('(examples/sites/newsletter.yaml is one to start from; README, "Run your own site"):');
    io.err('  npx svc sites apply site.yaml');
    io.err('or run `npm start` (svc serve --demo) on a new database for the demo site.');
  } else {
    io.err('make an Admin API key with: npx svc keys create --site SUBDOMAIN --scopes ' + SCOPES.join(','));
  }
  for (const warning of await webhookSecretWarnings(store, settings.env)) io.err(warning);
}

/**
 * The background work, in one process of a cluster (the primary): renewals, instalments and
 * retries every few minutes (billing/renewals.ts, which holds the store's lease, so another
 * process's run and `svc billing run` never bill beside it), and the mail sender. `stop()` lets
 * the run or the send under way finish: mail in flight is sent (or left to its lease, never lost).
 */
export function startBackground(store: Store, mail: MailConfig, env: Env, io: Io): { stop(): Promise<void> } {
  const processor = new TestPaymentProcessor({ clock: systemClock, store });
  const billing = startBilling({ store, clock: systemClock, processor, processorFor: processorsFromEnv(env, processor) }, io);
  const transport = createMailTransport(mail);
  io.err(mail.kind === 'smtp' ? `mail:       through ${mail.serverLabel}` : `mail:       to the outbox ${mail.dir} (read it with: npx svc outbox --follow)`);
  const mailer = startMailSender(
    { store, transport, clock: systemClock, from: mail.from, report: (message) => io.err(`mail: ${message}`) },
    MAIL_EVERY_MS,
  );
  const webhooks = startWebhookSender({ store, clock: systemClock, env, report: (message) => io.err(message) });
  return {
    async stop() {
      await Promise.all([billing.stop(), mailer.stop(), webhooks.stop()]);
      await transport.close();
    },
  };
}

/** Billing once at start, then every few minutes, one run at a time. What a run did is said only when it did something. */
function startBilling(deps: RenewalDeps, io: Io): { stop(): Promise<void> } {
  return runPeriodically(
    async () => {
      const { busy, ...counts } = await runRenewals(deps, (error, what) => io.err(`billing: ${what}: ${(error as Error).message}`));
      if (!busy && Object.values(counts).some((n) => n > 0)) io.err(`billing: ${JSON.stringify(counts)}`);
    },
    BILLING_EVERY_MS,
    (error) => io.err(`billing: the run failed and is tried again in ${BILLING_EVERY_MS / 60_000} minutes: ${(error as Error).message}`),
  );
}
